// libFuzzer target for the .tflite reader, the layer extraction and the
// golden chain (cpp_model/tflite): the input is the file. Any bytes either
// parse or throw cosim::InputError with one line.
//
// The golden chain runs when its work is bounded: a small first input and
// few multiply-accumulates over the layers it computes. The shapes of every
// other tensor (RESHAPE outputs, ...) are left to the reference's own
// validation, which must reject what it cannot hold before allocating.
#include <cstddef>
#include <cstdint>

#include "../fuzz_common.hpp"
#include "tflite/layers.hpp"
#include "tflite/model.hpp"
#include "tflite/reference.hpp"

namespace {

constexpr int64_t kMaxInput = 1 << 12;  // elements of the first input
constexpr int64_t kMaxMacs = 1 << 20;   // over all computed layers

int64_t elements(const std::vector<int64_t>& shape, int64_t cap) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d != 0 && n > cap / d)) return cap + 1;
    n *= d;
  }
  return n;
}

bool bounded(const cosim::tflite::Model& m, const std::vector<cosim::tflite::LayerWorkload>& layers) {
  if (m.subgraphs.empty() || m.subgraphs[0].inputs.empty()) return true;  // the reference reports it
  const auto& sg = m.subgraphs[0];
  const int32_t in = sg.inputs[0];
  if (in < 0 || static_cast<std::size_t>(in) >= sg.tensors.size()) return true;
  const auto& s = sg.tensors[static_cast<std::size_t>(in)].shape;
  if (elements(std::vector<int64_t>(s.begin(), s.end()), kMaxInput) > kMaxInput) return false;
  int64_t macs = 0;
  for (const auto& w : layers) {
    const int64_t out = elements(w.output_shape, kMaxMacs);
    int64_t per = 1;
    if (w.code != cosim::tflite::kAdd && w.filter.rank() == 4)
      per = elements({w.filter.dim(1), w.filter.dim(2), w.filter.dim(3)}, kMaxMacs);
    if (out > kMaxMacs || per > kMaxMacs || (per != 0 && out > (kMaxMacs - macs) / per)) return false;
    macs += out * per;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace cosim::tflite;
  Model m;
  try {
    m = parse_model(data, size, "fuzz.tflite");
  } catch (const cosim::InputError& e) {
    cosim::fuzz::check_one_line(e);
    return 0;
  }
  for (std::size_t s = 0; s < m.subgraphs.size(); ++s)
    for (std::size_t t = 0; t < m.subgraphs[s].tensors.size(); ++t) {
      try {
        (void)constant_tensor(m, s, static_cast<int32_t>(t));
      } catch (const cosim::InputError& e) {
        cosim::fuzz::check_one_line(e);
      }
    }
  try {
    const std::vector<LayerWorkload> layers = extract_layers(m, {}, cosim::quant::Rounding::kSingle);
    if (bounded(m, layers)) {
      const cosim::Tensor x = random_input(m, 1);
      const TensorMap golden = run_reference(m, x, cosim::quant::Rounding::kDouble);
      (void)extract_layers(m, {}, cosim::quant::Rounding::kDouble, &golden);
    }
  } catch (const cosim::InputError& e) {
    cosim::fuzz::check_one_line(e);
  }
  return 0;
}
