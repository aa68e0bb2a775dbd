// Interfaces on further clocks (a manifest interface's `clock:`): the
// harness's binders for an AXI4-Lite control port, a pair of streams and an
// AXI4 master, each on a clock of its own, against iface_top.sv, whose
// domains count their own edges. Expected values come from the manifest's
// ratios and the clock schedule's rule (tb/harness/clock_set.hpp: every
// clock rises at the primary clock's first rising edge, half a cycle after
// time 0, and clock p/q again every q/p cycles) and from the stimulus made
// here; a binder clocked by the primary clock instead repeats or loses
// handshakes and moves at most one beat per primary cycle, which these
// checks catch.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "harness/core.hpp"
// core.hpp first: it brings in Verilator's headers.
#include "Viface_top.h"
#include "axi/axi4_slave.hpp"
#include "axi/memory_port.hpp"
#include "clock_edges.hpp"
#include "dut/iface_pins.hpp"
#include "harness/axi_masters.hpp"
#include "harness/axis_streams.hpp"
#include "harness/control.hpp"
#include "harness/module_binding.hpp"
#include "support/copy_image.hpp"

namespace cosim::tb::harness {
namespace {

using Model = Viface_top;
using Pins = cosim::iface::pins::Top;
using IfaceCore = Core<Model, NeverDone, Pins>;
using Control = ControlBinder<Model, Pins>;
using Streams = AxisStreamBinders<Model, Pins::AxisIns, Pins::AxisOuts>;
using Masters = AxiMasterBinders<Model, Pins::AxiMasters>;

// The manifest's ratios, written again here: frequency over clk's, p / q.
using clocktest::Ratio;
using clocktest::rising_edges;
constexpr Ratio kControlClock{1, 3}, kStreamClock{5, 2};

// Rising edges of clock r since every reset was released, after `cycles` cycles of clk.
int64_t edges_since_reset(Ratio r, uint64_t cycles) {
  const int64_t reset = IfaceCore::kResetCycles;
  return rising_edges(r, 2 * reset, 2 * (reset + static_cast<int64_t>(cycles)) - 1);
}

TEST(FurtherClockInterfaces, AControlPortOnASlowClock) {
  Control ctrl;
  IfaceCore core("iface", nullptr, {&ctrl});
  for (uint32_t v : {0x12345678u, 0u, 0xfedcba98u}) {
    ctrl.write(core, 0x00, v);
    EXPECT_EQ(ctrl.read(core, 0x00), v);
  }
  // The count of c_clk edges the read address was taken at: the two edges
  // after it (R valid, R taken) have passed when the read returns.
  const uint32_t edges = ctrl.read(core, 0x04);
  const int64_t now = edges_since_reset(kControlClock, core.cycles());
  EXPECT_GE(now, int64_t{edges} + 2);
  EXPECT_LE(now, int64_t{edges} + 3);
  // An access costs c_clk edges, not clk cycles: at least three clk cycles each.
  const uint64_t before = core.cycles();
  ctrl.write(core, 0x00, 1);
  EXPECT_GE(core.cycles() - before, 3u * 2);
  EXPECT_TRUE(ctrl.errors().empty());
  ctrl.write(core, 0x08, 1);
  ASSERT_EQ(ctrl.errors().size(), 1u);
  EXPECT_NE(ctrl.errors()[0].find("SLVERR"), std::string::npos) << ctrl.errors()[0];
}

std::vector<uint32_t> random_words(std::size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> w(n);
  for (uint32_t& x : w) x = static_cast<uint32_t>(rng());
  return w;
}

// n random 32-bit words sent as two packets through the stream stage with
// `stall` on both streams, until `out` gave them all: the stage's 64-bit
// output beats must carry the words in order, each taken at a later s_clk
// edge than the one before (with `consecutive`, at the next one). Returns
// the clk cycles it took and the s_clk edge of the last beat.
std::pair<uint64_t, uint64_t> expect_words_through_the_stage(double stall, uint64_t seed, std::size_t n,
                                                             bool consecutive) {
  IfaceCore core("iface");
  Streams streams(seed, stall);
  streams.add_to(core);
  std::vector<axis::StreamEnd*> ends = streams.ends();
  axis::StreamEnd& in = *ends.at(0);
  axis::StreamEnd& out = *ends.at(1);
  const std::vector<uint32_t> words = random_words(n, seed);
  for (auto [from, to] : {std::pair<std::size_t, std::size_t>{0, n / 2}, {n / 2, n}}) {
    std::vector<uint8_t> bytes;
    for (std::size_t i = from; i < to; ++i)
      for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<uint8_t>(words[i] >> (8 * b)));
    in.send(bytes);
  }
  while (out.pending_bytes() < 8 * n && core.cycles() < 20000) core.cycle();
  const std::vector<uint8_t> bytes = out.take(8 * n);
  std::vector<uint64_t> beats(bytes.size() / 8);
  for (std::size_t i = 0; i < bytes.size(); ++i) beats[i / 8] |= uint64_t{bytes[i]} << (8 * (i % 8));
  EXPECT_TRUE(in.protocol_error().empty()) << in.protocol_error();
  EXPECT_TRUE(out.protocol_error().empty()) << out.protocol_error();
  EXPECT_EQ(in.pending_bytes(), 0u);
  EXPECT_EQ(beats.size(), n);
  for (std::size_t i = 0; i < beats.size(); ++i) {
    SCOPED_TRACE("beat " + std::to_string(i));
    EXPECT_EQ(static_cast<uint32_t>(beats[i]), words[i]);
    if (i == 0) continue;
    const uint64_t step = (beats[i] >> 32) - (beats[i - 1] >> 32);
    if (consecutive) {
      EXPECT_EQ(step, 1u);
    } else {
      EXPECT_GE(step, 1u);
    }
  }
  return {core.cycles(), beats.empty() ? 0 : beats.back() >> 32};
}

TEST(FurtherClockInterfaces, StreamsOnAFastClockMoveABeatEveryEdge) {
  // Neither side holds back: the stage takes a beat at every s_clk edge,
  // 5/2 beats per clk cycle, where a binder on clk moves one.
  const uint64_t cycles = expect_words_through_the_stage(0.0, 7, 200, true).first;
  EXPECT_LT(cycles, 200u * 2 / 5 + 10);
}

TEST(FurtherClockInterfaces, StreamsOnAFastClockUnderStalls) {
  const auto [cycles, last_edge] = expect_words_through_the_stage(0.4, 11, 300, false);
  // Every beat was taken at an s_clk edge that had passed.
  EXPECT_LE(static_cast<int64_t>(last_edge), edges_since_reset(kStreamClock, cycles));
}

void run_master(double stall, uint64_t seed) {
  test::CopyImage copy(seed);
  VectorMemory mem(copy.image);
  Axi4SlaveModel slave(mem, test::CopyImage::slave_config(stall, seed));
  AxiSlaveRef<Axi4SlaveModel> port(slave);
  IfaceCore core("iface");
  Masters masters({&port});
  masters.add_to(core);
  const uint64_t start = core.cycles();
  while (!core.model().m_done_o && core.cycles() - start < 5000) core.cycle();
  ASSERT_TRUE(core.model().m_done_o) << "the master did not finish";
  EXPECT_TRUE(slave.protocol_errors().empty()) << slave.protocol_errors().front();
  EXPECT_TRUE(slave.access_errors().empty());
  EXPECT_EQ(slave.read_beats(), 16u);
  EXPECT_EQ(slave.write_beats(), 16u);
  copy.expect_copied();
  if (stall == 0.0) {
    // 32 data beats and five more handshakes at 3/2 per clk cycle, where a
    // binder on clk moves one beat a cycle.
    EXPECT_LT(core.cycles() - start, 32u);
  }
}

TEST(FurtherClockInterfaces, AnAxiMasterOnAFasterClock) { run_master(0.0, 5); }

TEST(FurtherClockInterfaces, AnAxiMasterOnAFasterClockUnderStalls) {
  for (uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    run_master(0.3, seed);
  }
}

TEST(FurtherClockInterfaces, AllThreeAtOnce) {
  std::vector<uint8_t> image(0x4000, 0x5a);
  VectorMemory mem(image);
  Axi4SlaveConfig cfg;
  cfg.data_bytes = 8;
  cfg.stall_probability = 0.2;
  Axi4SlaveModel slave(mem, cfg);
  AxiSlaveRef<Axi4SlaveModel> port(slave);
  Control ctrl;
  IfaceCore core("iface", nullptr, {&ctrl});
  Streams streams(5, 0.2);
  streams.add_to(core);
  Masters masters({&port});
  masters.add_to(core);
  const std::vector<uint32_t> words = random_words(64, 3);
  std::vector<uint8_t> bytes;
  for (uint32_t w : words)
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<uint8_t>(w >> (8 * b)));
  streams.ends().at(0)->send(bytes);
  // Register accesses clock the core, and the other domains move meanwhile.
  for (uint32_t v = 1; v <= 20; ++v) {
    ctrl.write(core, 0x00, v * 0x01010101u);
    ASSERT_EQ(ctrl.read(core, 0x00), v * 0x01010101u);
  }
  axis::StreamEnd& out = *streams.ends().at(1);
  while ((out.pending_bytes() < 8 * words.size() || !core.model().m_done_o) && core.cycles() < 20000) core.cycle();
  const std::vector<uint8_t> got = out.take(8 * words.size());
  ASSERT_EQ(got.size(), 8 * words.size());
  for (std::size_t i = 0; i < words.size(); ++i) {
    uint32_t w = 0;
    for (int b = 0; b < 4; ++b) w |= uint32_t{got[8 * i + b]} << (8 * b);
    ASSERT_EQ(w, words[i]) << "word " << i;
  }
  ASSERT_TRUE(core.model().m_done_o);
  for (std::size_t i = 0; i < 0x80; ++i) ASSERT_EQ(image[0x2000 + i], 0xa5) << "byte " << i;
  EXPECT_TRUE(ctrl.errors().empty());
  EXPECT_TRUE(slave.protocol_errors().empty());
}

}  // namespace
}  // namespace cosim::tb::harness
