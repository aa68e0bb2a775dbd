// VTA 16-bit requantization: Q15 multipliers and the ALU programs built on them.
#include "vta/golden/vta_quant.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "common/error.hpp"

namespace cosim::quant {

namespace {
constexpr int64_t kI32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kI32Max = std::numeric_limits<int32_t>::max();

int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }
bool fits32(int64_t v) { return v >= kI32Min && v <= kI32Max; }

// Arithmetic shift right by n >= 0; n >= 31 leaves only the sign (0 or -1).
int32_t sar(int32_t v, int n) { return v >> std::min(n, 31); }
}  // namespace

VtaMultiplier vta_quantize_multiplier(double scale) {
  if (!std::isfinite(scale) || scale < 0.0)
    throw InputError("vta_quantize_multiplier: scale " + std::to_string(scale) + " is negative or not finite");
  if (scale == 0.0) return {};
  int shift = 0;
  const double q = std::frexp(scale, &shift);
  int32_t q_fixed = static_cast<int32_t>(std::round(q * 32768.0));
  if (q_fixed == 32768) {  // q rounded up to 1.0
    q_fixed /= 2;
    ++shift;
  }
  if (shift < std::numeric_limits<int16_t>::min() || shift > std::numeric_limits<int16_t>::max())
    throw InputError("vta_quantize_multiplier: scale " + std::to_string(scale) + " has a shift outside int16");
  return {static_cast<int16_t>(q_fixed), static_cast<int16_t>(shift)};
}

int32_t vta_alu(VtaAluOp op, int32_t a, int32_t b) {
  switch (op) {
    case VtaAluOp::kMin: return std::min(a, b);
    case VtaAluOp::kMax: return std::max(a, b);
    case VtaAluOp::kAdd: return wrap32(static_cast<int64_t>(a) + b);
    case VtaAluOp::kMul: return wrap32(static_cast<int64_t>(a) * b);
    case VtaAluOp::kShr:
      if (b < -31 || b > 31)
        throw std::domain_error("vta_alu: SHR amount " + std::to_string(b) + " outside -31..31");
      if (b >= 0) return a >> b;
      return static_cast<int32_t>(static_cast<uint32_t>(a) << -b);
  }
  throw std::invalid_argument("vta_alu: unknown opcode");
}

int32_t vta_run_alu(int32_t a, const std::vector<VtaAluStep>& program) {
  for (const VtaAluStep& s : program) a = vta_alu(s.op, a, s.operand);
  return a;
}

// ---------------------------------------------------------------------------
// CONV2D

namespace {
// Extremes of (acc >> p) * m over |acc| <= bound.
void shifted_product_range(int64_t bound, int p, int64_t m, int64_t& lo, int64_t& hi) {
  const int64_t a_hi = bound >> p;     // floor(bound / 2^p)
  const int64_t a_lo = (-bound) >> p;  // floor(-bound / 2^p)
  lo = std::min(a_lo * m, a_hi * m);
  hi = std::max(a_lo * m, a_hi * m);
}
}  // namespace

std::pair<int64_t, int64_t> vta_shifted_product_range(int64_t acc_bound, int pre_shift, int64_t multiplier) {
  if (acc_bound < 0 || pre_shift < 0 || pre_shift > 63)
    throw std::invalid_argument("vta_shifted_product_range: negative bound or shift outside 0..63");
  int64_t lo, hi;
  shifted_product_range(acc_bound, pre_shift, multiplier, lo, hi);
  return {lo, hi};
}

int vta_min_pre_shift(int64_t acc_bound, int16_t multiplier) {
  if (acc_bound < 0 || acc_bound > (int64_t{1} << 31))
    throw std::invalid_argument("vta_min_pre_shift: accumulator bound " + std::to_string(acc_bound) +
                                " outside 0..2^31");
  for (int p = 0; p <= 31; ++p) {
    int64_t lo, hi;
    shifted_product_range(acc_bound, p, multiplier, lo, hi);
    if (fits32(lo) && fits32(hi)) return p;
  }
  // Unreachable: at p = 31 the shifted accumulator is in {-1, 0, 1}.
  throw std::logic_error("vta_min_pre_shift: no pre-shift found");
}

VtaRequantPlan vta_plan_requant(VtaMultiplier m, int64_t acc_bound, int32_t zero_point, int32_t act_min,
                                int32_t act_max, const std::string& what) {
  if (acc_bound < 0 || acc_bound > (int64_t{1} << 31))
    throw InputError(what + ": accumulator bound " + std::to_string(acc_bound) +
                     " exceeds int32, the GEMM accumulator would wrap");
  if (act_min > act_max || act_min < -128 || act_max > 127)
    throw InputError(what + ": activation range [" + std::to_string(act_min) + ", " + std::to_string(act_max) +
                     "] is not inside int8");
  VtaRequantPlan plan;
  plan.multiplier = m.multiplier;
  plan.zero_point = zero_point;
  plan.act_min = act_min;
  plan.act_max = act_max;
  plan.acc_bound = acc_bound;
  plan.pre_shift = vta_min_pre_shift(acc_bound, m.multiplier);
  const int total = 15 - m.shift;
  // Room for the zero point: the fused program adds zp << post to the
  // product before the post-shift. Where that leaves int32, one more bit of
  // pre-shift halves both terms.
  auto zp_rides = [&](int pre) {
    const int post = total - pre;
    if (post < 0 || post > 30) return false;
    int64_t lo, hi;
    shifted_product_range(acc_bound, pre, m.multiplier, lo, hi);
    const int64_t z = static_cast<int64_t>(zero_point) * (int64_t{1} << post);
    return fits32(lo + z) && fits32(hi + z);
  };
  if (plan.pre_shift < 31 && !zp_rides(plan.pre_shift) && zp_rides(plan.pre_shift + 1)) ++plan.pre_shift;
  int post = total - plan.pre_shift;
  if (post < 0)
    throw InputError(what + ": scale needs a right shift of " + std::to_string(total) + " but the accumulator bound " +
                     std::to_string(acc_bound) + " needs a pre-shift of " + std::to_string(plan.pre_shift) +
                     "; the program cannot express it (register shifts must stay in 0..31)");
  if (post == 0) {
    // Nothing halves the product before the zero point is added: it must not wrap.
    int64_t lo, hi;
    shifted_product_range(acc_bound, plan.pre_shift, m.multiplier, lo, hi);
    if (!fits32(lo + zero_point) || !fits32(hi + zero_point))
      throw InputError(what + ": adding zero point " + std::to_string(zero_point) +
                       " to the unshifted product would wrap int32");
  }
  plan.post_shift = std::min(post, 31);
  return plan;
}

int64_t vta_conv_acc_bound(const int8_t* weights, std::size_t count, int32_t bias, int32_t x_min, int32_t x_max,
                           int32_t zp_in) {
  if (x_min > x_max) throw std::invalid_argument("vta_conv_acc_bound: x_min > x_max");
  const int64_t d_lo = static_cast<int64_t>(x_min) - zp_in;
  const int64_t d_hi = static_cast<int64_t>(x_max) - zp_in;
  int64_t lo = bias, hi = bias;
  for (std::size_t k = 0; k < count; ++k) {
    const int64_t c1 = weights[k] * d_lo, c2 = weights[k] * d_hi;
    // Each term may also be 0 (a padded tap), so only its sign-extreme part counts.
    hi += std::max<int64_t>({0, c1, c2});
    lo += std::min<int64_t>({0, c1, c2});
  }
  return std::max(std::abs(lo), std::abs(hi));
}

std::vector<VtaAluStep> vta_requant_program(const VtaRequantPlan& plan) {
  return {
      {VtaAluOp::kShr, false, plan.pre_shift},  {VtaAluOp::kMul, false, plan.multiplier},
      {VtaAluOp::kShr, false, plan.post_shift}, {VtaAluOp::kAdd, true, plan.zero_point},
      {VtaAluOp::kMin, true, plan.act_max},     {VtaAluOp::kMax, true, plan.act_min},
  };
}

int8_t vta_requant_apply(int32_t acc, const VtaRequantPlan& plan) {
  if (plan.pre_shift < 0 || plan.pre_shift > 31 || plan.post_shift < 0 || plan.post_shift > 31)
    throw std::domain_error("vta_requant_apply: plan shifts must be in 0..31");
  int32_t a = acc;
  a = a >> plan.pre_shift;
  a = wrap32(static_cast<int64_t>(a) * plan.multiplier);
  a = a >> plan.post_shift;
  a = wrap32(static_cast<int64_t>(a) + plan.zero_point);
  a = std::min(a, plan.act_max);
  a = std::max(a, plan.act_min);
  return static_cast<int8_t>(a);
}

// ---------------------------------------------------------------------------
// ADD

VtaAddParams vta_make_add_params(float s_a, int32_t zp_a, float s_b, int32_t zp_b, float s_y, int32_t zp_y) {
  if (!(s_a > 0.0f) || !(s_b > 0.0f) || !(s_y > 0.0f) || !std::isfinite(s_a) || !std::isfinite(s_b) ||
      !std::isfinite(s_y))
    throw InputError("vta ADD: scales must be positive and finite");
  const double t = 2.0 * std::max<double>(s_a, s_b);
  VtaAddParams p;
  p.a_offset = -zp_a;
  p.b_offset = -zp_b;
  p.a_multiplier = vta_quantize_multiplier(static_cast<double>(s_a) / t);
  p.b_multiplier = vta_quantize_multiplier(static_cast<double>(s_b) / t);
  p.out_multiplier = vta_quantize_multiplier(t / ((1 << kVtaAddLeftShift) * static_cast<double>(s_y)));
  p.out_zero_point = zp_y;
  if (15 - p.out_multiplier.shift < -31)
    throw InputError("vta ADD: output scale " + std::to_string(s_y) + " is too small for a 32-bit left shift");
  return p;
}

int32_t vta_add_dequantize(int8_t x, int32_t offset, VtaMultiplier m) {
  // |x + offset| <= 255, so every step below fits comfortably in int32.
  const int32_t v = (static_cast<int32_t>(x) + offset) * (1 << kVtaAddLeftShift);
  const int32_t scaled = (v * m.multiplier + (1 << 14)) >> 15;
  if (m.shift > 0) return wrap32(static_cast<int64_t>(static_cast<uint64_t>(static_cast<int64_t>(scaled)) << std::min<int>(m.shift, 32)));
  return sar(scaled, -m.shift);
}

std::vector<VtaAluStep> vta_add_program(const VtaAddParams& p, int32_t b) {
  return {
      {VtaAluOp::kAdd, false, b},
      {VtaAluOp::kMul, true, p.out_multiplier.multiplier},
      {VtaAluOp::kShr, true, std::min(15 - p.out_multiplier.shift, 31)},
      {VtaAluOp::kAdd, true, p.out_zero_point},
      {VtaAluOp::kMin, true, 127},
      {VtaAluOp::kMax, true, -128},
  };
}

int8_t vta_add_apply(int32_t a, int32_t b, const VtaAddParams& p) {
  return static_cast<int8_t>(vta_run_alu(a, vta_add_program(p, b)));
}

int8_t vta_add(int8_t x_a, int8_t x_b, const VtaAddParams& p) {
  return vta_add_apply(vta_add_dequantize(x_a, p.a_offset, p.a_multiplier),
                       vta_add_dequantize(x_b, p.b_offset, p.b_multiplier), p);
}

}  // namespace cosim::quant
