// The ADD's host-dequantized 16-bit operands (VTA 16-bit scheme) as GEMM
// data, so that one GEMM micro-op brings A' + B' of a whole ACC entry (16
// lanes) into ACC.
//
// Each value is split into two int8 bytes, v = -128 * hi + lo (kHighWeight).
// A GEMM computes acc[o] += sum_k inp[k] * wgt[o][k], so the operands sit in
// WGT and INP holds constant selector rows: row o of a WGT entry carries, for
// lane o of four ACC entries ("slots" j = 0..3), the bytes
// [4j] hi_a, [4j+1] lo_a, [4j+2] hi_b, [4j+3] lo_b; INP entry j holds
// -128, 1, -128, 1 at k = 4j..4j+3 and zeros elsewhere. The micro-op
// {dst, src = j, wgt} then adds exactly A' + B' to each lane of dst.
// Why WGT and not INP: a GEMM micro-op reads 256 WGT bytes but only 16 INP
// bytes, and an entry needs 64 operand bytes, so INP data would take four
// micro-ops per entry where this takes one.
//
// -128 is the largest int8 weight magnitude, so the split covers
// [-16384, 16511]; the scheme's values lie in [-16320, 16320] (the input
// multipliers are s / (2 max(s_a, s_b)) <= 1/2). A value outside has no
// split (std::nullopt) and the compiler keeps the ACC-load program.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace cosim::vta::add_operands {

constexpr int32_t kHighWeight = -128;
constexpr int kSlots = 4;  // ACC entries per WGT entry: 16 bytes per row / 4 bytes per lane

struct ByteSplit {
  int8_t hi = 0;
  int8_t lo = 0;
};

// v == kHighWeight * hi + lo, or std::nullopt when v is outside [-16384, 16511].
std::optional<ByteSplit> split(int32_t v);

// The kSlots INP selector entries, 16 bytes each (entry j at [16j, 16j + 16)).
std::vector<int8_t> selector_entries();

// WGT image of two operand vectors of equal length (a multiple of 16: lane l
// of ACC entry e is element 16e + l): ceil(entries / kSlots) entries of 256
// bytes, ACC entry e in WGT entry e / kSlots, slot e % kSlots. std::nullopt
// when a value has no split.
std::optional<std::vector<int8_t>> pack(const std::vector<int32_t>& a, const std::vector<int32_t>& b);

}  // namespace cosim::vta::add_operands
