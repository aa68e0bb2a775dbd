// cosim_fifo_sync alone (5 entries of 8 bits, a depth that is not a power of
// two, so the pointers wrap early): random pushes and pops with back-pressure
// on both sides and an occasional clear, against a std::deque.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>

#include "Vcosim_fifo_sync_5.h"

#include "rtl_common_tb.hpp"

namespace {

using cosim::rtl_common_test::Tb;

TEST(CosimFifoSync, RandomTrafficMatchesReference) {
  constexpr std::size_t kDepth = 5;
  Tb<Vcosim_fifo_sync_5> tb;
  tb.reset([](Vcosim_fifo_sync_5& m) {
    m.clr_i = 0;
    m.valid_i = 0;
    m.ready_i = 0;
  });
  std::mt19937_64 g(1);
  std::deque<uint8_t> ref;
  std::size_t pushes = 0, pops = 0, full_cycles = 0;
  for (int cy = 0; cy < 50000; ++cy) {
    // Phases of mostly-pushing and mostly-popping reach full and empty.
    const bool fill = (cy / 200) % 2 == 0;
    const bool valid = (g() % 100) < (fill ? 80u : 30u);
    const bool ready = (g() % 100) < (fill ? 30u : 80u);
    const bool clr = (g() % 1000) == 0;
    const uint8_t data = static_cast<uint8_t>(g());
    tb.dut.valid_i = valid;
    tb.dut.data_i = data;
    tb.dut.ready_i = ready;
    tb.dut.clr_i = clr;
    tb.settle();
    ASSERT_EQ(tb.dut.count_o, ref.size()) << "cycle " << cy;
    ASSERT_EQ(tb.dut.ready_o, ref.size() < kDepth) << "cycle " << cy;
    ASSERT_EQ(tb.dut.valid_o, !ref.empty()) << "cycle " << cy;
    if (!ref.empty()) {
      ASSERT_EQ(tb.dut.data_o, ref.front()) << "cycle " << cy;
    }
    if (ref.size() == kDepth) ++full_cycles;
    if (clr) {
      ref.clear();
    } else {
      if (ready && !ref.empty()) ref.pop_front(), ++pops;
      if (valid && tb.dut.ready_o) ref.push_back(data), ++pushes;
    }
    tb.edge();
  }
  EXPECT_GT(pops, 10000u);
  EXPECT_GT(full_cycles, 1000u) << "the test never filled the FIFO";
}

}  // namespace
