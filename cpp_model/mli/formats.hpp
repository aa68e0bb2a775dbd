// MLI data formats (spec/quantization.md s.3, seed 003): fx8 / fx16 (Q
// notation, per tensor), sa8 / sa32 (asymmetric, per tensor or per axis),
// fp32 (interface only), and conversions between fp32 and each of them.
//
// Rounding: MLI leaves it platform specific; we round half away from zero
// (std::round, in double from the float32 value), then saturate to the
// container. NaN is rejected with cosim::InputError.
#pragma once

#include <cstdint>
#include <vector>

#include "tensor/tensor.hpp"

namespace cosim::mli {

enum class Format { kFx8, kFx16, kSa8, kSa32, kFp32 };

const char* format_name(Format f);
DType container(Format f);   // int8, int16, int8, int32, fp32
int container_bits(Format f);
// Magnitude bits of the container without the sign: 7, 15, 7, 31.
// std::invalid_argument for fp32.
int significant_bits(Format f);

// fx: q = sat(round(x * 2^frac_bits)); value = q / 2^frac_bits.
int8_t to_fx8(float x, int frac_bits);
int16_t to_fx16(float x, int frac_bits);
float from_fx(int32_t q, int frac_bits);

// sa: q = sat(round(x / scale + zero_point)); value = (q - zero_point) * scale.
int8_t to_sa8(float x, float scale, int32_t zero_point);
int32_t to_sa32(float x, float scale, int32_t zero_point = 0);
float from_sa(int32_t q, float scale, int32_t zero_point);

// Quantization parameters of a tensor. axis = -1: per tensor (one scale, one
// zero point); otherwise one scale per slice along `axis` and one zero point
// per slice (or a single shared one). frac_bits is used by fx formats only,
// which are per tensor.
struct QuantParams {
  int frac_bits = 0;
  std::vector<float> scales;
  std::vector<int32_t> zero_points;
  int axis = -1;
};

// fp32 tensor -> container tensor of format f; cosim::InputError on
// parameter/shape mismatch.
Tensor quantize(const Tensor& fp32, Format f, const QuantParams& q);
// Container tensor of format f -> fp32.
Tensor dequantize(const Tensor& t, Format f, const QuantParams& q);

}  // namespace cosim::mli
