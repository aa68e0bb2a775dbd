// The xpm_fifo_axis stand-in (rtl/vendor/xpm/xpm_fifo_axis.sv) in four
// configurations (CMakeLists.txt):
//   cc       "common_clock", FIFO_DEPTH 16, 16-bit tdata (2-bit tkeep, tstrb),
//            TID 3, TDEST 4, TUSER 5 bits, every axis flag ("0E0E")
//   cc_def   "common_clock", FIFO_DEPTH 32, 64-bit tdata, 1-bit sidebands,
//            the default flags ("1000": none)
//   ic       "independent_clock", FIFO_DEPTH 16, CDC_SYNC_STAGES 2, 32-bit
//            tdata, TID 8, TDEST 8, TUSER 32 bits, every axis flag
//   ic3      "independent_clock", FIFO_DEPTH 32, CDC_SYNC_STAGES 3, 8-bit
//            tdata, counts and prog flags ("0606") with 3-bit counts (top bits)
// As documented, the FIFO is xpm_fifo_sync / xpm_fifo_async in "fwft" mode
// with each beat as one word: random beats with random TVALID and TREADY
// stalls are checked at every edge against those FIFOs' references
// (FifoRef, AsyncCheck), which hold the index of each beat sent: every
// sideband (tdata, tstrb, tkeep, tlast, tid, tdest, tuser) must come out
// with its beat, in order; s_axis_tready is "not full and not in reset",
// m_axis_tvalid "not empty", the counts and flags those of the FIFO.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "Vxpm_axis_cc.h"
#include "Vxpm_axis_cc_def.h"
#include "Vxpm_axis_ic.h"
#include "Vxpm_axis_ic3.h"

#include "fifo_async_ref.hpp"
#include "fifo_ref.hpp"
#include "xpm_tb.hpp"

namespace {

namespace xt = cosim::vendor_xpm_test;
using xt::EdgeSchedule;

struct SAclk { template <class M> auto& operator()(M& m) const { return m.s_aclk; } };
struct MAclk { template <class M> auto& operator()(M& m) const { return m.m_aclk; } };

struct AxisCfg {
  unsigned depth, tdata, tid, tdest, tuser;
  unsigned adv;  // USE_ADV_FEATURES as passed
  unsigned prog_full, prog_empty, wr_count_width, rd_count_width;
  unsigned stages;  // CDC_SYNC_STAGES ("independent_clock")
  unsigned keep() const { return tdata / 8; }
  // The flags the axis ports have: bits 1, 2, 3, 9, 10, 11.
  unsigned flags() const { return adv & 0x0E0E; }
};

uint64_t mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

//                     depth tdata tid tdest tuser adv     pf  pe wcw rcw N
const AxisCfg kCc{16, 16, 3, 4, 5, 0x0E0E, 11, 5, 6, 6, 0};
const AxisCfg kCcDef{32, 64, 1, 1, 1, 0x1000, 10, 10, 1, 1, 0};
const AxisCfg kIc{16, 32, 8, 8, 32, 0x0E0E, 11, 5, 5, 5, 2};
const AxisCfg kIc3{32, 8, 1, 1, 1, 0x0606, 20, 6, 3, 3, 3};

struct Beat {
  uint64_t data, strb, keep, last, id, dest, user;
  bool operator==(const Beat& o) const {
    return data == o.data && strb == o.strb && keep == o.keep && last == o.last && id == o.id && dest == o.dest &&
           user == o.user;
  }
};

Beat random_beat(const AxisCfg& c, std::mt19937_64& g) {
  return Beat{g() & mask(c.tdata), g() & mask(c.keep()), g() & mask(c.keep()), g() & 1u,
              g() & mask(c.tid),   g() & mask(c.tdest),  g() & mask(c.tuser)};
}

template <class M>
void drive_beat(M& d, const Beat& b) {
  d.s_axis_tdata = b.data;
  d.s_axis_tstrb = b.strb;
  d.s_axis_tkeep = b.keep;
  d.s_axis_tlast = b.last;
  d.s_axis_tid = b.id;
  d.s_axis_tdest = b.dest;
  d.s_axis_tuser = b.user;
}
template <class M>
Beat out_beat(const M& d) {
  return Beat{static_cast<uint64_t>(d.m_axis_tdata), d.m_axis_tstrb, d.m_axis_tkeep, d.m_axis_tlast,
              d.m_axis_tid, d.m_axis_tdest, static_cast<uint64_t>(d.m_axis_tuser)};
}
std::string show(const Beat& b) {
  return "data " + std::to_string(b.data) + " strb " + std::to_string(b.strb) + " keep " + std::to_string(b.keep) +
         " last " + std::to_string(b.last) + " id " + std::to_string(b.id) + " dest " + std::to_string(b.dest) +
         " user " + std::to_string(b.user);
}

// The slave side's source: random beats, TVALID held until the beat is taken
// (AXI-Stream), in phases that mostly send or mostly take.
struct Source {
  std::vector<Beat> beats;  // every beat offered, in order
  bool valid = false;
  template <class M>
  void next(M& d, const AxisCfg& c, std::mt19937_64& g, unsigned percent) {
    if (!valid && g() % 100 < percent) {
      beats.push_back(random_beat(c, g));
      valid = true;
    }
    d.s_axis_tvalid = valid;
    if (valid) drive_beat(d, beats.back());
  }
};

// ---- "common_clock": against FifoRef (xpm_fifo_sync, "fwft") ----------------------

template <class M>
void check_common_clock(const AxisCfg& c, uint64_t seed) {
  xt::Tb<M, SAclk> tb;
  xt::FifoRef ref(xt::FifoCfg{c.depth, 32, true, 0, c.prog_full, c.prog_empty, c.wr_count_width, c.rd_count_width,
                              c.flags(), false, 0});
  std::mt19937_64 g(seed);
  Source src;
  tb.dut.m_aclk = 0;
  tb.dut.s_aresetn = 0;
  tb.dut.s_axis_tvalid = 0;
  tb.dut.m_axis_tready = 0;
  ref.edge(true, false, 0, false);
  tb.edge();
  tb.dut.s_aresetn = 1;
  unsigned taken = 0, full_cycles = 0, empty_cycles = 0, resets = 0, stalls = 0;
  for (int i = 0; i < 60000; ++i) {
    const bool filling = (i / 400) % 2 == 0;
    tb.dut.s_aresetn = !(g() % 2000 == 0);
    resets += !tb.dut.s_aresetn;
    src.next(tb.dut, c, g, filling ? 80 : 25);
    tb.dut.m_axis_tready = g() % 100 < (filling ? 25u : 80u);
    tb.dut.injectsbiterr_axis = g() & 1;
    tb.dut.injectdbiterr_axis = g() & 1;
    tb.settle();
    const xt::FifoOut o = ref.outputs();
    const uint64_t base = src.beats.size() - (src.valid ? 1 : 0);  // index of the offered beat
    ASSERT_EQ(static_cast<bool>(tb.dut.s_axis_tready), !o.full && !o.wr_rst_busy) << "s_axis_tready, cycle " << i;
    ASSERT_EQ(static_cast<bool>(tb.dut.m_axis_tvalid), !o.empty) << "m_axis_tvalid, cycle " << i;
    if (!o.empty) {
      ASSERT_EQ(show(out_beat(tb.dut)), show(src.beats[o.dout])) << "beat " << o.dout << ", cycle " << i;
    }
    ASSERT_EQ(static_cast<bool>(tb.dut.prog_full_axis), o.prog_full) << i;
    ASSERT_EQ(static_cast<uint64_t>(tb.dut.wr_data_count_axis), o.wr_data_count) << i;
    ASSERT_EQ(static_cast<bool>(tb.dut.almost_full_axis), o.almost_full) << i;
    ASSERT_EQ(static_cast<bool>(tb.dut.prog_empty_axis), o.prog_empty) << i;
    ASSERT_EQ(static_cast<uint64_t>(tb.dut.rd_data_count_axis), o.rd_data_count) << i;
    ASSERT_EQ(static_cast<bool>(tb.dut.almost_empty_axis), o.almost_empty) << i;
    ASSERT_FALSE(tb.dut.sbiterr_axis || tb.dut.dbiterr_axis);
    const bool rst = !tb.dut.s_aresetn;
    const bool wr = tb.dut.s_axis_tvalid && tb.dut.s_axis_tready && !rst;
    const bool rd = tb.dut.m_axis_tvalid && tb.dut.m_axis_tready && !rst;
    full_cycles += o.full;
    empty_cycles += o.empty;
    stalls += tb.dut.s_axis_tvalid && !tb.dut.s_axis_tready;
    taken += rd;
    ref.edge(rst, tb.dut.s_axis_tvalid, base, tb.dut.m_axis_tready);
    tb.edge();
    if (wr) src.valid = false;
  }
  EXPECT_GT(taken, 10000u);
  EXPECT_GT(full_cycles, 1000u) << "never full";
  EXPECT_GT(empty_cycles, 1000u) << "never empty";
  EXPECT_GT(resets, 10u);
  EXPECT_GT(stalls, 1000u);
}

TEST(XpmFifoAxis, CommonClockEverySidebandAndFlag) { check_common_clock<Vxpm_axis_cc>(kCc, 21); }
TEST(XpmFifoAxis, CommonClockDefaultFlagsWideData) { check_common_clock<Vxpm_axis_cc_def>(kCcDef, 22); }

// ---- "independent_clock": against AsyncCheck (xpm_fifo_async, "fwft") -------------

template <class M>
using AxisTb2 = xt::Tb2<M, SAclk, MAclk>;

// s_aresetn low for a few s_aclk edges, then idle until both sides are out
// of reset (s_axis_tready high, well past the reset handshake).
template <class M>
void reset_axis(AxisTb2<M>& tb) {
  tb.dut.s_axis_tvalid = 0;
  tb.dut.m_axis_tready = 0;
  tb.dut.s_aresetn = 0;
  for (int i = 0; i < 8; ++i) tb.edge();
  tb.dut.s_aresetn = 1;
  for (int i = 0; i < 200; ++i) tb.edge();
  tb.settle();
  ASSERT_TRUE(tb.dut.s_axis_tready);
  ASSERT_FALSE(tb.dut.m_axis_tvalid);
}

template <class M>
void check_independent_clock(const AxisCfg& c, const EdgeSchedule& clocks, uint64_t seed) {
  SCOPED_TRACE(clocks.describe("s_aclk", "m_aclk"));
  AxisTb2<M> tb(clocks);
  tb.dut.injectsbiterr_axis = 0;
  tb.dut.injectdbiterr_axis = 0;
  reset_axis(tb);
  const xt::AsyncCfg acfg{{c.depth, 32, true, 0, c.prog_full, c.prog_empty, c.wr_count_width, c.rd_count_width,
                           c.flags(), false, 0},
                          c.stages, false};
  xt::AsyncCheck ref(acfg);
  ref.restart();
  std::mt19937_64 g(seed);
  Source src;
  uint64_t next_out = 0;  // the index of the next beat to come out
  unsigned stalls = 0, full = 0, empty = 0;
  const uint64_t phase = 12 * (c.depth + 1) * std::max(clocks.period_a(), clocks.period_b());
  const double s_scale = std::min(1.0, double(clocks.period_a()) / double(clocks.period_b()));
  const double m_scale = std::min(1.0, double(clocks.period_b()) / double(clocks.period_a()));
  for (int i = 0; i < 40000; ++i) {
    const EdgeSchedule::Edge e = tb.schedule.peek();
    const bool filling = (e.time / phase) % 2 == 0;
    if (e.a) src.next(tb.dut, c, g, static_cast<unsigned>((filling ? 75 : 25) * s_scale));
    if (e.b) tb.dut.m_axis_tready = double(g() % 100) < (filling ? 25 : 75) * m_scale;
    tb.settle();
    const uint64_t base = src.beats.size() - (src.valid ? 1 : 0);
    // The FIFO's ports as the reference knows them: no resets during the traffic.
    const xt::WrOut wo{!tb.dut.s_axis_tready, static_cast<bool>(tb.dut.almost_full_axis),
                       static_cast<bool>(tb.dut.prog_full_axis), false, false, false,
                       static_cast<uint64_t>(tb.dut.wr_data_count_axis)};
    const bool match = tb.dut.m_axis_tvalid && next_out < src.beats.size() && out_beat(tb.dut) == src.beats[next_out];
    const xt::RdOut ro{!tb.dut.m_axis_tvalid, static_cast<bool>(tb.dut.almost_empty_axis),
                       static_cast<bool>(tb.dut.prog_empty_axis), false, false, false,
                       static_cast<uint64_t>(tb.dut.rd_data_count_axis), match ? next_out : ~0ull};
    const std::string bad = ref.check_wr(wo) + ref.check_rd(ro);
    ASSERT_EQ(bad, "") << "before the edge at " << e.time << (e.a ? " s" : "") << (e.b ? " m" : "")
                       << (tb.dut.m_axis_tvalid && !match
                               ? " m_axis: " + show(out_beat(tb.dut)) + ", want " + show(src.beats[next_out])
                               : std::string());
    ASSERT_FALSE(tb.dut.sbiterr_axis || tb.dut.dbiterr_axis);
    stalls += e.a && tb.dut.s_axis_tvalid && !tb.dut.s_axis_tready;
    full += e.a && !tb.dut.s_axis_tready;
    empty += e.b && !tb.dut.m_axis_tvalid;
    const bool wr = e.a && tb.dut.s_axis_tvalid && tb.dut.s_axis_tready;
    const bool rd = e.b && tb.dut.m_axis_tvalid && tb.dut.m_axis_tready;
    if (e.a) ref.wr_edge(e.time, false, tb.dut.s_axis_tvalid, base, wo);
    if (e.b) ref.rd_edge(e.time, tb.dut.m_axis_tready, ro);
    tb.edge();
    if (wr) src.valid = false;
    if (rd) ++next_out;
    ASSERT_EQ(ref.order_errors_, "");
  }
  EXPECT_GT(next_out, 2000u);
  EXPECT_GT(stalls, 300u);
  EXPECT_GT(full, 300u) << "never full";
  EXPECT_GT(empty, 300u) << "never empty";
}

const EdgeSchedule kClocks[] = {{10, 7}, {10, 23}, {3, 10}, {10, 10}, {10, 5, 10, 5}};

TEST(XpmFifoAxis, IndependentClockEverySidebandAndFlag) {
  for (const EdgeSchedule& c : kClocks) check_independent_clock<Vxpm_axis_ic>(kIc, c, 23);
}
TEST(XpmFifoAxis, IndependentClockThreeStagesNarrowCounts) {
  for (const EdgeSchedule& c : kClocks) check_independent_clock<Vxpm_axis_ic3>(kIc3, c, 24);
}

// s_aresetn with two clocks: s_axis_tready falls on the next s_aclk edge, the
// beats held are dropped once the reset has crossed (m_axis_tvalid low
// after CDC_SYNC_STAGES m_aclk edges), and new beats pass afterwards.
TEST(XpmFifoAxis, IndependentClockResetEmptiesTheFifo) {
  AxisTb2<Vxpm_axis_ic> tb(EdgeSchedule{10, 7});
  tb.dut.injectsbiterr_axis = 0;
  tb.dut.injectdbiterr_axis = 0;
  reset_axis(tb);
  std::mt19937_64 g(5);
  for (int k = 0; k < 3; ++k) {  // three beats in
    while (!tb.schedule.peek().a) tb.edge();
    drive_beat(tb.dut, random_beat(kIc, g));
    tb.dut.s_axis_tvalid = 1;
    tb.edge();
  }
  tb.dut.s_axis_tvalid = 0;
  for (int i = 0; i < 40; ++i) tb.edge();
  tb.settle();
  ASSERT_TRUE(tb.dut.m_axis_tvalid);
  ASSERT_EQ(tb.dut.rd_data_count_axis, 3u);
  while (!tb.schedule.peek().a) tb.edge();
  tb.dut.s_aresetn = 0;
  tb.edge();
  tb.dut.s_aresetn = 1;
  tb.settle();
  EXPECT_FALSE(tb.dut.s_axis_tready) << "in reset";
  unsigned m_edges = 0;
  while (tb.dut.m_axis_tvalid && m_edges < 20) {
    m_edges += tb.edge().b;
    tb.settle();
  }
  EXPECT_EQ(m_edges, kIc.stages) << "m_aclk edges until the reset reached the master side";
  for (int i = 0; i < 200; ++i) tb.edge();
  tb.settle();
  EXPECT_TRUE(tb.dut.s_axis_tready);
  EXPECT_FALSE(tb.dut.m_axis_tvalid) << "the reset emptied the FIFO";
  EXPECT_EQ(tb.dut.wr_data_count_axis, 0u);
  const Beat b = random_beat(kIc, g);
  while (!tb.schedule.peek().a) tb.edge();
  drive_beat(tb.dut, b);
  tb.dut.s_axis_tvalid = 1;
  tb.edge();
  tb.dut.s_axis_tvalid = 0;
  for (int i = 0; i < 40 && (tb.settle(), !tb.dut.m_axis_tvalid); ++i) tb.edge();
  EXPECT_EQ(show(out_beat(tb.dut)), show(b));
}

// Capacity: FIFO_DEPTH + 2 beats with one clock, FIFO_DEPTH + 1 with two.
TEST(XpmFifoAxis, CapacityIsTheFwftDepth) {
  {
    xt::Tb<Vxpm_axis_cc, SAclk> tb;
    tb.dut.s_aresetn = 0;
    tb.dut.m_axis_tready = 0;
    tb.dut.s_axis_tvalid = 0;
    tb.edge();
    tb.dut.s_aresetn = 1;
    tb.edge();
    tb.dut.s_axis_tvalid = 1;
    unsigned n = 0;
    for (int i = 0; i < 100; ++i) {
      tb.settle();
      n += tb.dut.s_axis_tready;
      tb.edge();
    }
    EXPECT_EQ(n, kCc.depth + 2);
  }
  {
    AxisTb2<Vxpm_axis_ic> tb(EdgeSchedule{10, 7});
    tb.dut.injectsbiterr_axis = 0;
    tb.dut.injectdbiterr_axis = 0;
    reset_axis(tb);
    tb.dut.s_axis_tvalid = 1;
    unsigned n = 0;
    for (int i = 0; i < 300; ++i) {
      tb.settle();
      n += tb.schedule.peek().a && tb.dut.s_axis_tready;
      tb.edge();
    }
    EXPECT_EQ(n, kIc.depth + 1);
  }
}

}  // namespace
