// cosim_axi_burst_split alone, in two configurations (CMakeLists):
//   wide   64-bit addresses, 16-byte beats, 32-bit beat counts, <= 256 beats
//          (VTA's and TF2's)
//   small  32-bit addresses, 8-byte beats, 12-bit counts, <= 16 beats
//   copy   as small with two addresses (a source and a destination)
// Random requests (many near a 4 KB line) with random request gaps and AX
// back-pressure; the bursts must be exactly the ones the rules give, in
// order, each held stable until accepted. Kills scripts/mutate's
// vta_split_cross_4k.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "Vcosim_axi_burst_split_copy.h"
#include "Vcosim_axi_burst_split_small.h"
#include "Vcosim_axi_burst_split_wide.h"

#include "axi_burst_rules.hpp"
#include "rtl_common_tb.hpp"

namespace {

using cosim::rtl_common_test::expect_assertion;
using cosim::rtl_common_test::Tb;

using Config = cosim::rtl_common_test::BurstConfig;
using cosim::rtl_common_test::expected_bursts;

template <class Model>
void reset(Tb<Model>& tb) {
  tb.reset([](Model& m) {
    m.clr_i = 0;
    m.req_valid_i = 0;
    m.req_addr_i = 0;
    m.req_beats_i = 0;
    m.ax_ready_i = 0;
  });
}

template <class Model>
void random_requests(const Config& c, uint64_t seed, int requests, uint64_t addr_mask) {
  Tb<Model> tb;
  reset(tb);
  std::mt19937_64 g(seed);
  for (int req = 0; req < requests; ++req) {
    // Addresses: anywhere, or a few beats before a 4 KB line.
    uint64_t addr = (g() & addr_mask) & ~(c.beat_bytes - 1);
    if (g() % 2) addr = ((addr | 0xfff) + 1 - c.beat_bytes * (1 + g() % 8)) & addr_mask;
    uint64_t beats = 1 + g() % (req % 4 == 0 ? c.max_request : 3 * c.max_beats);
    // Often exactly around the distance to the next line: 1 beat short, the
    // distance, 1 beat beyond.
    if (req % 4 == 1) beats = std::max<uint64_t>(1, (4096 - addr % 4096) / c.beat_bytes + g() % 3 - 1);
    const auto want = expected_bursts(c, addr, beats);
    // Random gap before the request; the splitter is idle.
    for (uint64_t gap = g() % 3; gap > 0; --gap) {
      tb.settle();
      ASSERT_TRUE(tb.dut.idle_o);
      ASSERT_FALSE(tb.dut.ax_valid_o);
      tb.edge();
    }
    tb.dut.req_valid_i = 1;
    tb.dut.req_addr_i = addr;
    tb.dut.req_beats_i = beats;
    tb.settle();
    ASSERT_TRUE(tb.dut.req_ready_o);
    tb.edge();
    tb.dut.req_valid_i = 0;
    std::size_t got = 0;
    bool waiting = false;
    uint64_t held_addr = 0;
    unsigned held_len = 0;
    for (int cy = 0; cy < 100000 && got < want.size(); ++cy) {
      tb.dut.ax_ready_i = (g() % 3) != 0;
      tb.settle();
      ASSERT_TRUE(tb.dut.ax_valid_o) << "request " << req << ": burst " << got << " missing";
      ASSERT_FALSE(tb.dut.req_ready_o) << "a new request accepted while bursts are left";
      const uint64_t a = tb.dut.ax_addr_o;
      const unsigned len = tb.dut.ax_len_o;
      if (waiting) {
        ASSERT_EQ(a, held_addr) << "address changed before AxREADY";
        ASSERT_EQ(len, held_len) << "length changed before AxREADY";
      }
      if (tb.dut.ax_ready_i) {
        ASSERT_EQ(a, want[got].first) << "request " << req << " (" << addr << ", " << beats << " beats), burst " << got;
        ASSERT_EQ(len, want[got].second) << "request " << req << " (" << addr << ", " << beats << " beats), burst " << got;
        ++got;
        waiting = false;
      } else {
        waiting = true;
        held_addr = a;
        held_len = len;
      }
      tb.edge();
    }
    ASSERT_EQ(got, want.size());
    tb.dut.ax_ready_i = 0;
    tb.settle();
    EXPECT_TRUE(tb.dut.idle_o);
    EXPECT_FALSE(tb.dut.ax_valid_o);
  }
}

constexpr Config kWide{16, 256, 2000};
constexpr Config kSmall{8, 16, 600};

TEST(CosimAxiBurstSplit, WideRequestsBecomeTheExpectedBursts) {
  random_requests<Vcosim_axi_burst_split_wide>(kWide, 7, 400, (1ull << 40) - 1);
}

TEST(CosimAxiBurstSplit, SmallRequestsBecomeTheExpectedBursts) {
  random_requests<Vcosim_axi_burst_split_small>(kSmall, 11, 400, 0xffffffffull);
}

// The reference itself, on hand-checked cases.
TEST(CosimAxiBurstSplit, ReferenceRules) {
  using V = std::vector<std::pair<uint64_t, unsigned>>;
  EXPECT_EQ(expected_bursts(kWide, 0x0, 300), (V{{0x0, 255}, {0x1000, 43}}));
  EXPECT_EQ(expected_bursts(kWide, 0xff0, 3), (V{{0xff0, 0}, {0x1000, 1}}));
  EXPECT_EQ(expected_bursts(kSmall, 0x1f8, 20), (V{{0x1f8, 15}, {0x278, 3}}));
  EXPECT_EQ(expected_bursts(kSmall, 0xff8, 2), (V{{0xff8, 0}, {0x1000, 0}}));
}

// clr_i drops the bursts not yet issued.
TEST(CosimAxiBurstSplit, ClearDropsTheRest) {
  Tb<Vcosim_axi_burst_split_wide> tb;
  reset(tb);
  tb.dut.req_valid_i = 1;
  tb.dut.req_addr_i = 0x10000;
  tb.dut.req_beats_i = 1000;
  tb.edge();
  tb.dut.req_valid_i = 0;
  tb.dut.ax_ready_i = 1;
  tb.edge();
  tb.dut.clr_i = 1;
  tb.edge();
  tb.dut.clr_i = 0;
  tb.settle();
  EXPECT_TRUE(tb.dut.idle_o);
  EXPECT_FALSE(tb.dut.ax_valid_o);
}

// NumAddr 2 (a copy's source and destination): each burst stays
// inside the 4 KB page of both addresses, which advance together;
// beats_left_o counts the beats not yet issued.
std::vector<std::pair<std::array<uint64_t, 2>, unsigned>> expected_copy_bursts(const Config& c, std::array<uint64_t, 2> addr,
                                                                               uint64_t beats) {
  std::vector<std::pair<std::array<uint64_t, 2>, unsigned>> out;
  while (beats > 0) {
    uint64_t n = std::min(beats, c.max_beats);
    for (uint64_t a : addr) n = std::min(n, (4096 - (a % 4096)) / c.beat_bytes);
    out.push_back({addr, static_cast<unsigned>(n - 1)});
    for (uint64_t& a : addr) a += n * c.beat_bytes;
    beats -= n;
  }
  return out;
}

TEST(CosimAxiBurstSplit, CopyRequestsRespectBothPages) {
  constexpr Config kCopy{8, 16, 700};
  Tb<Vcosim_axi_burst_split_copy> tb;
  reset(tb);
  std::mt19937_64 g(13);
  for (int req = 0; req < 300; ++req) {
    std::array<uint64_t, 2> addr{};
    for (uint64_t& a : addr) {
      a = g() & 0xfffffff8ull;
      if (g() % 2) a = ((a | 0xfff) + 1 - 8 * (1 + g() % 20)) & 0xffffffffull;
    }
    const uint64_t beats = 1 + g() % (req % 3 == 0 ? kCopy.max_request : 40);
    const auto want = expected_copy_bursts(kCopy, addr, beats);
    tb.dut.req_valid_i = 1;
    tb.dut.req_addr_i = addr[0] | (addr[1] << 32);
    tb.dut.req_beats_i = static_cast<uint32_t>(beats);
    tb.settle();
    ASSERT_TRUE(tb.dut.req_ready_o);
    tb.edge();
    tb.dut.req_valid_i = 0;
    uint64_t left = beats;
    std::size_t got = 0;
    for (int cy = 0; cy < 100000 && got < want.size(); ++cy) {
      tb.dut.ax_ready_i = (g() % 4) == 0;
      tb.settle();
      ASSERT_TRUE(tb.dut.ax_valid_o);
      ASSERT_EQ(tb.dut.beats_left_o, left) << "request " << req << ", burst " << got;
      if (tb.dut.ax_ready_i) {
        const uint64_t a = tb.dut.ax_addr_o;
        ASSERT_EQ(a & 0xffffffffull, want[got].first[0]) << "source, request " << req << ", burst " << got;
        ASSERT_EQ(a >> 32, want[got].first[1]) << "destination, request " << req << ", burst " << got;
        ASSERT_EQ(tb.dut.ax_len_o, want[got].second) << "request " << req << ", burst " << got;
        left -= want[got].second + 1u;
        ++got;
      }
      tb.edge();
    }
    ASSERT_EQ(got, want.size());
    tb.dut.ax_ready_i = 0;
    tb.settle();
    EXPECT_TRUE(tb.dut.idle_o);
    EXPECT_EQ(tb.dut.beats_left_o, 0u);
  }
}

// A request the splitter must refuse: its SystemVerilog assertion fires on the edge.
template <class Model>
void expect_request_fails(const char* assertion, uint64_t addr, uint64_t beats) {
  Tb<Model> tb;
  reset(tb);
  expect_assertion(assertion, [&] {
    tb.dut.req_valid_i = 1;
    tb.dut.req_addr_i = addr;
    tb.dut.req_beats_i = beats;
    tb.edge();
  });
}

TEST(CosimAxiBurstSplit, EmptyRequestFailsAnAssertion) {
  expect_request_fails<Vcosim_axi_burst_split_wide>("request of zero beats", 0x2000, 0);
}

TEST(CosimAxiBurstSplit, UnalignedRequestFailsAnAssertion) {
  expect_request_fails<Vcosim_axi_burst_split_small>("not aligned", 0x2004, 4);
}

}  // namespace
