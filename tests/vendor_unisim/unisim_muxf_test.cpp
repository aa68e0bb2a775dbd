// The wide-function multiplexer stand-ins (rtl/vendor/unisim/MUXF*.sv) in
// tops/unisim_muxf_top.sv, over every input combination, against the truth
// table of UG974: O = S ? I1 : I0; and the MUXF7/MUXF8/MUXF9 tree as an
// 8-to-1 multiplexer of d by sel.
#include <gtest/gtest.h>

#include "Vunisim_muxf_top.h"
#include "unisim_tb.hpp"

namespace {

namespace ut = cosim::vendor_unisim_test;

TEST(UnisimMuxf, EveryInput) {
  ut::Bench<Vunisim_muxf_top> b;
  const char* names[] = {"MUXF7", "MUXF8", "MUXF9"};
  for (unsigned v = 0; v < (1u << 9); ++v) {  // 3 bits for each of the three
    b.dut.i0 = v & 7;
    b.dut.i1 = (v >> 3) & 7;
    b.dut.s = (v >> 6) & 7;
    b.eval();
    for (unsigned k = 0; k < 3; ++k) {
      const unsigned want = ut::bit(v, 6 + k) ? ut::bit(v, 3 + k) : ut::bit(v, k);
      ASSERT_EQ(ut::bit(b.dut.o, k), want) << names[k] << " I0 " << ut::bit(v, k) << " I1 " << ut::bit(v, 3 + k)
                                           << " S " << ut::bit(v, 6 + k);
    }
  }
}

TEST(UnisimMuxf, TreeSelectsOneOfEight) {
  ut::Bench<Vunisim_muxf_top> b;
  for (unsigned v = 0; v < (1u << 11); ++v) {
    const unsigned d = v & 0xFF, sel = v >> 8;
    b.dut.d = d;
    b.dut.sel = sel;
    b.eval();
    ASSERT_EQ(b.dut.tree_o, ut::bit(d, sel)) << "d " << d << " sel " << sel;
  }
}

}  // namespace
