// TF2's weight-file packing (spec/tf2.md, "Weight file format"): words worked
// by hand from the spec's rule (per kernel row, 3 / 2 / 4 codes per 16-bit
// word for 3x3 / 2x2 / 1x1, least-significant nibble first), a round trip
// through our own OIHW packing on random layers, and the errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "common/error.hpp"
#include "tf2/file_format.hpp"
#include "tf2/packing.hpp"

namespace cosim::tf2 {
namespace {

TEST(Tf2FileFormat, ThreeByThreeIsOneWordPerKernelRow) {
  // One output and one input channel; rows {1,2,3}, {4,5,6}, {8,9,10}. The
  // fourth nibble is unused (zero code 0111).
  const std::vector<uint8_t> codes = {1, 2, 3, 4, 5, 6, 8, 9, 10};
  const std::vector<uint16_t> words = export_tf2_weights(codes, 1, 1, 3);
  EXPECT_EQ(words, (std::vector<uint16_t>{0x7321, 0x7654, 0x7A98}));
  EXPECT_EQ(import_tf2_weights(words, 1, 1, 3), codes);
}

TEST(Tf2FileFormat, TwoByTwoIsTwoCodesPerWord) {
  // Two input channels: (c0: {1,2},{3,4}), (c1: {5,6},{8,14}).
  const std::vector<uint8_t> codes = {1, 2, 3, 4, 5, 6, 8, 14};
  EXPECT_EQ(export_tf2_weights(codes, 1, 2, 2), (std::vector<uint16_t>{0x7721, 0x7743, 0x7765, 0x77E8}));
}

TEST(Tf2FileFormat, OneByOnePacksFourInputChannelsPerWord) {
  // Two output channels of five input channels each: every output channel
  // starts a new word; the last word of each is padded with zero codes.
  const std::vector<uint8_t> codes = {1, 2, 3, 4, 5, /* o1 */ 14, 13, 12, 11, 10};
  EXPECT_EQ(export_tf2_weights(codes, 2, 5, 1), (std::vector<uint16_t>{0x4321, 0x7775, 0xBCDE, 0x777A}));
  EXPECT_EQ(tf2_weight_words(2, 5, 1), 4u);
  EXPECT_EQ(tf2_weight_words(3, 4, 3), 36u);
}

TEST(Tf2FileFormat, RoundTripsThroughOurPacking) {
  std::mt19937 rng(11);
  for (int k : {1, 2, 3}) {
    for (int t = 0; t < 20; ++t) {
      const int c_out = 1 + static_cast<int>(rng() % 9), c_in = 1 + static_cast<int>(rng() % 11);
      std::vector<uint8_t> codes(static_cast<std::size_t>(c_out) * c_in * k * k);
      for (auto& c : codes) c = static_cast<uint8_t>(rng() % 15);
      // TF2 file -> codes -> our DRAM packing -> codes -> TF2 file.
      const std::vector<uint16_t> file = export_tf2_weights(codes, c_out, c_in, k);
      const std::vector<uint8_t> back = import_tf2_weights(file, c_out, c_in, k);
      ASSERT_EQ(back, codes) << "k " << k;
      const std::vector<uint8_t> ours = unpack_codes(pack_codes(back), back.size());
      EXPECT_EQ(export_tf2_weights(ours, c_out, c_in, k), file) << "k " << k;
    }
  }
}

TEST(Tf2FileFormat, UnusedNibblesAreIgnoredOnImport) {
  const std::vector<uint8_t> codes = {1, 2, 3, 4, 5, 6, 8, 9, 10};
  std::vector<uint16_t> words = export_tf2_weights(codes, 1, 1, 3);
  for (auto& w : words) w = static_cast<uint16_t>(w | 0xF000);  // even 1111 in the unused nibble
  EXPECT_EQ(import_tf2_weights(words, 1, 1, 3), codes);
}

TEST(Tf2FileFormat, ErrorsAreOneLineInputErrors) {
  EXPECT_THROW(tf2_weight_words(1, 1, 5), InputError);  // no 5x5 packing in TF2's format
  EXPECT_THROW(export_tf2_weights({1, 2}, 1, 1, 1), InputError);  // wrong code count
  EXPECT_THROW(export_tf2_weights({15}, 1, 1, 1), InputError);    // invalid code
  EXPECT_THROW(import_tf2_weights({0x7321, 0x7654}, 1, 1, 3), InputError);  // one row short
  try {
    import_tf2_weights({0x7321, 0x7F54, 0x7A98}, 1, 1, 3, "w.bin");  // row 1: nibbles 4, 5, F
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("w.bin: invalid weight code 1111 at output channel 0, input channel 0, row 1, column 2 (word 1)"),
              std::string::npos) << m;
  }
}

}  // namespace
}  // namespace cosim::tf2
