// cosim_ram alone, in two configurations (CMakeLists):
//   sync  32-bit words of four byte chunks, 12 entries (not a power of two,
//         so an address can fall outside), 2 registered read ports
//   comb  64-bit words of two 32-bit chunks, 16 entries, 2 combinational
//         read ports (ReadLatency 0)
// Random masked writes and enabled reads against a reference array: a
// registered read returns the contents before a same-cycle write and holds
// while its enable is low; a combinational read shows the array as it is.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "Vcosim_ram_comb.h"
#include "Vcosim_ram_sync.h"

#include "rtl_common_tb.hpp"

namespace {

using cosim::rtl_common_test::expect_assertion;
using cosim::rtl_common_test::Tb;

// Applies a chunk mask write to a reference word.
uint64_t masked(uint64_t old, uint64_t data, unsigned mask, unsigned chunk_bits, unsigned chunks) {
  for (unsigned c = 0; c < chunks; ++c) {
    if ((mask >> c) & 1u) {
      const uint64_t m = ((chunk_bits == 64) ? ~0ull : ((1ull << chunk_bits) - 1)) << (c * chunk_bits);
      old = (old & ~m) | (data & m);
    }
  }
  return old;
}

// Puts a write on the write port (applied at the next edge when `we`).
template <class M, class Word>
void drive_write(Tb<M>& tb, bool we, unsigned waddr, unsigned wmask, Word wdata) {
  tb.dut.we_i = we;
  tb.dut.waddr_i = waddr;
  tb.dut.wmask_i = wmask;
  tb.dut.wdata_i = wdata;
}

// Writes a random word to each of the `depth` entries, whole (`full_mask`),
// and returns the words, the reference: the storage has no reset.
template <class Word, class M>
std::vector<Word> fill_every_entry(Tb<M>& tb, unsigned depth, unsigned full_mask, std::mt19937_64& g) {
  std::vector<Word> ref(depth);
  for (unsigned a = 0; a < depth; ++a) {
    ref[a] = static_cast<Word>(g());
    drive_write(tb, true, a, full_mask, ref[a]);
    tb.dut.re_i = 0;
    tb.edge();
  }
  return ref;
}

TEST(CosimRam, RegisteredReadsMatchReference) {
  constexpr unsigned kDepth = 12;
  Tb<Vcosim_ram_sync> tb;
  std::mt19937_64 g(3);
  std::vector<uint32_t> ref = fill_every_entry<uint32_t>(tb, kDepth, 0xf, g);
  std::array<uint32_t, 2> rd{};
  std::array<bool, 2> known{false, false};
  for (int cy = 0; cy < 20000; ++cy) {
    const bool we = g() % 2;
    const unsigned waddr = g() % kDepth, wmask = g() % 16;
    const uint32_t wdata = static_cast<uint32_t>(g());
    const unsigned re = g() % 4;
    // Half of the reads hit the entry being written.
    const unsigned ra0 = (g() % 2) ? waddr : g() % kDepth, ra1 = (g() % 2) ? waddr : g() % kDepth;
    drive_write(tb, we, waddr, wmask, wdata);
    tb.dut.re_i = re;
    tb.dut.raddr_i = ra0 | (ra1 << 4);
    tb.edge();
    if (re & 1u) rd[0] = ref[ra0], known[0] = true;
    if (re & 2u) rd[1] = ref[ra1], known[1] = true;
    if (we) ref[waddr] = static_cast<uint32_t>(masked(ref[waddr], wdata, wmask, 8, 4));
    tb.settle();
    const uint64_t out = tb.dut.rdata_o;
    if (known[0]) {
      ASSERT_EQ(static_cast<uint32_t>(out), rd[0]) << "port 0, cycle " << cy;
    }
    if (known[1]) {
      ASSERT_EQ(static_cast<uint32_t>(out >> 32), rd[1]) << "port 1, cycle " << cy;
    }
  }
}

TEST(CosimRam, CombinationalReadsMatchReference) {
  constexpr unsigned kDepth = 16;
  Tb<Vcosim_ram_comb> tb;
  std::mt19937_64 g(5);
  std::vector<uint64_t> ref = fill_every_entry<uint64_t>(tb, kDepth, 3, g);
  tb.dut.we_i = 0;
  for (int cy = 0; cy < 20000; ++cy) {
    const unsigned ra0 = g() % kDepth, ra1 = g() % kDepth;
    tb.dut.raddr_i = ra0 | (ra1 << 4);
    tb.dut.re_i = g() % 4;  // ignored
    tb.settle();
    const uint64_t p0 = tb.dut.rdata_o[0] | (static_cast<uint64_t>(tb.dut.rdata_o[1]) << 32);
    const uint64_t p1 = tb.dut.rdata_o[2] | (static_cast<uint64_t>(tb.dut.rdata_o[3]) << 32);
    ASSERT_EQ(p0, ref[ra0]) << "port 0, cycle " << cy;
    ASSERT_EQ(p1, ref[ra1]) << "port 1, cycle " << cy;
    const bool we = g() % 2;
    const unsigned waddr = g() % kDepth, wmask = g() % 4;
    const uint64_t wdata = g();
    drive_write(tb, we, waddr, wmask, wdata);
    tb.edge();
    tb.dut.we_i = 0;
    if (we) ref[waddr] = masked(ref[waddr], wdata, wmask, 32, 2);
  }
}

TEST(CosimRam, WriteBeyondDepthFailsAnAssertion) {
  Tb<Vcosim_ram_sync> tb;
  tb.dut.re_i = 0;
  tb.dut.we_i = 1;
  tb.dut.waddr_i = 11;  // the last entry: fine
  tb.dut.wmask_i = 0xf;
  tb.edge();
  expect_assertion("write address 13 beyond depth 12", [&] {
    tb.dut.waddr_i = 13;
    tb.edge();
  });
}

TEST(CosimRam, ReadBeyondDepthFailsAnAssertion) {
  Tb<Vcosim_ram_sync> tb;
  tb.dut.we_i = 0;
  tb.dut.re_i = 0b01;
  tb.dut.raddr_i = 15 << 4;  // port 1 disabled: its address does not matter
  tb.edge();
  expect_assertion("read port 1 address 12 beyond depth 12", [&] {
    tb.dut.re_i = 0b10;
    tb.dut.raddr_i = 12 << 4;
    tb.edge();
  });
}

}  // namespace
