// The shift-register-LUT stand-ins (rtl/vendor/unisim/SRL*.sv) in
// tops/unisim_srl_top.sv: SRL16E and SRLC32E with random INITs, rising and
// falling clocks (IS_CLK_INVERTED), each on random inputs of its own, and two
// SRLC32E chained through Q31, against a reference written from UG974: the
// content starts at INIT; on the active edge with CE, D shifts in at bit 0;
// Q is the bit at the address at once; Q31 the last bit.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "Vunisim_srl_top.h"
#include "unisim_tb.hpp"

namespace {

namespace ut = cosim::vendor_unisim_test;
constexpr uint64_t kSeed = 0x5A1;  // the top's SEED
constexpr unsigned kNum = 4;       // the top's NUM

struct Srl {
  unsigned bits, abits, inv_clk;
  uint64_t content;
  void shift(unsigned d) { content = ((content << 1) | d) & ut::mask(bits); }
};

TEST(UnisimSrl, ShiftsAndAddressesOverRandomSequences) {
  ut::Bench<Vunisim_srl_top> b;
  std::vector<Srl> ref;
  for (unsigned n = 0; n < 2 * kNum; ++n) {
    const unsigned bits = n < kNum ? 16 : 32;
    ref.push_back(Srl{bits, bits == 16 ? 4u : 5u, n % 2, ut::mix(kSeed, n) & ut::mask(bits)});
  }
  Srl casc{64, 6, 0, (ut::mix(kSeed, 100) & ut::mask(32)) | (ut::mix(kSeed, 101) << 32)};
  std::mt19937_64 g(5);
  unsigned clk = 0;
  for (unsigned n = 0; n < 2 * kNum; ++n) clk |= ref[n].inv_clk << n;  // each clock low as the SRL sees it
  b.dut.clk = clk;
  b.dut.casc_clk = 0;
  unsigned shifts = 0, casc_shifts = 0;
  for (int step = 0; step < 20000; ++step) {
    // Between edges: new CE, D and addresses; Q follows the address at once.
    const unsigned ce = g() & 0xFF, d = g() & 0xFF;
    const uint64_t a = g() & ut::mask(40);
    b.dut.ce = ce;
    b.dut.d = d;
    b.dut.a = a;
    b.dut.casc_ce = ut::coin(g, 3, 4);
    b.dut.casc_d = ut::coin(g, 1, 2);
    b.dut.casc_a = g() % 64;
    const bool clock = ut::coin(g, 1, 2);
    for (int phase = 0; phase < 2; ++phase) {
      if (phase == 1 && clock) {  // the clocks: each toggles or not
        const unsigned toggle = g() & 0xFF;
        b.dut.clk = clk ^= toggle;
        b.dut.casc_clk ^= 1;
        for (unsigned n = 0; n < 2 * kNum; ++n) {
          if (ut::bit(toggle, n) && (ut::bit(clk, n) ^ ref[n].inv_clk) && ut::bit(ce, n)) {
            ref[n].shift(ut::bit(d, n));
            ++shifts;
          }
        }
        if (b.dut.casc_clk && b.dut.casc_ce) {
          casc.shift(b.dut.casc_d);
          ++casc_shifts;
        }
      }
      b.eval();
      for (unsigned n = 0; n < 2 * kNum; ++n) {
        const unsigned addr = (a >> (5 * n)) & ut::mask(ref[n].abits);
        ASSERT_EQ(ut::bit(b.dut.q, n), ut::bit(ref[n].content, addr))
            << (n < kNum ? "SRL16E " : "SRLC32E ") << n << " address " << addr << ", step " << step << "." << phase;
        if (n >= kNum) {
          ASSERT_EQ(ut::bit(b.dut.q31, n - kNum), ut::bit(ref[n].content, 31)) << "Q31 of SRLC32E " << n;
        }
      }
      ASSERT_EQ(b.dut.casc_q, ut::bit(casc.content, b.dut.casc_a))
          << "the chained pair at address " << unsigned{b.dut.casc_a} << ", step " << step;
    }
  }
  EXPECT_GT(shifts, 8000u);
  EXPECT_GT(casc_shifts, 2000u);
}

// The starting content is INIT, bit for bit, before any edge.
TEST(UnisimSrl, StartsAtInit) {
  ut::Bench<Vunisim_srl_top> b;
  b.dut.ce = 0;
  b.dut.casc_ce = 0;
  for (unsigned addr = 0; addr < 32; ++addr) {
    uint64_t a = 0;
    for (unsigned n = 0; n < 2 * kNum; ++n) a |= uint64_t{addr} << (5 * n);
    b.dut.a = a;
    b.dut.casc_a = addr + 32;
    b.eval();
    for (unsigned n = 0; n < 2 * kNum; ++n) {
      const unsigned bits = n < kNum ? 16 : 32;
      EXPECT_EQ(ut::bit(b.dut.q, n), ut::bit(ut::mix(kSeed, n), addr % bits)) << "SRL " << n << " address " << addr;
    }
    EXPECT_EQ(b.dut.casc_q, ut::bit(ut::mix(kSeed, 101), addr)) << "second of the chain, address " << addr;
  }
}

}  // namespace
