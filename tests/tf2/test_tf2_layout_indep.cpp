// Independent expectations for TF2's feature-map layout helper (issue 13).
// tf2::to_c16hw lays out BOTH the DUT's input map and the expected output
// regions (tf2::compile, tb/tf2), so a wrong layout would be invisible to a
// DUT-vs-golden comparison. ../shared/spec/tf2.md fixes the 16-channel input
// vector (C_VEC = 16) but not the byte order; the layout is the documented
// contract of the DRAM image (cpp_model/tf2/compiler.hpp, rtl/tf2/README.md):
//
//   "C16HW" int8, [ceil(C/16)][H][W][16], channel c at byte c % 16 of its
//   pixel word; channels >= C are zero.
//
// The expected image is built here from that sentence by decoding every
// output byte index into (group, y, x, lane), i.e. walking the layout in the
// opposite direction from the helper, on random shapes (C not a multiple of
// 16 included). from_c16hw is checked against the same formula.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "common/error.hpp"
#include "tf2/compiler.hpp"

namespace {

// The C16HW image of a CHW map, byte by byte from the layout's definition.
std::vector<uint8_t> spec_c16hw(const std::vector<int8_t>& chw, int C, int H, int W) {
  const long groups = (C + 15) / 16;
  std::vector<uint8_t> img(static_cast<std::size_t>(groups * H * W * 16));
  for (std::size_t i = 0; i < img.size(); ++i) {
    const long lane = static_cast<long>(i % 16);
    const long pixel = static_cast<long>(i / 16);  // index of the 16-byte pixel word
    const long x = pixel % W;
    const long y = (pixel / W) % H;
    const long g = pixel / (static_cast<long>(W) * H);
    const long c = g * 16 + lane;
    // CHW source: element (c, y, x) at c*H*W + y*W + x.
    img[i] = c < C ? static_cast<uint8_t>(chw[static_cast<std::size_t>(c * H * W + y * W + x)]) : uint8_t{0};
  }
  return img;
}

TEST(Tf2LayoutIndependent, HandExample) {
  // C = 17, H = 1, W = 2: two channel groups, group 1 holds channel 16 only.
  std::vector<int8_t> chw(34);
  for (int i = 0; i < 34; ++i) chw[static_cast<std::size_t>(i)] = static_cast<int8_t>(i + 1);  // (c, 0, x) = 2c + x + 1
  const std::vector<uint8_t> img = cosim::tf2::to_c16hw(chw, 17, 1, 2);
  ASSERT_EQ(img.size(), 64u);
  EXPECT_EQ(img[0], 1);        // c0 x0
  EXPECT_EQ(img[1], 3);        // c1 x0
  EXPECT_EQ(img[15], 31);      // c15 x0
  EXPECT_EQ(img[16], 2);       // c0 x1
  EXPECT_EQ(img[32], 33);      // c16 x0 (group 1, pixel 0, lane 0)
  EXPECT_EQ(img[33], 0);       // c17 does not exist: zero
  EXPECT_EQ(img[48], 34);      // c16 x1
  EXPECT_EQ(img[63], 0);
  EXPECT_EQ(spec_c16hw(chw, 17, 1, 2), img);
}

TEST(Tf2LayoutIndependent, RandomShapesMatchIndexFormula) {
  std::mt19937_64 rng(0x7F2C16u);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int cases = 0, not_multiple = 0;
  long long bytes = 0;
  for (int i = 0; i < 3000; ++i) {
    int C;
    switch (uni(0, 3)) {
      case 0: C = 16 * uni(1, 5); break;                    // whole groups
      case 1: C = 16 * uni(0, 4) + (uni(0, 1) ? 1 : 15); break;  // one lane / one lane short
      default: C = uni(1, 80);
    }
    const int H = uni(1, 12), W = uni(1, 12);
    std::vector<int8_t> chw(static_cast<std::size_t>(C) * H * W);
    for (auto& v : chw) v = static_cast<int8_t>(uni(-128, 127));
    // Never let a non-zero pad byte hide: make every real element non-zero
    // in half the cases, so a channel written into a pad lane shows.
    if (i % 2 == 0)
      for (auto& v : chw)
        if (v == 0) v = 1;

    const std::vector<uint8_t> want = spec_c16hw(chw, C, H, W);
    const std::vector<uint8_t> got = cosim::tf2::to_c16hw(chw, C, H, W);
    ASSERT_EQ(got.size(), want.size()) << "C " << C << " H " << H << " W " << W;
    for (std::size_t k = 0; k < want.size(); ++k)
      ASSERT_EQ(got[k], want[k]) << "byte " << k << " (group " << k / 16 / (static_cast<std::size_t>(H) * W)
                                 << ", pixel " << (k / 16) % (static_cast<std::size_t>(H) * W) << ", lane " << k % 16
                                 << ") C " << C << " H " << H << " W " << W;
    EXPECT_EQ(cosim::tf2::c16hw_bytes(C, H, W), want.size()) << "C " << C << " H " << H << " W " << W;

    // from_c16hw reads the same positions back and ignores the pad lanes
    // (filled with garbage here).
    std::vector<uint8_t> dirty = want;
    for (std::size_t k = 0; k < dirty.size(); ++k) {
      const std::size_t g = k / 16 / (static_cast<std::size_t>(H) * W);
      if (g * 16 + k % 16 >= static_cast<std::size_t>(C)) dirty[k] = 0xA5;
    }
    EXPECT_EQ(cosim::tf2::from_c16hw(dirty.data(), C, H, W), chw) << "C " << C << " H " << H << " W " << W;
    ++cases;
    not_multiple += C % 16 != 0;
    bytes += static_cast<long long>(want.size());
  }
  std::printf("[ info ] %d random shapes (%d with C %% 16 != 0), %lld bytes compared\n", cases, not_multiple, bytes);
  EXPECT_GT(not_multiple, 1000);
}

TEST(Tf2LayoutIndependent, SizeMismatchIsRejected) {
  EXPECT_THROW(cosim::tf2::to_c16hw(std::vector<int8_t>(10), 3, 2, 2), cosim::InputError);
}

}  // namespace
