// cosim_axi_write_bursts alone (CMakeLists: 32-bit addresses, 8-byte beats,
// 12-bit beat counts, bursts of at most 256 beats, 2 lengths queued ahead, a
// 4-bit count of bursts awaiting B). Random requests with random beat gaps,
// AW and W back-pressure and B responses that come late; against a
// reference written from the rules:
//   - AW carries exactly the bursts of cosim_axi_burst_split's rules, in
//     order, and never more than 2 ahead of the W side;
//   - W is the client's beat whenever a burst's AW has gone out, WLAST on
//     each burst's last beat, and the client's beat leaves on the handshake;
//   - B is always ready; idle_o once every burst is issued, written and
//     answered.
// Kills scripts/mutate's tf2_writer_wlast.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <utility>
#include <vector>

#include "Vcosim_axi_write_bursts_small.h"

#include "axi_burst_rules.hpp"
#include "rtl_common_tb.hpp"

namespace {

using cosim::rtl_common_test::expect_assertion;
using cosim::rtl_common_test::expected_bursts;
using cosim::rtl_common_test::Tb;
using Model = Vcosim_axi_write_bursts_small;

constexpr uint64_t kBeatBytes = 8;
constexpr cosim::rtl_common_test::BurstConfig kConfig{kBeatBytes, 256, 700};
constexpr std::size_t kLenDepth = 2;

// The AXI side's handshakes and the client's beat, set for the next edge.
void drive(Tb<Model>& tb, bool aw_ready, bool w_ready, bool beat_valid, bool b_valid) {
  tb.dut.m_awready_i = aw_ready;
  tb.dut.m_wready_i = w_ready;
  tb.dut.beat_valid_i = beat_valid;
  tb.dut.m_bvalid_i = b_valid;
}

void reset(Tb<Model>& tb) {
  tb.reset([&tb](Model& m) {
    m.clr_i = 0;
    m.req_valid_i = 0;
    drive(tb, false, false, false, false);
  });
}

// A request of `beats` beats from `addr`, taken at the next edge.
void request(Tb<Model>& tb, uint64_t addr, uint64_t beats) {
  tb.dut.req_valid_i = 1;
  tb.dut.req_addr_i = static_cast<uint32_t>(addr);
  tb.dut.req_beats_i = static_cast<uint16_t>(beats);
  tb.settle();
  ASSERT_TRUE(tb.dut.req_ready_o) << "request not taken while idle";
  tb.edge();
  tb.dut.req_valid_i = 0;
}

// Nothing issued, owed or outstanding, with a beat on offer.
void expect_idle(Tb<Model>& tb) {
  drive(tb, true, true, true, false);
  tb.settle();
  EXPECT_TRUE(tb.dut.idle_o);
  EXPECT_FALSE(tb.dut.m_awvalid_o);
  EXPECT_FALSE(tb.dut.m_wvalid_o);
}

TEST(CosimAxiWriteBursts, RandomRequestsFollowTheRules) {
  Tb<Model> tb;
  reset(tb);
  std::mt19937_64 g(5);
  for (int req = 0; req < 300; ++req) {
    uint64_t addr = g() & 0xfffffff8ull;
    if (g() % 2) addr = ((addr | 0xfff) + 1 - kBeatBytes * (1 + g() % 20)) & 0xffffffffull;
    const uint64_t beats = 1 + g() % (req % 3 == 0 ? kConfig.max_request : 40);
    const auto want = expected_bursts(kConfig, addr, beats);
    request(tb, addr, beats);

    std::size_t issued = 0;            // bursts whose AW went out
    std::deque<unsigned> w_lens;       // their AWLEN, W not finished yet
    unsigned w_beat = 0;               // beat of the head burst
    std::deque<int> b_due;             // cycles until each written burst's B
    std::size_t answered = 0;
    for (int cy = 0; cy < 100000 && answered < want.size(); ++cy) {
      const bool aw_ready = g() % 3 != 0, w_ready = g() % 4 != 0, beat_valid = g() % 5 != 0;
      const bool b_now = !b_due.empty() && b_due.front() <= 0;
      drive(tb, aw_ready, w_ready, beat_valid, b_now);
      tb.settle();
      ASSERT_TRUE(tb.dut.m_bready_o);
      ASSERT_FALSE(tb.dut.idle_o) << "idle with burst " << answered << " of " << want.size() << " unanswered";
      ASSERT_FALSE(tb.dut.req_ready_o && issued < want.size()) << "a new request taken while bursts are left";
      // AW: the next burst, while fewer than kLenDepth wait for their beats.
      const bool aw_expected = issued < want.size() && w_lens.size() < kLenDepth;
      ASSERT_EQ(tb.dut.m_awvalid_o, aw_expected) << "request " << req << ", burst " << issued;
      if (aw_expected) {
        ASSERT_EQ(tb.dut.m_awaddr_o, want[issued].first) << "request " << req << ", burst " << issued;
        ASSERT_EQ(tb.dut.m_awlen_o, want[issued].second) << "request " << req << ", burst " << issued;
      }
      // W: the client's beat inside an issued burst, WLAST on its last.
      const bool w_expected = tb.dut.beat_valid_i && !w_lens.empty();
      ASSERT_EQ(tb.dut.m_wvalid_o, w_expected);
      if (w_expected) {
        ASSERT_EQ(tb.dut.m_wlast_o, w_beat == w_lens.front()) << "beat " << w_beat;
      }
      ASSERT_EQ(tb.dut.beat_pop_o, w_expected && tb.dut.m_wready_i);
      // The reference moves on with the handshakes of this edge.
      for (int& d : b_due) --d;
      if (b_now) {
        b_due.pop_front();
        ++answered;
      }
      if (aw_expected && tb.dut.m_awready_i) w_lens.push_back(want[issued++].second);
      if (w_expected && tb.dut.m_wready_i) {
        if (w_beat == w_lens.front()) {
          w_lens.pop_front();
          w_beat = 0;
          b_due.push_back(static_cast<int>(g() % 6));
        } else {
          ++w_beat;
        }
      }
      tb.edge();
    }
    ASSERT_EQ(answered, want.size());
    expect_idle(tb);
  }
}

// clr_i forgets the bursts not yet issued, the lengths queued and the count.
TEST(CosimAxiWriteBursts, ClearForgetsEverything) {
  Tb<Model> tb;
  reset(tb);
  request(tb, 0x10000, 100);
  drive(tb, true, false, false, false);
  tb.edge();  // one burst issued, its beats owed
  tb.settle();
  EXPECT_FALSE(tb.dut.idle_o);
  tb.dut.clr_i = 1;
  tb.edge();
  tb.dut.clr_i = 0;
  expect_idle(tb);
}

// A B response with no burst issued breaks the AXI contract.
TEST(CosimAxiWriteBursts, AssertsOnAnUnexpectedResponse) {
  expect_assertion("a_b_no_underflow", [] {
    Tb<Model> tb;
    reset(tb);
    tb.dut.m_bvalid_i = 1;
    tb.edge();
  });
}

}  // namespace
