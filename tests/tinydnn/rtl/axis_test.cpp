// The cycle-level AXI-Stream models and, above all, the protocol checker:
// a misbehaving source must make it fail naming the cycle.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "axis/axis_checker.hpp"
#include "axis/axis_dma.hpp"
#include "axis/axis_sink.hpp"
#include "axis/axis_source.hpp"
#include "common/error.hpp"
#include "support/expect_text.hpp"

namespace cosim::tb::axis {
namespace {

using cosim::test::expect_contains;

// Runs a source into a sink through wires for up to max_cycles, checker on.
uint64_t wire(Source& src, Sink& sink, Checker& chk, uint64_t max_cycles) {
  Pins p;
  uint64_t c = 0;
  for (; c < max_cycles && !src.idle(); ++c) {
    src.drive(p);
    sink.drive(p);
    chk.observe(c, p);
    src.update(p);
    sink.update(p);
  }
  return c;
}

// Clocks the two ends of a stream on the same wires for `cycles` cycles
// (drive both, then update both), no checker.
template <class From, class To>
void clock_ends(From& from, To& to, int cycles) {
  Pins p;
  for (int c = 0; c < cycles; ++c) {
    from.drive(p);
    to.drive(p);
    from.update(p);
    to.update(p);
  }
}

std::vector<uint64_t> iota_beats(int n) {
  std::vector<uint64_t> v;
  for (int i = 0; i < n; ++i) v.push_back(0x1000 + i);
  return v;
}

TEST(TinyDnnAxis, SourceToSinkUnderStallsKeepsEveryBeat) {
  Source src(11, 0.4);
  Sink sink(12, 0.5);
  Checker chk("wire");
  const auto data = iota_beats(200);
  src.push_packet(data);
  for (std::size_t i = 0; i < data.size(); ++i) chk.expect_beat(Beat{data[i], i + 1 == data.size()});
  chk.expect_packet(200);
  const uint64_t cycles = wire(src, sink, chk, 100000);
  chk.finish(cycles);
  ASSERT_EQ(sink.beats().size(), 200u);
  for (std::size_t i = 0; i < data.size(); ++i) EXPECT_EQ(sink.beats()[i].data, data[i]);
  EXPECT_TRUE(sink.beats().back().last);
  EXPECT_EQ(sink.packets(), 1u);
  // With both sides stalling about half the time it takes well over 200 cycles.
  EXPECT_GT(cycles, 300u);
}

TEST(TinyDnnAxis, SameSeedSameStalls) {
  auto run = [](uint64_t seed) {
    Source src(seed, 0.3);
    Sink sink(seed + 1, 0.3);
    Checker chk("wire");
    src.push_packet(iota_beats(50));
    return wire(src, sink, chk, 10000);
  };
  EXPECT_EQ(run(5), run(5));
}

// A scripted, deliberately misbehaving source: per cycle TVALID, TDATA,
// TLAST and the sink's TREADY.
struct Step {
  bool valid;
  uint64_t data;
  bool last;
  bool ready;
};

std::string run_script(const std::vector<Step>& script, Checker& chk) {
  try {
    for (std::size_t c = 0; c < script.size(); ++c) {
      Pins p;
      p.tvalid = script[c].valid;
      p.tdata = script[c].data;
      p.tlast = script[c].last;
      p.tready = script[c].ready;
      chk.observe(c, p);
    }
    chk.finish(script.size());
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "";
}

TEST(TinyDnnAxisChecker, FailsWhenTdataChangesWhileStalled) {
  Checker chk("bad_source");
  // Cycle 2: beat 0xA offered, not ready (stalled). Cycle 3: TDATA becomes 0xB.
  const std::string msg = run_script({{false, 0, false, true},
                                      {true, 0x9, false, true},
                                      {true, 0xA, false, false},
                                      {true, 0xB, false, true}},
                                     chk);
  expect_contains(msg, {"cycle 3", "TDATA changed while stalled", "bad_source"});
}

TEST(TinyDnnAxisChecker, FailsWhenTvalidDropsWhileStalled) {
  Checker chk("s");
  const std::string msg =
      run_script({{true, 0x1, false, false}, {true, 0x1, false, false}, {false, 0x1, false, true}}, chk);
  expect_contains(msg, {"cycle 2", "TVALID dropped"});
}

TEST(TinyDnnAxisChecker, FailsWhenTlastChangesWhileStalled) {
  Checker chk("s");
  const std::string msg = run_script({{true, 0x1, false, false}, {true, 0x1, true, true}}, chk);
  expect_contains(msg, {"cycle 1", "TLAST changed"});
}

TEST(TinyDnnAxisChecker, AcceptsAStalledBeatHeldSteady) {
  Checker chk("s");
  chk.expect_beats({{0x1, false}, {0x2, true}});
  EXPECT_EQ(run_script({{true, 0x1, false, false},
                        {true, 0x1, false, false},
                        {true, 0x1, false, true},
                        {false, 0x7, false, true},  // TDATA may change while TVALID is low
                        {true, 0x2, true, true}},
                       chk),
            "");
}

TEST(TinyDnnAxisChecker, FailsWhenABeatIsLost) {
  Checker chk("dropper");
  chk.expect_beats({{0x10, false}, {0x11, false}, {0x12, false}, {0x13, true}});
  // The source skips 0x11: at cycle 1 0x12 arrives where 0x11 was due.
  const std::string msg =
      run_script({{true, 0x10, false, true}, {true, 0x12, false, true}, {true, 0x13, true, true}}, chk);
  expect_contains(msg, {"cycle 1", "lost"});
}

TEST(TinyDnnAxisChecker, FailsWhenABeatIsDuplicated) {
  Checker chk("dup");
  chk.expect_beats({{0x10, false}, {0x11, false}, {0x12, true}});
  const std::string msg = run_script({{true, 0x10, false, true},
                                      {true, 0x11, false, true},
                                      {false, 0, false, true},
                                      {true, 0x11, false, true}},
                                     chk);
  expect_contains(msg, {"cycle 3", "duplicated"});
}

TEST(TinyDnnAxisChecker, FailsWhenTheLastBeatNeverComes) {
  Checker chk("short");
  chk.expect_beats({{0x10, false}, {0x11, true}});
  const std::string msg = run_script({{true, 0x10, false, true}, {false, 0, false, true}}, chk);
  expect_contains(msg, {"cycle 2", "never arrived"});
}

TEST(TinyDnnAxisChecker, FramingCatchesEarlyAndMissingTlast) {
  Checker early("early");
  early.expect_packet(3);
  std::string msg = run_script({{true, 1, false, true}, {true, 2, true, true}}, early);
  expect_contains(msg, {"cycle 1", "TLAST on beat 2"});

  Checker missing("missing");
  missing.expect_packet(2);
  msg = run_script({{true, 1, false, true}, {true, 2, false, true}}, missing);
  EXPECT_NE(msg.find("TLAST missing"), std::string::npos) << msg;

  Checker extra("extra");
  extra.expect_packet(1);
  msg = run_script({{true, 1, true, true}, {true, 2, true, true}}, extra);
  EXPECT_NE(msg.find("after the last expected packet"), std::string::npos) << msg;
}

// A byte vector behind the MemoryPort interface (bounds-checked).
class TestMemory : public MemoryPort {
 public:
  explicit TestMemory(std::size_t n) : bytes(n, 0) {}
  void read(uint64_t addr, uint8_t* dst, std::size_t len) override {
    if (addr + len > bytes.size()) throw InputError("test memory: read past end at " + std::to_string(addr));
    std::memcpy(dst, bytes.data() + addr, len);
  }
  void write(uint64_t addr, const uint8_t* src, std::size_t len, const uint8_t* strobe) override {
    if (addr + len > bytes.size()) throw InputError("test memory: write past end at " + std::to_string(addr));
    for (std::size_t i = 0; i < len; ++i)
      if (!strobe || strobe[i]) bytes[addr + i] = src[i];
  }
  std::vector<uint8_t> bytes;
};

TEST(TinyDnnAxisDma, MemoryToStreamToMemory) {
  TestMemory mem(4096);
  for (std::size_t i = 0; i < 1000; ++i) mem.bytes[i] = uint8_t(i * 7 + 3);
  Mm2sDma mm2s(mem, 3, 0.3);
  S2mmDma s2mm(mem, 4, 0.4);
  Checker chk("dma");
  chk.expect_packet(125);  // 1000 bytes = 125 beats
  mm2s.start(0, 1000);
  s2mm.start(2048, 2048);
  Pins p;
  uint64_t c = 0;
  while (s2mm.busy() && c < 10000) {
    mm2s.drive(p);
    s2mm.drive(p);
    chk.observe(c, p);
    mm2s.update(p);
    s2mm.update(p);
    ++c;
  }
  chk.finish(c);
  EXPECT_FALSE(mm2s.busy());
  EXPECT_EQ(s2mm.bytes_written(), 1000u);
  for (std::size_t i = 0; i < 1000; ++i) ASSERT_EQ(mem.bytes[2048 + i], mem.bytes[i]) << "byte " << i;
}

TEST(TinyDnnAxisDma, PartialLastBeatIsZeroPaddedAndOverflowThrows) {
  TestMemory mem(64);
  for (std::size_t i = 0; i < 64; ++i) mem.bytes[i] = 0xFF;
  Mm2sDma mm2s(mem, 1, 0.0);
  S2mmDma s2mm(mem, 2, 0.0);
  mm2s.start(0, 12);   // 2 beats, the second with 4 bytes of padding
  s2mm.start(32, 8);   // room for one beat only
  EXPECT_THROW(clock_ends(mm2s, s2mm, 10), ProtocolError);
  EXPECT_THROW(mm2s.start(0, 0), InputError);
}

TEST(TinyDnnAxisDma, PaddedBeatCarriesZeros) {
  TestMemory mem(64);
  for (std::size_t i = 0; i < 64; ++i) mem.bytes[i] = 0xAB;
  Mm2sDma mm2s(mem, 1, 0.0);
  Sink sink(1, 0.0);
  mm2s.start(0, 12);
  clock_ends(mm2s, sink, 10);
  ASSERT_EQ(sink.beats().size(), 2u);
  EXPECT_EQ(sink.beats()[0].data, 0xABABABABABABABABull);
  EXPECT_FALSE(sink.beats()[0].last);
  EXPECT_EQ(sink.beats()[1].data, 0x00000000ABABABABull);
  EXPECT_TRUE(sink.beats()[1].last);
}

TEST(TinyDnnAxisDma, MemoryTimeDelaysBeatsAndHoldsTready) {
  // Each memory access costs what the delay source says; a cost of c adds
  // c - 1 cycles: the first read costs 5 (beat shown on cycle 4), the next
  // ones 1 (back to back). The hook sees every beat before the stream does.
  TestMemory mem(256);
  for (std::size_t i = 0; i < 32; ++i) mem.bytes[i] = uint8_t(i);
  std::vector<uint64_t> costs{5, 1, 1, 1};
  std::size_t next = 0;
  Mm2sDma mm2s(mem, 1, 0.0);
  mm2s.set_delay_source([&] { return costs.at(next++); });
  std::vector<Beat> hooked;
  mm2s.set_beat_hook([&](const Beat& b) { hooked.push_back(b); });
  mm2s.start(0, 32);
  std::vector<uint64_t> fire_cycles;
  Pins p;
  for (uint64_t c = 0; c < 20; ++c) {
    mm2s.drive(p);
    p.tready = true;
    if (p.fire()) fire_cycles.push_back(c);
    mm2s.update(p);
  }
  EXPECT_EQ(fire_cycles, (std::vector<uint64_t>{4, 5, 6, 7}));
  ASSERT_EQ(hooked.size(), 4u);
  EXPECT_EQ(hooked[0].data, 0x0706050403020100ull);
  EXPECT_TRUE(hooked[3].last);
  EXPECT_FALSE(mm2s.busy());

  // S2MM: a write costing 3 drops TREADY for the 2 cycles after the beat.
  S2mmDma s2mm(mem, 1, 0.0);
  s2mm.set_delay_source([] { return uint64_t(3); });
  s2mm.start(128, 32);
  std::vector<uint64_t> ready_cycles;
  for (uint64_t c = 0; c < 8; ++c) {
    Pins q;
    q.tvalid = true;
    q.tdata = c;
    s2mm.drive(q);
    if (q.tready) ready_cycles.push_back(c);
    s2mm.update(q);
  }
  EXPECT_EQ(ready_cycles, (std::vector<uint64_t>{0, 3, 6}));
}

TEST(TinyDnnAxisDma, InlineTransferNeedsNoMemory) {
  TestMemory mem(8);  // too small for any real transfer: inline must not touch it
  Mm2sDma mm2s(mem, 1, 0.5);
  mm2s.set_delay_source([] { return uint64_t(100); });  // and costs no memory time
  std::vector<uint8_t> bytes(10);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(0xA0 + i);
  mm2s.start_inline(bytes);
  Sink sink(1, 0.0);
  clock_ends(mm2s, sink, 40);
  ASSERT_EQ(sink.beats().size(), 2u);
  EXPECT_EQ(sink.beats()[0].data, 0xA7A6A5A4A3A2A1A0ull);
  EXPECT_EQ(sink.beats()[1].data, 0x000000000000A9A8ull);
  EXPECT_TRUE(sink.beats()[1].last);
  EXPECT_THROW(mm2s.start_inline({}), InputError);
}

}  // namespace
}  // namespace cosim::tb::axis
