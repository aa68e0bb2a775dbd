// VTA golden model over tensors: reference accumulators + the ALU programs.
#include "vta/golden/vta_conv2d.hpp"

#include <string>

#include "common/error.hpp"
#include "ops/add.hpp"

namespace cosim::ops {

std::vector<quant::VtaRequantPlan> vta_plan_conv2d(const Tensor& filter, const Tensor& bias, float input_scale,
                                                   int32_t input_zero_point, const std::vector<float>& filter_scales,
                                                   float output_scale, int32_t output_zero_point,
                                                   quant::Activation act, int32_t x_min, int32_t x_max) {
  if (filter.dtype() != DType::kInt8 || filter.rank() != 4) throw InputError("vta_plan_conv2d: filter must be int8 OHWI");
  const int64_t oc = filter.dim(0);
  const int64_t per = filter.numel() / (oc ? oc : 1);
  const bool has_bias = bias.nbytes() != 0;
  if (has_bias && !(bias.dtype() == DType::kInt32 && bias.rank() == 1 && bias.dim(0) == oc))
    throw InputError("vta_plan_conv2d: bias must be int32 [" + std::to_string(oc) + "] or empty");
  if (filter_scales.size() != 1 && static_cast<int64_t>(filter_scales.size()) != oc)
    throw InputError("vta_plan_conv2d: " + std::to_string(filter_scales.size()) + " filter scales for " +
                     std::to_string(oc) + " output channels");
  if (!(output_scale > 0.0f)) throw InputError("vta_plan_conv2d: output scale must be positive");
  const quant::ActivationRange r = quant::activation_range(act, output_scale, output_zero_point);
  std::vector<quant::VtaRequantPlan> plans;
  for (int64_t c = 0; c < oc; ++c) {
    const float fs = filter_scales.size() == 1 ? filter_scales[0] : filter_scales[static_cast<std::size_t>(c)];
    const quant::VtaMultiplier m = quant::vta_quantize_multiplier(
        static_cast<double>(input_scale) * static_cast<double>(fs) / static_cast<double>(output_scale));
    const int64_t bound = quant::vta_conv_acc_bound(filter.data<int8_t>() + c * per, static_cast<std::size_t>(per),
                                                    has_bias ? bias.data<int32_t>()[c] : 0, x_min, x_max,
                                                    input_zero_point);
    plans.push_back(quant::vta_plan_requant(m, bound, output_zero_point, r.min, r.max,
                                            "vta conv2d channel " + std::to_string(c)));
  }
  return plans;
}

Tensor vta_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias, const ConvParams& p,
                  const std::vector<quant::VtaRequantPlan>& plans) {
  const Tensor acc = conv2d_accumulators(input, filter, bias, p);
  const int64_t oc = acc.dim(3);
  if (static_cast<int64_t>(plans.size()) != oc)
    throw InputError("vta_conv2d: " + std::to_string(plans.size()) + " plans for " + std::to_string(oc) +
                     " output channels");
  Tensor out(DType::kInt8, acc.shape(), Layout::kNHWC);
  const int32_t* a = acc.data<int32_t>();
  int8_t* y = out.data<int8_t>();
  for (int64_t i = 0; i < acc.numel(); ++i) y[i] = quant::vta_requant_apply(a[i], plans[static_cast<std::size_t>(i % oc)]);
  return out;
}

Tensor vta_add(const Tensor& a, const Tensor& b, const quant::VtaAddParams& p) {
  if (a.dtype() != DType::kInt8 || b.dtype() != DType::kInt8) throw InputError("vta_add: inputs must be int8");
  const std::vector<int64_t> shape = broadcast_shape(a.shape(), b.shape());
  Tensor out(DType::kInt8, shape, a.layout());
  // Index each input through the broadcast output index.
  std::vector<int64_t> idx(shape.size(), 0);
  auto offset_of = [&](const Tensor& t) {
    int64_t off = 0;
    const std::size_t lead = shape.size() - t.rank();
    for (std::size_t d = 0; d < t.rank(); ++d) off = off * t.dim(d) + (t.dim(d) == 1 ? 0 : idx[lead + d]);
    return off;
  };
  for (int64_t i = 0; i < out.numel(); ++i) {
    out.data<int8_t>()[i] = quant::vta_add(a.data<int8_t>()[offset_of(a)], b.data<int8_t>()[offset_of(b)], p);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace cosim::ops
