#include "tflite_float/float_ops.hpp"

#include <algorithm>
#include <cmath>
#include <string>

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
