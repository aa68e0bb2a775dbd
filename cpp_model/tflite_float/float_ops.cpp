#include "tflite_float/float_ops.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "common/error.hpp"

namespace cosim::tflite_float {

using tflite::FusedActivation;
using tflite::PaddingType;

int output_size(int in, int k, int stride, int dilation, PaddingType p) {
  const int ek = (k - 1) * dilation + 1;
  return p == PaddingType::kSame ? (in + stride - 1) / stride : (in - ek + stride) / stride;
}

int padding_before(int in, int k, int stride, int dilation, PaddingType p) {
  if (p == PaddingType::kValid) return 0;
  const int ek = (k - 1) * dilation + 1;
  const int total = std::max((output_size(in, k, stride, dilation, p) - 1) * stride + ek - in, 0);
  return total / 2;  // the odd pixel goes after the map
}

void activate(std::vector<float>& v, FusedActivation a) {
  float lo = -INFINITY, hi = INFINITY;
  switch (a) {
    case FusedActivation::kNone: return;
    case FusedActivation::kRelu: lo = 0; break;
    case FusedActivation::kRelu6: lo = 0, hi = 6; break;
    case FusedActivation::kReluN1To1: lo = -1, hi = 1; break;
    default: throw InputError("fused activation " + std::to_string(static_cast<int>(a)) + " is not supported in float");
  }
  for (float& x : v) x = std::min(std::max(x, lo), hi);
}

Map conv2d(const Map& in, const std::vector<float>& filter, int o, int kh, int kw, const std::vector<float>& bias,
           const tflite::Conv2DOptions& opt) {
  if (filter.size() != static_cast<std::size_t>(o) * kh * kw * in.c) throw InputError("conv2d: filter size mismatch");
  if (!bias.empty() && bias.size() != static_cast<std::size_t>(o)) throw InputError("conv2d: bias size mismatch");
  Map out;
  out.h = output_size(in.h, kh, opt.stride_h, opt.dilation_h, opt.padding);
  out.w = output_size(in.w, kw, opt.stride_w, opt.dilation_w, opt.padding);
  out.c = o;
  const int ph = padding_before(in.h, kh, opt.stride_h, opt.dilation_h, opt.padding);
  const int pw = padding_before(in.w, kw, opt.stride_w, opt.dilation_w, opt.padding);
  out.v.assign(static_cast<std::size_t>(out.h) * out.w * o, 0.0f);
  for (int y = 0; y < out.h; ++y)
    for (int x = 0; x < out.w; ++x)
      for (int oc = 0; oc < o; ++oc) {
        double acc = bias.empty() ? 0.0 : bias[oc];
        for (int ky = 0; ky < kh; ++ky) {
          const int iy = y * opt.stride_h - ph + ky * opt.dilation_h;
          if (iy < 0 || iy >= in.h) continue;
          for (int kx = 0; kx < kw; ++kx) {
            const int ix = x * opt.stride_w - pw + kx * opt.dilation_w;
            if (ix < 0 || ix >= in.w) continue;
            const float* px = &in.v[(static_cast<std::size_t>(iy) * in.w + ix) * in.c];
            const float* f = &filter[((static_cast<std::size_t>(oc) * kh + ky) * kw + kx) * in.c];
            for (int c = 0; c < in.c; ++c) acc += static_cast<double>(px[c]) * f[c];
          }
        }
        out.v[(static_cast<std::size_t>(y) * out.w + x) * o + oc] = static_cast<float>(acc);
      }
  activate(out.v, opt.activation);
  return out;
}

std::vector<float> add(const std::vector<float>& a, const std::vector<float>& b, FusedActivation act) {
  if (a.size() != b.size()) throw InputError("add: operands differ in size (broadcast is not supported)");
  std::vector<float> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] + b[i];
  activate(out, act);
  return out;
}

Map average_pool2d(const Map& in, const tflite::Pool2DOptions& opt) {
  Map out;
  out.h = output_size(in.h, opt.filter_height, opt.stride_h, 1, opt.padding);
  out.w = output_size(in.w, opt.filter_width, opt.stride_w, 1, opt.padding);
  out.c = in.c;
  const int ph = padding_before(in.h, opt.filter_height, opt.stride_h, 1, opt.padding);
  const int pw = padding_before(in.w, opt.filter_width, opt.stride_w, 1, opt.padding);
  out.v.assign(static_cast<std::size_t>(out.h) * out.w * out.c, 0.0f);
  for (int y = 0; y < out.h; ++y)
    for (int x = 0; x < out.w; ++x)
      for (int c = 0; c < in.c; ++c) {
        double sum = 0;
        int n = 0;
        for (int ky = 0; ky < opt.filter_height; ++ky) {
          const int iy = y * opt.stride_h - ph + ky;
          if (iy < 0 || iy >= in.h) continue;
          for (int kx = 0; kx < opt.filter_width; ++kx) {
            const int ix = x * opt.stride_w - pw + kx;
            if (ix < 0 || ix >= in.w) continue;
            sum += in.v[(static_cast<std::size_t>(iy) * in.w + ix) * in.c + c];
            ++n;
          }
        }
        out.v[(static_cast<std::size_t>(y) * out.w + x) * out.c + c] = n ? static_cast<float>(sum / n) : 0.0f;
      }
  activate(out.v, opt.activation);
  return out;
}

std::vector<float> fully_connected(const std::vector<float>& in, const std::vector<float>& weights, int units,
                                   const std::vector<float>& bias, FusedActivation act) {
  if (units <= 0 || weights.size() % static_cast<std::size_t>(units) != 0) {
    throw InputError("fully_connected: weights do not split into " + std::to_string(units) + " units");
  }
  const std::size_t depth = weights.size() / static_cast<std::size_t>(units);
  if (depth == 0 || in.size() % depth != 0) throw InputError("fully_connected: input does not split into rows of the weights' depth");
  if (!bias.empty() && bias.size() != static_cast<std::size_t>(units)) throw InputError("fully_connected: bias size mismatch");
  const std::size_t rows = in.size() / depth;
  std::vector<float> out(rows * static_cast<std::size_t>(units));
  for (std::size_t r = 0; r < rows; ++r)
    for (int u = 0; u < units; ++u) {
      double acc = bias.empty() ? 0.0 : bias[u];
      for (std::size_t d = 0; d < depth; ++d) acc += static_cast<double>(in[r * depth + d]) * weights[u * depth + d];
      out[r * units + u] = static_cast<float>(acc);
    }
  activate(out, act);
  return out;
}

namespace {

// Output geometry of a windowed operator over `in`: size and leading padding.
struct Window {
  int out_h, out_w, pad_h, pad_w;
};
Window window(const Map& in, int kh, int kw, int sh, int sw, int dh, int dw, PaddingType p) {
  if (kh < 1 || kw < 1 || sh < 1 || sw < 1 || dh < 1 || dw < 1) throw InputError("kernel, stride and dilation must be at least 1");
  return {output_size(in.h, kh, sh, dh, p), output_size(in.w, kw, sw, dw, p), padding_before(in.h, kh, sh, dh, p),
          padding_before(in.w, kw, sw, dw, p)};
}

// Clamp to the fused activation's range the way TFLite's float kernels do
// (max with the low end, then min with the high end).
float clamp_activation(float x, FusedActivation a) {
  switch (a) {
    case FusedActivation::kNone: return x;
    case FusedActivation::kRelu: return std::max(x, 0.0f);
    case FusedActivation::kRelu6: return std::min(std::max(x, 0.0f), 6.0f);
    case FusedActivation::kReluN1To1: return std::min(std::max(x, -1.0f), 1.0f);
    default: throw InputError("fused activation " + std::to_string(static_cast<int>(a)) + " is not supported in float");
  }
}

void check_hybrid(const HybridWeights& w, std::size_t elements, std::size_t channels, const char* what) {
  if (w.q.size() != elements) throw InputError(std::string(what) + ": filter size mismatch");
  if (w.scale.size() != 1 && w.scale.size() != channels) {
    throw InputError(std::string(what) + ": " + std::to_string(w.scale.size()) + " weight scales, expected 1 or " +
                     std::to_string(channels));
  }
}

// |w (q - zp)| <= 127 * 255, so an int32 sum of `taps` products cannot
// overflow while taps <= 2^31 / (127 * 255), 66311; beyond that TFLite's
// int32 sum is undefined, and we refuse the layer.
void check_accumulator(std::size_t taps, const char* what) {
  constexpr std::size_t kMaxTaps = (std::size_t{1} << 31) / (127 * 255);
  if (taps > kMaxTaps) {
    throw InputError(std::string(what) + ": " + std::to_string(taps) + " products per output could overflow the int32 sum (at most " +
                     std::to_string(kMaxTaps) + ")");
  }
}

bool scales_differ(const std::vector<float>& s) {
  return std::any_of(s.begin(), s.end(), [&](float x) { return x != s[0]; });
}

// The depthwise accumulation shared by the float and hybrid kernels: calls
// tap(oc, input index, filter index) for every tap inside the map, then
// finish(oc, output index).
template <class Tap, class Finish>
Map depthwise_loops(const Map& in, int kh, int kw, int multiplier, int sh, int sw, int dh, int dw, PaddingType p,
                    Tap tap, Finish finish) {
  if (multiplier < 1) throw InputError("depthwise: depth_multiplier below 1");
  const Window g = window(in, kh, kw, sh, sw, dh, dw, p);
  Map out;
  out.h = g.out_h;
  out.w = g.out_w;
  out.c = in.c * multiplier;
  out.v.assign(static_cast<std::size_t>(out.h) * out.w * out.c, 0.0f);
  for (int y = 0; y < out.h; ++y)
    for (int x = 0; x < out.w; ++x)
      for (int oc = 0; oc < out.c; ++oc) {
        const int ic = oc / multiplier;
        for (int ky = 0; ky < kh; ++ky) {
          const int iy = y * sh - g.pad_h + ky * dh;
          if (iy < 0 || iy >= in.h) continue;
          for (int kx = 0; kx < kw; ++kx) {
            const int ix = x * sw - g.pad_w + kx * dw;
            if (ix < 0 || ix >= in.w) continue;
            tap(oc, (static_cast<std::size_t>(iy) * in.w + ix) * in.c + ic,
                (static_cast<std::size_t>(ky) * kw + kx) * out.c + oc);
          }
        }
        finish(oc, (static_cast<std::size_t>(y) * out.w + x) * out.c + oc, out.v);
      }
  return out;
}

}  // namespace

Map depthwise_conv2d(const Map& in, const std::vector<float>& filter, int kh, int kw, const std::vector<float>& bias,
                     const tflite::DepthwiseConv2DOptions& opt) {
  const std::size_t channels = static_cast<std::size_t>(in.c) * static_cast<std::size_t>(std::max(opt.depth_multiplier, 0));
  if (filter.size() != static_cast<std::size_t>(kh) * kw * channels) throw InputError("depthwise_conv2d: filter size mismatch");
  if (!bias.empty() && bias.size() != channels) throw InputError("depthwise_conv2d: bias size mismatch");
  double acc = 0;
  Map out = depthwise_loops(
      in, kh, kw, opt.depth_multiplier, opt.stride_h, opt.stride_w, opt.dilation_h, opt.dilation_w, opt.padding,
      [&](int, std::size_t i, std::size_t f) { acc += static_cast<double>(in.v[i]) * filter[f]; },
      [&](int oc, std::size_t o, std::vector<float>& v) {
        v[o] = static_cast<float>(acc + (bias.empty() ? 0.0 : bias[static_cast<std::size_t>(oc)]));
        acc = 0;
      });
  activate(out.v, opt.activation);
  return out;
}

namespace {
// Smallest and largest of x[0..n) ({0, 0} for an empty row).
std::pair<float, float> min_max(const float* x, std::size_t n) {
  if (n == 0) return {0.0f, 0.0f};
  const auto mm = std::minmax_element(x, x + n);
  return {*mm.first, *mm.second};
}
}  // namespace

QuantizedRow quantize_symmetric(const float* x, std::size_t n) {
  QuantizedRow r;
  r.q.assign(n, 0);
  const auto [lo, hi] = min_max(x, n);
  const float range = std::max(std::fabs(lo), std::fabs(hi));
  if (range == 0) return r;  // q = 0, scale 1
  r.scale = range / 127.0f;
  const float inv = 127.0f / range;
  for (std::size_t i = 0; i < n; ++i) {
    const auto q = static_cast<int32_t>(std::round(x[i] * inv));
    r.q[i] = static_cast<int8_t>(std::min(127, std::max(-127, q)));
  }
  return r;
}

QuantizedRow quantize_asymmetric(const float* x, std::size_t n) {
  QuantizedRow r;
  r.q.assign(n, 0);
  const auto [lo, hi] = min_max(x, n);
  const double rmin = std::min(0.0, static_cast<double>(lo)), rmax = std::max(0.0, static_cast<double>(hi));
  if (rmin == rmax) return r;  // q = 0, scale 1, zero point 0
  const double qmin = -128, qmax = 127;
  const double scale = (rmax - rmin) / (qmax - qmin);
  const double zp_low = qmin - rmin / scale, zp_high = qmax - rmax / scale;
  const double err_low = std::fabs(qmin) + std::fabs(rmin / scale), err_high = std::fabs(qmax) + std::fabs(rmax / scale);
  const double zp = err_low < err_high ? zp_low : zp_high;
  r.zero_point = zp <= qmin ? -128 : zp >= qmax ? 127 : static_cast<int32_t>(std::round(zp));
  r.scale = static_cast<float>(scale);
  const auto inv = static_cast<float>(1.0 / static_cast<double>(r.scale));
  const auto zpf = static_cast<float>(r.zero_point);
  for (std::size_t i = 0; i < n; ++i) {
    const auto q = static_cast<int32_t>(std::round(zpf + x[i] * inv));
    r.q[i] = static_cast<int8_t>(std::min(127, std::max(-128, q)));
  }
  return r;
}

Map hybrid_conv2d(const Map& in, const HybridWeights& filter, int o, int kh, int kw, const std::vector<float>& bias,
                  const tflite::Conv2DOptions& opt) {
  check_hybrid(filter, static_cast<std::size_t>(o) * kh * kw * in.c, static_cast<std::size_t>(o), "hybrid conv2d");
  if (!bias.empty() && bias.size() != static_cast<std::size_t>(o)) throw InputError("hybrid conv2d: bias size mismatch");
  if (opt.dilation_h != 1 || opt.dilation_w != 1) {
    throw InputError("hybrid conv2d: dilation " + std::to_string(opt.dilation_h) + "x" + std::to_string(opt.dilation_w) +
                     " is not supported (TFLite's dynamic-range convolution runs undilated)");
  }
  (void)clamp_activation(0.0f, opt.activation);  // InputError for an unsupported activation, before any work
  check_accumulator(static_cast<std::size_t>(kh) * kw * in.c, "hybrid conv2d");
  const Window g = window(in, kh, kw, opt.stride_h, opt.stride_w, 1, 1, opt.padding);
  const bool per_channel = scales_differ(filter.scale);
  const QuantizedRow x = per_channel ? quantize_asymmetric(in.v.data(), in.v.size()) : quantize_symmetric(in.v.data(), in.v.size());
  // Per tensor: one float product s_in * s_w; per channel: s_w[c] * s_in.
  std::vector<float> mult(static_cast<std::size_t>(o));
  for (int c = 0; c < o; ++c) mult[static_cast<std::size_t>(c)] = per_channel ? filter.scale[static_cast<std::size_t>(c)] * x.scale : x.scale * filter.scale[0];
  Map out;
  out.h = g.out_h;
  out.w = g.out_w;
  out.c = o;
  out.v.assign(static_cast<std::size_t>(out.h) * out.w * o, 0.0f);
  for (int y = 0; y < out.h; ++y)
    for (int xo = 0; xo < out.w; ++xo)
      for (int oc = 0; oc < o; ++oc) {
        int32_t acc = 0;
        for (int ky = 0; ky < kh; ++ky) {
          const int iy = y * opt.stride_h - g.pad_h + ky;
          if (iy < 0 || iy >= in.h) continue;
          for (int kx = 0; kx < kw; ++kx) {
            const int ix = xo * opt.stride_w - g.pad_w + kx;
            if (ix < 0 || ix >= in.w) continue;
            const int8_t* px = &x.q[(static_cast<std::size_t>(iy) * in.w + ix) * in.c];
            const int8_t* f = &filter.q[((static_cast<std::size_t>(oc) * kh + ky) * kw + kx) * in.c];
            for (int c = 0; c < in.c; ++c) acc += static_cast<int32_t>(f[c]) * (px[c] - x.zero_point);
          }
        }
        float v = static_cast<float>(acc) * mult[static_cast<std::size_t>(oc)];
        if (!bias.empty()) v += bias[static_cast<std::size_t>(oc)];
        out.v[(static_cast<std::size_t>(y) * out.w + xo) * o + oc] = clamp_activation(v, opt.activation);
      }
  return out;
}

Map hybrid_depthwise_conv2d(const Map& in, const HybridWeights& filter, int kh, int kw, const std::vector<float>& bias,
                            const tflite::DepthwiseConv2DOptions& opt) {
  const std::size_t channels = static_cast<std::size_t>(in.c) * static_cast<std::size_t>(std::max(opt.depth_multiplier, 0));
  check_hybrid(filter, static_cast<std::size_t>(kh) * kw * channels, channels, "hybrid depthwise_conv2d");
  if (filter.scale.size() != channels) {
    throw InputError("hybrid depthwise_conv2d: " + std::to_string(filter.scale.size()) + " weight scales, TFLite needs one per output channel (" +
                     std::to_string(channels) + ")");
  }
  if (!bias.empty() && bias.size() != channels) throw InputError("hybrid depthwise_conv2d: bias size mismatch");
  (void)clamp_activation(0.0f, opt.activation);
  check_accumulator(static_cast<std::size_t>(kh) * kw, "hybrid depthwise_conv2d");
  const QuantizedRow x = quantize_asymmetric(in.v.data(), in.v.size());
  int32_t acc = 0;
  return depthwise_loops(
      in, kh, kw, opt.depth_multiplier, opt.stride_h, opt.stride_w, opt.dilation_h, opt.dilation_w, opt.padding,
      [&](int, std::size_t i, std::size_t f) { acc += static_cast<int32_t>(filter.q[f]) * (x.q[i] - x.zero_point); },
      [&](int oc, std::size_t o, std::vector<float>& v) {
        const auto c = static_cast<std::size_t>(oc);
        float y = static_cast<float>(acc) * x.scale * filter.scale[c];
        if (!bias.empty()) y += bias[c];
        v[o] = clamp_activation(y, opt.activation);
        acc = 0;
      });
}

std::vector<float> hybrid_fully_connected(const std::vector<float>& in, const HybridWeights& weights, int units,
                                          const std::vector<float>& bias, FusedActivation act, bool asymmetric) {
  if (units <= 0 || weights.q.size() % static_cast<std::size_t>(units) != 0) {
    throw InputError("hybrid fully_connected: weights do not split into " + std::to_string(units) + " units");
  }
  if (weights.scale.size() != 1) {
    throw InputError("hybrid fully_connected: " + std::to_string(weights.scale.size()) +
                     " weight scales; only a per-tensor scale is supported");
  }
  const std::size_t depth = weights.q.size() / static_cast<std::size_t>(units);
  if (depth == 0 || in.size() % depth != 0) throw InputError("hybrid fully_connected: input does not split into rows of the weights' depth");
  if (!bias.empty() && bias.size() != static_cast<std::size_t>(units)) throw InputError("hybrid fully_connected: bias size mismatch");
  (void)clamp_activation(0.0f, act);
  check_accumulator(depth, "hybrid fully_connected");
  const std::size_t rows = in.size() / depth;
  std::vector<int32_t> row_sum(static_cast<std::size_t>(units), 0);
  for (int u = 0; u < units; ++u)
    for (std::size_t d = 0; d < depth; ++d) row_sum[static_cast<std::size_t>(u)] += weights.q[static_cast<std::size_t>(u) * depth + d];
  std::vector<float> out(rows * static_cast<std::size_t>(units));
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = in.data() + r * depth;
    const QuantizedRow x = asymmetric ? quantize_asymmetric(row, depth) : quantize_symmetric(row, depth);
    const float mult = x.scale * weights.scale[0];
    for (int u = 0; u < units; ++u) {
      const auto uu = static_cast<std::size_t>(u);
      int32_t acc = 0;
      for (std::size_t d = 0; d < depth; ++d) acc += static_cast<int32_t>(weights.q[uu * depth + d]) * x.q[d];
      acc -= row_sum[uu] * x.zero_point;
      const float b = bias.empty() ? 0.0f : bias[uu];
      out[r * static_cast<std::size_t>(units) + uu] = clamp_activation(b + static_cast<float>(acc) * mult, act);
    }
  }
  return out;
}

std::vector<float> softmax(const std::vector<float>& in, int depth, float beta) {
  if (depth <= 0 || in.size() % static_cast<std::size_t>(depth) != 0) throw InputError("softmax: bad depth");
  std::vector<float> out(in.size());
  for (std::size_t r = 0; r < in.size(); r += static_cast<std::size_t>(depth)) {
    const float mx = *std::max_element(in.begin() + static_cast<std::ptrdiff_t>(r), in.begin() + static_cast<std::ptrdiff_t>(r + depth));
    double sum = 0;
    for (int d = 0; d < depth; ++d) sum += std::exp(static_cast<double>(beta) * (in[r + d] - mx));
    for (int d = 0; d < depth; ++d) out[r + d] = static_cast<float>(std::exp(static_cast<double>(beta) * (in[r + d] - mx)) / sum);
  }
  return out;
}

}  // namespace cosim::tflite_float
