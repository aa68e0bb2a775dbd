// A data source in an MLI format (spec/quantization.md s.3): an .npy holding
// the format's container (fx8: int8, fx16: int16, sa8: int8, sa32: int32)
// with the format's parameters beside it,
//
//   input: {npy: act.npy, mli: fx8, frac_bits: 5}
//   input: {npy: act.npy, mli: sa8, scale: 0.05, zero_point: -3}
//
// whose values (cpp_model/mli: q / 2^frac_bits, (q - zero_point) * scale)
// become the tensor's: float32 as they are, int8 quantized at the tensor's own
// scale and zero point (TFLite's rounding: half away from zero, saturated).
#pragma once

#include <optional>

#include "mli/formats.hpp"
#include "scenario/value.hpp"
#include "tensor/tensor.hpp"

namespace cosim::scenario {

// An int8 tensor's quantization: value = (q - zero_point) * scale.
struct Int8Quant {
  float scale = 1.0f;
  int32_t zero_point = 0;
};

// The format a source names, with its parameters; nullopt when it names none.
// Errors at the source: fx without frac_bits, sa without scale, a parameter
// of the other family.
struct MliSource {
  mli::Format format = mli::Format::kFx8;
  mli::QuantParams params;
};
std::optional<MliSource> mli_source(const Value& source);

// `raw` (the .npy as read, its container's dtype checked here) as a tensor of
// `dtype`; `quant` is needed for int8. Errors name the source.
Tensor from_mli(const Value& source, const MliSource& f, const Tensor& raw, DType dtype,
                const std::optional<Int8Quant>& quant, const std::string& name);

}  // namespace cosim::scenario
