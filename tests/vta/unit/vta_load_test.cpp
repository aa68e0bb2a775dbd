// vta_load alone (the LOAD engine for INP and WGT): padding on all four
// sides, DRAM strides, x_size == 0 as a pure synchronisation, token order.
// The row-request / R-data port and the INP / WGT write ports are modelled
// here; expected buffer contents come from the spec's LOAD description.
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <stdexcept>
#include <vector>

#include "module_tb.hpp"
#include "unit_util.hpp"

#include "Vvta_load.h"

using namespace vta_unit;
using namespace cosim::test::vta_isa;  // the instruction encoder

namespace {

constexpr uint32_t kInpDepth = 2048, kWgtDepth = 1024;
constexpr uint8_t kSentinel = 0xa5;

struct LoadTb : ModuleTb<Vvta_load, EnginePins<0>> {
  std::vector<uint8_t> inp = std::vector<uint8_t>(kInpDepth * 16, kSentinel);
  std::vector<uint8_t> wgt = std::vector<uint8_t>(kWgtDepth * 256, kSentinel);
  std::vector<uint8_t> dram = std::vector<uint8_t>(1 << 20);
  std::deque<Beat> beats;
  double r_gap = 0.0, req_gap = 0.0;
  int c2l_tokens = 0, l2c_pushes = 0, errors = 0, stall_cycles = 0;
  uint64_t writes = 0, requests = 0, last_write = 0, push_cycle = 0, bytes = 0, busy = 0;

  LoadTb() : ModuleTb(5, "vta_load") {
    std::mt19937 g(77);
    for (auto& b : dram) b = static_cast<uint8_t>(g());
  }

  void drive(Vvta_load& m) override {
    m.c2l_avail_i = c2l_tokens > 0;
    m.req_ready_i = !stalls(req_gap);
    m.rvalid_i = !beats.empty() && !stalls(r_gap);
    if (m.rvalid_i) put_bytes(m.rdata_i, 0, beats.front().data(), 16);
  }

  void sample(const Vvta_load& m, uint64_t cycle) override {
    if (m.c2l_pop_o) {
      if (--c2l_tokens < 0) throw std::runtime_error("popped a token that was not there");
    }
    if (m.l2c_push_o) ++l2c_pushes, push_cycle = cycle;
    if (m.err_o) ++errors;
    if (m.stall_o) ++stall_cycles;
    if (m.busy_o) ++busy;
    bytes += m.bytes_o;
    if (m.req_valid_o && m.req_ready_i) {
      ++requests;
      queue_row_beats(beats, dram, m.req_addr_o, m.req_beats_o);
    }
    if (m.rvalid_i && m.rready_o) beats.pop_front();
    if (m.inp_we_o) {
      ++writes, last_write = cycle;
      if (m.inp_wmask_o & 1u) get_bytes(m.inp_wdata_o, 0, &inp.at(m.inp_waddr_o * 16u), 16);
    }
    if (m.wgt_we_o) {
      ++writes, last_write = cycle;
      for (unsigned c = 0; c < 16; ++c)
        if ((m.wgt_wmask_o >> c) & 1u) get_bytes(m.wgt_wdata_o, 16 * c, &wgt.at(m.wgt_waddr_o * 256u + 16 * c), 16);
    }
  }

  // Clocks until the queue is drained and the engine idle again.
  void run(uint64_t max_cycles = 100000) {
    run_until_idle([this] { return !dut.busy_o; }, max_cycles);
  }
};

// The spec's LOAD, element by element, into a copy of the buffer.
void load_ref(std::vector<uint8_t>& buf, const std::vector<uint8_t>& dram, uint32_t elem_bytes, uint32_t sram,
              uint32_t dram_base, uint32_t ys, uint32_t xs, uint32_t stride, Pads p) {
  if (xs == 0) return;
  const uint32_t xt = p.x0 + xs + p.x1;
  uint32_t idx = sram;
  auto zero = [&] {
    std::fill_n(buf.begin() + static_cast<long>(idx) * elem_bytes, elem_bytes, 0);
    ++idx;
  };
  for (uint32_t i = 0; i < p.y0 * xt; ++i) zero();
  for (uint32_t y = 0; y < ys; ++y) {
    for (uint32_t i = 0; i < p.x0; ++i) zero();
    for (uint32_t x = 0; x < xs; ++x) {
      const uint64_t src = (uint64_t{dram_base} + uint64_t{y} * stride + x) * elem_bytes;
      std::copy_n(dram.begin() + static_cast<long>(src), elem_bytes, buf.begin() + static_cast<long>(idx) * elem_bytes);
      ++idx;
    }
    for (uint32_t i = 0; i < p.x1; ++i) zero();
  }
  for (uint32_t i = 0; i < p.y1 * xt; ++i) zero();
}

void expect_buf_eq(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, uint32_t elem_bytes) {
  int bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i] && bad++ < 5)
      ADD_FAILURE() << "element " << i / elem_bytes << " byte " << i % elem_bytes << " = " << int{got[i]}
                    << ", expected " << int{want[i]};
  EXPECT_EQ(bad, 0);
}

TEST(VtaUnitLoad, InpAllPadCombinationsAndStrides) {
  // Every subset of the four pads, with and without R / request back-pressure.
  for (uint32_t mask = 0; mask < 16; ++mask) {
    for (int stalls = 0; stalls < 2; ++stalls) {
      LoadTb tb;
      tb.r_gap = stalls ? 0.4 : 0.0;
      tb.req_gap = stalls ? 0.5 : 0.0;
      const Pads p{(mask & 1) ? 2u : 0u, (mask & 2) ? 3u : 0u, (mask & 4) ? 1u : 0u, (mask & 8) ? 15u : 0u};
      const uint32_t sram = 9 + mask, dram_base = 100 + 3 * mask, ys = 4, xs = 3 + mask % 3, stride = 7 + mask;
      std::vector<uint8_t> want = tb.inp;
      load_ref(want, tb.dram, 16, sram, dram_base, ys, xs, stride, p);
      tb.queue.push_back(mem_insn(kLoad, kInp, sram, dram_base, ys, xs, stride, {}, p));
      tb.run();
      SCOPED_TRACE("pads y0 " + std::to_string(p.y0) + " y1 " + std::to_string(p.y1) + " x0 " + std::to_string(p.x0) +
                   " x1 " + std::to_string(p.x1) + (stalls ? " with stalls" : ""));
      EXPECT_EQ(tb.errors, 0);
      expect_buf_eq(tb.inp, want, 16);
      const uint32_t xt = p.x0 + xs + p.x1;
      EXPECT_EQ(tb.writes, uint64_t{xt} * (p.y0 + ys + p.y1)) << "one write per destination element";
      EXPECT_EQ(tb.bytes, uint64_t{ys} * xs * 16) << "payload bytes";
      EXPECT_TRUE(tb.beats.empty());
    }
  }
}

TEST(VtaUnitLoad, WgtWithPadsAndStride) {
  LoadTb tb;
  tb.r_gap = 0.25;
  const Pads p{1, 1, 2, 1};
  const uint32_t sram = 5, dram_base = 30, ys = 2, xs = 3, stride = 8;
  std::vector<uint8_t> want = tb.wgt;
  load_ref(want, tb.dram, 256, sram, dram_base, ys, xs, stride, p);
  tb.queue.push_back(mem_insn(kLoad, kWgt, sram, dram_base, ys, xs, stride, {}, p));
  tb.run();
  EXPECT_EQ(tb.errors, 0);
  expect_buf_eq(tb.wgt, want, 256);
  EXPECT_EQ(tb.bytes, uint64_t{ys} * xs * 256);
}

// Stride smaller than the row (rows overlap in DRAM) and stride 0 (the same
// row repeated) are legal reads.
TEST(VtaUnitLoad, OverlappingAndZeroStrides) {
  for (uint32_t stride : {0u, 1u, 2u}) {
    LoadTb tb;
    std::vector<uint8_t> want = tb.inp;
    load_ref(want, tb.dram, 16, 0, 50, 5, 4, stride, Pads{});
    tb.queue.push_back(mem_insn(kLoad, kInp, 0, 50, 5, 4, stride));
    tb.run();
    SCOPED_TRACE("stride " + std::to_string(stride));
    expect_buf_eq(tb.inp, want, 16);
  }
}

TEST(VtaUnitLoad, PadRowsOnlyWhenYSizeIsZero) {
  LoadTb tb;
  const Pads p{2, 1, 1, 1};
  std::vector<uint8_t> want = tb.inp;
  // y_size 0, x_size 3: (2 + 1) pad rows of 1 + 3 + 1 zeros, no DRAM reads.
  for (uint32_t e = 10; e < 10 + 3 * 5; ++e) std::fill_n(want.begin() + e * 16, 16, 0);
  tb.queue.push_back(mem_insn(kLoad, kInp, 10, 0, 0, 3, 3, {}, p));
  tb.run();
  expect_buf_eq(tb.inp, want, 16);
  EXPECT_EQ(tb.requests, 0u);
}

// x_size == 0 moves nothing, pads or not, but still takes and gives tokens.
TEST(VtaUnitLoad, XSizeZeroIsAPureSync) {
  LoadTb tb;
  Deps d;
  d.pop_next = true;
  d.push_next = true;
  tb.queue.push_back(mem_insn(kLoad, kInp, 3, 10, 4, 0, 4, d, Pads{1, 1, 1, 1}));
  for (int c = 0; c < 30; ++c) tb.step();
  EXPECT_EQ(tb.queue.size(), 1u) << "waits for the compute->load token";
  EXPECT_EQ(tb.stall_cycles, 30);
  EXPECT_EQ(tb.l2c_pushes, 0);
  tb.c2l_tokens = 1;
  tb.run();
  EXPECT_EQ(tb.c2l_tokens, 0);
  EXPECT_EQ(tb.l2c_pushes, 1);
  EXPECT_EQ(tb.writes, 0u);
  EXPECT_EQ(tb.requests, 0u);
  EXPECT_EQ(tb.errors, 0);
  for (uint8_t b : tb.inp) ASSERT_EQ(b, kSentinel);
}

// push_next comes after the last buffer write; LOAD ignores push_prev.
TEST(VtaUnitLoad, PushAfterLastWriteAndOnlyNextFlags) {
  LoadTb tb;
  tb.r_gap = 0.3;
  Deps d;
  d.push_next = true;
  d.push_prev = true;  // ignored
  d.pop_prev = true;   // ignored: must not wait for anything
  tb.queue.push_back(mem_insn(kLoad, kWgt, 0, 0, 2, 2, 2, d));
  tb.run();
  EXPECT_EQ(tb.l2c_pushes, 1);
  EXPECT_GT(tb.push_cycle, tb.last_write);
  EXPECT_EQ(tb.writes, 2u * 2u * 16u) << "16 beats per WGT element";
}

TEST(VtaUnitLoad, SramRangeBeyondBufferIsAnError) {
  LoadTb tb;
  tb.queue.push_back(mem_insn(kLoad, kInp, kInpDepth - 2, 0, 1, 3, 3));
  tb.step();
  for (int c = 0; c < 5; ++c) tb.step();
  EXPECT_EQ(tb.errors, 1);
  EXPECT_EQ(tb.writes, 0u);
  // The exact fit is fine.
  LoadTb ok;
  ok.queue.push_back(mem_insn(kLoad, kInp, kInpDepth - 3, 0, 1, 3, 3));
  ok.run();
  EXPECT_EQ(ok.errors, 0);
  EXPECT_EQ(ok.writes, 3u);
}

// Back-to-back instructions, each one a whole 2-D transfer.
TEST(VtaUnitLoad, QueueOfMixedLoads) {
  LoadTb tb;
  tb.r_gap = 0.2;
  std::vector<uint8_t> want_inp = tb.inp, want_wgt = tb.wgt;
  std::mt19937 g(9);
  auto r = [&](uint32_t n) { return static_cast<uint32_t>(g() % n); };
  for (int n = 0; n < 12; ++n) {
    const bool is_wgt = r(2) == 1;
    const Pads p{r(3), r(3), r(3), r(3)};
    const uint32_t ys = 1 + r(3), xs = 1 + r(4), stride = xs + r(4), dram_base = r(500);
    const uint32_t sram = r(is_wgt ? 900 : 1900);
    if (is_wgt)
      load_ref(want_wgt, tb.dram, 256, sram, dram_base, ys, xs, stride, p);
    else
      load_ref(want_inp, tb.dram, 16, sram, dram_base, ys, xs, stride, p);
    tb.queue.push_back(mem_insn(kLoad, is_wgt ? kWgt : kInp, sram, dram_base, ys, xs, stride, {}, p));
  }
  tb.run(200000);
  expect_buf_eq(tb.inp, want_inp, 16);
  expect_buf_eq(tb.wgt, want_wgt, 256);
}

}  // namespace
