// The VTA golden model of CONV_2D and ADD: the exact integer programs a VTA
// compiler emits (spec/quantization.md s.2), over whole tensors.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/conv2d.hpp"
#include "vta/golden/vta_quant.hpp"
#include "tensor/tensor.hpp"

namespace cosim::ops {

// Per output channel plans for a CONV_2D with OHWI filter and int32 [O] (or
// empty) bias: Q15 multiplier of (double)s_in * s_w[c] / s_out (filter_scales
// of size 1 broadcast), accumulator bound from the channel's actual weights
// and the input range [x_min, x_max], the smallest pre-shift, and the
// activation clamp. Throws cosim::InputError when a channel cannot be planned.
std::vector<quant::VtaRequantPlan> vta_plan_conv2d(const Tensor& filter, const Tensor& bias, float input_scale,
                                                   int32_t input_zero_point, const std::vector<float>& filter_scales,
                                                   float output_scale, int32_t output_zero_point,
                                                   quant::Activation act, int32_t x_min = -128,
                                                   int32_t x_max = 127);

// conv2d_accumulators (geometry and input zero point from p; its multipliers
// and rounding are unused), then each channel's requantization program.
Tensor vta_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias, const ConvParams& p,
                  const std::vector<quant::VtaRequantPlan>& plans);

// The VTA ADD program element by element, broadcast over size-1 dims.
Tensor vta_add(const Tensor& a, const Tensor& b, const quant::VtaAddParams& p);

}  // namespace cosim::ops
