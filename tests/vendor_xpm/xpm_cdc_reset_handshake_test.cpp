// The reset synchronisers and the handshake crossing (rtl/vendor/xpm/
// xpm_cdc_sync_rst.sv, xpm_cdc_async_rst.sv, xpm_cdc_handshake.sv), Verilated
// in the configurations of CMakeLists.txt:
//   sync_rst_2     xpm_cdc_sync_rst, DEST_SYNC_FF 2, INIT 1, INIT_SYNC_FF 1
//   sync_rst_5     xpm_cdc_sync_rst, DEST_SYNC_FF 5, INIT 0, INIT_SYNC_FF 1
//   sync_rst_10    xpm_cdc_sync_rst, DEST_SYNC_FF 10, INIT 1, INIT_SYNC_FF 0
//   async_rst_hi   xpm_cdc_async_rst, DEST_SYNC_FF 3, RST_ACTIVE_HIGH 1, INIT_SYNC_FF 1
//   async_rst_lo   xpm_cdc_async_rst, DEST_SYNC_FF 2, RST_ACTIVE_HIGH 0, INIT_SYNC_FF 1
//   async_rst_10   xpm_cdc_async_rst, DEST_SYNC_FF 10, RST_ACTIVE_HIGH 0, INIT_SYNC_FF 0
//   hs_ext         xpm_cdc_handshake, DEST_EXT_HSK 1, DEST_SYNC_FF 2, SRC_SYNC_FF 3,
//                  16 bits, INIT_SYNC_FF 1, SIM_ASSERT_CHK 1
//   hs_int         xpm_cdc_handshake, DEST_EXT_HSK 0, DEST_SYNC_FF 4, SRC_SYNC_FF 2,
//                  32 bits, INIT_SYNC_FF 1, SIM_ASSERT_CHK 1
//   hs_int_slow    xpm_cdc_handshake, DEST_EXT_HSK 0, DEST_SYNC_FF 10, SRC_SYNC_FF 10,
//                  1 bit, INIT_SYNC_FF 1
// Each output is checked after every edge (and, for the asynchronous reset,
// after every change of its input) against references written here from the
// documented latencies (rtl/vendor/README.md), at several clock ratios.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "Vxpm_async_rst_10.h"
#include "Vxpm_async_rst_hi.h"
#include "Vxpm_async_rst_lo.h"
#include "Vxpm_hs_ext.h"
#include "Vxpm_hs_int.h"
#include "Vxpm_hs_int_slow.h"
#include "Vxpm_sync_rst_10.h"
#include "Vxpm_sync_rst_2.h"
#include "Vxpm_sync_rst_5.h"

#include "xpm_tb.hpp"

namespace {

namespace xt = cosim::vendor_xpm_test;
using xt::EdgeSchedule;
using xt::EdgeTimes;
using xt::History;

// The source of a reset synchroniser has no clock port: a virtual source
// clock (clock A of the schedule) changes src_*rst on its edges, dest_clk is
// clock B. A source edge at the same instant as a dest_clk edge changes the
// input after that edge has sampled it.
const EdgeSchedule kRatios[] = {{10, 7}, {7, 10}, {10, 10}, {3, 10}, {10, 3}, {10, 5, 10, 5}, {23, 10}};

template <class M>
using OneClockTb = xt::Tb<M, xt::DestClk>;

// check(tb, clocks, g) once per ratio of kRatios, each on a testbench of its
// own with a generator seeded with `seed`.
template <class M, class Check>
void for_each_ratio(uint64_t seed, Check check) {
  for (const EdgeSchedule& ratio : kRatios) {
    EdgeSchedule clocks = ratio;
    SCOPED_TRACE(clocks.describe("source", "dest_clk"));
    OneClockTb<M> tb;
    std::mt19937_64 g(seed);
    check(tb, clocks, g);
  }
}

// ---- xpm_cdc_sync_rst -----------------------------------------------------------

// dest_rst after dest_clk edge k is src_rst as sampled on edge k - DEST_SYNC_FF + 1
// (DEST_SYNC_FF flip-flops), INIT before that with INIT_SYNC_FF 1.
template <class M>
void check_sync_rst(unsigned stages, bool init, bool init_sync_ff, uint64_t seed) {
  for_each_ratio<M>(seed, [&](OneClockTb<M>& tb, EdgeSchedule& clocks, std::mt19937_64& g) {
    tb.dut.src_rst = 1;
    std::deque<bool> row(stages, init);  // the reference's flip-flops, row.back() = dest_rst
    unsigned dest_edges = 0, changes = 0, checked = 0;
    bool last = init;
    for (int i = 0; i < 6000; ++i) {
      const EdgeSchedule::Edge e = clocks.take();
      if (e.b) {
        row.push_front(tb.dut.src_rst);
        row.pop_back();
        tb.edge();
        ++dest_edges;
      }
      if (e.a && g() % 3 == 0) tb.dut.src_rst = !tb.dut.src_rst;
      tb.settle();
      if (init_sync_ff || dest_edges >= stages) {
        ASSERT_EQ(static_cast<bool>(tb.dut.dest_rst), row.back()) << "after " << dest_edges << " dest_clk edges";
        ++checked;
      }
      changes += tb.dut.dest_rst != last;
      last = tb.dut.dest_rst;
    }
    EXPECT_GT(checked, 5000u);
    EXPECT_GT(changes, 100u);
  });
}

TEST(XpmCdcSyncRst, TwoStagesStartingInReset) { check_sync_rst<Vxpm_sync_rst_2>(2, true, true, 1); }
TEST(XpmCdcSyncRst, FiveStagesStartingOutOfReset) { check_sync_rst<Vxpm_sync_rst_5>(5, false, true, 2); }
TEST(XpmCdcSyncRst, TenStagesWithoutInitValues) { check_sync_rst<Vxpm_sync_rst_10>(10, true, false, 3); }

// INIT is what dest_rst shows before DEST_SYNC_FF edges have passed.
TEST(XpmCdcSyncRst, InitIsTheValueBeforeTheFirstEdges) {
  OneClockTb<Vxpm_sync_rst_2> in_reset;
  in_reset.dut.src_rst = 0;
  in_reset.settle();
  EXPECT_TRUE(in_reset.dut.dest_rst);
  in_reset.edge();
  in_reset.settle();
  EXPECT_TRUE(in_reset.dut.dest_rst) << "one edge of two";
  in_reset.edge();
  in_reset.settle();
  EXPECT_FALSE(in_reset.dut.dest_rst) << "after DEST_SYNC_FF edges";
  OneClockTb<Vxpm_sync_rst_5> out_of_reset;
  out_of_reset.dut.src_rst = 1;
  out_of_reset.settle();
  EXPECT_FALSE(out_of_reset.dut.dest_rst);
  for (int k = 1; k <= 5; ++k) {
    out_of_reset.edge();
    out_of_reset.settle();
    EXPECT_EQ(static_cast<bool>(out_of_reset.dut.dest_rst), k == 5) << k << " edges";
  }
}

// ---- xpm_cdc_async_rst ----------------------------------------------------------

// In "active" terms (1 = in reset, whatever the polarity): dest_arst is active
// at once while src_arst is, and until DEST_SYNC_FF dest_clk edges have passed
// with src_arst inactive.
template <class M>
void check_async_rst(unsigned stages, bool active_high, bool init_sync_ff, uint64_t seed) {
  for_each_ratio<M>(seed, [&](OneClockTb<M>& tb, EdgeSchedule& clocks, std::mt19937_64& g) {
    const auto level = [active_high](bool active) { return active ? active_high : !active_high; };
    bool src_active = false;
    tb.dut.src_arst = level(false);
    unsigned since_release = stages;  // dest_clk edges with src_arst inactive (INIT_SYNC_FF 1: inactive)
    bool known = init_sync_ff;        // without INIT_SYNC_FF: from the first assertion on
    unsigned assertions = 0, checked = 0;
    for (int i = 0; i < 8000; ++i) {
      const EdgeSchedule::Edge e = clocks.take();
      if (e.b) {
        tb.edge();
        if (!src_active && since_release < stages) ++since_release;
        tb.settle();
        if (known) {
          ASSERT_EQ(static_cast<bool>(tb.dut.dest_arst), level(src_active || since_release < stages))
              << "after a dest_clk edge at " << e.time;
          ++checked;
        }
      }
      if (e.a) {
        // Active for a short while now and then (shorter than a dest_clk
        // period when the source is faster), mostly inactive.
        const bool next = src_active ? g() % 2 == 0 : g() % 9 == 0;
        if (next != src_active) {
          src_active = next;
          tb.dut.src_arst = level(src_active);
          if (src_active) {
            since_release = 0;
            known = true;
            ++assertions;
          }
          tb.settle();  // no clock edge: the assertion shows at once, a release does not
          ASSERT_EQ(static_cast<bool>(tb.dut.dest_arst), level(src_active || since_release < stages))
              << "just after src_arst changed at " << e.time;
          ++checked;
        }
      }
    }
    EXPECT_GT(assertions, 100u);
    EXPECT_GT(checked, 3000u);
  });
}

TEST(XpmCdcAsyncRst, ActiveHighThreeStages) { check_async_rst<Vxpm_async_rst_hi>(3, true, true, 4); }
TEST(XpmCdcAsyncRst, ActiveLowTwoStages) { check_async_rst<Vxpm_async_rst_lo>(2, false, true, 5); }
TEST(XpmCdcAsyncRst, ActiveLowTenStagesWithoutInitValues) {
  check_async_rst<Vxpm_async_rst_10>(10, false, false, 6);
}

// A pulse of src_arst between two dest_clk edges: dest_arst active at once,
// and for exactly DEST_SYNC_FF dest_clk edges after the release.
TEST(XpmCdcAsyncRst, AShortPulseLastsDestSyncFfEdges) {
  OneClockTb<Vxpm_async_rst_hi> tb;
  tb.dut.src_arst = 0;
  for (int i = 0; i < 5; ++i) tb.edge();
  tb.settle();
  ASSERT_FALSE(tb.dut.dest_arst);
  tb.dut.src_arst = 1;
  tb.settle();
  EXPECT_TRUE(tb.dut.dest_arst) << "asserted without a dest_clk edge";
  tb.dut.src_arst = 0;
  tb.settle();
  EXPECT_TRUE(tb.dut.dest_arst) << "still asserted after the release";
  std::vector<int> seen;
  for (int k = 0; k < 5; ++k) {
    tb.edge();
    tb.settle();
    seen.push_back(tb.dut.dest_arst);
  }
  EXPECT_EQ(seen, (std::vector<int>{1, 1, 0, 0, 0})) << "released after the 3rd edge";
}

// ---- xpm_cdc_handshake ------------------------------------------------------------

template <class M>
using HsTb = xt::Tb2<M, xt::SrcClk, xt::DestClk>;

struct HsCfg {
  bool ext;             // DEST_EXT_HSK
  unsigned dest_stages; // DEST_SYNC_FF
  unsigned src_stages;  // SRC_SYNC_FF
  unsigned width;
};

// The documented handshake, edge by edge: src_send and src_in registered on
// src_clk, the request seen on dest_clk DEST_SYNC_FF edges late, the
// acknowledgement (dest_ack registered on dest_clk, or the request itself
// with DEST_EXT_HSK 0) seen on src_clk SRC_SYNC_FF edges late.
class HsRef {
 public:
  explicit HsRef(const HsCfg& c) : cfg_(c) {}

  void src_edge(uint64_t t, bool src_send, uint64_t src_in) {
    if (src_send && !send_q_) data_.set(t, src_in);
    send_q_ = src_send;
    send_.set(t, src_send);
    src_.add(t);
  }
  void dest_edge(uint64_t t, bool dest_ack) {
    dest_.add(t);
    const bool now = send_.before(dest_.sample_time(cfg_.dest_stages)) != 0;
    const bool prev = send_.before(dest_.sample_time(cfg_.dest_stages + 1)) != 0;
    req_ = now;
    rose_ = now && !prev;
    if (rose_) out_ = data_.before(dest_.sample_time(cfg_.dest_stages));
    ack_.set(t, cfg_.ext ? dest_ack : now);
  }
  bool dest_req() const { return cfg_.ext ? req_ : rose_; }
  bool arrived() const { return rose_; }  // a transfer arrived on the last dest_clk edge
  uint64_t dest_out() const { return out_; }
  bool src_rcv() const { return ack_.before(src_.sample_time(cfg_.src_stages)) != 0; }

 private:
  HsCfg cfg_;
  History send_{0}, data_{0}, ack_{0};
  EdgeTimes src_, dest_;
  bool send_q_ = false, req_ = false, rose_ = false;
  uint64_t out_ = 0;
};

// Random transfers by the rules: src_send with a random word until src_rcv,
// then low until src_rcv falls, random pauses; with DEST_EXT_HSK 1 dest_ack
// raised some edges after dest_req and dropped some edges after it falls.
// Every output is checked after every edge; the words arrive in order.
template <class M>
void check_handshake(const HsCfg& cfg, uint64_t seed) {
  for (const EdgeSchedule& clocks : kRatios) {
    SCOPED_TRACE(clocks.describe("src_clk", "dest_clk"));
    HsTb<M> tb(clocks);
    HsRef ref(cfg);
    std::mt19937_64 g(seed);
    const uint64_t mask = cfg.width >= 64 ? ~0ull : (1ull << cfg.width) - 1;
    tb.dut.src_send = 0;
    tb.dut.src_in = 0;
    tb.dut.dest_ack = 0;
    std::vector<uint64_t> sent, got;
    enum { kIdle, kSending, kDropping } src_state = kIdle;
    for (int i = 0; i < 20000; ++i) {
      const EdgeSchedule::Edge e = tb.schedule.peek();
      tb.settle();
      if (e.a) {  // the source's next inputs, from what it sees now
        if (src_state == kIdle && g() % 4 == 0) {
          src_state = kSending;
          tb.dut.src_send = 1;
          tb.dut.src_in = g() & mask;
          sent.push_back(tb.dut.src_in);
        } else if (src_state == kSending && tb.dut.src_rcv && g() % 2 == 0) {
          src_state = kDropping;
          tb.dut.src_send = 0;
        } else if (src_state == kDropping && !tb.dut.src_rcv) {
          src_state = kIdle;
        }
      }
      if (e.b && cfg.ext && g() % 3 != 0) tb.dut.dest_ack = tb.dut.dest_req;
      if (e.a) ref.src_edge(2 * e.time, tb.dut.src_send, tb.dut.src_in);
      if (e.b) ref.dest_edge(2 * e.time, tb.dut.dest_ack);
      tb.edge();
      tb.settle();
      ASSERT_EQ(static_cast<bool>(tb.dut.dest_req), ref.dest_req()) << "dest_req at " << e.time;
      ASSERT_EQ(static_cast<uint64_t>(tb.dut.dest_out), ref.dest_out()) << "dest_out at " << e.time;
      ASSERT_EQ(static_cast<bool>(tb.dut.src_rcv), ref.src_rcv()) << "src_rcv at " << e.time;
      if (e.b && ref.arrived()) got.push_back(tb.dut.dest_out);
    }
    ASSERT_GE(sent.size(), 100u);
    ASSERT_GE(got.size() + 1, sent.size()) << "transfers lost (the last may be on its way)";
    got.resize(std::min(got.size(), sent.size()));
    EXPECT_EQ(got, std::vector<uint64_t>(sent.begin(), sent.begin() + static_cast<long>(got.size())));
  }
}

const HsCfg kExt{true, 2, 3, 16};
const HsCfg kInt{false, 4, 2, 32};
const HsCfg kIntSlow{false, 10, 10, 1};

TEST(XpmCdcHandshake, ExternalAckRandomTransfersMatchReference) { check_handshake<Vxpm_hs_ext>(kExt, 7); }
TEST(XpmCdcHandshake, InternalAckRandomTransfersMatchReference) { check_handshake<Vxpm_hs_int>(kInt, 8); }
TEST(XpmCdcHandshake, InternalAckTenStagesRandomTransfersMatchReference) {
  check_handshake<Vxpm_hs_int_slow>(kIntSlow, 9);
}

// One transfer counted in edges (DEST_EXT_HSK 1, DEST_SYNC_FF 2, SRC_SYNC_FF
// 3): dest_req and dest_out after the 2nd dest_clk edge after the src_clk edge
// that registers src_send; src_rcv after the 3rd src_clk edge after the
// dest_clk edge that registers dest_ack.
TEST(XpmCdcHandshake, LatenciesInEdges) {
  HsTb<Vxpm_hs_ext> tb(EdgeSchedule{10, 7});
  tb.dut.src_send = 0;
  tb.dut.dest_ack = 0;
  for (int i = 0; i < 10; ++i) tb.edge();
  while (!tb.schedule.peek().a) tb.edge();
  tb.dut.src_send = 1;
  tb.dut.src_in = 0xBEEF;
  tb.edge();  // registers src_send
  unsigned dest_edges = 0;
  for (int i = 0; i < 40 && (tb.settle(), !tb.dut.dest_req); ++i) dest_edges += tb.edge().b;
  EXPECT_EQ(dest_edges, 2u);
  EXPECT_EQ(tb.dut.dest_out, 0xBEEFu);
  while (!tb.schedule.peek().b) tb.edge();
  tb.dut.dest_ack = 1;
  tb.edge();  // registers dest_ack
  unsigned src_edges = 0;
  for (int i = 0; i < 40 && (tb.settle(), !tb.dut.src_rcv); ++i) src_edges += tb.edge().a;
  EXPECT_EQ(src_edges, 3u);
}

// SIM_ASSERT_CHK 1: breaking the handshake is an error. `misuse` breaks it
// (a transfer of 5 under way) and `message` is the error it must give on the
// next edge of its clock (src_clk, or dest_clk for dest_ack).
template <class M, class Misuse>
void expect_misuse(Misuse&& misuse, const std::string& message, bool on_dest = false) {
  SCOPED_TRACE(message);
  HsTb<M> tb(EdgeSchedule{10, 7});
  tb.dut.src_send = 0;
  tb.dut.dest_ack = 0;
  tb.dut.src_in = 5;
  misuse(tb);
  const auto r = xt::expect_rtl_error([&tb, on_dest] {
    while (!(on_dest ? tb.edge().b : tb.edge().a)) {
    }
  });
  EXPECT_TRUE(r.fired) << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
}

template <class M>
void send_first(HsTb<M>& tb) {
  tb.dut.src_send = 1;
  while (!tb.edge().a) {
  }
}

TEST(XpmCdcHandshake, MisuseIsAnErrorWithSimAssertChk) {
  using Tb = HsTb<Vxpm_hs_int>;
  expect_misuse<Vxpm_hs_int>([](Tb& tb) { send_first(tb), tb.dut.src_send = 0; },
                             "src_send dropped before src_rcv rose");
  expect_misuse<Vxpm_hs_int>([](Tb& tb) { send_first(tb), tb.dut.src_in = 6; }, "src_in changed before src_rcv rose");
  expect_misuse<Vxpm_hs_int>(
      [](Tb& tb) {
        send_first(tb);
        for (int i = 0; i < 100 && (tb.settle(), !tb.dut.src_rcv); ++i) tb.edge();
        tb.dut.src_send = 0;
        while (!tb.edge().a) {
        }
        tb.dut.src_send = 1;  // src_rcv is still high
      },
      "src_send raised while src_rcv is high");
  expect_misuse<Vxpm_hs_ext>([](HsTb<Vxpm_hs_ext>& tb) { tb.dut.dest_ack = 1; },
                             "dest_ack raised while dest_req is low", true);
}

}  // namespace
