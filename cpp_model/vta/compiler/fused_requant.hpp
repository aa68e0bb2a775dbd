// The VTA 16-bit CONV_2D requantization in fewer COMPUTE uops per output
// entry, giving the same int8 as quant::vta_requant_apply for every
// accumulator the plan's bound covers.
//
// The plain program, per entry besides the GEMMs: reset; ADD bias (and ADD a
// zero-point correction on border pixels); SHR pre; MUL m; SHR post; ADD zp;
// MIN; MAX. The fused one:
//   start   MIN(prior, S)   the entry holds a clamped output of an earlier
//                           tile (or a reset 0), so any S <= -128 replaces it;
//                           S = bias + border correction - L
//   GEMMs                   accumulate on top: acc - L, acc the true value
//   SHR pre                 L is a multiple of 2^pre: (acc >> pre) - L / 2^pre
//   MUL m
//   ADD K                   K = (L >> pre) * m + (zp << post), all mod 2^32:
//                           (a - L')*m + L'*m = a*m in wrapping arithmetic,
//                           and a*m + (zp << post) is the true value when the
//                           bound keeps it inside int32
//   SHR post                floor((x + zp * 2^post) / 2^post) = (x >> post) + zp
//   MIN act_max; MAX act_min
// so a pre-shifted layer needs 7 uops instead of 8 and the border pixels none
// extra. When zp << post does not fit for some channel, K carries only the
// lift and ADD zp stays after the post-shift (`fold_zero_point` false).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "vta/golden/vta_quant.hpp"

namespace cosim::vta {

struct FusedRequant {
  bool fold_zero_point = false;
  // start[k][c]: S of output channel c for pixel class k - 1 (k = 0: pixels
  // with every tap inside the image; k >= 1: border class k - 1).
  std::vector<std::vector<int32_t>> start;
  std::vector<int32_t> offset;  // K of each output channel
};

// plans: one per output channel, each with its acc_bound.
// bias_terms[c]: what the accumulator holds beyond the GEMM's raw sum on an
// interior pixel (bias - zp_in * sum of the channel's weights).
// corrections[k][c]: what border class k adds to that (zp_in times the
// weights of its padded taps).
// Empty when some channel's plan has no bound, or its lifted accumulator
// or start value would leave int32: the caller keeps the plain program.
std::optional<FusedRequant> fuse_requant(const std::vector<quant::VtaRequantPlan>& plans,
                                         const std::vector<int64_t>& bias_terms,
                                         const std::vector<std::vector<int64_t>>& corrections);

}  // namespace cosim::vta
