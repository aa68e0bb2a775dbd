// Independent expectations for TF2's feature-map layout helpers (issue 13).
// tf2::to_hc16w lays out BOTH the DUT's input map and the expected output
// regions (tf2::compile, tb/tf2), so a wrong layout would be invisible to a
// DUT-vs-golden comparison. ../shared/spec/tf2.md fixes the 16-channel input
// vector (C_VEC = 16) but not the byte order; the layout is the documented
// contract of the DRAM image (cpp_model/tf2/compiler.hpp, rtl/tf2/README.md):
//
//   "HC16W" int8, [H][ceil(C/16)][W][16]: with CG = ceil(C/16), channel c of
//   pixel (y, x) is the byte at ((y*CG + c/16)*W + x)*16 + c%16; channels
//   >= C are zero.
//
// The expected image is built here from that sentence by decoding every
// output byte index into (y, group, x, lane), i.e. walking the layout in the
// opposite direction from the helper, on random shapes (C not a multiple of
// 16 included). from_hc16w is checked against the same formula, and
// hc16w_group (one channel group as NHWC [1, H, W, 16]) against the CHW map
// directly. None of the expected values comes from the code under test.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "common/error.hpp"
#include "tf2/compiler.hpp"

namespace {

// The HC16W image of a CHW map, byte by byte from the layout's definition.
std::vector<uint8_t> spec_hc16w(const std::vector<int8_t>& chw, int C, int H, int W) {
  const long groups = (C + 15) / 16;
  std::vector<uint8_t> img(static_cast<std::size_t>(groups * H * W * 16));
  for (std::size_t i = 0; i < img.size(); ++i) {
    const long lane = static_cast<long>(i % 16);
    const long word = static_cast<long>(i / 16);  // index of the 16-byte pixel word
    const long x = word % W;
    const long g = (word / W) % groups;
    const long y = word / (static_cast<long>(W) * groups);
    const long c = g * 16 + lane;
    // CHW source: element (c, y, x) at c*H*W + y*W + x.
    img[i] = c < C ? static_cast<uint8_t>(chw[static_cast<std::size_t>(c * H * W + y * W + x)]) : uint8_t{0};
  }
  return img;
}

// Channel of byte i of an HC16W image (may be >= C: a pad lane).
long spec_channel(std::size_t i, int C, int W) {
  const long groups = (C + 15) / 16;
  return (static_cast<long>(i / 16) / W) % groups * 16 + static_cast<long>(i % 16);
}

TEST(Tf2LayoutIndependent, HandExample) {
  // C = 17, H = 1, W = 2: two channel groups, group 1 holds channel 16 only.
  std::vector<int8_t> chw(34);
  for (int i = 0; i < 34; ++i) chw[static_cast<std::size_t>(i)] = static_cast<int8_t>(i + 1);  // (c, 0, x) = 2c + x + 1
  const std::vector<uint8_t> img = cosim::tf2::to_hc16w(chw, 17, 1, 2);
  ASSERT_EQ(img.size(), 64u);
  EXPECT_EQ(img[0], 1);        // c0 x0
  EXPECT_EQ(img[1], 3);        // c1 x0
  EXPECT_EQ(img[15], 31);      // c15 x0
  EXPECT_EQ(img[16], 2);       // c0 x1
  EXPECT_EQ(img[32], 33);      // c16 x0 (row 0, group 1, pixel 0, lane 0)
  EXPECT_EQ(img[33], 0);       // c17 does not exist: zero
  EXPECT_EQ(img[48], 34);      // c16 x1
  EXPECT_EQ(img[63], 0);
  EXPECT_EQ(spec_hc16w(chw, 17, 1, 2), img);
}

TEST(Tf2LayoutIndependent, HandExampleRowsInterleaveGroups) {
  // C = 17, H = 2, W = 2 (CG = 2): element (c, y, x) = 4c + 2y + x + 1.
  // HC16W puts row 0's two groups before row 1: [y0 g0][y0 g1][y1 g0][y1 g1],
  // 32 bytes each. (A channel-group-major layout, [g0 y0][g0 y1][g1 y0][g1 y1],
  // would hold c16 y0 x0 at 64 and c0 y1 x0 at 32: swapped against the
  // offsets asserted here.)
  std::vector<int8_t> chw(17 * 2 * 2);
  for (int i = 0; i < 68; ++i) chw[static_cast<std::size_t>(i)] = static_cast<int8_t>(i + 1);
  const std::vector<uint8_t> img = cosim::tf2::to_hc16w(chw, 17, 2, 2);
  ASSERT_EQ(img.size(), 128u);
  EXPECT_EQ(img[0], 1);     // c0  y0 x0: ((0*2 + 0)*2 + 0)*16 + 0
  EXPECT_EQ(img[17], 6);    // c1  y0 x1: ((0*2 + 0)*2 + 1)*16 + 1
  EXPECT_EQ(img[32], 65);   // c16 y0 x0: ((0*2 + 1)*2 + 0)*16 + 0
  EXPECT_EQ(img[33], 0);    // c17 y0 x0 does not exist: zero
  EXPECT_EQ(img[48], 66);   // c16 y0 x1: ((0*2 + 1)*2 + 1)*16 + 0
  EXPECT_EQ(img[64], 3);    // c0  y1 x0: ((1*2 + 0)*2 + 0)*16 + 0
  EXPECT_EQ(img[95], 64);   // c15 y1 x1: ((1*2 + 0)*2 + 1)*16 + 15
  EXPECT_EQ(img[96], 67);   // c16 y1 x0: ((1*2 + 1)*2 + 0)*16 + 0
  EXPECT_EQ(img[112], 68);  // c16 y1 x1: ((1*2 + 1)*2 + 1)*16 + 0
  EXPECT_EQ(img[113], 0);   // c17 y1 x1: zero
  EXPECT_EQ(img[127], 0);   // c31 y1 x1: zero
  EXPECT_EQ(spec_hc16w(chw, 17, 2, 2), img);
  std::vector<uint8_t> dirty = img;
  dirty[33] = dirty[113] = dirty[127] = 0xA5;  // pad lanes are ignored on the way back
  EXPECT_EQ(cosim::tf2::from_hc16w(dirty.data(), 17, 2, 2), chw);

  // Group 1 as NHWC [1, 2, 2, 16]: channel 16 of pixels (0,0) (0,1) (1,0)
  // (1,1) at bytes 0, 16, 32, 48, the other lanes zero.
  const cosim::Tensor g1 = cosim::tf2::hc16w_group(img, 1, 2, 2);
  ASSERT_EQ(g1.shape(), (std::vector<int64_t>{1, 2, 2, 16}));
  ASSERT_EQ(g1.bytes().size(), 64u);
  EXPECT_EQ(g1.bytes()[0], 65);
  EXPECT_EQ(g1.bytes()[16], 66);
  EXPECT_EQ(g1.bytes()[32], 67);
  EXPECT_EQ(g1.bytes()[48], 68);
  for (std::size_t k = 0; k < 64; ++k) {
    if (k % 16 != 0) {
      EXPECT_EQ(g1.bytes()[k], 0) << k;
    }
  }
  // Group 0: channel 15 of pixel (1, 1) at byte (1*2 + 1)*16 + 15 = 63.
  const cosim::Tensor g0 = cosim::tf2::hc16w_group(img, 0, 2, 2);
  EXPECT_EQ(g0.bytes()[0], 1);
  EXPECT_EQ(g0.bytes()[17], 6);
  EXPECT_EQ(g0.bytes()[32], 3);
  EXPECT_EQ(g0.bytes()[63], 64);
}

TEST(Tf2LayoutIndependent, RandomShapesMatchIndexFormula) {
  std::mt19937_64 rng(0x7F2C16u);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int cases = 0, not_multiple = 0, rows_and_groups = 0;
  long long bytes = 0;
  for (int i = 0; i < 3000; ++i) {
    int C;
    switch (uni(0, 3)) {
      case 0: C = 16 * uni(1, 5); break;                    // whole groups
      case 1: C = 16 * uni(0, 4) + (uni(0, 1) ? 1 : 15); break;  // one lane / one lane short
      default: C = uni(1, 80);
    }
    const int H = uni(1, 12), W = uni(1, 12);
    const int groups = (C + 15) / 16;
    std::vector<int8_t> chw(static_cast<std::size_t>(C) * H * W);
    for (auto& v : chw) v = static_cast<int8_t>(uni(-128, 127));
    // Never let a non-zero pad byte hide: make every real element non-zero
    // in half the cases, so a channel written into a pad lane shows.
    if (i % 2 == 0)
      for (auto& v : chw)
        if (v == 0) v = 1;

    const std::vector<uint8_t> want = spec_hc16w(chw, C, H, W);
    const std::vector<uint8_t> got = cosim::tf2::to_hc16w(chw, C, H, W);
    ASSERT_EQ(got.size(), want.size()) << "C " << C << " H " << H << " W " << W;
    for (std::size_t k = 0; k < want.size(); ++k)
      ASSERT_EQ(got[k], want[k]) << "byte " << k << " (row " << k / 16 / (static_cast<std::size_t>(W) * groups)
                                 << ", group " << (k / 16 / W) % groups << ", x " << (k / 16) % W << ", lane "
                                 << k % 16 << ") C " << C << " H " << H << " W " << W;
    EXPECT_EQ(cosim::tf2::hc16w_bytes(C, H, W), want.size()) << "C " << C << " H " << H << " W " << W;

    // from_hc16w reads the same positions back and ignores the pad lanes
    // (filled with garbage here).
    std::vector<uint8_t> dirty = want;
    for (std::size_t k = 0; k < dirty.size(); ++k)
      if (spec_channel(k, C, W) >= C) dirty[k] = 0xA5;
    EXPECT_EQ(cosim::tf2::from_hc16w(dirty.data(), C, H, W), chw) << "C " << C << " H " << H << " W " << W;

    // hc16w_group: channel group g as NHWC [1, H, W, 16], byte
    // (y*W + x)*16 + lane = channel 16g + lane of pixel (y, x), zero past C,
    // straight from the CHW map.
    for (int g = 0; g < groups; ++g) {
      const cosim::Tensor t = cosim::tf2::hc16w_group(want, g, H, W);
      ASSERT_EQ(t.shape(), (std::vector<int64_t>{1, H, W, 16}));
      ASSERT_EQ(t.bytes().size(), static_cast<std::size_t>(H) * W * 16);
      for (std::size_t k = 0; k < t.bytes().size(); ++k) {
        const long lane = static_cast<long>(k % 16), x = static_cast<long>(k / 16) % W;
        const long y = static_cast<long>(k / 16) / W, c = 16L * g + lane;
        const uint8_t e = c < C ? static_cast<uint8_t>(chw[static_cast<std::size_t>((c * H + y) * W + x)]) : uint8_t{0};
        ASSERT_EQ(t.bytes()[k], e) << "group " << g << " y " << y << " x " << x << " lane " << lane << " C " << C
                                   << " H " << H << " W " << W;
      }
    }
    ++cases;
    not_multiple += C % 16 != 0;
    rows_and_groups += H > 1 && groups > 1;
    bytes += static_cast<long long>(want.size());
  }
  std::printf("[ info ] %d random shapes (%d with C %% 16 != 0, %d with H > 1 and several channel groups), "
              "%lld bytes compared\n",
              cases, not_multiple, rows_and_groups, bytes);
  EXPECT_GT(not_multiple, 1000);
  EXPECT_GT(rows_and_groups, 1000);
}

TEST(Tf2LayoutIndependent, SizeMismatchIsRejected) {
  EXPECT_THROW(cosim::tf2::to_hc16w(std::vector<int8_t>(10), 3, 2, 2), cosim::InputError);
  const std::vector<uint8_t> map(2 * 3 * 2 * 16);  // two groups of 3 x 2 pixels
  EXPECT_THROW(cosim::tf2::hc16w_group(map, 2, 3, 2), cosim::InputError);                           // no group 2
  EXPECT_THROW(cosim::tf2::hc16w_group(std::vector<uint8_t>(map.size() - 16), 1, 3, 2), cosim::InputError);  // torn
  EXPECT_NO_THROW(cosim::tf2::hc16w_group(map, 1, 3, 2));
}

}  // namespace
