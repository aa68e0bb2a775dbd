// TFLite's requantization (spec/quantization.md s.1) as a VTA ALU program:
// y = clamp(MultiplyByQuantizedMultiplier(x, M[c], shift[c]) + zp), in
// double or single rounding, bit for bit, with the 32-bit ALU only (ADD
// wraps, MUL keeps the low 32 bits, SHR is arithmetic, MIN, MAX; no AND, no
// copy). A compiler lays the program out in ACC: per-channel vectors (one
// ACC entry per 16-channel block each) and per-pixel temporaries (entries
// beside each accumulator), and emits one ALU instruction per step.
//
// How the 64-bit product is done in 32 bits (M > 0):
//   x = xh*2^16 + xl   (xh = x >> 16, xl in [0, 2^16))
//   M = Mh*2^16 + Ml   (host side; balanced Ml in (-2^15, 2^15], Mh <= 2^15)
//   A = xh*Mh, B = xh*Ml, C = xl*Mh, D = xl*Ml all fit int32, and
//   x*M = 2^32*A + 2^16*S0 + (D mod 2^16), S0 = B + C + (D >> 16).
// S0 itself does not fit int32 (it spans 2^32 - 98303 values), but a
// per-channel offset OFF (a multiple of 2^s1) puts S0 + c - OFF inside int32,
// so it is computed with wrapping adds (mod 2^32 is exact once the true value
// fits) and only then shifted. B + C is computed as x*Mh + xh*(Ml - 2^16*Mh)
// mod 2^32, which saves materialising C.
//
// Double rounding: SRDHM(x, M) = floor((x*M + 2^30) / 2^31) for every int32 x
// when M > 0, and RoundingDivideByPOT(h, e) = floor((h + 2^(e-1) - [h<0]) /
// 2^e) for e >= 1, where [h<0] may be replaced by [x<0] (they differ only
// when h = 0, and then both give 0). Nesting the floors:
//   e = 0:  y = 2A + floor((S0 + 2^14) / 2^15)
//   e = 1:  y = A + floor((S0 + 2^14 + 2^15 - [x<0]*2^15) / 2^16)
//   e >= 2: y = (A + floor((S0 + 2^14 - [x<0]*2^15) / 2^16) + 2^(e-2)) >> (e-1)
// where A + ... + 2^(e-2) stays below 2^31 (it is about h/2). A positive
// shift is first x * 2^shift (MUL, wrapping like the int32 reference), then e = 0.
// Single rounding: y = floor((x*M + 2^(30+e)) / 2^(31+e)), e = -shift:
//   e <= 1:  y = A*2^(1-e) + floor((S0 + 2^(14+e)) / 2^(15+e))   (mod 2^32)
//   e >= 2:  y = (A + floor(S0 / 2^16) + 2^(e-2)) >> (e-1)
// With shift > 0 the true result can leave int32 (the reference saturates):
// x is first clamped to [-256, 256], which keeps every result that the
// output clamp can tell apart (the real multiplier is >= 1); with shift >= 15
// even |x| = 1 saturates, and the channel runs as multiplier 2^9 instead.
// The output clamp is done before adding zp, so it cannot wrap.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quant/tflite_quant.hpp"
#include "vta/golden/vta_quant.hpp"

namespace cosim::vta {

// The second operand of a step.
struct RqOperand {
  enum class Kind { kImm, kVector, kTemp, kAcc };
  Kind kind = Kind::kImm;
  int32_t value = 0;  // the immediate (int16 range), or the vector / temporary index
};

constexpr int kRqAcc = -1;  // RqStep::dst of the accumulator

// One ALU instruction: dst = op(dst, src) lane by lane.
struct RqStep {
  quant::VtaAluOp op = quant::VtaAluOp::kAdd;
  int dst = kRqAcc;  // kRqAcc, or temporary k >= 0
  RqOperand src;
};

struct TfliteRequantProgram {
  quant::Rounding rounding = quant::Rounding::kDouble;
  std::vector<RqStep> steps;
  int temps = 0;  // per-pixel temporaries the steps use
  // vectors[j][c]: the value vector j holds in the lane of channel c.
  std::vector<std::vector<int32_t>> vectors;
  std::vector<std::string> vector_names;  // for listings
  std::size_t channels = 0;

  // The value vector j holds for channel c (a per-tensor program, channels
  // == 1, broadcasts channel 0).
  int32_t vector_value(std::size_t j, std::size_t c) const { return vectors[j][channels == 1 ? 0 : c]; }
  // ALU uop executions per accumulator entry (one per step).
  std::size_t uops_per_entry() const { return steps.size(); }
  // One lane, exactly as the ALU computes it (quant::vta_alu). The
  // temporaries start as `temp_garbage`: a program must not read them before
  // it writes them. Returns the final accumulator (the output, in the
  // activation range).
  int32_t run_lane(int32_t acc, std::size_t channel, int32_t temp_garbage = 0x5a5a5a5a) const;
  // One line per step, e.g. "t0 = t0 SHR 16".
  std::string listing() const;
};

// multipliers: one per channel (or one for the whole tensor), each
// {M in [2^30, 2^31) or 0, shift in -31..30}; the output is
// clamp(requant(x) + zero_point, act.min, act.max) with act inside int8.
// Throws cosim::InputError naming the channel for anything else (and for a
// zero point or range that does not fit an ALU immediate).
TfliteRequantProgram make_tflite_requant_program(const std::vector<quant::QuantizedMultiplier>& multipliers,
                                                 quant::Rounding rounding, int32_t zero_point,
                                                 quant::ActivationRange act);

}  // namespace cosim::vta
