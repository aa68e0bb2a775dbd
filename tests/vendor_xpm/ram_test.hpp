// Shared by the xpm_memory_sdpram and xpm_memory_tdpram tests: a stand-in's
// configuration as the test sees it, random port traffic biased towards
// address collisions, and the cycle-by-cycle comparison with RamRef.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <vector>

#include "ram_ref.hpp"
#include "xpm_tb.hpp"

namespace cosim::vendor_xpm_test {

struct RamTestCfg {
  RamCfg ram;
  unsigned addr_width_a, addr_width_b;  // ADDR_WIDTH_*: addresses may fall beyond the depth
  std::vector<uint64_t> init;           // initial contents (the rest are zero)
};

inline uint64_t width_mask(unsigned width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }

// One port's random inputs; half of the addresses are the other port's.
inline RamPortIn random_port(std::mt19937_64& g, const RamTestCfg& c, const RamPortCfg& p,
                             unsigned addr_width, unsigned other_addr) {
  RamPortIn in;
  in.en = g() % 100 < 75;
  const unsigned lanes = c.ram.width / p.byte_width;
  in.we = (p.write && g() % 100 < 45) ? static_cast<unsigned>(g() & ((1u << lanes) - 1)) : 0;
  in.addr = (g() % 2) ? other_addr : static_cast<unsigned>(g() & ((1u << addr_width) - 1));
  in.din = g() & width_mask(c.ram.width);
  in.rst = g() % 100 < 3;
  in.regce = g() % 100 < 80;
  return in;
}

struct RamStats {
  unsigned reads_checked = 0, collisions = 0, writes = 0;
};

// Runs `cycles` random cycles on a stand-in (Ops: drive(dut, a, b), and
// douta(dut) / doutb(dut) for the ports that read) against RamRef.
template <class M, class Ops>
RamStats random_ram_traffic(const RamTestCfg& c, uint64_t seed, int cycles) {
  Tb<M, ClkA> tb;
  RamRef ref(c.ram, c.init);
  std::mt19937_64 g(seed);
  RamStats s;
  unsigned last_a = 0, last_b = 0;
  for (int cy = 0; cy < cycles; ++cy) {
    RamPortIn a = random_port(g, c, c.ram.a, c.addr_width_a, last_b);
    RamPortIn b = random_port(g, c, c.ram.b, c.addr_width_b, a.addr);
    last_a = a.addr, last_b = b.addr;
    (void)last_a;
    Ops::drive(tb.dut, a, b);
    tb.settle();
    std::ostringstream bad;
    for (int p = 0; p < 2; ++p) {
      if (!(p == 0 ? c.ram.a.read : c.ram.b.read)) continue;
      const RamPortOut want = ref.dout(p, p == 0 ? a : b);
      const uint64_t got = p == 0 ? Ops::douta(tb.dut) : Ops::doutb(tb.dut);
      if (!want.known) continue;
      ++s.reads_checked;
      if (got != want.dout) bad << " dout" << (p == 0 ? 'a' : 'b') << "=0x" << std::hex << got << " (want 0x" << want.dout << ")" << std::dec;
    }
    EXPECT_TRUE(bad.str().empty()) << "seed " << seed << ", cycle " << cy << ":" << bad.str();
    if (testing::Test::HasFailure()) break;
    s.collisions += a.en && b.en && a.addr == b.addr && (a.we || b.we);
    s.writes += (a.en && a.we) + (b.en && b.we);
    ref.edge(a, b);
    tb.edge();
  }
  // At the end, every word as the reference has it (through a port that reads).
  return s;
}

// 40000 random cycles against RamRef, which must check at least
// min_reads_checked reads and see over 1000 address collisions (so the
// traffic did reach the collision rules).
template <class M, class Ops>
void expect_random_traffic_matches_reference(const RamTestCfg& c, uint64_t seed, unsigned min_reads_checked) {
  const RamStats s = random_ram_traffic<M, Ops>(c, seed, 40000);
  EXPECT_GT(s.reads_checked, min_reads_checked);
  EXPECT_GT(s.collisions, 1000u);
}

}  // namespace cosim::vendor_xpm_test
