#include "tf2/reference.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "ops/distance.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/inq.hpp"

namespace cosim::tf2 {

namespace {
void check_float(const FloatConv& f) {
  if (f.c_in < 1 || f.c_out < 1 || f.h_in < 1 || f.w_in < 1 || f.k < 1 || f.stride < 1 || f.pad < 0 || f.pad >= f.k) {
    throw InputError("tf2 float layer: bad shape");
  }
  const auto co = static_cast<std::size_t>(f.c_out);
  if (f.weights.size() != co * f.c_in * f.k * f.k) throw InputError("tf2 float layer: weights need OIHW c_out*c_in*k*k values");
  if (!f.bias.empty() && f.bias.size() != co) throw InputError("tf2 float layer: bias needs c_out values");
  if (f.bn_alpha.size() != f.bn_beta.size() || (!f.bn_alpha.empty() && f.bn_alpha.size() != co)) {
    throw InputError("tf2 float layer: bn_alpha and bn_beta need c_out values each");
  }
}
}  // namespace

std::vector<float> float_conv2d(const FloatConv& f, const std::vector<float>& in) {
  check_float(f);
  if (in.size() != static_cast<std::size_t>(f.c_in) * f.h_in * f.w_in) throw InputError("tf2 float conv: input size mismatch");
  const int ho = (f.h_in + 2 * f.pad - f.k) / f.stride + 1;
  const int wo = (f.w_in + 2 * f.pad - f.k) / f.stride + 1;
  std::vector<float> out(static_cast<std::size_t>(f.c_out) * ho * wo);
  // One output row at a time, a double accumulator per pixel: each pixel
  // still adds its taps in the order c, ky, kx (skipping those in the
  // padding), so the sums are those of a pixel-by-pixel loop bit for bit,
  // and the loop over the row's pixels vectorizes.
  std::vector<double> acc(static_cast<std::size_t>(wo));
  // The output columns whose input column x * stride + kx - pad lies inside
  // the map, for each kx.
  std::vector<int> x_lo(static_cast<std::size_t>(f.k)), x_end(static_cast<std::size_t>(f.k));
  for (int kx = 0; kx < f.k; ++kx) {
    const int first = f.pad > kx ? (f.pad - kx + f.stride - 1) / f.stride : 0;
    const int last_in = f.w_in - 1 + f.pad - kx;  // x * stride <= last_in
    x_lo[static_cast<std::size_t>(kx)] = first;
    x_end[static_cast<std::size_t>(kx)] = last_in < 0 ? first : std::min(wo, last_in / f.stride + 1);
  }
  for (int o = 0; o < f.c_out; ++o) {
    const double bias = f.bias.empty() ? 0.0 : f.bias[static_cast<std::size_t>(o)];
    for (int y = 0; y < ho; ++y) {
      std::fill(acc.begin(), acc.end(), bias);
      for (int c = 0; c < f.c_in; ++c) {
        for (int ky = 0; ky < f.k; ++ky) {
          const int iy = y * f.stride + ky - f.pad;
          if (iy < 0 || iy >= f.h_in) continue;
          const float* row = in.data() + (static_cast<std::size_t>(c) * f.h_in + iy) * f.w_in;
          const float* w = f.weights.data() + ((static_cast<std::size_t>(o) * f.c_in + c) * f.k + ky) * f.k;
          for (int kx = 0; kx < f.k; ++kx) {
            const float wv = w[kx];
            const std::ptrdiff_t off = kx - f.pad;  // output column x reads input column x * stride + off
            for (int x = x_lo[static_cast<std::size_t>(kx)]; x < x_end[static_cast<std::size_t>(kx)]; ++x) {
              acc[static_cast<std::size_t>(x)] += static_cast<double>(row[std::ptrdiff_t{x} * f.stride + off]) * wv;
            }
          }
        }
      }
      float* dst = out.data() + (static_cast<std::size_t>(o) * ho + y) * wo;
      for (int x = 0; x < wo; ++x) {
        double a = acc[static_cast<std::size_t>(x)];
        if (!f.bn_alpha.empty()) a = f.bn_alpha[static_cast<std::size_t>(o)] * a + f.bn_beta[static_cast<std::size_t>(o)];
        if (f.relu && a < 0) a = 0;
        dst[x] = static_cast<float>(a);
      }
    }
  }
  return out;
}

ConvLayer make_conv_layer(const FloatConv& f, int q_in, int q_out) {
  return make_conv_layer(f, std::vector<int>{q_in}, std::vector<int>{q_out});
}

ConvLayer make_conv_layer(const FloatConv& f, const std::vector<int>& q_in, const std::vector<int>& q_out) {
  check_float(f);
  auto per_channel = [](const std::vector<int>& q, int channels, const char* what) {
    if (q.size() == 1) return std::vector<int>{};
    if (q.size() != static_cast<std::size_t>(channels)) {
      throw InputError(std::string("tf2 layer: ") + what + " Q needs 1 or " + std::to_string(channels) + " entries, got " +
                       std::to_string(q.size()));
    }
    return q;
  };
  if (q_in.empty() || q_out.empty()) throw InputError("tf2 layer: empty Q");
  ConvLayer L;
  L.c_in = f.c_in; L.c_out = f.c_out; L.h_in = f.h_in; L.w_in = f.w_in;
  L.k = f.k; L.stride = f.stride; L.pad = f.pad;
  const InqWeights inq = inq_compress(f.weights);
  L.min_exp = inq.min_exp;
  L.codes = inq.codes;
  L.q_in = q_in[0]; L.q_out = q_out[0];
  L.q_in_ch = per_channel(q_in, f.c_in, "input");
  L.q_out_ch = per_channel(q_out, f.c_out, "output");
  L.batch_norm = !f.bn_alpha.empty();
  L.relu = f.relu;
  for (int o = 0; o < f.c_out; ++o) {
    L.bias.push_back(bias_to_int(f.bias.empty() ? 0.0 : f.bias[o], L.qo(o)));
    L.alpha.push_back(L.batch_norm ? alpha_to_int(f.bn_alpha[o]) : kAlphaOne);
    L.beta.push_back(L.batch_norm ? beta_to_int(f.bn_beta[o], L.qo(o)) : 0);
  }
  return L;
}

ConvLayer make_fitting_conv_layer(const FloatConv& f, const std::vector<int>& q_in, std::vector<int> q_out) {
  for (;;) {
    ConvLayer L = make_conv_layer(f, q_in, q_out);
    if (L.largest_shift() <= kMaxShift) return L;
    const int top = *std::max_element(q_out.begin(), q_out.end());
    if (top <= -128) throw InputError("tf2 layer: the weights' exponent range does not fit the 5-bit shift at any Q");
    for (int& q : q_out) q -= q == top ? 1 : 0;
  }
}

ErrorStats compare(const std::vector<float>& ref, const std::vector<float>& x) {
  ops::FloatDistance d;
  d.add(ref, x);
  return {d.snr_db(), d.max_abs};
}

LayerCost layer_cost(const FloatConv& f, const std::vector<float>& input) {
  LayerCost c;
  const std::vector<float> ref = float_conv2d(f, input);
  c.q_in = choose_layer_q(input, f.c_in);
  c.q_out = choose_layer_q(ref, f.c_out);
  c.layer = make_conv_layer(f, c.q_in, c.q_out);

  FloatConv fq = f;  // INQ weights only, float arithmetic otherwise
  for (std::size_t i = 0; i < fq.weights.size(); ++i) {
    fq.weights[i] = static_cast<float>(inq_code_value(c.layer.codes[i], c.layer.min_exp));
  }
  c.compression = compare(ref, float_conv2d(fq, input));

  c.input_q = quantize_map(input, f.c_in, {c.q_in});
  c.output_q = sac_conv2d(c.layer, c.input_q);
  std::vector<float> deq(c.output_q.size());
  for (std::size_t i = 0; i < deq.size(); ++i) deq[i] = static_cast<float>(std::ldexp(c.output_q[i], -c.q_out));
  c.total = compare(ref, deq);
  return c;
}

}  // namespace cosim::tf2
