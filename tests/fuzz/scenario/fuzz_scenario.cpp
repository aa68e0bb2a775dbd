// libFuzzer target for scenario files and `--set` overrides
// (cpp_model/scenario). The input is the YAML text; lines starting with
// "--set " are taken out of it and applied as overrides, in order. A part
// after a line "%%" is written as data.npy next to the scenario, so
// `{npy: data.npy}` data sources read it.
//
// The registered backends live in tb/ and need SystemC and the Verilated
// DUTs, which this sanitizer build does not compile; the target uses the
// common schema, the vta target's own op schemas (tb/vta/vta_schema, kept
// apart from its backend for this) and a bf16 target assembled from the same
// building blocks (shapes, data_source, one_of, defaults). A scenario that loads has its tensors made
// (bounded sizes) from its data sources; anything else is one line of
// cosim::InputError.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../fuzz_common.hpp"
#include "scenario/scenario.hpp"
#include "vta/vta_schema.hpp"

namespace {

using cosim::scenario::Schema;
namespace ss = cosim::scenario::schemas;

std::vector<cosim::scenario::TargetSchema> fuzz_targets() {
  auto bf16 = [] {
    return Schema::map()
        .required("shapes", Schema::map().required("input", Schema::shape(1, 4, 4096)))
        .optional("data", Schema::map().optional("input", ss::data_source(), "random"), "{}")
        .optional("mode", Schema::one_of({"fp", "bf16"}), "bf16");
  };
  return {
      {"vta", {"conv2d", "add"},
       [](const std::string& op) { return op == "add" ? cosim::tb::vta::add_schema() : cosim::tb::vta::conv2d_schema(); }},
      {"tinydnn", {"conv"}, [=](const std::string&) { return bf16(); }},
  };
}

// Tensors of at most this many elements are generated (bounded work).
constexpr int64_t kMaxFuzzElements = 1 << 14;

void make(const cosim::scenario::Scenario& sc, const std::string& key, cosim::DType dtype) {
  if (!sc.has("data") || !sc["data"].has(key)) return;
  const std::vector<int64_t> shape = sc["shapes"][key].as_ints();
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d <= 0 || n > kMaxFuzzElements / d) return;
    n *= d;
  }
  const cosim::Tensor t = cosim::scenario::make_tensor(sc, sc["data"][key], dtype, shape, cosim::Layout::kAny, key);
  cosim::fuzz::require(t.shape() == shape && t.dtype() == dtype, "make_tensor shape or dtype");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static cosim::fuzz::ScratchDir dir;
  static const std::vector<cosim::scenario::TargetSchema> targets = fuzz_targets();
  dir.fresh();
  const std::vector<std::string> parts = cosim::fuzz::split_parts(data, size, 2);
  std::string yaml;
  std::vector<std::string> overrides;
  std::size_t pos = 0;
  const std::string& text = parts[0];
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    if (line.compare(0, 6, "--set ") == 0) {
      overrides.push_back(line.substr(6));
    } else {
      yaml += line + "\n";
    }
    pos = end + 1;
  }
  const std::string file = dir.write("scenario.yaml", yaml);
  if (parts.size() > 1) dir.write("data.npy", parts[1]);
  try {
    const cosim::scenario::Scenario sc = cosim::scenario::load_scenario(file, targets, overrides);
    if (sc.op == "conv2d") {
      make(sc, "input", cosim::DType::kInt8);
    } else if (sc.op == "add") {
      make(sc, "input1", cosim::DType::kInt8);
      make(sc, "input2", cosim::DType::kInt16);
    } else {
      make(sc, "input", cosim::DType::kBf16);
    }
  } catch (const cosim::InputError& e) {
    cosim::fuzz::check_one_line(e);
  }
  return 0;
}
