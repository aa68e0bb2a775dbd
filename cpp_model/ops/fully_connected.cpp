#include "ops/fully_connected.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"

namespace cosim::ops {

FullyConnectedParams make_fully_connected_params(float input_scale, int32_t input_zero_point,
                                                 const std::vector<float>& filter_scales, float output_scale,
                                                 int32_t output_zero_point, quant::Activation act,
                                                 quant::Rounding rounding) {
  FullyConnectedParams p;
  p.input_zero_point = input_zero_point;
  p.output_zero_point = output_zero_point;
  // As TFLite: the real multiplier in double from the float32 scales.
  for (float fs : filter_scales) {
    p.multipliers.push_back(quant::quantize_multiplier(static_cast<double>(input_scale) * fs / output_scale));
  }
  p.act = quant::activation_range(act, output_scale, output_zero_point);
  p.rounding = rounding;
  return p;
}

Tensor fully_connected(const Tensor& in, const Tensor& filter, const Tensor& bias, const FullyConnectedParams& p) {
  if (in.dtype() != DType::kInt8 || filter.dtype() != DType::kInt8 || filter.rank() != 2)
    throw InputError("fully_connected: int8 input and an int8 [units, depth] filter expected");
  const int64_t units = filter.dim(0), depth = filter.dim(1);
  if (depth < 1 || in.numel() % depth != 0)
    throw InputError("fully_connected: input of " + std::to_string(in.numel()) + " values is not rows of depth " +
                     std::to_string(depth));
  const bool has_bias = bias.nbytes() != 0;
  if (has_bias && (bias.dtype() != DType::kInt32 || bias.numel() != units))
    throw InputError("fully_connected: bias must be int32 [" + std::to_string(units) + "]");
  if (p.multipliers.size() != 1 && p.multipliers.size() != static_cast<std::size_t>(units))
    throw InputError("fully_connected: need 1 or " + std::to_string(units) + " multipliers");
  const int64_t rows = in.numel() / depth;
  Tensor out(DType::kInt8, {rows, units});
  const int8_t* x = in.data<int8_t>();
  const int8_t* f = filter.data<int8_t>();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t o = 0; o < units; ++o) {
      // Exact, then truncated to int32 (two's complement) as the reference
      // kernel's int32 accumulator wraps (ops::conv2d does the same); an
      // int32 sum would be undefined behaviour on an adversarial bias.
      int64_t sum = has_bias ? bias.data<int32_t>()[o] : 0;
      for (int64_t d = 0; d < depth; ++d) {
        sum += (static_cast<int64_t>(x[r * depth + d]) - p.input_zero_point) * f[o * depth + d];
      }
      const int32_t acc = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(sum)));
      const quant::QuantizedMultiplier m = p.multipliers[p.multipliers.size() == 1 ? 0 : static_cast<std::size_t>(o)];
      const int32_t v = quant::multiply_by_quantized_multiplier(acc, m, p.rounding) + p.output_zero_point;
      out.data<int8_t>()[r * units + o] = static_cast<int8_t>(std::clamp(v, p.act.min, p.act.max));
    }
  }
  return out;
}

}  // namespace cosim::ops
