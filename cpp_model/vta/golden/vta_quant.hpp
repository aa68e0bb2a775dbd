// The VTA 16-bit requantization scheme (spec/quantization.md s.2, seed 000)
// and the exact integer ALU programs a VTA compiler emits for it.
//
// VTA's ACC and ALU are 32 bits wide and wrap, so multipliers are Q15:
//   scale ~= multiplier * 2^(shift - 15), multiplier in [2^14, 2^15) or 0.
// Every function here computes what the ALU computes, lane by lane, with the
// ALU's int32 wrapping; nothing is done in wider arithmetic than the hardware.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cosim::quant {

struct VtaMultiplier {
  int16_t multiplier = 0;
  int16_t shift = 0;
};

// q = frexp(scale, &shift); q_fixed = round(q * 2^15); q_fixed == 2^15 rolls
// over to 2^14 with shift + 1. scale 0 gives {0, 0}. Throws cosim::InputError
// for a negative, non-finite or absurd (shift outside int16) scale.
VtaMultiplier vta_quantize_multiplier(double scale);

// ---------------------------------------------------------------------------
// One ALU lane (spec/vta-isa.md): dst = f(dst, b), b = imm or register source.
enum class VtaAluOp { kMin = 0, kMax = 1, kAdd = 2, kShr = 3, kMul = 4 };

// ADD wraps; MUL keeps the low 32 bits of a*b; SHR is b >= 0 ? a >> b
// (arithmetic) : a << -b (wrapping). Shift amounts outside -31..31 are not
// something a generated program may use: std::domain_error.
int32_t vta_alu(VtaAluOp op, int32_t a, int32_t b);

// One ALU instruction as seen by one lane: `operand` is the immediate when
// use_imm, else the value the register source holds for this lane.
struct VtaAluStep {
  VtaAluOp op;
  bool use_imm;
  int32_t operand;
};
int32_t vta_run_alu(int32_t a, const std::vector<VtaAluStep>& program);

// ---------------------------------------------------------------------------
// CONV2D requantization: acc (int32, from GEMM, bias included) ->
//   SHR pre      (register source, per channel)
//   MUL m        (register source, per channel)
//   SHR post     (register source, per channel)
//   ADD zp       (immediate)
//   MIN act_max  (immediate, 127 without activation)
//   MAX act_min  (immediate, -128 without activation)
// i.e. y = clamp(((acc >> pre) * m) >> post + zp), each step int32 wrapping.
//
// Shift split: the ideal program is SHR (15 - shift) after the MUL. acc * m
// can leave 32 bits, so the smallest pre-shift `pre` that keeps
// (acc >> pre) * m (and, when post is 0, + zp) inside int32 for every
// |acc| <= acc_bound is moved in front of the MUL, and post = 15 - shift - pre.
// One more bit of pre-shift is taken where it lets (acc >> pre) * m +
// (zp << post) stay inside int32 when the smallest does not (post <= 30): the
// compiler's fused program (vta_compiler/fused_requant.hpp) adds the zero
// point before the post-shift, so it is needed there too.
// Both are register-source shifts, so both are kept in 0..31:
//  - post > 31 is clamped to 31, which is exact: the product is a
//    non-wrapping int32, and an arithmetic shift of an int32 by 31 or more
//    gives the same 0 or -1.
//  - post < 0 (scale >= 2^15, or a pre-shift larger than 15 - shift) cannot be
//    expressed and is rejected with cosim::InputError.
// The pre-shift floors acc before the multiply, so the program may differ
// from floor(acc * m / 2^(15 - shift)) when pre > 0; that is the program, and
// the golden model is the program.
struct VtaRequantPlan {
  int pre_shift = 0;       // 0..31
  int16_t multiplier = 0;  // Q15
  int post_shift = 0;      // 0..31
  int32_t zero_point = 0;
  int32_t act_min = -128;
  int32_t act_max = 127;
  int64_t acc_bound = -1;  // the largest |acc| the plan was made for; -1 unknown
};

// Largest |acc| is acc_bound (>= 0, <= 2^31). Smallest p in 0..31 with
// (acc >> p) * multiplier inside int32 for all |acc| <= acc_bound.
int vta_min_pre_shift(int64_t acc_bound, int16_t multiplier);

// Smallest and largest (acc >> pre_shift) * multiplier over |acc| <= acc_bound.
std::pair<int64_t, int64_t> vta_shifted_product_range(int64_t acc_bound, int pre_shift, int64_t multiplier);

// Builds the plan for one channel. acc_bound above 2^31 means the GEMM
// accumulator itself could wrap: rejected with cosim::InputError, as is a
// scale that needs post < 0. `what` names the layer/channel in messages.
VtaRequantPlan vta_plan_requant(VtaMultiplier m, int64_t acc_bound, int32_t zero_point,
                                int32_t act_min = -128, int32_t act_max = 127,
                                const std::string& what = "requant");

// Bound on |bias + sum_k w[k] * (x_k - zp_in)| over x_k in [x_min, x_max],
// including partial sums where padding makes some (x_k - zp_in) zero.
int64_t vta_conv_acc_bound(const int8_t* weights, std::size_t count, int32_t bias, int32_t x_min,
                           int32_t x_max, int32_t zp_in);

// The six-instruction program of a plan, as one lane sees it.
std::vector<VtaAluStep> vta_requant_program(const VtaRequantPlan& plan);

// Exactly what the program above computes (int32 wrapping), as int8.
int8_t vta_requant_apply(int32_t acc, const VtaRequantPlan& plan);

// ---------------------------------------------------------------------------
// ADD (seed 000). Scales are normalised by t = 2 * max(s_a, s_b) (double,
// from the float32 scales): inputs use s_a / t and s_b / t, the output
// s_yinv' = t / (2^7 * s_y). Host-side dequantization of each int8 input:
//   v = (x + offset) << 7          offset = -zero_point (TFLite convention)
//   v = (v * m + 2^14) >> 15       Q15 multiply, round to nearest (ties up)
//   v = v >> -shift                (-shift >= 0 since s/t <= 1/2; shifts of
//                                   32 or more act as 31: same result)
// giving 16-bit values A', B' loaded into ACC; then on VTA:
//   ADD (register B'); MUL imm m_y; SHR imm (15 - shift_y); ADD imm zp_y;
//   MIN 127; MAX -128.
// |A' + B'| <= 65280 and m_y < 2^15, so the MUL never wraps and an
// immediate shift above 31 is emitted as 31 (exact, as for CONV2D).
constexpr int kVtaAddLeftShift = 7;

struct VtaAddParams {
  int32_t a_offset = 0;  // -zero_point of input a
  int32_t b_offset = 0;
  VtaMultiplier a_multiplier;
  VtaMultiplier b_multiplier;
  VtaMultiplier out_multiplier;
  int32_t out_zero_point = 0;
};

// Throws cosim::InputError for non-positive scales or an output scale whose
// shift cannot be expressed (15 - shift_y < -31).
VtaAddParams vta_make_add_params(float s_a, int32_t zp_a, float s_b, int32_t zp_b, float s_y,
                                 int32_t zp_y);

// Host-side dequantization of one int8 input (the 16-bit value put in ACC).
int32_t vta_add_dequantize(int8_t x, int32_t offset, VtaMultiplier m);

// The on-VTA program for one lane; b is the dequantized second input.
std::vector<VtaAluStep> vta_add_program(const VtaAddParams& p, int32_t b);

// Program result for dequantized inputs a, b.
int8_t vta_add_apply(int32_t a, int32_t b, const VtaAddParams& p);

// Whole ADD for two int8 inputs: host dequantization then the program.
int8_t vta_add(int8_t x_a, int8_t x_b, const VtaAddParams& p);

}  // namespace cosim::quant
