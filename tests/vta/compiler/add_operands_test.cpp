// The ADD operands as GEMM data (add_operands.hpp), against values the test
// computes itself: every value of the split range splits back exactly into
// int8 bytes, the ends are where they should be, the scheme's dequantized
// inputs always split, and the GEMM of a selector row with the packed WGT
// image (the ISA's formula, written out here) gives a + b in every lane.
#include <gtest/gtest.h>

#include <random>

#include "vta/golden/vta_quant.hpp"
#include "vta/isa.hpp"
#include "vta/compiler/add_operands.hpp"

namespace cosim::vta::add_operands {
namespace {

TEST(VtaAddOperands, SplitIsExactOverItsRange) {
  for (int32_t v = -16384; v <= 16511; ++v) {
    const std::optional<ByteSplit> s = split(v);
    ASSERT_TRUE(s.has_value()) << v;
    ASSERT_EQ(-128 * static_cast<int32_t>(s->hi) + static_cast<int32_t>(s->lo), v) << v;
  }
  for (int32_t v : {-16385, -20000, 16512, 32640, -32640}) EXPECT_FALSE(split(v).has_value()) << v;
}

// The scheme's input multipliers are s / (2 max(s_a, s_b)) <= 1/2, so every
// dequantized int8 (any zero point) lies in [-16320, 16320] and splits.
TEST(VtaAddOperands, SchemeValuesAlwaysSplit) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<float> scale(1e-4f, 10.0f);
  std::uniform_int_distribution<int> zp(-128, 127);
  for (int i = 0; i < 300; ++i) {
    const quant::VtaAddParams p = quant::vta_make_add_params(scale(rng), zp(rng), scale(rng), zp(rng), scale(rng), 0);
    for (int x = -128; x < 128; ++x) {
      for (const auto& [off, m] : {std::pair{p.a_offset, p.a_multiplier}, std::pair{p.b_offset, p.b_multiplier}}) {
        const int32_t v = quant::vta_add_dequantize(static_cast<int8_t>(x), off, m);
        ASSERT_LE(v < 0 ? -v : v, 16320) << "case " << i << " x " << x;
        ASSERT_TRUE(split(v).has_value());
      }
    }
  }
}

TEST(VtaAddOperands, GemmOfSelectorAndPackedWgtIsTheSum) {
  std::mt19937_64 rng(4);
  std::uniform_int_distribution<int32_t> val(-16384, 16511);
  for (std::size_t entries : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{9}}) {
    std::vector<int32_t> a(entries * kBlock), b(entries * kBlock);
    for (auto& x : a) x = val(rng);
    for (auto& x : b) x = val(rng);
    a[0] = -16384;  // both ends
    b[0] = 16511;
    const std::vector<int8_t> sel = selector_entries();
    const std::optional<std::vector<int8_t>> wgt = pack(a, b);
    ASSERT_TRUE(wgt.has_value());
    ASSERT_EQ(sel.size(), 4u * 16u);
    ASSERT_EQ(wgt->size(), (entries + 3) / 4 * 256);
    for (std::size_t e = 0; e < entries; ++e) {
      // GEMM uop {dst, src = e % 4, wgt = e / 4}: acc[o] = sum_k inp[src][k] * wgt[w][o][k].
      const int8_t* inp = sel.data() + 16 * (e % 4);
      const int8_t* w = wgt->data() + 256 * (e / 4);
      for (int o = 0; o < 16; ++o) {
        int32_t acc = 0;
        for (int k = 0; k < 16; ++k) acc += inp[k] * w[16 * o + k];
        ASSERT_EQ(acc, a[e * 16 + o] + b[e * 16 + o]) << "entry " << e << " lane " << o;
      }
    }
  }
  std::vector<int32_t> far(16, 0);
  far[5] = 20000;
  EXPECT_FALSE(pack(far, std::vector<int32_t>(16, 0)).has_value());
}

}  // namespace
}  // namespace cosim::vta::add_operands
