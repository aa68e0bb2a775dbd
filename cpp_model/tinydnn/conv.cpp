#include "tinydnn/conv.hpp"

#include <cmath>
#include <string>

#include "common/error.hpp"

namespace cosim::tinydnn {

namespace {

void check_size(const char* what, std::size_t got, std::size_t want) {
  if (got != want)
    throw InputError(std::string("tinydnn: ") + what + " has " + std::to_string(got) +
                     " elements, expected " + std::to_string(want));
}

}  // namespace

void ConvShape::validate() const {
  auto pos = [](const char* name, int v) {
    if (v <= 0) throw InputError(std::string("tinydnn: shape.") + name + " = " + std::to_string(v) + ", expected > 0");
  };
  pos("in_c", in_c);
  pos("in_h", in_h);
  pos("in_w", in_w);
  pos("out_c", out_c);
  pos("k_h", k_h);
  pos("k_w", k_w);
  if (k_h > in_h || k_w > in_w)
    throw InputError("tinydnn: kernel " + std::to_string(k_h) + "x" + std::to_string(k_w) +
                     " does not fit input " + std::to_string(in_h) + "x" + std::to_string(in_w));
}

std::vector<uint32_t> forward(const ConvShape& s, const std::vector<bf16>& x, const std::vector<bf16>& w,
                              const std::vector<bf16>* bias) {
  s.validate();
  check_size("x", x.size(), std::size_t(s.in_c) * s.in_h * s.in_w);
  check_size("w", w.size(), std::size_t(s.out_c) * s.in_c * s.k_h * s.k_w);
  if (bias) check_size("bias", bias->size(), s.out_c);
  const int oh = s.out_h(), ow = s.out_w();
  std::vector<uint32_t> y(std::size_t(s.out_c) * oh * ow);
  for (int oc = 0; oc < s.out_c; ++oc)
    for (int oy = 0; oy < oh; ++oy)
      for (int ox = 0; ox < ow; ++ox) {
        RunningSum sum;
        for (int ic = 0; ic < s.in_c; ++ic)
          for (int ky = 0; ky < s.k_h; ++ky)
            for (int kx = 0; kx < s.k_w; ++kx)
              sum = mac_step(sum, w[((std::size_t(oc) * s.in_c + ic) * s.k_h + ky) * s.k_w + kx],
                             x[(std::size_t(ic) * s.in_h + oy + ky) * s.in_w + ox + kx]);
        if (bias) sum = mac_step(sum, (*bias)[oc], bf16{kBf16One});
        y[(std::size_t(oc) * oh + oy) * ow + ox] = normalise(sum);
      }
  return y;
}

std::vector<uint32_t> backward(const ConvShape& s, const std::vector<bf16>& delta, const std::vector<bf16>& w,
                               const std::vector<bf16>* bias) {
  s.validate();
  const int oh = s.out_h(), ow = s.out_w();
  check_size("delta", delta.size(), std::size_t(s.out_c) * oh * ow);
  check_size("w", w.size(), std::size_t(s.out_c) * s.in_c * s.k_h * s.k_w);
  if (bias) check_size("bias", bias->size(), s.in_c);
  std::vector<uint32_t> dx(std::size_t(s.in_c) * s.in_h * s.in_w);
  for (int ic = 0; ic < s.in_c; ++ic)
    for (int iy = 0; iy < s.in_h; ++iy)
      for (int ix = 0; ix < s.in_w; ++ix) {
        RunningSum sum;
        for (int oc = 0; oc < s.out_c; ++oc)
          for (int ky = 0; ky < s.k_h; ++ky)
            for (int kx = 0; kx < s.k_w; ++kx) {
              const int dy = iy - s.k_h + 1 + ky, dxp = ix - s.k_w + 1 + kx;
              if (dy < 0 || dy >= oh || dxp < 0 || dxp >= ow) continue;  // no MAC step at all
              const int ry = s.k_h - 1 - ky, rx = s.k_w - 1 - kx;
              sum = mac_step(sum, w[((std::size_t(oc) * s.in_c + ic) * s.k_h + ry) * s.k_w + rx],
                             delta[(std::size_t(oc) * oh + dy) * ow + dxp]);
            }
        if (bias) sum = mac_step(sum, (*bias)[ic], bf16{kBf16One});
        dx[(std::size_t(ic) * s.in_h + iy) * s.in_w + ix] = normalise(sum);
      }
  return dx;
}

std::vector<uint32_t> weight_grad(const ConvShape& s, const std::vector<std::vector<bf16>>& xs,
                                  const std::vector<std::vector<bf16>>& deltas, const std::vector<bf16>* bias) {
  s.validate();
  if (xs.empty()) throw InputError("tinydnn: weight_grad needs at least one sample");
  check_size("deltas (samples)", deltas.size(), xs.size());
  if (bias) check_size("bias", bias->size(), s.out_c);
  const int oh = s.out_h(), ow = s.out_w();
  std::vector<uint32_t> dw(std::size_t(s.out_c) * s.in_c * s.k_h * s.k_w);
  for (std::size_t n = 0; n < xs.size(); ++n) {
    const auto& x = xs[n];
    const auto& d = deltas[n];
    check_size("x", x.size(), std::size_t(s.in_c) * s.in_h * s.in_w);
    check_size("delta", d.size(), std::size_t(s.out_c) * oh * ow);
    for (int oc = 0; oc < s.out_c; ++oc)
      for (int ic = 0; ic < s.in_c; ++ic)
        for (int ky = 0; ky < s.k_h; ++ky)
          for (int kx = 0; kx < s.k_w; ++kx) {
            RunningSum sum;
            for (int oy = 0; oy < oh; ++oy)
              for (int ox = 0; ox < ow; ++ox)
                sum = mac_step(sum, d[(std::size_t(oc) * oh + oy) * ow + ox],
                               x[(std::size_t(ic) * s.in_h + oy + ky) * s.in_w + ox + kx]);
            if (bias) sum = mac_step(sum, (*bias)[oc], bf16{kBf16One});
            uint32_t& slot = dw[((std::size_t(oc) * s.in_c + ic) * s.k_h + ky) * s.k_w + kx];
            slot = normalise(n == 0 ? sum : accumulate_dest(slot, sum));
          }
  }
  return dw;
}

std::vector<float> forward_ref(const ConvShape& s, const std::vector<bf16>& x, const std::vector<bf16>& w,
                               const std::vector<bf16>* bias) {
  s.validate();
  const int oh = s.out_h(), ow = s.out_w();
  std::vector<float> y(std::size_t(s.out_c) * oh * ow);
  for (int oc = 0; oc < s.out_c; ++oc)
    for (int oy = 0; oy < oh; ++oy)
      for (int ox = 0; ox < ow; ++ox) {
        double acc = bias ? (*bias)[oc].to_float() : 0.0;
        for (int ic = 0; ic < s.in_c; ++ic)
          for (int ky = 0; ky < s.k_h; ++ky)
            for (int kx = 0; kx < s.k_w; ++kx)
              acc += double(w[((std::size_t(oc) * s.in_c + ic) * s.k_h + ky) * s.k_w + kx].to_float()) *
                     x[(std::size_t(ic) * s.in_h + oy + ky) * s.in_w + ox + kx].to_float();
        y[(std::size_t(oc) * oh + oy) * ow + ox] = float(acc);
      }
  return y;
}

std::vector<float> backward_ref(const ConvShape& s, const std::vector<bf16>& delta, const std::vector<bf16>& w,
                                const std::vector<bf16>* bias) {
  s.validate();
  const int oh = s.out_h(), ow = s.out_w();
  // Scatter form (each delta spreads over its kernel window): a different
  // loop structure from the gather in backward().
  std::vector<double> acc(std::size_t(s.in_c) * s.in_h * s.in_w, 0.0);
  for (int oc = 0; oc < s.out_c; ++oc)
    for (int oy = 0; oy < oh; ++oy)
      for (int ox = 0; ox < ow; ++ox)
        for (int ic = 0; ic < s.in_c; ++ic)
          for (int ky = 0; ky < s.k_h; ++ky)
            for (int kx = 0; kx < s.k_w; ++kx)
              acc[(std::size_t(ic) * s.in_h + oy + ky) * s.in_w + ox + kx] +=
                  double(delta[(std::size_t(oc) * oh + oy) * ow + ox].to_float()) *
                  w[((std::size_t(oc) * s.in_c + ic) * s.k_h + ky) * s.k_w + kx].to_float();
  std::vector<float> dx(acc.size());
  for (std::size_t i = 0; i < acc.size(); ++i) {
    const int ic = int(i / (std::size_t(s.in_h) * s.in_w));
    dx[i] = float(acc[i] + (bias ? (*bias)[ic].to_float() : 0.0));
  }
  return dx;
}

std::vector<float> weight_grad_ref(const ConvShape& s, const std::vector<std::vector<bf16>>& xs,
                                   const std::vector<std::vector<bf16>>& deltas) {
  s.validate();
  const int oh = s.out_h(), ow = s.out_w();
  std::vector<double> acc(std::size_t(s.out_c) * s.in_c * s.k_h * s.k_w, 0.0);
  for (std::size_t n = 0; n < xs.size(); ++n)
    for (int oc = 0; oc < s.out_c; ++oc)
      for (int ic = 0; ic < s.in_c; ++ic)
        for (int ky = 0; ky < s.k_h; ++ky)
          for (int kx = 0; kx < s.k_w; ++kx)
            for (int oy = 0; oy < oh; ++oy)
              for (int ox = 0; ox < ow; ++ox)
                acc[((std::size_t(oc) * s.in_c + ic) * s.k_h + ky) * s.k_w + kx] +=
                    double(deltas[n][(std::size_t(oc) * oh + oy) * ow + ox].to_float()) *
                    xs[n][(std::size_t(ic) * s.in_h + oy + ky) * s.in_w + ox + kx].to_float();
  return std::vector<float>(acc.begin(), acc.end());
}

ErrorStats relative_error(const std::vector<uint32_t>& got, const std::vector<float>& ref) {
  check_size("result", got.size(), ref.size());
  ErrorStats st;
  double sum = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(ref[i]) || !std::isfinite(bits_float(got[i]))) {
      ++st.nonfinite;
      continue;
    }
    if (ref[i] == 0.0f) continue;
    const double rel = std::fabs(double(bits_float(got[i])) - ref[i]) / std::fabs(double(ref[i]));
    if (rel > st.max_rel) st.max_rel = rel;
    sum += rel;
    ++st.count;
  }
  st.mean_rel = st.count ? sum / double(st.count) : 0.0;
  return st;
}

}  // namespace cosim::tinydnn
