// The vta target's `add` op: an int8 elementwise ADD with NumPy broadcasting
// as a VTA program.
//
//   op: add
//   shapes: {input1: [1, 8, 8, 16], input2: [1, 1, 1, 16]}     # NumPy broadcasting
//   quant: {input1: {...}, input2: {...}, output: {...}}
#include <cstdio>

#include "common/error.hpp"
#include "model_replay/model_replay.hpp"
#include "ops/add.hpp"
#include "vta/golden/vta_conv2d.hpp"
#include "vta/golden/vta_quant.hpp"
#include "vta/vta_model_op.hpp"
#include "vta/vta_program_op.hpp"
#include "vta/vta_schema.hpp"
#include "vta/compiler/add_compiler.hpp"

namespace cosim::tb::vta {

namespace {

using cosim::vta::CompiledProgram;
using model_replay::dims;
using scenario::Value;

class AddOp : public VtaProgramOp {
 public:
  std::string name() const override { return "add"; }
  scenario::Schema schema() const override { return add_schema(); }  // vta_schema.hpp

 protected:
  CompiledProgram lower(const scenario::Scenario& sc, std::optional<quant::Rounding> tfl, Workload& w) const override;

  void figures(const CompiledProgram& p, double cycles, Metrics& m) const override {
    (void)cycles;
    const double out_entries = static_cast<double>(p.output.bytes / 16);
    if (out_entries <= 0) return;
    char line[160];
    std::snprintf(line, sizeof line, "  alu         %llu ALU uops on COMPUTE (%.1f per output entry)",
                  static_cast<unsigned long long>(p.alu_uops), static_cast<double>(p.alu_uops) / out_entries);
    m.table.push_back(line);
  }
};

CompiledProgram AddOp::lower(const scenario::Scenario& sc, std::optional<quant::Rounding> tfl, Workload& w) const {
  const Value& shapes = sc["shapes"];
  const std::vector<int64_t> s1 = shapes["input1"].as_ints(), s2 = shapes["input2"].as_ints();
  const std::vector<int64_t> out_shape = shapes["input2"].rethrow_here([&] { return ops::broadcast_shape(s1, s2); });
  const Value& q = sc["quant"];
  const QParams q1 = qparams(q["input1"]), q2 = qparams(q["input2"]), qo = qparams(q["output"]);
  const auto layout = [](const std::vector<int64_t>& s) { return s.size() == 4 ? Layout::kNHWC : Layout::kAny; };
  const Value& data = sc["data"];
  Tensor a = scenario::make_tensor(sc, data["input1"], DType::kInt8, s1, layout(s1), "input1",
                                   scenario::Int8Quant{q1.scale, q1.zero_point});
  Tensor b = scenario::make_tensor(sc, data["input2"], DType::kInt8, s2, layout(s2), "input2",
                                   scenario::Int8Quant{q2.scale, q2.zero_point});
  const auto tflite_params = [&](quant::Rounding rounding) {
    return q.rethrow_here([&] {
      return ops::make_add_params(q1.scale, q1.zero_point, q2.scale, q2.zero_point, qo.scale, qo.zero_point,
                                  quant::Activation::kNone, rounding);
    });
  };
  CompiledProgram prog;
  Tensor golden;
  if (tfl) {
    // TFLite's input rescale on the host, the sum and the output
    // requantization on the ALU; the 16-bit scheme as a distance.
    const ops::AddParams p = tflite_params(*tfl);
    prog = shapes["input1"].rethrow_here([&] { return cosim::vta::compile_add(a, b, p, compile_options(sc)); });
    golden = ops::add(a, b, p);
    try {
      const quant::VtaAddParams vp =
          quant::vta_make_add_params(q1.scale, q1.zero_point, q2.scale, q2.zero_point, qo.scale, qo.zero_point);
      Tensor r(DType::kInt8, out_shape, layout(out_shape));
      r.bytes() = ops::vta_add(a, b, vp).bytes();
      w.references.push_back({"output", "vta16", std::move(r)});
    } catch (const InputError&) {
      // no 16-bit parameters for these scales
    }
  } else {
    const quant::VtaAddParams vp = q.rethrow_here([&] {
      return quant::vta_make_add_params(q1.scale, q1.zero_point, q2.scale, q2.zero_point, qo.scale, qo.zero_point);
    });
    prog = shapes["input1"].rethrow_here([&] { return cosim::vta::compile_add(a, b, vp, compile_options(sc)); });
    golden = ops::vta_add(a, b, vp);
  }
  Tensor expected(DType::kInt8, out_shape, layout(out_shape));
  expected.bytes() = golden.bytes();
  for (const auto& [sem, rounding] : {std::pair{"tflite_double", quant::Rounding::kDouble},
                                      std::pair{"tflite_single", quant::Rounding::kSingle}}) {
    const ops::AddParams p = tflite_params(rounding);
    const Tensor ref = ops::add(a, b, p);
    Tensor r(DType::kInt8, out_shape, layout(out_shape));
    r.bytes() = ref.bytes();
    w.references.push_back({"output", sem, std::move(r)});
  }
  w.summary = "add " + dims(s1) + " + " + dims(s2) + " -> " + dims(out_shape) + "; " +
              std::to_string(prog.insn_count) + " instructions, " + prog.tiling;
  w.expected["output"] = std::move(expected);
  w.output_quant["output"] = scenario::Int8Quant{qo.scale, qo.zero_point};
  w.inputs["input1"] = std::move(a);
  w.inputs["input2"] = std::move(b);
  return prog;
}

}  // namespace

std::unique_ptr<Operator> make_add_op() { return std::make_unique<AddOp>(); }

}  // namespace cosim::tb::vta
