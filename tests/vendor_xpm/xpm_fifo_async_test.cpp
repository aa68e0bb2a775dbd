// The xpm_fifo_async stand-in (rtl/vendor/xpm/xpm_fifo_async.sv) in five
// configurations (CMakeLists.txt), driven from two clocks of their own
// (EdgeSchedule: wr_clk and rd_clk periods such as 10/7, 10/23, 3/10, and
// 10/10 and 10/5, whose edges coincide):
//   std1     std, FIFO_READ_LATENCY 1, 16 x 8, every flag ("1F1F"),
//            CDC_SYNC_STAGES 2, FULL_RESET_VALUE 1, DOUT_RESET_VALUE "5A"
//   std2     std, latency 2, 32 x 16, the default flags ("0707"),
//            CDC_SYNC_STAGES 3, a 3-bit write count (the top bits)
//   std3     std, latency 3, 16 x 64, CDC_SYNC_STAGES 5, SIM_ASSERT_CHK with
//            EN_SIM_ASSERT_ERR "error"
//   fwft     fwft, 16 x 32, every flag, CDC_SYNC_STAGES 2, FULL_RESET_VALUE 1
//   fwft_dv  fwft, 64 x 8, data_valid only ("1000"), 1-bit counts,
//            CDC_SYNC_STAGES 4
// Random traffic from fixed seeds is checked, at every edge of either clock,
// against AsyncCheck, a reference written here from the documented behaviour
// (rtl/vendor/README.md): the words come out in the order they went in (a
// std::deque), none lost or doubled; the FIFO never holds more than its
// depth; each side sees the other's writes and reads exactly
// CDC_SYNC_STAGES edges of its own clock late (so full and wr_data_count
// never count fewer words than the FIFO holds, empty and rd_data_count never
// more); the std read latency and the fwft output on the read clock; the
// reset handshake. Directed tests spell out the latencies one by one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vxpm_async_fwft.h"
#include "Vxpm_async_fwft_dv.h"
#include "Vxpm_async_std1.h"
#include "Vxpm_async_std2.h"
#include "Vxpm_async_std3.h"

#include "fifo_async_ref.hpp"
#include "xpm_tb.hpp"

namespace {

namespace xt = cosim::vendor_xpm_test;
using xt::EdgeSchedule;
using xt::AsyncCfg;
using xt::AsyncCheck;
using xt::EdgeTimes;
using xt::RdOut;
using xt::WrOut;
using xt::rd_out;
using xt::wr_out;

// As the CMakeLists passes them.
//                         depth width fwft lat  pf  pe wcw rcw adv  full_rst dout_rst   N  error
const AsyncCfg kStd1{{16, 8, false, 1, 12, 4, 5, 5, 0x1F1F, true, 0x5A}, 2, false};
const AsyncCfg kStd2{{32, 16, false, 2, 20, 6, 3, 8, 0x0707, false, 0}, 3, false};
const AsyncCfg kStd3{{16, 64, false, 3, 10, 3, 5, 5, 0x1F1F, false, 0}, 5, true};
const AsyncCfg kFwft{{16, 32, true, 0, 11, 5, 5, 5, 0x1F1F, true, 0}, 2, false};
const AsyncCfg kFwftDv{{64, 8, true, 0, 10, 10, 1, 1, 0x1000, false, 0}, 4, false};

template <class M>
using AsyncTb = xt::Tb2<M, xt::WrClk, xt::RdClk>;

template <class M>
void drive_idle(M& d) {
  d.rst = 0;
  d.wr_en = 0;
  d.rd_en = 0;
  d.din = 0;
  d.sleep = 0;
  d.injectsbiterr = 0;
  d.injectdbiterr = 0;
}

// Edges until the next one of wr_clk (wr) or rd_clk, that one not taken.
template <class M>
void run_to_next(AsyncTb<M>& tb, bool wr) {
  while (!(wr ? tb.schedule.peek().a : tb.schedule.peek().b)) tb.edge();
}

// rst high for the next wr_clk edge.
template <class M>
void rst_edge(AsyncTb<M>& tb) {
  run_to_next(tb, true);
  tb.dut.rst = 1;
  tb.edge();
  tb.dut.rst = 0;
}

// rst for one wr_clk edge, then edges until neither side is busy.
template <class M>
void reset_until_ready(AsyncTb<M>& tb) {
  drive_idle(tb.dut);
  rst_edge(tb);
  for (int i = 0; i < 1000; ++i) {
    tb.edge();
    tb.settle();
    if (!tb.dut.wr_rst_busy && !tb.dut.rd_rst_busy) return;
  }
  ADD_FAILURE() << "still busy 1000 edges after rst";
}

// Random traffic between two clocks: phases that mostly write or mostly read
// (so the FIFO reaches full and empty), a reset now and then (rst for one to
// three wr_clk edges while the traffic goes on, unless SIM_ASSERT_CHK makes
// requests in reset an error), every output checked at every edge.
template <class M>
AsyncCheck random_traffic(const AsyncCfg& cfg, const EdgeSchedule& clocks, uint64_t seed, int edges) {
  AsyncTb<M> tb(clocks);
  AsyncCheck ref(cfg);
  reset_until_ready(tb);
  ref.restart();
  std::mt19937_64 g(seed);
  int rst_left = 0;
  const uint64_t phase = 12 * cfg.capacity() * std::max(clocks.period_a(), clocks.period_b());
  // Request rates per edge of the faster clock scaled down, so that the
  // phases fill and drain whatever the ratio.
  const double wr_scale = std::min(1.0, double(clocks.period_a()) / double(clocks.period_b()));
  const double rd_scale = std::min(1.0, double(clocks.period_b()) / double(clocks.period_a()));
  for (int i = 0; i < edges; ++i) {
    const EdgeSchedule::Edge e = tb.schedule.peek();
    tb.settle();
    const WrOut wo = wr_out(tb.dut);
    const RdOut ro = rd_out(tb.dut);
    const bool filling = (e.time / phase) % 2 == 0;
    if (e.a) {  // new write-side inputs for this wr_clk edge
      if (rst_left == 0 && !wo.wr_rst_busy && !ro.rd_rst_busy && g() % 700 == 0)
        rst_left = 1 + static_cast<int>(g() % 3);
      tb.dut.rst = rst_left > 0;
      if (rst_left > 0) --rst_left;
      bool wr = double(g() % 100) < (filling ? 75 : 25) * wr_scale;
      if (cfg.sim_assert_error && (tb.dut.rst || wo.wr_rst_busy)) wr = false;
      tb.dut.wr_en = wr;
      tb.dut.din = g() & cfg.mask();
    }
    if (e.b) {
      bool rd = double(g() % 100) < (filling ? 25 : 75) * rd_scale;
      if (cfg.sim_assert_error && ro.rd_rst_busy) rd = false;
      tb.dut.rd_en = rd;
    }
    tb.settle();
    const std::string wbad = ref.check_wr(wr_out(tb.dut));
    const std::string rbad = ref.check_rd(rd_out(tb.dut));
    EXPECT_EQ(wbad + rbad, "") << "before the edge at " << e.time << (e.a ? " wr" : "") << (e.b ? " rd" : "")
                               << ", seed " << seed;
    if (e.a) ref.wr_edge(e.time, tb.dut.rst, tb.dut.wr_en, tb.dut.din, wo);
    if (e.b) ref.rd_edge(e.time, tb.dut.rd_en, ro);
    tb.edge();
    EXPECT_EQ(ref.order_errors_, "") << "seed " << seed;
    EXPECT_EQ(ref.overfilled_, 0u) << "more words held than the FIFO's depth, seed " << seed;
    if (testing::Test::HasFailure()) break;
  }
  return ref;
}

template <class M>
void check_random_traffic(const AsyncCfg& cfg, uint64_t seed) {
  // wr_clk / rd_clk periods: faster writes, slower writes, a fast write clock,
  // equal clocks (every edge together), and a read clock at twice the rate
  // (every other read edge together with a write edge).
  const EdgeSchedule clocks[] = {{10, 7}, {10, 23}, {3, 10}, {10, 10}, {10, 5, 10, 5}, {7, 7, 3, 7}};
  for (const EdgeSchedule& c : clocks) {
    SCOPED_TRACE(c.describe("wr_clk", "rd_clk"));
    const AsyncCheck r = random_traffic<M>(cfg, c, seed, 60000);
    if (testing::Test::HasFailure()) return;
    EXPECT_GT(r.reads_, 3000u);
    EXPECT_EQ(r.writes_, r.reads_ + r.discarded_ + r.held()) << "a word lost or doubled";
    EXPECT_GT(r.full_cycles_, 300u) << "never full";
    EXPECT_GT(r.empty_cycles_, 300u) << "never empty";
    EXPECT_GT(r.resets_, 4u);
    if (cfg.adv_on(0)) EXPECT_GT(r.overflows_, 50u);
    if (cfg.adv_on(8)) EXPECT_GT(r.underflows_, 50u);
  }
}

TEST(XpmFifoAsync, Std1RandomTrafficMatchesReference) { check_random_traffic<Vxpm_async_std1>(kStd1, 11); }
TEST(XpmFifoAsync, Std2RandomTrafficMatchesReference) { check_random_traffic<Vxpm_async_std2>(kStd2, 12); }
TEST(XpmFifoAsync, Std3RandomTrafficMatchesReference) { check_random_traffic<Vxpm_async_std3>(kStd3, 13); }
TEST(XpmFifoAsync, FwftRandomTrafficMatchesReference) { check_random_traffic<Vxpm_async_fwft>(kFwft, 14); }
TEST(XpmFifoAsync, FwftDataValidOnlyRandomTrafficMatchesReference) {
  check_random_traffic<Vxpm_async_fwft_dv>(kFwftDv, 15);
}

// ---- Directed tests -----------------------------------------------------------

// A word stored on wr_clk edge t counts on the read side after the
// CDC_SYNC_STAGES-th rd_clk edge after t: std, empty falls and rd_data_count
// rises then; fwft, the word is on dout one rd_clk edge later. Clocks whose
// edges coincide included (an rd_clk edge at t does not count).
template <class M>
void check_write_reaches_read_side(const AsyncCfg& cfg, const EdgeSchedule& clocks) {
  SCOPED_TRACE(clocks.describe("wr_clk", "rd_clk"));
  AsyncTb<M> tb(clocks);
  reset_until_ready(tb);
  run_to_next(tb, true);
  tb.dut.wr_en = 1;
  tb.dut.din = 0x21;
  tb.edge();  // the write
  tb.dut.wr_en = 0;
  const unsigned want = cfg.stages + (cfg.fwft ? 1 : 0);
  unsigned rd_edges = 0;  // an rd_clk edge at the write's instant does not count
  for (int i = 0; i < 200; ++i) {
    tb.settle();
    if (!tb.dut.empty) break;
    const EdgeSchedule::Edge e = tb.edge();
    rd_edges += e.b;
  }
  tb.settle();
  EXPECT_EQ(rd_edges, want) << "rd_clk edges from the write until empty fell";
  if (cfg.fwft) EXPECT_EQ(tb.dut.dout, 0x21u);
  if (cfg.adv_on(10)) EXPECT_EQ(tb.dut.rd_data_count, cfg.fit(1, cfg.rd_count_width));
}

TEST(XpmFifoAsync, AWriteReachesTheReadSideAfterCdcSyncStagesReadEdges) {
  for (const EdgeSchedule& c : {EdgeSchedule{10, 7}, EdgeSchedule{10, 10}, EdgeSchedule{3, 10}}) {
    check_write_reaches_read_side<Vxpm_async_std1>(kStd1, c);
    check_write_reaches_read_side<Vxpm_async_std2>(kStd2, c);
    check_write_reaches_read_side<Vxpm_async_fwft>(kFwft, c);
    check_write_reaches_read_side<Vxpm_async_fwft_dv>(kFwftDv, c);
  }
}

// A read frees its place for the write side after the CDC_SYNC_STAGES-th
// wr_clk edge after it: full falls then. The FIFO holds FIFO_WRITE_DEPTH - 1
// words in std, FIFO_WRITE_DEPTH + 1 in fwft.
template <class M>
void check_read_reaches_write_side(const AsyncCfg& cfg, const EdgeSchedule& clocks) {
  SCOPED_TRACE(clocks.describe("wr_clk", "rd_clk"));
  AsyncTb<M> tb(clocks);
  reset_until_ready(tb);
  unsigned stored = 0;
  for (int i = 0; i < 2000; ++i) {  // write, no reads, until the FIFO stays full
    const EdgeSchedule::Edge e = tb.schedule.peek();
    tb.settle();
    if (e.a) {
      tb.dut.wr_en = 1;
      tb.dut.din = 100 + stored;
      stored += !tb.dut.full;
    }
    tb.edge();
  }
  tb.dut.wr_en = 0;
  tb.settle();
  EXPECT_EQ(stored, cfg.capacity());
  ASSERT_TRUE(tb.dut.full);
  run_to_next(tb, false);
  tb.dut.rd_en = 1;
  tb.edge();  // the read
  tb.dut.rd_en = 0;
  unsigned wr_edges = 0;
  for (int i = 0; i < 200; ++i) {
    tb.settle();
    if (!tb.dut.full) break;
    wr_edges += tb.edge().a;
  }
  EXPECT_EQ(wr_edges, cfg.stages) << "wr_clk edges from the read until full fell";
}

TEST(XpmFifoAsync, AReadReachesTheWriteSideAfterCdcSyncStagesWriteEdges) {
  for (const EdgeSchedule& c : {EdgeSchedule{10, 7}, EdgeSchedule{10, 10}, EdgeSchedule{23, 10}}) {
    check_read_reaches_write_side<Vxpm_async_std1>(kStd1, c);
    check_read_reaches_write_side<Vxpm_async_std2>(kStd2, c);
    check_read_reaches_write_side<Vxpm_async_fwft>(kFwft, c);
  }
}

// std: a read taken on rd_clk edge r puts its word on dout after edge
// r + FIFO_READ_LATENCY - 1, with data_valid high for that one cycle.
template <class M>
void check_std_read_latency(const AsyncCfg& cfg) {
  AsyncTb<M> tb(EdgeSchedule{10, 7});
  reset_until_ready(tb);
  run_to_next(tb, true);
  tb.dut.wr_en = 1;
  tb.dut.din = 0x42;
  tb.edge();
  tb.dut.wr_en = 0;
  for (int i = 0; i < 200 && (tb.settle(), tb.dut.empty); ++i) tb.edge();
  run_to_next(tb, false);
  tb.dut.rd_en = 1;
  tb.edge();  // the read: rd_clk edge r
  tb.dut.rd_en = 0;
  // dout and data_valid after rd_clk edges r, r + 1, ...
  std::vector<uint64_t> dout, valid, want_dout, want_valid;
  for (unsigned k = 0; k < cfg.latency + 2; ++k) {
    tb.settle();
    dout.push_back(tb.dut.dout);
    valid.push_back(tb.dut.data_valid);
    want_dout.push_back(k + 1 >= cfg.latency ? 0x42u : cfg.dout_reset);
    want_valid.push_back(cfg.adv_on(12) && k + 1 == cfg.latency);
    run_to_next(tb, false);
    tb.edge();
  }
  EXPECT_EQ(dout, want_dout) << "dout after the read's rd_clk edge and the next ones";
  EXPECT_EQ(valid, want_valid) << "data_valid after the read's rd_clk edge and the next ones";
}

TEST(XpmFifoAsync, StdDoutFollowsTheReadAfterFifoReadLatencyReadEdges) {
  check_std_read_latency<Vxpm_async_std1>(kStd1);
  check_std_read_latency<Vxpm_async_std2>(kStd2);
  check_std_read_latency<Vxpm_async_std3>(kStd3);
}

// rst empties the FIFO. wr_rst_busy rises on the wr_clk edge after rst and
// full shows FULL_RESET_VALUE while it is high; rd_rst_busy rises after the
// CDC_SYNC_STAGES-th rd_clk edge after the rst edge (empty high, counts 0);
// requests are ignored while busy; afterwards the FIFO is empty and dout has
// its reset value.
TEST(XpmFifoAsync, ResetCrossesToTheReadSide) {
  AsyncTb<Vxpm_async_std1> tb(EdgeSchedule{10, 7});
  reset_until_ready(tb);
  for (int i = 0; i < 6; ++i) {  // three words in, one out
    run_to_next(tb, true);
    tb.dut.wr_en = i < 3;
    tb.dut.din = 7 + i;
    tb.edge();
  }
  tb.dut.wr_en = 0;
  run_to_next(tb, false);
  tb.dut.rd_en = 1;
  tb.edge();
  tb.dut.rd_en = 0;
  tb.dut.wr_en = 1;  // ignored: rst
  rst_edge(tb);
  tb.dut.rd_en = 1;  // until the read side is busy, reads go on (one word left)
  tb.settle();
  EXPECT_TRUE(tb.dut.wr_rst_busy);
  EXPECT_TRUE(tb.dut.full) << "FULL_RESET_VALUE 1";
  EXPECT_TRUE(tb.dut.almost_full);
  EXPECT_TRUE(tb.dut.prog_full);
  EXPECT_EQ(tb.dut.wr_data_count, 0u);
  unsigned rd_edges = 0;  // an rd_clk edge at the rst edge's instant does not count
  while (!tb.dut.rd_rst_busy && rd_edges < 20) {
    rd_edges += tb.edge().b;
    tb.settle();
  }
  EXPECT_EQ(rd_edges, kStd1.stages) << "rd_clk edges from the rst edge until rd_rst_busy rose";
  EXPECT_TRUE(tb.dut.empty);
  EXPECT_EQ(tb.dut.rd_data_count, 0u);
  EXPECT_TRUE(tb.dut.wr_rst_busy) << "the write side waits for the read side";
  unsigned busy_edges = 0;
  while ((tb.dut.wr_rst_busy || tb.dut.rd_rst_busy) && busy_edges < 100) {
    tb.edge();
    tb.settle();
    ++busy_edges;
    EXPECT_FALSE(tb.dut.wr_ack) << "a write while busy was ignored";
  }
  EXPECT_LT(busy_edges, 40u);
  tb.dut.wr_en = 0;
  tb.dut.rd_en = 0;
  for (int i = 0; i < 20; ++i) tb.edge();
  tb.settle();
  EXPECT_TRUE(tb.dut.empty) << "the reset emptied the FIFO";
  EXPECT_EQ(tb.dut.wr_data_count, 0u);
  EXPECT_EQ(tb.dut.dout, kStd1.dout_reset);
  EXPECT_FALSE(tb.dut.full);
}

// How long each side stays busy after one rst edge, for the README: equal
// clocks, CDC_SYNC_STAGES 2.
TEST(XpmFifoAsync, ResetBusyLengthWithEqualClocks) {
  AsyncTb<Vxpm_async_std1> tb(EdgeSchedule{10, 10});
  reset_until_ready(tb);
  rst_edge(tb);
  unsigned wr_busy = 0, rd_busy = 0;
  for (int i = 0; i < 40; ++i) {
    tb.settle();
    wr_busy += tb.dut.wr_rst_busy;
    rd_busy += tb.dut.rd_rst_busy;
    tb.edge();
  }
  EXPECT_EQ(wr_busy, 9u) << "wr_rst_busy cycles";
  EXPECT_EQ(rd_busy, 6u) << "rd_rst_busy cycles";
}

// rst again while a side is still busy, at every point of the handshake: the
// read side is in reset after it too, the write side stays busy without a
// gap until both sides are through, then the FIFO is empty and works (three
// words in, the same three out).
TEST(XpmFifoAsync, ResetDuringResetBusy) {
  for (unsigned later = 0; later < 16; ++later) {
    SCOPED_TRACE("second rst " + std::to_string(later) + " wr_clk edges after the first");
    AsyncTb<Vxpm_async_fwft> tb(EdgeSchedule{10, 7});
    reset_until_ready(tb);
    rst_edge(tb);
    for (unsigned k = 0; k < later; ++k) run_to_next(tb, true), tb.edge();
    rst_edge(tb);
    unsigned edges = 0;
    bool rd_busy_seen = false;
    for (; edges < 200 && (tb.settle(), tb.dut.wr_rst_busy || tb.dut.rd_rst_busy); ++edges) {
      ASSERT_TRUE(tb.dut.wr_rst_busy) << "the write side left busy before the read side, edge " << edges;
      rd_busy_seen |= static_cast<bool>(tb.dut.rd_rst_busy);
      tb.edge();
    }
    ASSERT_LT(edges, 60u);
    EXPECT_TRUE(rd_busy_seen) << "the read side was not reset after the second rst";
    for (uint64_t w = 1; w <= 3; ++w) {
      run_to_next(tb, true);
      tb.dut.wr_en = 1;
      tb.dut.din = w;
      tb.edge();
    }
    tb.dut.wr_en = 0;
    std::vector<uint64_t> got;
    for (int i = 0; i < 100 && got.size() < 3; ++i) {
      tb.settle();
      const bool take = tb.schedule.peek().b && !tb.dut.empty;
      if (take) got.push_back(tb.dut.dout);
      tb.dut.rd_en = take;
      tb.edge();
    }
    tb.dut.rd_en = 0;
    EXPECT_EQ(got, (std::vector<uint64_t>{1, 2, 3}));
  }
}

// SIM_ASSERT_CHK 1 with EN_SIM_ASSERT_ERR "error": a write while wr_rst_busy,
// or a read while rd_rst_busy, is reported as an error on its own clock.
TEST(XpmFifoAsync, RequestDuringResetIsAnErrorWithSimAssertChk) {
  for (const bool write : {true, false}) {
    AsyncTb<Vxpm_async_std3> tb(EdgeSchedule{10, 7});
    reset_until_ready(tb);
    rst_edge(tb);
    for (int i = 0; i < 100 && (tb.settle(), !tb.dut.rd_rst_busy); ++i) tb.edge();
    ASSERT_TRUE(tb.dut.rd_rst_busy);
    (write ? tb.dut.wr_en : tb.dut.rd_en) = 1;
    const auto r = xt::expect_rtl_error([&tb] {
      for (int i = 0; i < 4; ++i) tb.edge();
    });
    EXPECT_TRUE(r.fired) << r.output;
    EXPECT_NE(r.output.find(write ? "wr_en while in reset" : "rd_en while in reset"), std::string::npos)
        << r.output;
  }
}

}  // namespace
