#include "vta/compiler/conv2d_compiler.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "common/text.hpp"
#include "vta/compiler/conv2d_geometry.hpp"
#include "vta/compiler/conv2d_program_writer.hpp"

namespace cosim::vta {

using namespace conv2d;

Conv2dTiling plan_conv2d_tiling(const std::vector<int64_t>& input_shape, const std::vector<int64_t>& filter_shape,
                                const ops::ConvParams& p, const CompileOptions& opt,
                                const TfliteRequantProgram* requant) {
  const Geo g = make_geo(input_shape, filter_shape, p);
  return choose_tiling(g, make_borders(g, p.input_zero_point), opt, requant);
}

namespace {

// The checks of the operands' types and of the plans; their geometry.
Geo check_operands(const Tensor& input, const Tensor& filter, const Tensor& bias, const ops::ConvParams& p,
                   const std::vector<quant::VtaRequantPlan>& plans) {
  if (input.dtype() != DType::kInt8) bad(std::string("input must be int8, got ") + dtype_name(input.dtype()));
  if (filter.dtype() != DType::kInt8) bad(std::string("filter must be int8, got ") + dtype_name(filter.dtype()));
  const Geo g = make_geo(input.shape(), filter.shape(), p);
  const bool has_bias = bias.nbytes() != 0;
  if (has_bias && !(bias.dtype() == DType::kInt32 && bias.rank() == 1 && bias.dim(0) == g.o))
    bad("bias must be int32 [" + std::to_string(g.o) + "] or empty, got " + dtype_name(bias.dtype()) + " " +
        shape_str(bias.shape()));
  if (static_cast<int64_t>(plans.size()) != g.o)
    bad(std::to_string(plans.size()) + " requantization plans for " + std::to_string(g.o) + " output channels");
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const auto& pl = plans[i];
    if (pl.pre_shift < 0 || pl.pre_shift > 31 || pl.post_shift < 0 || pl.post_shift > 31)
      bad("plan of channel " + std::to_string(i) + ": shifts must be in 0..31");
  }
  return g;
}

CompiledProgram compile_impl(const Tensor& input, const Tensor& filter, const Tensor& bias, const ops::ConvParams& p,
                             const std::vector<quant::VtaRequantPlan>& plans, const TfliteRequantProgram* tfl,
                             const CompileOptions& opt);

// The layer as a 1x1 VALID convolution over windows the host lays out
// (conv2d_geometry.hpp, im2col_pays).
CompiledProgram compile_via_im2col(const Tensor& input, const Tensor& filter, const Tensor& bias,
                                   const ops::ConvParams& p, const Geo& g,
                                   const std::vector<quant::VtaRequantPlan>& plans, const TfliteRequantProgram* tfl,
                                   const CompileOptions& opt) {
  const int32_t zp_in = p.input_zero_point;
  if (zp_in < -128 || zp_in > 127) bad("input zero point " + std::to_string(zp_in) + " is outside int8");
  ops::ConvParams flat = p;
  flat.padding = ops::Padding::kValid;
  flat.stride_h = flat.stride_w = 1;
  Tensor filter_rows(DType::kInt8, {g.o, 1, 1, g.kk * g.c}, filter.layout());
  std::copy_n(filter.data<int8_t>(), filter.numel(), filter_rows.data<int8_t>());
  CompiledProgram cp = compile_impl(im2col(input, g, zp_in), filter_rows, bias, flat, plans, tfl, opt);
  cp.macs = useful_macs(g, make_borders(g, zp_in));
  cp.tiling = g.kk == 1 ? "host subsampling (stride " + std::to_string(g.sh) + "x" + std::to_string(g.sw) + "), " + cp.tiling
                        : "host im2col (" + std::to_string(g.kh) + "x" + std::to_string(g.kw) + "x" +
                              std::to_string(g.c) + " windows as " + std::to_string(g.kk * g.c) + " channels), " +
                              cp.tiling;
  return cp;
}

// Both requantization modes: `tfl` null = the VTA 16-bit plans.
CompiledProgram compile_impl(const Tensor& input, const Tensor& filter, const Tensor& bias, const ops::ConvParams& p,
                             const std::vector<quant::VtaRequantPlan>& plans, const TfliteRequantProgram* tfl,
                             const CompileOptions& opt) {
  const Geo g = check_operands(input, filter, bias, p, plans);
  if (im2col_pays(g, opt)) return compile_via_im2col(input, filter, bias, p, g, plans, tfl, opt);
  if (tfl != nullptr && tfl->channels != 1 && static_cast<int64_t>(tfl->channels) != g.o)
    bad("TFLite requantization for " + std::to_string(tfl->channels) + " channels, the layer has " +
        std::to_string(g.o));
  return Conv2dProgramWriter(input, filter, bias, g, p.input_zero_point, plans, tfl, opt).write();
}

}  // namespace

CompiledProgram compile_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias,
                               const ops::ConvParams& p, const std::vector<quant::VtaRequantPlan>& plans,
                               const CompileOptions& opt) {
  return compile_impl(input, filter, bias, p, plans, nullptr, opt);
}

CompiledProgram compile_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias,
                               const ops::ConvParams& p, const TfliteRequantProgram& requant,
                               const CompileOptions& opt) {
  // The 16-bit vectors are still written (harmless zeros); only the bias is read.
  const int64_t channels = filter.rank() == 4 ? filter.dim(0) : 0;
  return compile_impl(input, filter, bias, p, std::vector<quant::VtaRequantPlan>(static_cast<std::size_t>(channels)),
                      &requant, opt);
}

}  // namespace cosim::vta
