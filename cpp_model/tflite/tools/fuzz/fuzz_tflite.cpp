// libFuzzer target for the .tflite reader: any bytes either parse or throw
// cosim::InputError with one line. Anything else (a crash, an ASan report,
// another exception type) is a bug.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/error.hpp"
#include "tflite/layers.hpp"
#include "tflite/model.hpp"
#include "tflite/reference.hpp"

namespace {

void one_line(const cosim::InputError& e) {
  if (std::strchr(e.what(), '\n') != nullptr) __builtin_trap();
}

// Small models are also run through the golden chain (bounded work).
bool small(const cosim::tflite::Model& m) {
  for (const auto& t : m.subgraphs[0].tensors) {
    int64_t n = 1;
    for (int32_t d : t.shape) {
      n *= d;
      if (n > 1024) return false;
    }
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
    one_line(e);
    return 0;
  }
  for (std::size_t s = 0; s < m.subgraphs.size(); ++s)
    for (std::size_t t = 0; t < m.subgraphs[s].tensors.size(); ++t) {
      try {
        (void)constant_tensor(m, s, static_cast<int32_t>(t));
      } catch (const cosim::InputError& e) {
        one_line(e);
      }
    }
  try {
    (void)extract_layers(m, {}, cosim::quant::Rounding::kSingle);
    if (small(m)) {
      const cosim::Tensor x = random_input(m, 1);
      (void)run_reference(m, x, cosim::quant::Rounding::kDouble);
    }
  } catch (const cosim::InputError& e) {
    one_line(e);
  }
  return 0;
}
