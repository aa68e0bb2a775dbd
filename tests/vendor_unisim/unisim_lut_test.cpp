// The LUT stand-ins (rtl/vendor/unisim/LUT*.sv) in tops/unisim_lut_top.sv:
// NUM instances of LUT1 ... LUT6 and LUT6_2 with random INITs (mix(SEED, k)),
// every combination of their inputs checked against the INIT bit the
// documented truth table picks (UG974): O = INIT[{I(k-1), ..., I0}], LUT6_2's
// O6 = INIT[{I5..I0}] and O5 = INIT[{1'b0, I4..I0}].
#include <gtest/gtest.h>

#include <string>

#include "Vunisim_lut_top.h"
#include "unisim_tb.hpp"

namespace {

namespace ut = cosim::vendor_unisim_test;
constexpr uint64_t kSeed = 0x5EED;  // the top's SEED
constexpr unsigned kNum = 8;        // the top's NUM

// What the top's LUTk (k = 7: LUT6_2) instance n outputs, for the inputs i.
struct Outputs {
  uint64_t lut[8];  // [k]: bit n is instance n's O (k = 7: O6)
  uint64_t o5;      // LUT6_2's O5
};
Outputs read(const Vunisim_lut_top& d) {
  return Outputs{{0, d.o1, d.o2, d.o3, d.o4, d.o5, d.o6, d.o6_2_o6}, d.o6_2_o5};
}

TEST(UnisimLut, EveryInputCombinationGivesTheInitBit) {
  ut::Bench<Vunisim_lut_top> b;
  unsigned ones = 0, checked = 0;
  for (unsigned in = 0; in < 64; ++in) {
    b.dut.i = in;
    b.eval();
    const Outputs o = read(b.dut);
    for (unsigned n = 0; n < kNum; ++n) {
      for (unsigned k = 1; k <= 7; ++k) {
        const unsigned width = k == 7 ? 6 : k;
        const uint64_t init = ut::mix(kSeed, 16 * k + n) & ut::mask(1u << width);
        const unsigned want = ut::bit(init, in & ut::mask(width));
        ASSERT_EQ(ut::bit(o.lut[k], n), want) << "LUT" << (k == 7 ? "6_2 O6" : std::to_string(k)) << " instance "
                                              << n << ", INIT 0x" << std::hex << init << ", inputs 0x" << in;
        ones += want;
        ++checked;
      }
      const uint64_t init62 = ut::mix(kSeed, 16 * 7 + n);
      ASSERT_EQ(ut::bit(o.o5, n), ut::bit(init62, in & 31)) << "LUT6_2 O5 instance " << n << ", inputs 0x" << std::hex
                                                             << in << " (I5 must not reach O5)";
    }
  }
  // Random INITs: both values come out, often.
  EXPECT_GT(ones, checked / 4);
  EXPECT_LT(ones, checked * 3 / 4);
}

// FINN's double-pumped MVU: LUT1 #(.INIT(2'b10)) passes its input through.
TEST(UnisimLut, FinnClockLutIsABuffer) {
  ut::Bench<Vunisim_lut_top> b;
  for (unsigned in : {0u, 1u, 0u, 1u, 63u, 62u}) {
    b.dut.i = in;
    b.eval();
    EXPECT_EQ(b.dut.o_finn, in & 1u) << "inputs " << in;
  }
}

}  // namespace
