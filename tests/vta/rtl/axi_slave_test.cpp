// The cycle-level AXI4 slave model on its own: latency, ordering, write
// strobes, protocol checks, error responses and seeded stalls.
#include <gtest/gtest.h>

#include <vector>

#include "axi/axi4_slave.hpp"
#include "common/error.hpp"

using cosim::tb::Axi4Pins;
using cosim::tb::Axi4SlaveConfig;
using cosim::tb::Axi4SlaveModel;
using cosim::tb::VectorMemory;

namespace {

// A tiny always-ready master issuing one read burst; returns the cycle of
// each R beat and the data.
struct ReadResult {
  std::vector<uint64_t> beat_cycles;
  std::vector<uint8_t> data;
  std::vector<uint8_t> resp;
};

ReadResult read_burst(Axi4SlaveModel& s, uint64_t addr, uint8_t len, uint32_t bytes, uint64_t max = 1000) {
  Axi4Pins p;
  ReadResult r;
  bool ar_done = false;
  for (uint64_t c = 0; c < max && r.beat_cycles.size() < len + 1u; ++c) {
    p.arvalid = !ar_done;
    p.araddr = addr;
    p.arlen = len;
    p.arsize = 4;
    p.arburst = 1;
    p.arid = 1;
    p.rready = true;
    s.drive(p);
    if (p.arvalid && p.arready) ar_done = true;
    if (p.rvalid) {
      r.beat_cycles.push_back(s.cycle());
      r.data.insert(r.data.end(), p.rdata.begin(), p.rdata.begin() + bytes);
      r.resp.push_back(p.rresp);
      EXPECT_EQ(p.rlast, r.beat_cycles.size() == len + 1u);
      EXPECT_EQ(p.rid, 1u);
    }
    s.tick(p);
  }
  return r;
}

}  // namespace

TEST(AxiSlave, ReadLatencyAndData) {
  std::vector<uint8_t> dram(8192);
  for (std::size_t i = 0; i < dram.size(); ++i) dram[i] = static_cast<uint8_t>(i * 7);
  VectorMemory mem(dram);
  Axi4SlaveConfig cfg;
  cfg.read_latency = 5;
  Axi4SlaveModel s(mem, cfg);
  const auto r = read_burst(s, 0x100, 3, 16);
  ASSERT_EQ(r.beat_cycles.size(), 4u);
  // AR accepted in cycle 0, first beat 1 + latency cycles later, then back to back.
  EXPECT_EQ(r.beat_cycles[0], 6u);
  EXPECT_EQ(r.beat_cycles[3], 9u);
  for (std::size_t i = 0; i < r.data.size(); ++i) EXPECT_EQ(r.data[i], dram[0x100 + i]);
  EXPECT_TRUE(s.protocol_errors().empty());
}

TEST(AxiSlave, BandwidthLimitSpacesBeats) {
  std::vector<uint8_t> dram(4096);
  VectorMemory mem(dram);
  Axi4SlaveConfig cfg;
  cfg.bytes_per_cycle = 4;  // one 16-byte beat every 4 cycles
  Axi4SlaveModel s(mem, cfg);
  const auto r = read_burst(s, 0, 3, 16);
  ASSERT_EQ(r.beat_cycles.size(), 4u);
  EXPECT_EQ(r.beat_cycles[2] - r.beat_cycles[1], 4u);
  EXPECT_EQ(r.beat_cycles[3] - r.beat_cycles[2], 4u);
}

TEST(AxiSlave, FlagsFourKBCrossingAndAnswersSlvErrOutOfRange) {
  std::vector<uint8_t> dram(8192);
  VectorMemory mem(dram);
  Axi4SlaveModel s(mem, Axi4SlaveConfig{});
  read_burst(s, 0xff0, 1, 16);  // 0xff0..0x100f crosses 0x1000
  ASSERT_EQ(s.protocol_errors().size(), 1u);
  EXPECT_NE(s.protocol_errors()[0].find("4 KB"), std::string::npos);
  const auto r = read_burst(s, 0x3000, 0, 16);  // beyond the 8 KB image
  ASSERT_EQ(r.resp.size(), 1u);
  EXPECT_EQ(r.resp[0], 2u);
  EXPECT_EQ(s.access_errors().size(), 1u);
}

TEST(AxiSlave, WriteWithStrobesWaitsForAwAndChecksWlast) {
  std::vector<uint8_t> dram(4096, 0xaa);
  VectorMemory mem(dram);
  Axi4SlaveModel s(mem, Axi4SlaveConfig{});
  Axi4Pins p;
  // W before AW is not accepted.
  p.wvalid = true;
  p.wlast = false;
  s.drive(p);
  EXPECT_FALSE(p.wready);
  s.tick(p);
  // AW, then two beats; the second with lanes 0..3 masked off; WLAST wrong on beat 0.
  p.wvalid = false;
  p.awvalid = true;
  p.awaddr = 0x40;
  p.awlen = 1;
  p.awsize = 4;
  s.drive(p);
  ASSERT_TRUE(p.awready);
  s.tick(p);
  p.awvalid = false;
  int beats = 0, b = 0;
  for (int c = 0; c < 20; ++c) {
    p.wvalid = beats < 2;
    for (int i = 0; i < 16; ++i) p.wdata[i] = static_cast<uint8_t>(beats * 16 + i);
    p.wstrb = beats == 0 ? 0xffff : 0xfff0;
    p.wlast = true;  // wrong on beat 0
    p.bready = true;
    s.drive(p);
    if (p.wvalid && p.wready) ++beats;
    if (p.bvalid) {
      ++b;
      EXPECT_EQ(p.bresp, 0u);
    }
    s.tick(p);
  }
  EXPECT_EQ(beats, 2);
  EXPECT_EQ(b, 1);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(dram[0x40 + i], i);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(dram[0x50 + i], 0xaa);
  for (int i = 4; i < 16; ++i) EXPECT_EQ(dram[0x50 + i], 16 + i);
  ASSERT_EQ(s.protocol_errors().size(), 1u);
  EXPECT_NE(s.protocol_errors()[0].find("WLAST"), std::string::npos);
}

TEST(AxiSlave, StallsAreSeededAndDeterministic) {
  std::vector<uint8_t> dram(65536);
  VectorMemory mem(dram);
  auto beats = [&](uint64_t seed) {
    Axi4SlaveConfig cfg;
    cfg.stall_probability = 0.5;
    cfg.seed = seed;
    Axi4SlaveModel s(mem, cfg);
    return read_burst(s, 0, 63, 16, 100000).beat_cycles;
  };
  const auto a = beats(3), b = beats(3), c = beats(4);
  ASSERT_EQ(a.size(), 64u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_GT(a.back(), 64u + 20u);  // stalls really happen
}

TEST(AxiSlave, RejectsBadConfig) {
  std::vector<uint8_t> dram(16);
  VectorMemory mem(dram);
  Axi4SlaveConfig cfg;
  cfg.data_bytes = 24;
  EXPECT_THROW(Axi4SlaveModel(mem, cfg), cosim::InputError);
  uint8_t buf[4];
  EXPECT_THROW(mem.read(14, buf, 4), cosim::InputError);
}
