#include "vta/compiler/fused_requant.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace cosim::vta {

namespace {
constexpr int64_t kI32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kI32Max = std::numeric_limits<int32_t>::max();

int32_t wrap32(uint64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

// The smallest multiple of 2^p that is >= v (v >= 0).
int64_t round_up_pow2(int64_t v, int p) {
  const int64_t step = int64_t{1} << p;
  return (v + step - 1) / step * step;
}
}  // namespace

std::optional<FusedRequant> fuse_requant(const std::vector<quant::VtaRequantPlan>& plans,
                                         const std::vector<int64_t>& bias_terms,
                                         const std::vector<std::vector<int64_t>>& corrections) {
  const std::size_t channels = plans.size();
  if (bias_terms.size() != channels)
    throw std::invalid_argument("fuse_requant: one bias term per plan expected");
  for (const auto& k : corrections)
    if (k.size() != channels) throw std::invalid_argument("fuse_requant: one correction per plan expected");
  FusedRequant f;
  f.fold_zero_point = true;
  f.start.assign(corrections.size() + 1, std::vector<int32_t>(channels, 0));
  f.offset.assign(channels, 0);
  std::vector<int64_t> lift(channels, 0);
  for (std::size_t c = 0; c < channels; ++c) {
    const quant::VtaRequantPlan& pl = plans[c];
    if (pl.acc_bound < 0 || pl.acc_bound > (int64_t{1} << 31)) return std::nullopt;
    // The lift makes every start value <= -128, the smallest clamped output.
    int64_t top = bias_terms[c];
    for (const auto& k : corrections) top = std::max(top, bias_terms[c] + k[c]);
    lift[c] = round_up_pow2(std::max<int64_t>(0, top + 128), pl.pre_shift);
    // acc - lift must stay an int32 for the pre-shift to see it.
    if (-pl.acc_bound - lift[c] < kI32Min) return std::nullopt;
    for (std::size_t k = 0; k <= corrections.size(); ++k) {
      const int64_t s = bias_terms[c] + (k == 0 ? 0 : corrections[k - 1][c]) - lift[c];
      if (s < kI32Min || s > -128) return std::nullopt;
      f.start[k][c] = static_cast<int32_t>(s);
    }
    const auto [lo, hi] = quant::vta_shifted_product_range(pl.acc_bound, pl.pre_shift, pl.multiplier);
    const int64_t zp_term = static_cast<int64_t>(pl.zero_point) * (int64_t{1} << pl.post_shift);
    if (lo + zp_term < kI32Min || hi + zp_term > kI32Max) f.fold_zero_point = false;
  }
  for (std::size_t c = 0; c < channels; ++c) {
    const quant::VtaRequantPlan& pl = plans[c];
    const int64_t m = pl.multiplier;
    uint64_t k = static_cast<uint64_t>(lift[c] >> pl.pre_shift) * static_cast<uint64_t>(m);
    if (f.fold_zero_point) k += static_cast<uint64_t>(static_cast<int64_t>(pl.zero_point)) << pl.post_shift;
    f.offset[c] = wrap32(k);
  }
  return f;
}

}  // namespace cosim::vta
