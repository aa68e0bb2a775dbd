// Shared by the xpm_memory_* tests: a stand-in's configuration as the test
// sees it, random port traffic biased towards address collisions, the
// cycle-by-cycle comparison with RamRef, and reading every word back.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <random>
#include <sstream>
#include <string>
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
  // The other port's address as this port's pins carry it (their widths may differ).
  in.addr = ((g() % 2) ? other_addr : static_cast<unsigned>(g())) & ((1u << addr_width) - 1);
  in.din = g() & width_mask(c.ram.width);
  in.rst = g() % 100 < 3;
  in.regce = g() % 100 < 80;
  return in;
}

struct RamStats {
  unsigned reads_checked = 0, collisions = 0, writes = 0;
};

// The stand-ins' ports as RamPortIn / RamPortOut see them (sdpram: A writes,
// B reads; clkb is 0 between edges, whichever clock it is).
template <class M>
struct SdpOps {
  // The inputs both memories have.
  static void drive(M& d, const RamPortIn& a, const RamPortIn& b) {
    d.ena = a.en;
    d.wea = a.we;
    d.addra = a.addr;
    d.dina = a.din;
    d.enb = b.en;
    d.addrb = b.addr;
    d.rstb = b.rst;
    d.regceb = b.regce;
    d.clkb = 0;
    d.sleep = 0;
    d.injectsbiterra = 0;
    d.injectdbiterra = 0;
  }
  static uint64_t douta(const M&) { return 0; }
  static uint64_t doutb(const M& d) { return d.doutb; }
};
template <class M>
struct TdpOps {
  static void drive(M& d, const RamPortIn& a, const RamPortIn& b) {
    SdpOps<M>::drive(d, a, b);
    d.rsta = a.rst;
    d.regcea = a.regce;
    d.web = b.we;
    d.dinb = b.din;
    d.injectsbiterrb = d.injectdbiterrb = 0;
  }
  static uint64_t douta(const M& d) { return d.douta; }
  static uint64_t doutb(const M& d) { return d.doutb; }
};

// The ports of the other memories, piece by piece: port A reading, port A
// writing, port B reading.
template <class M>
void drive_read_a(M& d, const RamPortIn& a) {
  d.ena = a.en;
  d.addra = a.addr;
  d.rsta = a.rst;
  d.regcea = a.regce;
}
template <class M>
void drive_write_a(M& d, const RamPortIn& a) {
  d.wea = a.we;
  d.dina = a.din;
}
template <class M>
void drive_read_b(M& d, const RamPortIn& b) {
  d.enb = b.en;
  d.addrb = b.addr;
  d.rstb = b.rst;
  d.regceb = b.regce;
  d.clkb = 0;
}
// The stand-ins' ports by what they have: port A writes (else it only
// reads), port B reads (else it is absent), sleep and the ECC inputs.
template <class M, bool WritesA, bool ReadsB, bool SleepEcc>
struct MemOps {
  static void drive(M& d, const RamPortIn& a, const RamPortIn& b) {
    drive_read_a(d, a);
    if constexpr (WritesA) drive_write_a(d, a);
    if constexpr (ReadsB) drive_read_b(d, b);
    if constexpr (SleepEcc) {
      d.sleep = 0;
      d.injectsbiterra = d.injectdbiterra = 0;
      if constexpr (ReadsB) d.injectsbiterrb = d.injectdbiterrb = 0;
    }
    (void)b;
  }
  static uint64_t douta(const M& d) { return d.douta; }
  static uint64_t doutb(const M& d) {
    if constexpr (ReadsB) return d.doutb;
    (void)d;
    return 0;
  }
};
template <class M> using SpOps = MemOps<M, true, false, true>;     // xpm_memory_spram
template <class M> using SpromOps = MemOps<M, false, false, true>; // xpm_memory_sprom
template <class M> using DpromOps = MemOps<M, false, true, true>;  // xpm_memory_dprom
template <class M> using DpdistOps = MemOps<M, true, true, false>; // xpm_memory_dpdistram

// A configuration from its parts.
inline RamTestCfg ram_test_cfg(unsigned width, unsigned depth, const RamPortCfg& a, const RamPortCfg& b,
                               unsigned addr_width_a, unsigned addr_width_b, bool write_protect,
                               std::vector<uint64_t> init = {}) {
  RamTestCfg c;
  c.ram = {width, depth, a, b, false, write_protect};
  c.addr_width_a = addr_width_a;
  c.addr_width_b = addr_width_b;
  c.init = std::move(init);
  return c;
}

// The words of data/ram16x64.mem (MEMORY_INIT_FILE of the 64-bit configurations).
inline const std::vector<uint64_t> kRam16x64Words = {
    0xF2A74DE452E6B438, 0x6513270E269E0D37, 0x0C5C7FD0A6A3A450, 0xD23F0824128B2F33,
    0x1818E811892F902B, 0x9531985D5D9DC9F8, 0xE8E25D940ED90475, 0x36F675CC81E74EF5,
    0x1600A35A099950D8, 0x6B0D549B6F03675A, 0x3D9C172411E20B8F, 0x8D116ECE1738F7D9};

// Compares the reading ports' dout (settled for the inputs a, b) with the
// reference; false, with a failure naming `where`, on a difference.
template <class Ops, class M>
bool douts_match(const RamTestCfg& c, const RamRef& ref, const M& dut, const RamPortIn& a, const RamPortIn& b,
                 RamStats& s, const std::string& where) {
  std::ostringstream bad;
  for (int p = 0; p < 2; ++p) {
    if (!(p == 0 ? c.ram.a.read : c.ram.b.read)) continue;
    const RamPortOut want = ref.dout(p, p == 0 ? a : b);
    const uint64_t got = p == 0 ? Ops::douta(dut) : Ops::doutb(dut);
    if (!want.known) continue;
    ++s.reads_checked;
    if (got != want.dout) bad << " dout" << (p == 0 ? 'a' : 'b') << "=0x" << std::hex << got << " (want 0x" << want.dout << ")" << std::dec;
  }
  EXPECT_TRUE(bad.str().empty()) << where << ":" << bad.str();
  return bad.str().empty();
}

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
    if (!douts_match<Ops>(c, ref, tb.dut, a, b, s, "seed " + std::to_string(seed) + ", cycle " + std::to_string(cy))) break;
    s.collisions += a.en && b.en && a.addr == b.addr && (a.we || b.we);
    s.writes += (a.en && a.we) + (b.en && b.we);
    ref.edge(a, b);
    tb.edge();
  }
  // At the end, every word as the reference has it (through a port that reads).
  return s;
}

// 40000 random cycles against RamRef, which must check at least
// min_reads_checked reads and see over min_collisions address collisions (so
// the traffic did reach the collision rules; 0 where there are none).
template <class M, class Ops>
void expect_random_traffic_matches_reference(const RamTestCfg& c, uint64_t seed, unsigned min_reads_checked,
                                             unsigned min_collisions = 1000) {
  const RamStats s = random_ram_traffic<M, Ops>(c, seed, 40000);
  EXPECT_GT(s.reads_checked, min_reads_checked);
  if (min_collisions > 0) EXPECT_GT(s.collisions, min_collisions);
}

// Reads every address the ports reach (ADDR_WIDTH_*, beyond the depth too),
// each port its own order, through step() (one edge of both ports' clocks)
// and settle(), and expects the initial contents (zero beyond them).
// The memory must not have been written.
template <class Ops, class M, class Step, class Settle>
void expect_initial_contents(const RamTestCfg& c, M& dut, Step&& step, Settle&& settle) {
  const unsigned na = 1u << c.addr_width_a, nb = 1u << c.addr_width_b, n = std::max(na, nb);
  const unsigned edges = std::max({1u, c.ram.a.latency, c.ram.b.latency});
  auto want = [&](unsigned addr) { return addr < c.init.size() ? c.init[addr] : 0; };
  for (unsigned i = 0; i < n; ++i) {
    const unsigned addr_a = i % na, addr_b = (nb - 1 - i % nb);
    const RamPortIn a{true, 0, addr_a, 0, false, true}, b{true, 0, addr_b, 0, false, true};
    Ops::drive(dut, a, b);
    for (unsigned e = 0; e < edges; ++e) {
      if (e > 0) Ops::drive(dut, {false, 0, addr_a, 0, false, true}, {false, 0, addr_b, 0, false, true});
      step();
    }
    settle();
    if (c.ram.a.read) EXPECT_EQ(Ops::douta(dut), want(addr_a)) << "port A, word " << addr_a;
    if (c.ram.b.read) EXPECT_EQ(Ops::doutb(dut), want(addr_b)) << "port B, word " << addr_b;
  }
}

// CLOCKING_MODE "independent_clock": `edges` edges of an EdgeSchedule (A:
// clka, B: clkb) with random inputs on both ports before every edge (a port
// takes them on its own clock's edges only), against RamRef advancing each
// port on its own clock. Half of a port's addresses are the one the other
// port used on its last edge. Both ports writing one word at one instant (on
// hardware a collision, here undefined) is left out: port B reads instead.
// collisions counts the reads of a word the other port wrote at or after the
// reading port's previous edge (at the instant of the read included).
template <class M, class Ops>
RamStats random_ram_traffic_two_clocks(const RamTestCfg& c, const EdgeSchedule& clocks, uint64_t seed,
                                       int edges) {
  Tb2<M, ClkA, ClkB> tb(clocks);
  RamRef ref(c.ram, c.init);
  std::mt19937_64 g(seed);
  RamStats s;
  unsigned last_addr[2] = {0, 0};                                  // each port's address on its last edge
  uint64_t last_edge[2] = {0, 0};                                  // the time of each port's last edge
  std::vector<uint64_t> written[2] = {std::vector<uint64_t>(c.ram.depth, ~0ull),
                                      std::vector<uint64_t>(c.ram.depth, ~0ull)};  // time of each port's last write
  for (int n = 0; n < edges; ++n) {
    const EdgeSchedule::Edge e = tb.schedule.peek();
    RamPortIn a = random_port(g, c, c.ram.a, c.addr_width_a, last_addr[1]);
    RamPortIn b = random_port(g, c, c.ram.b, c.addr_width_b, e.a ? a.addr : last_addr[0]);
    if (e.a && e.b && a.we && a.addr == b.addr) b.we = 0;
    Ops::drive(tb.dut, a, b);
    tb.settle();
    if (!douts_match<Ops>(c, ref, tb.dut, a, b, s,
                          clocks.describe("clka", "clkb") + ", seed " + std::to_string(seed) + ", time " +
                              std::to_string(e.time))) {
      break;
    }
    const bool edge[2] = {e.a, e.b};
    const RamPortIn* in[2] = {&a, &b};
    const RamPortCfg* pc[2] = {&c.ram.a, &c.ram.b};
    for (int p = 0; p < 2; ++p) {
      if (edge[p] && pc[p]->write && in[p]->en && in[p]->we && in[p]->addr < c.ram.depth) {
        written[p][in[p]->addr] = e.time;
        ++s.writes;
      }
    }
    for (int p = 0; p < 2; ++p) {
      if (!edge[p]) continue;
      const uint64_t w = in[p]->addr < c.ram.depth ? written[1 - p][in[p]->addr] : ~0ull;
      if (pc[p]->read && in[p]->en && !in[p]->we && w != ~0ull && w >= last_edge[p]) ++s.collisions;
      last_addr[p] = in[p]->addr, last_edge[p] = e.time;
    }
    ref.edge(a, b, e.a, e.b);
    tb.edge();
  }
  return s;
}

}  // namespace cosim::vendor_xpm_test
