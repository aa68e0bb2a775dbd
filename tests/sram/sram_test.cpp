// The sram binder (harness/sram_binder.hpp) on a real Verilated top with
// native memory ports (sram_dut_top.sv), bound through its generated pin
// bindings, clocked by the harness core, on a flat memory (VectorMemory, as
// the TLM testbench's bridge to the DRAM is one). What memory must hold
// afterwards comes from the DUT's specification (the header of
// sram_dut_top.sv), computed here byte by byte and compared with all of
// memory:
//   - sram_w1.yaml: a split read / write pair at latency 1 (pins named as a
//     course accelerator names them, through `signals`), a read-modify-write
//     port at latency 2, word addressing, each port at its own base;
//   - sram_b2.yaml: latencies 2 and 1, byte addressing;
//   - an access outside memory: one error naming the interface, its
//     address and cycle, with how many were refused;
//   - the idle cycles' addresses (16'hffff, out of range) are never taken:
//     the enables gate every access.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "harness/core.hpp"
// core.hpp first: it brings in Verilator's headers.
#include "Vsram_b2.h"
#include "Vsram_n18.h"
#include "Vsram_w1.h"
#include "axi/memory_port.hpp"
#include "dut/sram_b2_pins.hpp"
#include "dut/sram_n18_pins.hpp"
#include "dut/sram_w1_pins.hpp"
#include "harness/sram_binder.hpp"

namespace cosim::tb::harness {
namespace {

constexpr unsigned kWords = 16;  // sram_dut_top's N

struct Done : NoErrorPin {
  template <class Model>
  static bool done(const Model& m) {
    return m.done != 0;
  }
  template <class Model>
  static std::string diagnosis(const Model&) {
    return "sram_dut_top";
  }
};

// What memory holds after a run of sram_dut_top whose ports start at the
// manifest's bases: the copy's words, byte by byte as enabled, and the
// read-modify-write's.
std::vector<uint8_t> expected(std::vector<uint8_t> mem, uint64_t src, uint64_t dst, uint64_t rmw) {
  static const uint8_t kEnables[4] = {0xf, 0x5, 0xa, 0x1};
  for (unsigned i = 0; i < kWords; ++i) {
    for (unsigned b = 0; b < 4; ++b) {
      if ((kEnables[i % 4] >> b) & 1) mem[dst + 4 * i + b] = uint8_t(mem[src + 4 * i + b] + 1);
    }
  }
  for (unsigned j = 0; j < kWords; ++j) {
    uint32_t w = 0;
    for (unsigned b = 0; b < 4; ++b) w |= uint32_t{mem[rmw + 4 * j + b]} << (8 * b);
    w = w * 3 + 1;
    for (unsigned b = 0; b < 4; ++b) mem[rmw + 4 * j + b] = uint8_t(w >> (8 * b));
  }
  return mem;
}

// Runs the DUT over `bytes` of random memory; returns the binders' errors.
template <class Model, class Pins>
std::vector<std::string> run(std::vector<uint8_t>& mem, uint64_t* cycles = nullptr) {
  VectorMemory port(mem);
  Core<Model, Done, Pins> core("sram_dut_top");
  SramBinders<Model, typename Pins::Srams> srams({&port, &port, &port});
  srams.add_to(core);
  core.start_timeline();
  EXPECT_TRUE(core.run(2000)) << "not done";
  if (cycles) *cycles = core.time();
  const auto c = srams.counters();
  EXPECT_EQ(c.at("src.reads"), kWords);
  EXPECT_EQ(c.at("src.writes"), 0u);
  EXPECT_EQ(c.at("dst.writes"), kWords);
  EXPECT_EQ(c.at("rmw.reads"), kWords);
  EXPECT_EQ(c.at("rmw.writes"), kWords);
  return srams.errors();
}

std::vector<uint8_t> random_bytes(std::size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = uint8_t(rng());
  return v;
}

// A run over 4 KiB of random memory, every byte compared, no errors, and
// its cycles: the read-modify-write port is the slower engine, per word a
// read, the latency's cycles (the last writes), an idle cycle.
template <class List>
struct Ports;
template <class Src, class Dst, class Rmw>
struct Ports<BusList<Src, Dst, Rmw>> {
  static constexpr uint64_t kBases[3] = {Src::kBase, Dst::kBase, Rmw::kBase};
  static constexpr unsigned kRmwLatency = Rmw::kLatency;
};

template <class Model, class Top>
void expect_bit_exact(uint64_t seed) {
  using P = Ports<typename Top::Srams>;
  std::vector<uint8_t> mem = random_bytes(4096, seed);
  const std::vector<uint8_t> want = expected(mem, P::kBases[0], P::kBases[1], P::kBases[2]);
  uint64_t cycles = 0;
  EXPECT_EQ((run<Model, Top>(mem, &cycles)), std::vector<std::string>{});
  EXPECT_EQ(mem, want);
  EXPECT_EQ(cycles, kWords * (1 + P::kRmwLatency + 1));
}

TEST(Sram, Latency1And2WordAddressing) {
  namespace pins = cosim::sram_w1::pins;
  static_assert(pins::Src::kLatency == 1 && pins::Rmw::kLatency == 2 && !pins::Src::kByteAddressing);
  static_assert(pins::Src::kBase == 0x100 && pins::Dst::kBase == 0x400 && pins::Rmw::kBase == 0x800);
  static_assert(SramBinder<Vsram_w1, pins::Dst>::kDataBytes == 4 && !SramBinder<Vsram_w1, pins::Dst>::kReads);
  expect_bit_exact<Vsram_w1, pins::Top>(1);
}

TEST(Sram, Latency2And1ByteAddressing) {
  namespace pins = cosim::sram_b2::pins;
  static_assert(pins::Src::kLatency == 2 && pins::Rmw::kLatency == 1 && pins::Src::kByteAddressing);
  static_assert(pins::Src::kBase == 0x200 && pins::Dst::kBase == 0x600 && pins::Rmw::kBase == 0xa00);
  expect_bit_exact<Vsram_b2, pins::Top>(2);
}

TEST(Sram, AnAccessOutsideMemoryIsOneErrorNamingPortAddressAndCycle) {
  // Memory ends inside the read-modify-write port's last word (word 15 at 0x83c).
  std::vector<uint8_t> mem = random_bytes(0x83e, 3);
  const std::vector<uint8_t> before = mem;
  const std::vector<std::string> e = run<Vsram_w1, cosim::sram_w1::pins::Top>(mem);
  ASSERT_EQ(e.size(), 1u);
  // Word 15's read is in cycle 15 * 4 (read, two cycles' wait, idle per word).
  EXPECT_NE(e[0].find("sram rmw: read of address 0xf (DRAM byte 0x83c) in cycle 60: "), std::string::npos) << e[0];
  EXPECT_NE(e[0].find("(2 accesses refused in all)"), std::string::npos) << e[0];  // its write too
  // Everything else was written as without the fault; the bytes of the last word that exist are unchanged.
  std::vector<uint8_t> want = before;
  want.resize(0x840);
  want = expected(want, 0x100, 0x400, 0x800);
  want.resize(mem.size());
  want[0x83c] = before[0x83c];
  want[0x83d] = before[0x83d];
  EXPECT_EQ(mem, want);
}

// 18-bit words (data_bits: 18), three bytes each: the bits above the 18 in
// memory are random and never reach the DUT (its comparison with 18'h3ffff
// would see them), and its writes fill them with zeros.
TEST(Sram, EighteenBitWordsTakeThreeBytesAndOnlyTheirBits) {
  namespace pins = cosim::sram_n18::pins;
  static_assert(SramBinder<Vsram_n18, pins::Src>::kDataBytes == 3 && pins::Src::kDataBits == 18);
  constexpr unsigned kN = 64;
  std::vector<uint8_t> mem = random_bytes(0x800, 4);
  const auto word = [&](uint64_t at) { return uint32_t{mem[at]} | uint32_t{mem[at + 1]} << 8 | uint32_t{mem[at + 2]} << 16; };
  for (unsigned i = 0; i < kN; i += 5) {  // some all ones in their 18 bits, the bits above still random
    mem[0x100 + 3 * i] = mem[0x100 + 3 * i + 1] = 0xff;
    mem[0x100 + 3 * i + 2] |= 0x03;
  }
  std::vector<uint8_t> want = mem;
  for (unsigned i = 0; i < kN; ++i) {
    const uint32_t x = word(0x100 + 3 * i) & 0x3ffff;
    const uint32_t y = x == 0x3ffff ? 0x2aaaa : (x + 1) & 0x3ffff;
    for (unsigned b = 0; b < 3; ++b) want[0x400 + 3 * i + b] = uint8_t(y >> (8 * b));
  }
  VectorMemory port(mem);
  Core<Vsram_n18, Done, pins::Top> core("sram_narrow_top");
  SramBinders<Vsram_n18, pins::Top::Srams> srams({&port, &port});
  srams.add_to(core);
  core.start_timeline();
  ASSERT_TRUE(core.run(1000)) << "not done";
  EXPECT_EQ(srams.errors(), std::vector<std::string>{});
  EXPECT_EQ(mem, want);
}

}  // namespace
}  // namespace cosim::tb::harness
