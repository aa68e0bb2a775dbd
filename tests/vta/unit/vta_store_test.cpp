// vta_store alone: ACC -> DRAM of OUT elements with each int32 lane truncated
// to its low byte, DRAM stride, no padding, and the store->compute token only
// after the last write response. The ACC read port (one cycle of latency) and
// an AXI4 write slave (AW / W / B with random back-pressure) are modelled here.
#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <deque>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "module_tb.hpp"
#include "unit_util.hpp"

#include "Vvta_store.h"

using namespace vta_unit;
using namespace cosim::test::vta_isa;  // the instruction encoder

namespace {

constexpr uint32_t kAccDepth = 2048;
constexpr uint8_t kSentinel = 0x3c;

struct StoreTb : ModuleTb<Vvta_store, EnginePins<0>> {
  std::vector<std::array<int32_t, 16>> acc = std::vector<std::array<int32_t, 16>>(kAccDepth);
  std::vector<uint8_t> dram = std::vector<uint8_t>(1 << 18, kSentinel);
  double stall = 0.0;  // probability of de-asserting awready / wready, per cycle
  struct Burst {
    uint64_t addr;
    uint32_t len;
    uint32_t beat;
  };
  std::deque<Burst> aw;
  std::deque<uint64_t> b_due;  // cycle at which each B response is given
  int c2s_tokens = 0, s2c_pushes = 0, errors = 0;
  uint64_t beats = 0, bursts = 0, responses = 0, last_b = 0, push_cycle = 0, bytes = 0;
  std::vector<std::string> protocol;

  StoreTb() : ModuleTb(3, "vta_store") {
    std::mt19937 g(55);
    for (auto& e : acc)
      for (auto& v : e) v = static_cast<int32_t>(g());
    dut.m_bresp_i = 0;  // every write response OKAY
  }

  void drive(Vvta_store& m) override {
    m.c2s_avail_i = c2s_tokens > 0;
    m.m_awready_i = !stalls(stall);
    m.m_wready_i = !stalls(stall);
    m.m_bvalid_i = !b_due.empty() && b_due.front() <= cycles();
    if (acc_read) put_bytes(m.acc_rdata_i, 0, acc_read->data(), 64);
    acc_read.reset();
  }

  void sample(const Vvta_store& m, uint64_t cycle) override {
    if (m.c2s_pop_o && --c2s_tokens < 0) throw std::runtime_error("popped a token that was not there");
    if (m.s2c_push_o) ++s2c_pushes, push_cycle = cycle;
    if (m.err_o) ++errors;
    bytes += m.bytes_o;
    if (m.m_bvalid_i) {
      if (!m.m_bready_o) protocol.push_back("bready low");
      b_due.pop_front();
      ++responses;
      last_b = cycle;
    }
    if (m.m_awvalid_o && m.m_awready_i) {
      const uint64_t a = m.m_awaddr_o;
      const uint32_t len = m.m_awlen_o + 1u;
      if (a % 16) protocol.push_back("unaligned AW");
      if ((a >> 12) != ((a + 16ull * len - 1) >> 12)) protocol.push_back("burst crosses 4 KB");
      aw.push_back({a, len, 0});
      ++bursts;
    }
    if (m.m_wvalid_o && m.m_wready_i) {
      if (aw.empty()) throw std::runtime_error("W beat before its AW");
      Burst& b = aw.front();
      const uint64_t a = b.addr + 16ull * b.beat;
      if (a + 16 > dram.size()) throw std::runtime_error("write beyond the test DRAM");
      get_bytes(m.m_wdata_o, 0, &dram[a], 16);
      ++beats;
      const bool last = ++b.beat == b.len;
      if (bool(m.m_wlast_o) != last) protocol.push_back("wlast wrong at beat " + std::to_string(b.beat));
      if (last) {
        aw.pop_front();
        b_due.push_back(cycle + 1 + rng() % 4);
      }
    }
    // ACC read, one cycle of latency: presented from the next cycle on, and
    // held while re is low.
    if (m.acc_re_o) acc_read = acc.at(m.acc_raddr_o);
  }

  // Clocks until the queue is drained and the engine idle again.
  void run(uint64_t max_cycles = 100000) {
    run_until_idle([this] { return !dut.busy_o && b_due.empty(); }, max_cycles);
  }

 private:
  std::optional<std::array<int32_t, 16>> acc_read;  // the entry the last edge read, if any
};

// The spec's STORE into a copy of the DRAM.
void store_ref(std::vector<uint8_t>& dram, const StoreTb& tb, uint32_t sram, uint32_t dram_base, uint32_t ys,
               uint32_t xs, uint32_t stride) {
  for (uint32_t y = 0; y < ys; ++y)
    for (uint32_t x = 0; x < xs; ++x)
      for (uint32_t o = 0; o < 16; ++o) {
        const int64_t v = tb.acc[sram + y * xs + x][o];
        // Low 8 bits of the two's-complement value: v mod 256.
        dram[(uint64_t{dram_base} + uint64_t{y} * stride + x) * 16 + o] = static_cast<uint8_t>(((v % 256) + 256) % 256);
      }
}

void expect_dram_eq(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  int bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i] && bad++ < 5)
      ADD_FAILURE() << "DRAM byte " << i << " = " << int{got[i]} << ", expected " << int{want[i]};
  EXPECT_EQ(bad, 0);
}

TEST(VtaUnitStore, TruncatesEachLaneToItsLowByte) {
  StoreTb tb;
  const int32_t vals[16] = {0, 1, -1, 127, 128, -128, -129, 255, 256, 0x12345680, INT32_MIN, INT32_MAX,
                            -256, 0x7f7f7f01, -2, 0x100ff};
  const uint8_t want[16] = {0x00, 0x01, 0xff, 0x7f, 0x80, 0x80, 0x7f, 0xff,
                            0x00, 0x80, 0x00, 0xff, 0x00, 0x01, 0xfe, 0xff};
  for (uint32_t o = 0; o < 16; ++o) tb.acc[4][o] = vals[o];
  tb.queue.push_back(mem_insn(kStore, kOut, 4, 10, 1, 1, 1));
  tb.run();
  for (uint32_t o = 0; o < 16; ++o) EXPECT_EQ(tb.dram[10 * 16 + o], want[o]) << "lane " << o;
  EXPECT_EQ(tb.dram[10 * 16 - 1], kSentinel);
  EXPECT_EQ(tb.dram[11 * 16], kSentinel);
  EXPECT_TRUE(tb.protocol.empty()) << tb.protocol.front();
}

TEST(VtaUnitStore, TwoDimensionalWithStrideAndBackPressure) {
  for (int stalls = 0; stalls < 2; ++stalls) {
    StoreTb tb;
    tb.stall = stalls ? 0.4 : 0.0;
    const uint32_t sram = 17, dram_base = 300, ys = 5, xs = 7, stride = 11;
    std::vector<uint8_t> want = tb.dram;
    store_ref(want, tb, sram, dram_base, ys, xs, stride);
    // Pads are not applied by STORE.
    tb.queue.push_back(mem_insn(kStore, kOut, sram, dram_base, ys, xs, stride, {}, Pads{1, 2, 3, 4}));
    tb.run();
    SCOPED_TRACE(stalls ? "with stalls" : "no stalls");
    EXPECT_EQ(tb.errors, 0);
    expect_dram_eq(tb.dram, want);
    EXPECT_EQ(tb.beats, uint64_t{ys} * xs);
    EXPECT_EQ(tb.bytes, uint64_t{ys} * xs * 16);
    EXPECT_EQ(tb.responses, tb.bursts);
    EXPECT_TRUE(tb.protocol.empty()) << tb.protocol.front();
  }
}

// A 300-element row: split into bursts of at most 256 beats within 4 KB lines.
TEST(VtaUnitStore, LongRowsAreSplitIntoLegalBursts) {
  StoreTb tb;
  tb.stall = 0.2;
  std::vector<uint8_t> want = tb.dram;
  store_ref(want, tb, 0, 250, 2, 300, 320);
  tb.queue.push_back(mem_insn(kStore, kOut, 0, 250, 2, 300, 320));
  tb.run();
  expect_dram_eq(tb.dram, want);
  EXPECT_GE(tb.bursts, 4u);
  EXPECT_TRUE(tb.protocol.empty()) << tb.protocol.front();
}

// pop_prev waits for compute->store; push_prev follows the last B response;
// the "next" flags are ignored.
TEST(VtaUnitStore, TokensAfterTheLastResponse) {
  StoreTb tb;
  Deps d;
  d.pop_prev = true;
  d.push_prev = true;
  d.pop_next = true;   // ignored
  d.push_next = true;  // ignored
  tb.queue.push_back(mem_insn(kStore, kOut, 0, 0, 3, 4, 4, d));
  for (int c = 0; c < 20; ++c) tb.step();
  EXPECT_EQ(tb.queue.size(), 1u);
  EXPECT_EQ(tb.beats, 0u);
  tb.c2s_tokens = 1;
  tb.run();
  EXPECT_EQ(tb.c2s_tokens, 0);
  EXPECT_EQ(tb.s2c_pushes, 1);
  EXPECT_GT(tb.push_cycle, tb.last_b);
  EXPECT_EQ(tb.responses, tb.bursts);
}

TEST(VtaUnitStore, EmptyStoreOnlySyncs) {
  StoreTb tb;
  Deps d;
  d.pop_prev = true;
  d.push_prev = true;
  tb.c2s_tokens = 1;
  tb.queue.push_back(mem_insn(kStore, kOut, 0, 0, 4, 0, 4, d));
  tb.run();
  EXPECT_EQ(tb.s2c_pushes, 1);
  EXPECT_EQ(tb.bursts, 0u);
  for (uint8_t b : tb.dram) ASSERT_EQ(b, kSentinel);
}

TEST(VtaUnitStore, SramRangeBeyondBufferIsAnError) {
  StoreTb tb;
  tb.queue.push_back(mem_insn(kStore, kOut, kAccDepth - 4, 0, 1, 5, 5));
  for (int c = 0; c < 10; ++c) tb.step();
  EXPECT_EQ(tb.errors, 1);
  EXPECT_EQ(tb.bursts, 0u);
}

}  // namespace
