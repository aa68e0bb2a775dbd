// The flip-flop stand-ins (rtl/vendor/unisim/FD?E.sv) in tops/unisim_ff_top.sv:
// FDRE, FDSE, FDCE and FDPE in every combination of INIT, IS_C_INVERTED,
// IS_D_INVERTED and the set/reset pin's inversion, each on random inputs of
// its own, against a reference written from the truth tables (UG974), after
// every change: Q starts at INIT; on the active clock edge (falling when C is
// inverted) an active set/reset pin loads the primitive's value (R, CLR: 0;
// S, PRE: 1), else CE loads D (inverted with IS_D_INVERTED); CLR and PRE act
// at once, without an edge, and hold Q while active.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "Vunisim_ff_top.h"
#include "unisim_tb.hpp"

namespace {

namespace ut = cosim::vendor_unisim_test;
constexpr const char* kPrim[4] = {"FDRE", "FDSE", "FDCE", "FDPE"};

// Flop j of the top: its attributes (tops/unisim_ff_top.sv) and its Q.
struct Flop {
  unsigned prim, init, inv_c, inv_d, inv_sr;
  unsigned q;
  explicit Flop(unsigned j)
      : prim(j / 16), init(j % 2), inv_c((j / 2) % 2), inv_d((j / 4) % 2), inv_sr((j / 8) % 2), q(j % 2) {}
  bool async() const { return prim >= 2; }
  unsigned sr_value() const { return prim % 2; }  // FDSE, FDPE: 1
  std::string describe(unsigned j) const {
    return std::string(kPrim[prim]) + " (flop " + std::to_string(j) + ") INIT " + std::to_string(init) +
           " IS_C_INVERTED " + std::to_string(inv_c) + " IS_D_INVERTED " + std::to_string(inv_d) +
           " set/reset inverted " + std::to_string(inv_sr);
  }
};

struct Counts {
  unsigned loads = 0, holds = 0, sr_edges = 0, sr_async = 0, sr_over_ce = 0;
};

TEST(UnisimFf, EveryPrimitiveAndInversionCycleByCycle) {
  ut::Bench<Vunisim_ff_top> b;
  std::mt19937_64 g(11);
  std::vector<Flop> ref;
  for (unsigned j = 0; j < 64; ++j) ref.emplace_back(j);
  // Start idle: each clock low and each set/reset inactive as the flop sees them.
  uint64_t c = 0, sr = 0;
  for (unsigned j = 0; j < 64; ++j) {
    c = ut::with_bit(c, j, ref[j].inv_c);
    sr = ut::with_bit(sr, j, ref[j].inv_sr);
  }
  b.dut.c = c;
  b.dut.sr = sr;
  b.dut.ce = 0;
  b.dut.d = 0;
  Counts n;
  auto check = [&](const char* when, int step) {
    for (unsigned j = 0; j < 64; ++j)
      ASSERT_EQ(ut::bit(b.dut.q, j), ref[j].q) << ref[j].describe(j) << ", " << when << " of step " << step;
  };
  b.eval();
  ASSERT_NO_FATAL_FAILURE(check("at the start", 0));
  for (int step = 1; step <= 4000; ++step) {
    // Between edges: new CE, D and set/reset; CLR and PRE act at once.
    const uint64_t ce = g(), d = g();
    for (unsigned j = 0; j < 64; ++j) sr = ut::with_bit(sr, j, ref[j].inv_sr ^ ut::coin(g, 1, 5));
    b.dut.ce = ce;
    b.dut.d = d;
    b.dut.sr = sr;
    b.eval();
    for (unsigned j = 0; j < 64; ++j) {
      if (ref[j].async() && (ut::bit(sr, j) ^ ref[j].inv_sr)) {
        ref[j].q = ref[j].sr_value();
        ++n.sr_async;
      }
    }
    ASSERT_NO_FATAL_FAILURE(check("after the inputs changed", step));
    // Clock: each C toggles or not; a flop acts on its active edge.
    const uint64_t toggle = g();
    b.dut.c = c ^= toggle;
    b.eval();
    for (unsigned j = 0; j < 64; ++j) {
      Flop& f = ref[j];
      if (!ut::bit(toggle, j) || (ut::bit(c, j) ^ f.inv_c) != 1) continue;  // no active edge
      if (ut::bit(sr, j) ^ f.inv_sr) {
        f.q = f.sr_value();
        ++n.sr_edges;
        n.sr_over_ce += ut::bit(ce, j);
      } else if (ut::bit(ce, j)) {
        f.q = ut::bit(d, j) ^ f.inv_d;
        ++n.loads;
      } else {
        ++n.holds;
      }
    }
    ASSERT_NO_FATAL_FAILURE(check("after the clock edges", step));
  }
  EXPECT_GT(n.loads, 10000u);
  EXPECT_GT(n.holds, 10000u);
  EXPECT_GT(n.sr_edges, 5000u);
  EXPECT_GT(n.sr_over_ce, 2000u);
  EXPECT_GT(n.sr_async, 5000u);
}

}  // namespace
