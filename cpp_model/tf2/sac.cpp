#include "tf2/sac.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/error.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/inq.hpp"

namespace cosim::tf2 {

int loader_exponent(double w) {
  const double a = std::fabs(w);
  if (a < 1e-5) return -1;
  for (int n = 0; n <= 14; ++n) {
    const double p = std::ldexp(1.0, -n);
    if (std::fabs(a - p) <= 0.01 * p) return n;
  }
  return 0;
}

int shift_amount(int n, int q_in, int q_out) {
  const auto s = static_cast<int8_t>(static_cast<uint8_t>(15 + q_out - q_in - n));
  return s < 0 ? 0 : s;
}

uint8_t device_shift_code_of(double w, int q_in, int q_out) {
  const int n = loader_exponent(w);
  if (n < 0) return kShiftZeroBit;
  return static_cast<uint8_t>((w < 0 ? kShiftNegBit : 0) | shift_amount(n, q_in, q_out));
}

uint8_t device_shift_code(uint8_t code, int min_exp, int q_in, int q_out) {
  const CodeFields f = decode_code(code);
  if (f.zero) return kShiftZeroBit;
  const double w = std::ldexp(f.negative ? -1.0 : 1.0, min_exp + f.index);
  return device_shift_code_of(w, q_in, q_out);
}

int32_t sac_product(int8_t x, uint8_t shift_code) {
  if (shift_code & kShiftZeroBit) return 0;
  // Negation in 8 bits: -(-128) wraps back to -128.
  const int8_t xn = (shift_code & kShiftNegBit) ? static_cast<int8_t>(static_cast<uint8_t>(-static_cast<uint8_t>(x))) : x;
  const uint32_t wide = static_cast<uint32_t>(static_cast<int32_t>(xn));
  return static_cast<int32_t>(wide << (shift_code & 0x1F));
}

int8_t requantize(int32_t acc, int32_t alpha, int32_t beta, bool relu, bool wide) {
  const int64_t t_full = (static_cast<int64_t>(acc) * alpha) >> 20;  // arithmetic shift
  int64_t y = 0;
  if (wide) {
    y = (((t_full + beta) >> 14) + 1) >> 1;
  } else {
    // t kept in 32 bits as the original keeps it in an int (the bits above
    // 31 are dropped), then ((t + beta) >> 14 + 1) >> 1 in 32-bit wrapping
    // arithmetic.
    const int32_t t = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(t_full)));
    const int32_t sum = static_cast<int32_t>(static_cast<uint32_t>(t) + static_cast<uint32_t>(beta));
    y = ((sum >> 14) + 1) >> 1;
  }
  int8_t r = saturate_int8(y);
  if (relu && r < 0) r = 0;
  return r;
}

int8_t residual_add(int8_t a, int8_t b, bool relu) {
  int8_t r = saturate_int8(static_cast<int64_t>(a) + b);
  if (relu && r < 0) r = 0;
  return r;
}

std::vector<int8_t> residual_add(const std::vector<int8_t>& a, const std::vector<int8_t>& b, bool relu) {
  if (a.size() != b.size()) {
    throw InputError("tf2 residual add: map sizes differ (" + std::to_string(a.size()) + " vs " +
                     std::to_string(b.size()) + ")");
  }
  std::vector<int8_t> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = residual_add(a[i], b[i], relu);
  return out;
}

void ConvLayer::validate(const std::string& what) const {
  auto fail = [&](const std::string& msg) { throw InputError(what + ": " + msg); };
  if (c_in < 1 || c_out < 1 || h_in < 1 || w_in < 1) fail("c_in, c_out, h_in, w_in must be >= 1");
  if (k < 1) fail("k must be >= 1");
  if (stride < 1) fail("stride must be >= 1");
  if (pad < 0 || pad >= k) fail("pad " + std::to_string(pad) + " must be in [0, k-1]");
  if (h_in + 2 * pad < k || w_in + 2 * pad < k) fail("kernel larger than the padded input");
  const std::size_t n = static_cast<std::size_t>(c_out) * c_in * k * k;
  if (codes.size() != n) fail("expected " + std::to_string(n) + " weight codes, got " + std::to_string(codes.size()));
  for (std::size_t i = 0; i < n; ++i) {
    if (codes[i] >= kCodeInvalid) fail("invalid weight code " + std::to_string(codes[i]) + " at index " + std::to_string(i));
  }
  const auto co = static_cast<std::size_t>(c_out);
  if (bias.size() != co || alpha.size() != co || beta.size() != co) fail("bias/alpha/beta need c_out entries");
  if (!q_in_ch.empty() && q_in_ch.size() != static_cast<std::size_t>(c_in)) {
    fail("per-channel q_in needs c_in = " + std::to_string(c_in) + " entries, got " + std::to_string(q_in_ch.size()));
  }
  if (!q_out_ch.empty() && q_out_ch.size() != co) {
    fail("per-channel q_out needs c_out = " + std::to_string(c_out) + " entries, got " + std::to_string(q_out_ch.size()));
  }
  for (int v : input_q()) {
    if (v < -128 || v > 127) fail("input Q " + std::to_string(v) + " does not fit int8");
  }
  for (int v : output_q()) {
    if (v < -128 || v > 127) fail("output Q " + std::to_string(v) + " does not fit int8");
  }
}

std::vector<int> ConvLayer::input_q() const {
  std::vector<int> q(static_cast<std::size_t>(std::max(c_in, 0)));
  for (int c = 0; c < c_in; ++c) q[static_cast<std::size_t>(c)] = qi(c);
  return q;
}

std::vector<int> ConvLayer::output_q() const {
  std::vector<int> q(static_cast<std::size_t>(std::max(c_out, 0)));
  for (int o = 0; o < c_out; ++o) q[static_cast<std::size_t>(o)] = qo(o);
  return q;
}

namespace {
int32_t to_int32_checked(double v, const char* what) {
  if (!std::isfinite(v) || v > std::numeric_limits<int32_t>::max() || v < std::numeric_limits<int32_t>::min()) {
    throw InputError(std::string("tf2 ") + what + " " + std::to_string(v) + " does not fit int32");
  }
  return static_cast<int32_t>(v);
}
}  // namespace

int ConvLayer::largest_shift() const {
  const std::vector<int> qin = input_q(), qout = output_q();
  const int lo_in = qin.empty() ? q_in : *std::min_element(qin.begin(), qin.end());
  const int hi_out = qout.empty() ? q_out : *std::max_element(qout.begin(), qout.end());
  return 15 + hi_out - lo_in + min_exp + (kExpRange - 1);
}

int32_t bias_to_int(double bias_f, int q_out) { return to_int32_checked(std::trunc(std::ldexp(bias_f, 15 + q_out)), "bias"); }
int32_t alpha_to_int(double alpha_f) { return to_int32_checked(std::trunc(std::ldexp(alpha_f, 20)), "alpha"); }
int32_t beta_to_int(double beta_f, int q_out) {
  return to_int32_checked(round_half_away(std::ldexp(beta_f, 15 + q_out)), "beta");
}

std::vector<int32_t> sac_accumulate(const ConvLayer& L, const std::vector<int8_t>& in) {
  L.validate();
  const std::size_t in_n = static_cast<std::size_t>(L.c_in) * L.h_in * L.w_in;
  if (in.size() != in_n) {
    throw InputError("tf2 conv: input has " + std::to_string(in.size()) + " values, expected " + std::to_string(in_n));
  }
  const int ho = L.h_out(), wo = L.w_out();
  // The input and its 8-bit negation (-(-128) stays -128) widened once, so a
  // product is one shift of a ready operand: sac_product without branches.
  std::vector<uint32_t> pos(in_n), neg(in_n);
  for (std::size_t i = 0; i < in_n; ++i) {
    pos[i] = static_cast<uint32_t>(static_cast<int32_t>(in[i]));
    neg[i] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(static_cast<uint8_t>(-static_cast<uint8_t>(in[i])))));
  }
  // Sums wrap modulo 2^32 (the hardware's 32-bit accumulator), so the order
  // of the terms does not change a bit: one weight at a time over the whole
  // output row, which the compiler vectorises.
  std::vector<uint32_t> acc(static_cast<std::size_t>(L.c_out) * ho * wo);
  for (int o = 0; o < L.c_out; ++o) {
    uint32_t* plane = acc.data() + static_cast<std::size_t>(o) * ho * wo;
    std::fill(plane, plane + static_cast<std::size_t>(ho) * wo, static_cast<uint32_t>(L.bias[o]));
    for (int c = 0; c < L.c_in; ++c) {
      for (int ky = 0; ky < L.k; ++ky) {
        for (int kx = 0; kx < L.k; ++kx) {
          const std::size_t wi = ((static_cast<std::size_t>(o) * L.c_in + c) * L.k + ky) * L.k + kx;
          const uint8_t sc = device_shift_code(L.codes[wi], L.min_exp, L.qi(c), L.qo(o));
          if (sc & kShiftZeroBit) continue;
          const uint32_t* src = ((sc & kShiftNegBit) ? neg : pos).data() + static_cast<std::size_t>(c) * L.h_in * L.w_in;
          const unsigned shift = sc & 0x1F;
          // Output columns whose input column x * stride + kx - pad is inside the map.
          const int off = kx - L.pad;  // input column of output column x: x * stride + off
          const int last = L.w_in - 1 - off;
          if (last < 0) continue;
          const int x0 = off >= 0 ? 0 : (-off + L.stride - 1) / L.stride;
          const int x1 = std::min(wo, last / L.stride + 1);
          if (x0 >= x1) continue;
          for (int y = 0; y < ho; ++y) {
            const int iy = y * L.stride + ky - L.pad;
            if (iy < 0 || iy >= L.h_in) continue;
            const uint32_t* row = src + static_cast<std::size_t>(iy) * L.w_in;
            uint32_t* out = plane + static_cast<std::size_t>(y) * wo;
            if (L.stride == 1) {
              for (int x = x0; x < x1; ++x) out[x] += row[x + off] << shift;
            } else {
              for (int x = x0; x < x1; ++x) out[x] += row[x * L.stride + off] << shift;
            }
          }
        }
      }
    }
  }
  return std::vector<int32_t>(acc.begin(), acc.end());
}

std::vector<int8_t> sac_conv2d(const ConvLayer& L, const std::vector<int8_t>& in) {
  const std::vector<int32_t> acc = sac_accumulate(L, in);
  const std::size_t plane = static_cast<std::size_t>(L.h_out()) * L.w_out();
  std::vector<int8_t> out(acc.size());
  for (std::size_t i = 0; i < acc.size(); ++i) {
    const std::size_t o = i / plane;
    out[i] = requantize(acc[i], L.alpha[o], L.beta[o], L.relu, L.wide_requant);
  }
  return out;
}

}  // namespace cosim::tf2

namespace cosim::tf2 {

void validate_residuals(const std::vector<ConvLayer>& layers) {
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const ConvLayer& L = layers[i];
    if (L.residual_from == kNoResidual) continue;
    const std::string what = "tf2 layer " + std::to_string(i) + " residual";
    const int src = L.residual_from;
    if (src < kResidualFromInput || src >= static_cast<int>(i)) {
      throw InputError(what + ": source " + std::to_string(src) + " is not the input (-1) or an earlier layer (0.." +
                       std::to_string(static_cast<int>(i) - 1) + ")");
    }
    int c = 0, h = 0, w = 0;
    std::vector<int> q;
    if (src == kResidualFromInput) {
      c = layers[0].c_in; h = layers[0].h_in; w = layers[0].w_in; q = layers[0].input_q();
    } else {
      const ConvLayer& S = layers[static_cast<std::size_t>(src)];
      c = S.c_out; h = S.h_out(); w = S.w_out(); q = S.output_q();
    }
    if (c != L.c_out || h != L.h_out() || w != L.w_out()) {
      throw InputError(what + ": source map " + std::to_string(c) + "x" + std::to_string(h) + "x" + std::to_string(w) +
                       " differs from the output " + std::to_string(L.c_out) + "x" + std::to_string(L.h_out()) + "x" +
                       std::to_string(L.w_out()) + " (CxHxW)");
    }
    const std::vector<int> qo = L.output_q();
    for (std::size_t ch = 0; ch < qo.size(); ++ch) {
      if (q[ch] != qo[ch]) {
        throw InputError(what + ": channel " + std::to_string(ch) + ": source Q " + std::to_string(q[ch]) +
                         " differs from the output Q " + std::to_string(qo[ch]) + " (a residual ADD needs the same Q)");
      }
    }
  }
}

int input_source(const std::vector<ConvLayer>& layers, std::size_t i) {
  const int from = layers.at(i).input_from;
  if (from == kPreviousLayer) return static_cast<int>(i) - 1;  // layer 0: -1 = kChainInput
  if (from < kChainInput || from >= static_cast<int>(i)) {
    throw InputError("tf2 layer " + std::to_string(i) + " input: source " + std::to_string(from) +
                     " is not the chain input (-1) or an earlier layer (0.." + std::to_string(static_cast<int>(i) - 1) + ")");
  }
  return from;
}

std::vector<std::vector<int8_t>> sac_chain(const std::vector<ConvLayer>& layers, const std::vector<int8_t>& input) {
  validate_residuals(layers);
  std::vector<std::vector<int8_t>> outs;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const int src = input_source(layers, i);
    const std::vector<int8_t>& x = src == kChainInput ? input : outs[static_cast<std::size_t>(src)];
    ConvLayer L = layers[i];
    if (L.residual_from == kNoResidual) {
      outs.push_back(sac_conv2d(L, x));
      continue;
    }
    const bool relu = L.relu;
    L.relu = false;
    const std::vector<int8_t> y = sac_conv2d(L, x);
    const std::vector<int8_t>& r = L.residual_from == kResidualFromInput ? input : outs[static_cast<std::size_t>(L.residual_from)];
    outs.push_back(residual_add(y, r, relu));
  }
  return outs;
}

}  // namespace cosim::tf2
