// The VTA 16-bit CONV_2D requantization plan derived from the text of
// ../shared/spec/quantization.md (s.1 activation range, s.2 VTA scheme),
// written for the independent-expectation tests (issue 13). It must not call
// any cpp_model helper: the tests compare cpp_model against it.
//
//   M_c = (double)s_in * (double)s_w[c] / (double)s_out      (s.1 "multiplier")
//   Q15: q = frexp(M, &shift); q_fixed = round(q * 2^15); 2^15 -> 2^14, shift+1
//   program: SHR pre; MUL q_fixed; SHR post; ADD zp_out; MIN act_max; MAX act_min
//   ideal right shift 15 - shift = pre + post; pre is the smallest shift that
//   keeps (acc >> pre) * q_fixed inside int32 for every accumulator the
//   channel's actual weights, bias and input range [x_min, x_max] allow
//   ("the compiler computes the accumulator bound from the actual weights and
//   input range and inserts a pre-shift where needed"); padded taps add 0.
//   post > 31 acts as 31 (exact), post < 0 cannot be expressed (rejected),
//   post == 0 means + zp_out is applied to the unshifted product (must fit).
//   An accumulator bound above 2^31 means the GEMM itself could wrap (rejected).
//   Activation (s.1): NONE [-128,127]; RELU [max(-128,zp),127];
//   RELU6 [max(-128,zp), min(127, zp + round(6/s_out))] (6/s_out in float, as TFLite).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "quant/tflite_quant.hpp"  // only the Activation enum

namespace indep {

using i128 = __int128;
using cosim::quant::Activation;
constexpr i128 kI32Min = -(i128{1} << 31);
constexpr i128 kI32Max = (i128{1} << 31) - 1;

// ---------------------------------------------------------------------------
// Spec arithmetic, written here.

struct SpecQ15 {
  int multiplier = 0;
  int shift = 0;
  bool rolled_over = false;  // q rounded up to 1.0 (statistics only)
};

inline SpecQ15 spec_q15(double m) {
  if (m == 0.0) return {};
  int e = 0;
  while (std::ldexp(m, -e) >= 1.0) ++e;
  while (std::ldexp(m, -e) < 0.5) --e;
  const double x = std::ldexp(m, 15 - e);  // q * 2^15, exact, in [2^14, 2^15)
  const double fl = std::floor(x);
  long long qf = static_cast<long long>(fl) + ((x - fl) >= 0.5 ? 1 : 0);  // half away from zero
  if (qf == 32768) {
    qf = 16384;
    ++e;
    return {static_cast<int>(qf), e, true};
  }
  return {static_cast<int>(qf), e, false};
}

// floor(a / 2^e), e >= 0.
inline i128 fdiv(i128 a, int e) {
  const i128 d = i128{1} << e;
  i128 q = a / d;
  if (a % d != 0 && a < 0) --q;
  return q;
}

struct SpecPlan {
  int pre = 0, post = 0, multiplier = 0;
  int zp = 0, act_min = -128, act_max = 127;
};

// Accumulator bound of one channel: each tap contributes w * (x - zp_in)
// for some x in [x_min, x_max], or 0 when it reads padding.
inline i128 spec_bound(const std::vector<int>& w, int bias, int x_min, int x_max, int zp_in) {
  i128 hi = bias, lo = bias;
  for (int wk : w) {
    i128 t_hi = 0, t_lo = 0;  // the padding tap
    for (int x : {x_min, x_max}) {
      const i128 t = static_cast<i128>(wk) * (x - zp_in);
      t_hi = std::max(t_hi, t);
      t_lo = std::min(t_lo, t);
    }
    hi += t_hi;
    lo += t_lo;
  }
  return std::max(hi, -lo);
}

// The plan, or nullopt where the spec says the program cannot express it.
inline std::optional<SpecPlan> spec_plan(double M, i128 bound, int zp_out, int act_min, int act_max) {
  if (bound > (i128{1} << 31)) return std::nullopt;  // GEMM accumulator could wrap
  const SpecQ15 q = spec_q15(M);
  SpecPlan p;
  p.multiplier = q.multiplier;
  p.zp = zp_out;
  p.act_min = act_min;
  p.act_max = act_max;
  // Smallest pre with (acc >> pre) * q in int32 for all |acc| <= bound:
  // acc >> pre spans [-ceil(bound / 2^pre), floor(bound / 2^pre)].
  int pre = 0;
  for (;; ++pre) {
    const i128 top = fdiv(bound, pre);
    const i128 bottom = -fdiv(bound + (i128{1} << pre) - 1, pre);  // -ceil
    if (top * q.multiplier <= kI32Max && bottom * q.multiplier >= kI32Min) break;
  }
  // Room for the zero point: the compiler's fused program adds zp << post
  // before the post-shift, so one more bit of pre-shift is taken where the
  // smallest leaves (acc >> pre) * q + (zp << post) outside int32 and the
  // next does not (post <= 30).
  auto zero_point_room = [&](int pr) {
    const int po = 15 - q.shift - pr;
    if (po < 0 || po > 30) return false;
    const i128 z = static_cast<i128>(zp_out) * (i128{1} << po);
    const i128 top = fdiv(bound, pr) * q.multiplier + z;
    const i128 bottom = -fdiv(bound + (i128{1} << pr) - 1, pr) * q.multiplier + z;
    return top <= kI32Max && bottom >= kI32Min;
  };
  if (pre < 31 && !zero_point_room(pre) && zero_point_room(pre + 1)) ++pre;
  const int post = 15 - q.shift - pre;
  if (post < 0) return std::nullopt;
  if (post == 0) {
    const i128 top = fdiv(bound, pre) * q.multiplier + zp_out;
    const i128 bottom = -fdiv(bound + (i128{1} << pre) - 1, pre) * q.multiplier + zp_out;
    if (top > kI32Max || bottom < kI32Min) return std::nullopt;
  }
  p.pre = pre;
  p.post = std::min(post, 31);
  return p;
}

inline void spec_act(Activation act, float s_out, int zp, int& lo, int& hi) {
  lo = -128;
  hi = 127;
  if (act == Activation::kNone) return;
  lo = std::max(-128, zp);
  if (act == Activation::kRelu6) {
    // s.1 writes round(6 / s_out) and describes TFLite's semantics; TFLite
    // divides the float 6.0f by the float32 scale. The precision matters:
    // for s_out = 1.3333334f the float quotient rounds to 5, the double one
    // to 4 (quantization.md does not say which).
    const float q6 = std::round(6.0f / s_out);
    hi = static_cast<int>(std::min<double>(127.0, zp + static_cast<double>(q6)));
  }
}

// y = clamp(((acc >> pre) * m >> post) + zp) in exact arithmetic; valid for
// |acc| <= bound, where the plan promises no int32 wrap.
inline int spec_requant(int32_t acc, const SpecPlan& p) {
  const i128 v = fdiv(fdiv(acc, p.pre) * p.multiplier, p.post) + p.zp;
  return static_cast<int>(std::clamp<i128>(std::clamp<i128>(v, kI32Min, kI32Max), p.act_min, p.act_max));
}

}  // namespace indep
