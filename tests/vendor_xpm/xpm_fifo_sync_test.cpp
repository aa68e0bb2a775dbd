// The xpm_fifo_sync stand-in (rtl/vendor/xpm/xpm_fifo_sync.sv) in five
// configurations (CMakeLists.txt):
//   std1     std, FIFO_READ_LATENCY 1, 16 x 8, every flag ("1F1F"),
//            FULL_RESET_VALUE 1, DOUT_RESET_VALUE "5A"
//   std2     std, latency 2, 32 x 16, the default flags ("0707"), a 3-bit
//            write count (the top bits) and an 8-bit read count
//   std3     std, latency 3, 16 x 64, USE_ADV_FEATURES given as a number,
//            SIM_ASSERT_CHK with EN_SIM_ASSERT_ERR "error"
//   fwft     fwft, 16 x 32, every flag, FULL_RESET_VALUE 1
//   fwft_dv  fwft, 64 x 8, data_valid only ("1000"), 1-bit counts
// Random traffic with a fixed seed (phases of filling and draining, resets,
// requests while in reset) is checked cycle by cycle, every output, against
// FifoRef (a std::deque); directed tests spell out the documented rules.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>

#include "Vxpm_fifo_fwft.h"
#include "Vxpm_fifo_fwft_dv.h"
#include "Vxpm_fifo_std1.h"
#include "Vxpm_fifo_std2.h"
#include "Vxpm_fifo_std3.h"

#include "fifo_ref.hpp"
#include "xpm_tb.hpp"

namespace {

using namespace cosim::vendor_xpm_test;

// The configurations, as the CMakeLists passes them.
//                              depth width fwft lat pf  pe wcw rcw adv     full_rst dout_rst
const FifoCfg kStd1{16, 8, false, 1, 12, 4, 5, 5, 0x1F1F, true, 0x5A};
const FifoCfg kStd2{32, 16, false, 2, 20, 6, 3, 8, 0x0707, false, 0};
const FifoCfg kStd3{16, 64, false, 3, 13, 3, 5, 5, 0x1F1F, false, 0};
const FifoCfg kFwft{16, 32, true, 0, 11, 5, 5, 5, 0x1F1F, true, 0};
const FifoCfg kFwftDv{64, 8, true, 0, 10, 10, 1, 1, 0x1000, false, 0};

template <class M>
using FifoTb = Tb<M, WrClk>;

template <class M>
void drive(M& d, const FifoCfg& cfg, bool rst, bool wr_en, uint64_t din, bool rd_en) {
  d.rst = rst;
  d.wr_en = wr_en;
  d.din = cfg.width >= 64 ? din : din & ((1ull << cfg.width) - 1);
  d.rd_en = rd_en;
  d.sleep = 0;
  d.injectsbiterr = 0;
  d.injectdbiterr = 0;
}

// One edge with rst high and no request: the FIFO empties, and stays busy
// (wr_rst_busy) for the cycle after rst falls.
template <class M>
void reset(FifoTb<M>& tb, const FifoCfg& cfg) {
  drive(tb.dut, cfg, true, false, 0, false);
  tb.edge();
}

// reset(), then the idle edge at which wr_rst_busy falls: the FIFO takes
// requests from the next edge on.
template <class M>
void reset_until_ready(FifoTb<M>& tb, const FifoCfg& cfg) {
  reset(tb, cfg);
  drive(tb.dut, cfg, false, false, 0, false);
  tb.edge();
}

template <class M>
FifoOut read(const M& d) {
  FifoOut o{};
  o.full = d.full;
  o.almost_full = d.almost_full;
  o.prog_full = d.prog_full;
  o.wr_data_count = d.wr_data_count;
  o.overflow = d.overflow;
  o.wr_ack = d.wr_ack;
  o.wr_rst_busy = d.wr_rst_busy;
  o.empty = d.empty;
  o.almost_empty = d.almost_empty;
  o.prog_empty = d.prog_empty;
  o.rd_data_count = d.rd_data_count;
  o.underflow = d.underflow;
  o.data_valid = d.data_valid;
  o.rd_rst_busy = d.rd_rst_busy;
  o.dout = d.dout;
  return o;
}

// Every output the reference defines, compared; the message lists each
// mismatch.
testing::AssertionResult same_outputs(const FifoOut& want, const FifoOut& got) {
  std::ostringstream bad;
  const auto cmp = [&bad](const char* name, uint64_t w, uint64_t g) {
    if (w != g) bad << " " << name << "=" << g << " (want " << w << ")";
  };
  cmp("full", want.full, got.full);
  cmp("almost_full", want.almost_full, got.almost_full);
  cmp("prog_full", want.prog_full, got.prog_full);
  cmp("wr_data_count", want.wr_data_count, got.wr_data_count);
  cmp("overflow", want.overflow, got.overflow);
  cmp("wr_ack", want.wr_ack, got.wr_ack);
  cmp("wr_rst_busy", want.wr_rst_busy, got.wr_rst_busy);
  cmp("empty", want.empty, got.empty);
  cmp("almost_empty", want.almost_empty, got.almost_empty);
  cmp("prog_empty", want.prog_empty, got.prog_empty);
  cmp("rd_data_count", want.rd_data_count, got.rd_data_count);
  cmp("underflow", want.underflow, got.underflow);
  cmp("data_valid", want.data_valid, got.data_valid);
  cmp("rd_rst_busy", want.rd_rst_busy, got.rd_rst_busy);
  if (want.dout_defined) cmp("dout", want.dout, got.dout);
  if (bad.str().empty()) return testing::AssertionSuccess();
  return testing::AssertionFailure() << bad.str();
}

// A FIFO and its reference, stepped together.
template <class M>
struct Pair {
  explicit Pair(const FifoCfg& c) : cfg(c), ref(c) {}
  // Sets the inputs, checks the outputs of this cycle, then clocks both.
  testing::AssertionResult step(bool rst, bool wr_en, uint64_t din, bool rd_en) {
    drive(tb.dut, cfg, rst, wr_en, din, rd_en);
    tb.settle();
    auto r = same_outputs(ref.outputs(), read(tb.dut));
    if (!r) r << " at cycle " << tb.cycle;
    ref.edge(rst, wr_en, din & (cfg.width >= 64 ? ~0ull : (1ull << cfg.width) - 1), rd_en);
    tb.edge();
    return r;
  }
  // The outputs are undefined until the first reset edge.
  void reset() {
    drive(tb.dut, cfg, true, false, 0, false);
    ref.edge(true, false, 0, false);
    tb.edge();
    EXPECT_TRUE(step(true, false, 0, false));
  }
  FifoCfg cfg;
  FifoTb<M> tb;
  FifoRef ref;
};

struct TrafficStats {
  unsigned writes = 0, reads = 0, full_cycles = 0, empty_cycles = 0, overflows = 0, underflows = 0,
           resets = 0;
};

// Random traffic: phases that mostly write or mostly read (so the FIFO
// reaches full and empty), a reset now and then, and, when allowed, requests
// during reset and reset-busy (which must be ignored).
template <class M>
TrafficStats random_traffic(const FifoCfg& cfg, uint64_t seed, int cycles, bool requests_in_reset) {
  Pair<M> p(cfg);
  p.reset();
  std::mt19937_64 g(seed);
  TrafficStats s;
  int rst_left = 0;
  for (int cy = 0; cy < cycles && !testing::Test::HasFatalFailure(); ++cy) {
    if (rst_left == 0 && g() % 600 == 0) rst_left = 1 + static_cast<int>(g() % 3), ++s.resets;
    const bool rst = rst_left > 0;
    if (rst_left > 0) --rst_left;
    const bool fill = (cy / (10 * p.ref.capacity())) % 2 == 0;
    bool wr = (g() % 100) < (fill ? 75u : 30u);
    bool rd = (g() % 100) < (fill ? 30u : 75u);
    const FifoOut now = p.ref.outputs();
    if (!requests_in_reset && (rst || now.wr_rst_busy)) wr = rd = false;
    if (!rst && !now.wr_rst_busy) {
      s.writes += wr && !now.full;
      s.reads += rd && !now.empty;
      s.overflows += wr && now.full;
      s.underflows += rd && now.empty;
      s.full_cycles += now.full;
      s.empty_cycles += now.empty;
    }
    const uint64_t din = g();
    EXPECT_TRUE(p.step(rst, wr, din, rd)) << "seed " << seed << ", cycle " << cy;
    if (testing::Test::HasFailure()) break;
  }
  return s;
}

template <class M>
void check_random_traffic(const FifoCfg& cfg, uint64_t seed, bool requests_in_reset) {
  const TrafficStats s = random_traffic<M>(cfg, seed, 30000, requests_in_reset);
  // The traffic reached what it is meant to reach.
  EXPECT_GT(s.reads, 8000u);
  EXPECT_GT(s.full_cycles, 1000u) << "never full";
  EXPECT_GT(s.empty_cycles, 1000u) << "never empty";
  EXPECT_GT(s.overflows, 100u);
  EXPECT_GT(s.underflows, 100u);
  EXPECT_GT(s.resets, 10u);
}

TEST(XpmFifoSync, Std1RandomTrafficMatchesReference) {
  check_random_traffic<Vxpm_fifo_std1>(kStd1, 1, true);
}
TEST(XpmFifoSync, Std2RandomTrafficMatchesReference) {
  check_random_traffic<Vxpm_fifo_std2>(kStd2, 2, true);
}
TEST(XpmFifoSync, Std3RandomTrafficMatchesReference) {
  // SIM_ASSERT_CHK is on: requests only outside reset.
  check_random_traffic<Vxpm_fifo_std3>(kStd3, 3, false);
}
TEST(XpmFifoSync, FwftRandomTrafficMatchesReference) {
  check_random_traffic<Vxpm_fifo_fwft>(kFwft, 4, true);
}
TEST(XpmFifoSync, FwftDataValidOnlyRandomTrafficMatchesReference) {
  check_random_traffic<Vxpm_fifo_fwft_dv>(kFwftDv, 5, true);
}

// "std": a read accepted on edge t puts its word on dout after edge
// t + FIFO_READ_LATENCY - 1, with data_valid high for that one cycle.
template <class M>
void check_std_read_latency(const FifoCfg& cfg) {
  FifoTb<M> tb;
  reset_until_ready(tb, cfg);
  tb.settle();
  ASSERT_FALSE(tb.dut.wr_rst_busy);
  ASSERT_TRUE(tb.dut.empty);
  drive(tb.dut, cfg, false, true, 0x21, false);
  tb.edge();
  tb.settle();
  EXPECT_FALSE(tb.dut.empty) << "empty falls on the edge that stores the first word";
  drive(tb.dut, cfg, false, false, 0, true);  // read request
  tb.edge();                                    // the read edge
  drive(tb.dut, cfg, false, false, 0, false);
  for (unsigned after = 1; after <= cfg.latency + 2; ++after) {
    tb.settle();
    const bool shown = after >= cfg.latency;
    if (shown) {
      EXPECT_EQ(tb.dut.dout, 0x21u) << after << " edge(s) after the read";
    } else {
      EXPECT_EQ(tb.dut.dout, cfg.dout_reset) << after << " edge(s) after the read";
    }
    if ((cfg.adv >> 12) & 1u) {
      EXPECT_EQ(tb.dut.data_valid, after == cfg.latency) << after << " edge(s) after the read";
    }
    tb.edge();
  }
}

TEST(XpmFifoSync, StdDoutFollowsTheReadAfterFifoReadLatency) {
  check_std_read_latency<Vxpm_fifo_std1>(kStd1);
  check_std_read_latency<Vxpm_fifo_std2>(kStd2);
  check_std_read_latency<Vxpm_fifo_std3>(kStd3);
}

// "fwft": the first word is on dout one edge after the edge that stores it;
// data_valid is ~empty; rd_en takes the word and shows the next.
TEST(XpmFifoSync, FwftFirstWordFallsThrough) {
  FifoTb<Vxpm_fifo_fwft> tb;
  reset_until_ready(tb, kFwft);
  drive(tb.dut, kFwft, false, true, 0xCAFE0001, false);
  tb.edge();  // stored
  drive(tb.dut, kFwft, false, true, 0xCAFE0002, false);
  tb.settle();
  EXPECT_TRUE(tb.dut.empty);
  EXPECT_FALSE(tb.dut.data_valid);
  tb.edge();  // the first word moves to dout
  drive(tb.dut, kFwft, false, false, 0, false);
  tb.settle();
  EXPECT_FALSE(tb.dut.empty);
  EXPECT_TRUE(tb.dut.data_valid);
  EXPECT_EQ(tb.dut.dout, 0xCAFE0001u);
  EXPECT_EQ(tb.dut.rd_data_count, 2u);
  tb.edge();  // dout holds without rd_en
  tb.settle();
  EXPECT_EQ(tb.dut.dout, 0xCAFE0001u);
  drive(tb.dut, kFwft, false, false, 0, true);
  tb.edge();
  tb.settle();
  EXPECT_EQ(tb.dut.dout, 0xCAFE0002u);
  EXPECT_TRUE(tb.dut.data_valid);
  tb.edge();
  drive(tb.dut, kFwft, false, false, 0, false);
  tb.settle();
  EXPECT_TRUE(tb.dut.empty);
  EXPECT_FALSE(tb.dut.data_valid);
  EXPECT_EQ(tb.dut.rd_data_count, 0u);
}

// rst empties the FIFO; wr_rst_busy and rd_rst_busy stay high one cycle after
// rst falls; meanwhile full, almost_full and prog_full show FULL_RESET_VALUE
// and requests are ignored.
TEST(XpmFifoSync, ResetBusyAndFullResetValue) {
  FifoTb<Vxpm_fifo_std1> tb;
  reset(tb, kStd1);
  for (int i = 0; i < 3; ++i) {  // fill three words
    drive(tb.dut, kStd1, false, true, i, false);
    tb.edge();
  }
  reset(tb, kStd1);  // with three words stored
  tb.settle();
  EXPECT_TRUE(tb.dut.wr_rst_busy);
  EXPECT_TRUE(tb.dut.rd_rst_busy);
  EXPECT_TRUE(tb.dut.empty);
  EXPECT_EQ(tb.dut.wr_data_count, 0u);
  EXPECT_TRUE(tb.dut.full) << "FULL_RESET_VALUE 1";
  EXPECT_TRUE(tb.dut.almost_full);
  EXPECT_TRUE(tb.dut.prog_full);
  EXPECT_EQ(tb.dut.dout, 0x5Au) << "DOUT_RESET_VALUE";
  drive(tb.dut, kStd1, false, true, 0x77, false);  // rst falls; a write while busy
  tb.settle();
  EXPECT_TRUE(tb.dut.wr_rst_busy) << "busy one cycle after rst falls";
  tb.edge();
  tb.settle();
  EXPECT_FALSE(tb.dut.wr_rst_busy);
  EXPECT_FALSE(tb.dut.rd_rst_busy);
  EXPECT_FALSE(tb.dut.full);
  EXPECT_FALSE(tb.dut.wr_ack) << "the write during reset-busy was ignored";
  EXPECT_FALSE(tb.dut.overflow);
  EXPECT_TRUE(tb.dut.empty);
  tb.edge();  // this write (wr_en still high) is stored
  tb.settle();
  EXPECT_TRUE(tb.dut.wr_ack);
  EXPECT_FALSE(tb.dut.empty);
}

// overflow, underflow and wr_ack report the request of the cycle before.
TEST(XpmFifoSync, OverflowUnderflowAndWrAckReportThePreviousRequest) {
  FifoTb<Vxpm_fifo_std1> tb;
  reset(tb, kStd1);
  drive(tb.dut, kStd1, false, false, 0, true);  // read while empty
  tb.edge();  // busy: ignored, no underflow
  tb.settle();
  EXPECT_FALSE(tb.dut.underflow);
  tb.edge();
  tb.settle();
  EXPECT_TRUE(tb.dut.underflow);
  for (unsigned i = 0; i < kStd1.depth; ++i) {
    drive(tb.dut, kStd1, false, true, i, false);
    tb.edge();
    tb.settle();
    EXPECT_TRUE(tb.dut.wr_ack) << i;
    EXPECT_FALSE(tb.dut.underflow);
    EXPECT_EQ(tb.dut.full, i + 1 == kStd1.depth) << i;
    EXPECT_EQ(tb.dut.almost_full, i + 2 >= kStd1.depth) << i;
    EXPECT_EQ(tb.dut.prog_full, i + 1 >= kStd1.prog_full) << i;
  }
  tb.edge();  // a write while full
  tb.settle();
  EXPECT_FALSE(tb.dut.wr_ack);
  EXPECT_TRUE(tb.dut.overflow);
  EXPECT_EQ(tb.dut.wr_data_count, kStd1.depth);
  // A read and a write while full: the read is taken, the write is not.
  drive(tb.dut, kStd1, false, true, 0x99, true);
  tb.edge();
  tb.settle();
  EXPECT_TRUE(tb.dut.overflow);
  EXPECT_EQ(tb.dut.dout, 0u) << "the oldest word";
  EXPECT_EQ(tb.dut.rd_data_count, kStd1.depth - 1);
}

// "fwft" holds FIFO_WRITE_DEPTH + 2 words: the memory plus the two output
// registers; full asserts when the memory part is full.
TEST(XpmFifoSync, FwftHoldsDepthPlusTwo) {
  FifoTb<Vxpm_fifo_fwft> tb;
  reset_until_ready(tb, kFwft);
  unsigned stored = 0;
  for (int i = 0; i < 40; ++i) {
    drive(tb.dut, kFwft, false, true, 100 + i, false);
    tb.settle();
    if (!tb.dut.full) ++stored;
    tb.edge();
  }
  tb.settle();
  EXPECT_EQ(stored, kFwft.depth + 2);
  EXPECT_EQ(tb.dut.wr_data_count, kFwft.depth + 2);
  EXPECT_TRUE(tb.dut.full);
  drive(tb.dut, kFwft, false, false, 0, false);
  for (unsigned i = 0; i < kFwft.depth + 2; ++i) {
    tb.settle();
    ASSERT_FALSE(tb.dut.empty) << i;
    EXPECT_EQ(tb.dut.dout, 100 + i);
    drive(tb.dut, kFwft, false, false, 0, true);
    tb.edge();
  }
  tb.settle();
  EXPECT_TRUE(tb.dut.empty);
}

// SIM_ASSERT_CHK 1 with EN_SIM_ASSERT_ERR "error": a request during reset is
// reported as an error.
TEST(XpmFifoSync, RequestDuringResetIsAnErrorWithSimAssertChk) {
  FifoTb<Vxpm_fifo_std3> tb;
  reset(tb, kStd3);
  drive(tb.dut, kStd3, false, true, 1, false);  // wr_rst_busy is high
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  bool fired = false;
  try {
    tb.edge();
  } catch (const cosim::tb::RtlAssertionError&) {
    fired = true;
  }
  const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  EXPECT_TRUE(fired) << out;
  EXPECT_NE(out.find("while in reset"), std::string::npos) << out;
}

}  // namespace
