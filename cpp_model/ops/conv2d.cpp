// Reference CONV_2D / DEPTHWISE_CONV_2D loops: plain and obviously correct,
// the yardstick for the fast path and for the hardware.
#include "ops/conv2d.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "common/text.hpp"
#include "fastpath/fastpath.hpp"
#include "ops/golden_engine.hpp"

namespace cosim::ops {

namespace {

[[noreturn]] void bad(const char* op, const std::string& what) { throw InputError(std::string(op) + ": " + what); }

int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

struct Geometry {
  int64_t n, ih, iw, ic, kh, kw, oc;
  PadAmount ph, pw;
};

Geometry check(const char* op, const Tensor& input, const Tensor& filter, const Tensor& bias, const ConvParams& p,
               bool depthwise) {
  if (input.dtype() != DType::kInt8 || input.rank() != 4)
    bad(op, "input must be int8 [N,H,W,C], got " + std::string(dtype_name(input.dtype())) + " " +
                shape_str(input.shape()));
  if (filter.dtype() != DType::kInt8 || filter.rank() != 4)
    bad(op, "filter must be int8 rank 4, got " + std::string(dtype_name(filter.dtype())) + " " +
                shape_str(filter.shape()));
  Geometry g{};
  g.n = input.dim(0);
  g.ih = input.dim(1);
  g.iw = input.dim(2);
  g.ic = input.dim(3);
  g.kh = filter.dim(1);
  g.kw = filter.dim(2);
  if (depthwise) {
    if (p.depth_multiplier < 1) bad(op, "depth_multiplier must be >= 1");
    if (filter.dim(0) != 1 || filter.dim(3) != g.ic * p.depth_multiplier)
      bad(op, "filter " + shape_str(filter.shape()) + " must be [1,KH,KW," + std::to_string(g.ic) + "*" +
                  std::to_string(p.depth_multiplier) + "]");
    g.oc = filter.dim(3);
  } else {
    if (filter.dim(3) != g.ic)
      bad(op, "filter " + shape_str(filter.shape()) + " input channels do not match input " +
                  shape_str(input.shape()));
    g.oc = filter.dim(0);
  }
  if (g.kh < 1 || g.kw < 1 || g.oc < 1) bad(op, "empty filter " + shape_str(filter.shape()));
  if (bias.nbytes() != 0 && !(bias.dtype() == DType::kInt32 && bias.rank() == 1 && bias.dim(0) == g.oc))
    bad(op, "bias must be int32 [" + std::to_string(g.oc) + "] or empty, got " +
                std::string(dtype_name(bias.dtype())) + " " + shape_str(bias.shape()));
  if (p.stride_h < 1 || p.stride_w < 1 || p.dilation_h < 1 || p.dilation_w < 1)
    bad(op, "stride and dilation must be >= 1");
  g.ph = compute_padding(p.padding, static_cast<int>(g.ih), static_cast<int>(g.kh), p.stride_h, p.dilation_h);
  g.pw = compute_padding(p.padding, static_cast<int>(g.iw), static_cast<int>(g.kw), p.stride_w, p.dilation_w);
  if (g.ph.out < 1 || g.pw.out < 1)
    bad(op, "VALID output is empty: input " + shape_str(input.shape()) + ", filter " + shape_str(filter.shape()));
  return g;
}

void check_requant(const char* op, const ConvParams& p, int64_t oc) {
  const auto m = static_cast<int64_t>(p.output_multiplier.size());
  if (m != 1 && m != oc)
    bad(op, "output_multiplier has " + std::to_string(m) + " entries, expected 1 or " + std::to_string(oc));
  if (p.act.min > p.act.max) bad(op, "activation range min > max");
}

// acc -> int8: requantize, add the output zero point, clamp.
Tensor requantize(const Tensor& acc, const ConvParams& p) {
  Tensor out(DType::kInt8, acc.shape(), Layout::kNHWC);
  const int64_t oc = acc.dim(3);
  const int32_t* a = acc.data<int32_t>();
  int8_t* y = out.data<int8_t>();
  const int64_t lo = std::max<int64_t>(p.act.min, -128), hi = std::min<int64_t>(p.act.max, 127);
  const bool per_channel = p.output_multiplier.size() != 1;
  // Pixel by pixel, channel by channel: NHWC's last dimension is the channel.
  for (int64_t i = 0, n = acc.numel(); i < n; i += oc) {
    for (int64_t c = 0; c < oc; ++c) {
      const auto& m = p.output_multiplier[per_channel ? static_cast<std::size_t>(c) : 0];
      const int64_t v =
          int64_t{quant::multiply_by_quantized_multiplier(a[i + c], m, p.rounding)} + p.output_zero_point;
      y[i + c] = static_cast<int8_t>(std::clamp(v, lo, hi));
    }
  }
  return out;
}

}  // namespace

PadAmount compute_padding(Padding padding, int in, int kernel, int stride, int dilation) {
  if (in < 0 || kernel < 1 || stride < 1 || dilation < 1)
    throw InputError("compute_padding: need in >= 0, kernel, stride, dilation >= 1 (in=" + std::to_string(in) +
                     " kernel=" + std::to_string(kernel) + " stride=" + std::to_string(stride) +
                     " dilation=" + std::to_string(dilation) + ")");
  const int64_t eff = int64_t{kernel - 1} * dilation + 1;  // dilated kernel extent
  PadAmount r;
  if (padding == Padding::kSame) {
    r.out = static_cast<int>((int64_t{in} + stride - 1) / stride);
    const int64_t total = std::max<int64_t>((int64_t{r.out} - 1) * stride + eff - in, 0);
    r.before = static_cast<int>(total / 2);
    r.after = static_cast<int>(total - total / 2);
  } else {
    const int64_t span = in - eff + 1;  // positions where the kernel fits
    r.out = span <= 0 ? 0 : static_cast<int>((span + stride - 1) / stride);
  }
  return r;
}

namespace {

// Every output of a checked geometry: bias plus tap(n, iy, ix, ky, kx, o)
// over the kernel taps inside the input (a padding tap reads x == zp_in and
// contributes 0, so it is skipped). Shared by conv2d and depthwise_conv2d.
template <typename Tap>
Tensor accumulate_windows(const Geometry& g, const Tensor& bias, const ConvParams& p, Tap tap) {
  Tensor acc(DType::kInt32, {g.n, g.ph.out, g.pw.out, g.oc}, Layout::kNHWC);
  int32_t* out = acc.data<int32_t>();
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t oy = 0; oy < g.ph.out; ++oy)
      for (int64_t ox = 0; ox < g.pw.out; ++ox)
        for (int64_t o = 0; o < g.oc; ++o) {
          int64_t sum = bias.nbytes() ? bias.data<int32_t>()[o] : 0;
          for (int64_t ky = 0; ky < g.kh; ++ky) {
            const int64_t iy = oy * p.stride_h - g.ph.before + ky * p.dilation_h;
            if (iy < 0 || iy >= g.ih) continue;
            for (int64_t kx = 0; kx < g.kw; ++kx) {
              const int64_t ix = ox * p.stride_w - g.pw.before + kx * p.dilation_w;
              if (ix < 0 || ix >= g.iw) continue;
              sum += tap(n, iy, ix, ky, kx, o);
            }
          }
          out[((n * g.ph.out + oy) * g.pw.out + ox) * g.oc + o] = wrap32(sum);
        }
  return acc;
}

// The reference loops over a checked geometry.
Tensor reference_loops(const Geometry& g, const Tensor& input, const Tensor& filter, const Tensor& bias,
                       const ConvParams& p) {
  const int8_t* x = input.data<int8_t>();
  const int8_t* w = filter.data<int8_t>();
  return accumulate_windows(g, bias, p, [&](int64_t n, int64_t iy, int64_t ix, int64_t ky, int64_t kx, int64_t o) {
    int64_t sum = 0;
    for (int64_t c = 0; c < g.ic; ++c) {
      const int64_t xv = x[((n * g.ih + iy) * g.iw + ix) * g.ic + c];
      const int64_t wv = w[((o * g.kh + ky) * g.kw + kx) * g.ic + c];
      sum += wv * (xv - p.input_zero_point);
    }
    return sum;
  });
}

}  // namespace

Tensor conv2d_accumulators(const Tensor& input, const Tensor& filter, const Tensor& bias, const ConvParams& p) {
  const Geometry g = check("conv2d", input, filter, bias, p, false);  // the same errors whichever engine runs
  // The fast path covers every shape the reference takes, with an int8 input
  // zero point (the uint8 bias trick); the loops take the rest.
  if (golden_engine() == GoldenEngine::kFast && p.input_zero_point >= -128 && p.input_zero_point <= 127) {
    return fastpath::conv2d_fast_accumulators(input, filter, bias, p);
  }
  return reference_loops(g, input, filter, bias, p);
}

Tensor conv2d_reference_accumulators(const Tensor& input, const Tensor& filter, const Tensor& bias,
                                     const ConvParams& p) {
  return reference_loops(check("conv2d", input, filter, bias, p, false), input, filter, bias, p);
}

Tensor conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias, const ConvParams& p) {
  Tensor acc = conv2d_accumulators(input, filter, bias, p);
  check_requant("conv2d", p, acc.dim(3));
  return requantize(acc, p);
}

Tensor depthwise_conv2d_accumulators(const Tensor& input, const Tensor& filter, const Tensor& bias,
                                     const ConvParams& p) {
  const Geometry g = check("depthwise_conv2d", input, filter, bias, p, true);
  const int64_t dm = p.depth_multiplier;
  const int8_t* x = input.data<int8_t>();
  const int8_t* w = filter.data<int8_t>();
  return accumulate_windows(g, bias, p, [&](int64_t n, int64_t iy, int64_t ix, int64_t ky, int64_t kx, int64_t o) {
    const int64_t c = o / dm;  // output channel c*dm + m reads input channel c
    const int64_t xv = x[((n * g.ih + iy) * g.iw + ix) * g.ic + c];
    const int64_t wv = w[(ky * g.kw + kx) * g.oc + o];
    return wv * (xv - p.input_zero_point);
  });
}

Tensor depthwise_conv2d(const Tensor& input, const Tensor& filter, const Tensor& bias, const ConvParams& p) {
  Tensor acc = depthwise_conv2d_accumulators(input, filter, bias, p);
  check_requant("depthwise_conv2d", p, acc.dim(3));
  return requantize(acc, p);
}

ConvParams make_conv_params(float input_scale, int32_t input_zero_point, const std::vector<float>& filter_scales,
                            float output_scale, int32_t output_zero_point, quant::Activation act,
                            quant::Rounding rounding) {
  if (filter_scales.empty()) throw InputError("make_conv_params: no filter scales");
  if (!(output_scale > 0.0f)) throw InputError("make_conv_params: output scale must be positive");
  ConvParams p;
  p.input_zero_point = input_zero_point;
  p.output_zero_point = output_zero_point;
  p.rounding = rounding;
  p.act = quant::activation_range(act, output_scale, output_zero_point);
  for (float fs : filter_scales)
    p.output_multiplier.push_back(quant::quantize_multiplier(static_cast<double>(input_scale) *
                                                             static_cast<double>(fs) /
                                                             static_cast<double>(output_scale)));
  return p;
}

}  // namespace cosim::ops
