// The carry-chain stand-ins (rtl/vendor/unisim/CARRY*.sv) in
// tops/unisim_carry_top.sv, over every input combination, against a
// reference written from UG974 / UG953: stage i's carry-in is CI at stage 0
// (CARRY4: CI or CYINIT), CI_TOP at stage 4 of a "DUAL_CY4" CARRY8, else the
// carry-out of stage i - 1; O[i] = S[i] ^ carry-in, CO[i] = S[i] ? carry-in
// : DI[i]. And the use the chain is made for: with S = a ^ b and DI = a,
// O is the low bits of a + b + carry-in and the last CO its carry.
#include <gtest/gtest.h>

#include "Vunisim_carry_top.h"
#include "unisim_tb.hpp"

namespace {

namespace ut = cosim::vendor_unisim_test;

struct Chain {
  unsigned co = 0, o = 0;
};

// n stages; restart >= 0: the stage that starts again from ci_top.
Chain reference(unsigned n, unsigned ci, unsigned ci_top, int restart, unsigned di, unsigned s) {
  Chain r;
  unsigned carry = ci;
  for (unsigned i = 0; i < n; ++i) {
    if (static_cast<int>(i) == restart) carry = ci_top;
    const unsigned si = ut::bit(s, i);
    r.o |= (si ^ carry) << i;
    carry = si ? carry : ut::bit(di, i);
    r.co |= carry << i;
  }
  return r;
}

TEST(UnisimCarry, Carry8BothTypesEveryInput) {
  ut::Bench<Vunisim_carry_top> b;
  // 2 carry-ins and 16 bits of DI and S: 2^18 combinations; the DUAL_CY4
  // instance gets them permuted so the two never see the same inputs.
  for (unsigned v = 0; v < (1u << 18); ++v) {
    const unsigned ci = ut::bit(v, 16), ci_top = ut::bit(v, 17), di = v & 0xFF, s = (v >> 8) & 0xFF;
    const unsigned w = v ^ 0x2A5A5;
    const unsigned ci1 = ut::bit(w, 16), ci_top1 = ut::bit(w, 17), di1 = w & 0xFF, s1 = (w >> 8) & 0xFF;
    b.dut.c8_ci = ci | (ci1 << 1);
    b.dut.c8_ci_top = ci_top | (ci_top1 << 1);
    b.dut.c8_di = di | (di1 << 8);
    b.dut.c8_s = s | (s1 << 8);
    b.eval();
    const Chain single = reference(8, ci, ci_top, -1, di, s);
    const Chain dual = reference(8, ci1, ci_top1, 4, di1, s1);
    ASSERT_EQ(b.dut.c8_co & 0xFF, single.co) << "SINGLE_CY8 CO, CI " << ci << " CI_TOP " << ci_top << " DI " << di
                                            << " S " << s;
    ASSERT_EQ(b.dut.c8_o & 0xFF, single.o) << "SINGLE_CY8 O, CI " << ci << " DI " << di << " S " << s;
    ASSERT_EQ(b.dut.c8_co >> 8, dual.co) << "DUAL_CY4 CO, CI " << ci1 << " CI_TOP " << ci_top1 << " DI " << di1
                                         << " S " << s1;
    ASSERT_EQ(b.dut.c8_o >> 8, dual.o) << "DUAL_CY4 O, CI " << ci1 << " CI_TOP " << ci_top1 << " DI " << di1
                                       << " S " << s1;
  }
}

TEST(UnisimCarry, Carry4AndCascadeEveryInput) {
  ut::Bench<Vunisim_carry_top> b;
  for (unsigned v = 0; v < (1u << 10); ++v) {
    const unsigned ci = ut::bit(v, 8), cyinit = ut::bit(v, 9), di = v & 0xF, s = (v >> 4) & 0xF;
    b.dut.c4_ci = ci;
    b.dut.c4_cyinit = cyinit;
    b.dut.c4_di = di;
    b.dut.c4_s = s;
    b.eval();
    const Chain r = reference(4, ci | cyinit, 0, -1, di, s);
    ASSERT_EQ(b.dut.c4_co, r.co) << "CARRY4 CO, CI " << ci << " CYINIT " << cyinit << " DI " << di << " S " << s;
    ASSERT_EQ(b.dut.c4_o, r.o) << "CARRY4 O, CI " << ci << " CYINIT " << cyinit << " DI " << di << " S " << s;
  }
  for (unsigned v = 0; v < (1u << 17); ++v) {
    const unsigned cyinit = ut::bit(v, 16), di = v & 0xFF, s = (v >> 8) & 0xFF;
    b.dut.ch_cyinit = cyinit;
    b.dut.ch_di = di;
    b.dut.ch_s = s;
    b.eval();
    const Chain r = reference(8, cyinit, 0, -1, di, s);
    ASSERT_EQ(b.dut.ch_co, r.co) << "two CARRY4 cascaded, CO, CYINIT " << cyinit << " DI " << di << " S " << s;
    ASSERT_EQ(b.dut.ch_o, r.o) << "two CARRY4 cascaded, O, CYINIT " << cyinit << " DI " << di << " S " << s;
  }
}

// The adder the chain is for: S = a ^ b (the LUTs' half sums), DI = a.
TEST(UnisimCarry, AddsAsAnAdder) {
  ut::Bench<Vunisim_carry_top> b;
  for (unsigned a = 0; a < 256; ++a) {
    for (unsigned x = 0; x < 256; ++x) {
      for (unsigned cin = 0; cin < 2; ++cin) {
        b.dut.c8_ci = cin;
        b.dut.c8_ci_top = 0;
        b.dut.c8_di = a;
        b.dut.c8_s = a ^ x;
        b.dut.ch_cyinit = cin;
        b.dut.ch_di = a;
        b.dut.ch_s = a ^ x;
        b.eval();
        const unsigned sum = a + x + cin;
        ASSERT_EQ(b.dut.c8_o & 0xFF, sum & 0xFF) << "CARRY8 " << a << " + " << x << " + " << cin;
        ASSERT_EQ(ut::bit(b.dut.c8_co, 7), sum >> 8) << "CARRY8 carry of " << a << " + " << x << " + " << cin;
        ASSERT_EQ(unsigned{b.dut.ch_o}, sum & 0xFF) << "CARRY4 pair " << a << " + " << x << " + " << cin;
        ASSERT_EQ(ut::bit(b.dut.ch_co, 7), sum >> 8) << "CARRY4 pair carry of " << a << " + " << x;
      }
    }
  }
}

}  // namespace
