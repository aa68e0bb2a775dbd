// tflite_dump MODEL.tflite: prints the operators, tensors and quantization
// the importer sees. Exit 2 with one line on bad input (common/tool_main.hpp).
#include <cstdio>
#include <string>

#include "common/error.hpp"
#include "common/tool_main.hpp"
#include "tflite/model.hpp"

namespace {
std::string shape_str(const std::vector<int32_t>& s) {
  std::string r = "[";
  for (std::size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tflite_dump MODEL.tflite\n");
    return 2;
  }
  return cosim::run_tool("tflite_dump", [&] {
    const cosim::tflite::Model m = cosim::tflite::load_model(argv[1]);
    std::printf("version %u, %zu buffers, %zu operator codes, %zu subgraphs\n", m.version, m.buffers.size(),
                m.operator_codes.size(), m.subgraphs.size());
    const auto& sg = m.subgraphs[0];
    std::printf("inputs %s outputs %s (outputs vector at byte %zu)\n", shape_str(sg.inputs).c_str(),
                shape_str(sg.outputs).c_str(), sg.outputs_file_offset);
    for (std::size_t o = 0; o < sg.operators.size(); ++o) {
      const auto& op = sg.operators[o];
      std::printf("op %zu %s in %s out %s\n", o, cosim::tflite::op_name(op.code).c_str(), shape_str(op.inputs).c_str(),
                  shape_str(op.outputs).c_str());
    }
    for (std::size_t t = 0; t < sg.tensors.size(); ++t) {
      const auto& ti = sg.tensors[t];
      std::printf("tensor %zu %s %s %s buffer %u scales %zu", t, ti.name.c_str(),
                  cosim::tflite::tensor_type_name(ti.type).c_str(), shape_str(ti.shape).c_str(), ti.buffer,
                  ti.quant.scale.size());
      if (ti.quant.scale.size() == 1)
        std::printf(" (scale %.9g zp %lld)", static_cast<double>(ti.quant.scale[0]),
                    static_cast<long long>(ti.quant.zero_point.empty() ? 0 : ti.quant.zero_point[0]));
      else if (!ti.quant.scale.empty())
        std::printf(" (dim %d)", ti.quant.quantized_dimension);
      std::printf("\n");
    }
    return 0;
  });
}
