// The UltraRAM stand-ins (rtl/vendor/unisim/URAM288*.sv) in
// tops/unisim_uram_top.sv, against a reference written from UG974 / UG573:
// 4096 words of 72 bits starting at 0; on each active CLK edge port A's
// operation, then port B's (B reads A's write of the same edge; where both
// write a byte, B's stays); EN with RDB_WR 1 writes the bytes BWE selects
// (PARITY_INTERLEAVED: BWE[k] the data byte k and the parity bit 64 + k;
// PARITY_INDEPENDENT: BWE[8] the bits 71:64), EN with RDB_WR 0 reads into the
// latch, a write leaves DOUT as it is; IREG_PRE delays the operation by an
// edge, OREG and OREG_ECC add a register each (loaded on every edge, or on
// OREG_CE / OREG_ECC_CE with USE_EXT_CE); RST clears the latch and the
// registers and takes a read's place, at the edge ("SYNC") or at once
// ("ASYNC"); RDACCESS marks the cycle a read's word first shows. The inputs
// are random, cycle by cycle, with addresses crowded so that the ports meet.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <ostream>
#include <string>
#include <vector>

#include "Vunisim_uram_top.h"
#include "unisim_tb.hpp"

namespace {

namespace ut = cosim::vendor_unisim_test;
constexpr unsigned kNum = 5;
constexpr unsigned kDepth = 4096;

struct PortCfg {
  bool ireg, oreg, oreg_ecc, ext_ce, async_rst, interleaved;
  bool inv_en, inv_wr, inv_rst;
};
struct Cfg {
  const char* name;
  bool inv_clk, base;  // base: URAM288_BASE (no RDACCESS)
  PortCfg a, b;
};
// The five instances of the top, as its header lists them.
const Cfg kCfg[kNum] = {
    {"URAM288 latency 1/1", false, false, {0, 0, 0, 0, 0, 1, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 0, 0, 0}},
    {"URAM288 IREG+OREG / OREG+OREG_ECC async", false, false, {1, 1, 0, 0, 0, 0, 0, 0, 0},
     {0, 1, 1, 0, 1, 1, 0, 0, 0}},
    {"URAM288 all registers, ext CE A, inverted", true, false, {1, 1, 1, 1, 1, 0, 1, 0, 1},
     {1, 1, 1, 0, 0, 0, 0, 1, 0}},
    {"URAM288 OREG_ECC async / IREG+OREG ext CE", false, false, {0, 0, 1, 0, 1, 1, 0, 0, 0},
     {1, 1, 0, 1, 0, 1, 1, 0, 1}},
    {"URAM288_BASE OREG ext CE / IREG", false, true, {0, 1, 0, 1, 0, 1, 0, 1, 0}, {1, 0, 0, 0, 0, 1, 0, 0, 0}},
};

unsigned latency(const PortCfg& p) { return 1u + p.ireg + p.oreg + p.oreg_ecc; }

// A 72-bit word: data bits 63:0 and bits 71:64.
struct Word {
  uint64_t lo = 0;
  unsigned hi = 0;
  bool operator==(const Word& o) const { return lo == o.lo && hi == o.hi; }
};
std::ostream& operator<<(std::ostream& os, const Word& w) {
  return os << std::hex << w.hi << "_" << w.lo << std::dec;
}

// One port's inputs, as the port means them (before any IS_*_INVERTED).
struct PortIn {
  unsigned en = 0, wr = 0, rst = 0, oreg_ce = 0, ecc_ce = 0, bwe = 0, addr = 0;
  Word din;
};

// The bits a write changes.
Word write_mask(const PortCfg& pc, unsigned bwe) {
  Word m;
  for (unsigned k = 0; k < 8; ++k) {
    if (ut::bit(bwe, k)) m.lo |= uint64_t{0xFF} << (8 * k);
    if (pc.interleaved ? ut::bit(bwe, k) : ut::bit(bwe, 8)) m.hi |= 1u << k;
  }
  return m;
}
Word merge(const Word& old, const Word& din, const Word& m) {
  return Word{(old.lo & ~m.lo) | (din.lo & m.lo), (old.hi & ~m.hi) | (din.hi & m.hi)};
}

struct PortState {
  PortIn ireg;                // the inputs of the edge before (IREG_PRE)
  Word latch, oreg, ecc;      // the read latch and the two output registers
  bool f_latch = false, f_oreg = false, f_ecc = false;  // holds a read not shown before
  void clear() { latch = oreg = ecc = Word{}, f_latch = f_oreg = f_ecc = false; }
};

struct UramRef {
  const Cfg& c;
  std::array<Word, kDepth> mem{};
  PortState port[2];
  explicit UramRef(const Cfg& cfg) : c(cfg) {}
  const PortCfg& pc(int p) const { return p == 0 ? c.a : c.b; }
  Word dout(int p) const {
    const PortState& s = port[p];
    return pc(p).oreg_ecc ? s.ecc : (pc(p).oreg ? s.oreg : s.latch);
  }
  bool rdaccess(int p) const {
    const PortState& s = port[p];
    if (c.base || pc(p).ext_ce) return false;
    return pc(p).oreg_ecc ? s.f_ecc : (pc(p).oreg ? s.f_oreg : s.f_latch);
  }
  // Between edges: an "ASYNC" reset clears its port's outputs at once.
  void inputs(const PortIn (&in)[2]) {
    for (int p = 0; p < 2; ++p)
      if (pc(p).async_rst && in[p].rst) port[p].clear();
  }
  // One active edge with these inputs.
  void edge(const PortIn (&in)[2]) {
    PortIn op[2];
    for (int p = 0; p < 2; ++p) op[p] = pc(p).ireg ? port[p].ireg : in[p];
    Word read[2];
    bool reads[2];
    for (int p = 0; p < 2; ++p) {  // A first, then B, on the array
      const unsigned a = op[p].addr % kDepth;
      reads[p] = op[p].en && !op[p].wr && !in[p].rst;
      if (op[p].en && op[p].wr) mem[a] = merge(mem[a], op[p].din, write_mask(pc(p), op[p].bwe));
      if (reads[p]) read[p] = mem[a];
    }
    for (int p = 0; p < 2; ++p) {
      PortState& s = port[p];
      const PortCfg& c = pc(p);
      s.ireg = in[p];
      if (in[p].rst) {
        s.clear();
        continue;
      }
      const bool ce_oreg = !c.ext_ce || in[p].oreg_ce, ce_ecc = !c.ext_ce || in[p].ecc_ce;
      const Word into_ecc = c.oreg ? s.oreg : s.latch;
      const bool f_into_ecc = c.oreg ? s.f_oreg : s.f_latch;
      if (ce_ecc) s.ecc = into_ecc;
      s.f_ecc = f_into_ecc;
      if (ce_oreg) s.oreg = s.latch;
      s.f_oreg = s.f_latch;
      if (reads[p]) s.latch = read[p];
      s.f_latch = reads[p];
    }
  }
};

Word word_of(const VlWide<3>& v) { return Word{uint64_t{v[0]} | (uint64_t{v[1]} << 32), v[2] & 0xFFu}; }
void set_word(VlWide<3>& v, const Word& w) {
  v[0] = uint32_t(w.lo), v[1] = uint32_t(w.lo >> 32), v[2] = w.hi & 0xFF;
}

struct Bench {
  ut::Bench<Vunisim_uram_top> b;
  std::vector<UramRef> ref;
  PortIn last[kNum][2];
  Bench() {
    for (unsigned i = 0; i < kNum; ++i) ref.emplace_back(kCfg[i]);
    drive_all();
    clock(false);
  }
  void clock(bool active) {
    unsigned v = 0;
    for (unsigned i = 0; i < kNum; ++i) v |= unsigned(active != kCfg[i].inv_clk) << i;
    b.dut.clk = v;
    b.eval();
  }
  // The pins of instance i from what its ports mean (inversions applied).
  void drive(unsigned i, const PortIn (&in)[2]) {
    auto& d = b.dut;
    auto set = [&](auto& bus, unsigned v) { bus = ut::with_bit(bus, i, v); };
    const PortCfg &a = kCfg[i].a, &bb = kCfg[i].b;
    set(d.ena, in[0].en ^ a.inv_en), set(d.enb, in[1].en ^ bb.inv_en);
    set(d.wra, in[0].wr ^ a.inv_wr), set(d.wrb, in[1].wr ^ bb.inv_wr);
    set(d.rsta, in[0].rst ^ a.inv_rst), set(d.rstb, in[1].rst ^ bb.inv_rst);
    set(d.ocea, in[0].oreg_ce), set(d.oceb, in[1].oreg_ce), set(d.ecea, in[0].ecc_ce), set(d.eceb, in[1].ecc_ce);
    d.addra[i] = in[0].addr, d.addrb[i] = in[1].addr, d.bwea[i] = in[0].bwe, d.bweb[i] = in[1].bwe;
    set_word(d.dina[i], in[0].din), set_word(d.dinb[i], in[1].din);
    last[i][0] = in[0], last[i][1] = in[1];
  }
  void drive_all() {
    for (unsigned i = 0; i < kNum; ++i) drive(i, last[i]);
  }
  // New inputs (clock inactive): the reference sees asynchronous resets.
  void inputs(unsigned i, const PortIn (&in)[2]) {
    drive(i, in);
    ref[i].inputs(in);
  }
  // One active edge of every instance's clock, and back.
  void cycle() {
    b.eval();
    clock(true);
    for (unsigned i = 0; i < kNum; ++i) ref[i].edge(last[i]);
  }
  void end_cycle() { clock(false); }
  void check(const std::string& where) {
    for (unsigned i = 0; i < kNum; ++i) {
      const UramRef& r = ref[i];
      const Word got[2] = {word_of(b.dut.douta[i]), word_of(b.dut.doutb[i])};
      const unsigned acc[2] = {ut::bit(b.dut.rdaccess_a, i), ut::bit(b.dut.rdaccess_b, i)};
      for (int p = 0; p < 2; ++p) {
        ASSERT_EQ(got[p], r.dout(p)) << kCfg[i].name << ": DOUT_" << "AB"[p] << ", " << where;
        ASSERT_EQ(acc[p], unsigned(r.rdaccess(p))) << kCfg[i].name << ": RDACCESS_" << "AB"[p] << ", " << where;
      }
      ASSERT_EQ(ut::bit(b.dut.unused_o, i), 0u) << kCfg[i].name << ": a cascade or ECC output is not 0";
    }
  }
};

Word random_word(std::mt19937_64& g) { return Word{g(), unsigned(g() & 0xFF)}; }

// Random inputs of one port: addresses crowded in a few words (the upper
// pins random: they select nothing without a cascade), the whole depth
// sometimes; byte enables all, none or random.
PortIn random_in(std::mt19937_64& g, unsigned reset_rate) {
  PortIn in;
  in.en = ut::coin(g, 3, 4);
  in.wr = ut::coin(g, 1, 2);
  in.rst = ut::coin(g, 1, reset_rate);
  in.oreg_ce = ut::coin(g, 3, 4);
  in.ecc_ce = ut::coin(g, 3, 4);
  const unsigned pick = unsigned(g() % 4);
  in.bwe = pick == 0 ? 0x1FF : (pick == 1 ? 0 : unsigned(g() & 0x1FF));
  const unsigned low = ut::coin(g, 7, 8) ? unsigned(g() % 8) : unsigned(g() % kDepth);
  in.addr = (unsigned(g() & 0x7FF) << 12) | low;
  in.din = random_word(g);
  return in;
}

void run(unsigned cycles, uint64_t seed) {
  Bench t;
  std::mt19937_64 g(seed);
  t.check("at the start (all 0)");
  unsigned same_addr = 0, reads = 0;
  for (unsigned c = 0; c < cycles; ++c) {
    const unsigned reset_rate = (c / 2000) % 2 ? 8 : 64;  // stretches with few and with many resets
    for (unsigned i = 0; i < kNum; ++i) {
      PortIn in[2] = {random_in(g, reset_rate), random_in(g, reset_rate)};
      if (ut::coin(g, 1, 4)) in[1].addr = (in[1].addr & ~0xFFFu) | (in[0].addr & 0xFFFu);  // the ports meet
      same_addr += in[0].en && in[1].en && (in[0].addr & 0xFFF) == (in[1].addr & 0xFFF);
      reads += (in[0].en && !in[0].wr) + (in[1].en && !in[1].wr);
      t.inputs(i, in);
    }
    t.b.eval();
    t.check("cycle " + std::to_string(c) + ", new inputs before the edge");
    t.cycle();
    t.check("cycle " + std::to_string(c) + ", after the edge");
    t.end_cycle();
    if (testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GT(same_addr, cycles / 4);
  EXPECT_GT(reads, cycles);
}

TEST(UnisimUram, RandomTraffic) { run(40000, 1); }
TEST(UnisimUram, RandomTrafficOtherSeed) { run(20000, 7); }

// Directed, against literal values rather than the reference: helpers that
// idle every instance (nothing enabled, CEs high, resets low).
struct Directed : Bench {
  PortIn idle[2];
  Directed() {
    idle[0].oreg_ce = idle[0].ecc_ce = idle[1].oreg_ce = idle[1].ecc_ce = 1;
    for (unsigned i = 0; i < kNum; ++i) inputs(i, idle);
  }
  void step(unsigned i, const PortIn& a, const PortIn& b) {
    for (unsigned k = 0; k < kNum; ++k) {
      const PortIn in[2] = {k == i ? a : idle[0], k == i ? b : idle[1]};
      inputs(k, in);
    }
    cycle();
    end_cycle();
  }
  PortIn op(unsigned en, unsigned wr, unsigned addr, unsigned bwe = 0x1FF, Word din = {}) {
    PortIn in = idle[0];
    in.en = en, in.wr = wr, in.addr = addr, in.bwe = bwe, in.din = din;
    return in;
  }
  Word out(unsigned i, int p) { return word_of(p == 0 ? b.dut.douta[i] : b.dut.doutb[i]); }
};

// A read issued on one edge shows on DOUT exactly 1 + IREG_PRE + OREG +
// OREG_ECC edges later, on each port of each instance, and RDACCESS with it.
TEST(UnisimUram, ReadLatency) {
  Directed t;
  for (unsigned i = 0; i < kNum; ++i) {
    for (int p = 0; p < 2; ++p) {
      const Word w{0x0123456789ABCDEFull ^ (uint64_t{i} << 8 | unsigned(p)), 0xA5u ^ i};
      const unsigned addr = 100 + 2 * i + unsigned(p);
      t.step(i, t.op(1, 1, addr, 0x1FF, w), t.idle[1]);  // A writes it
      for (unsigned k = 0; k < 6; ++k) t.step(i, t.idle[0], t.idle[1]);
      const PortIn rd = t.op(1, 0, addr);
      t.step(i, p == 0 ? rd : t.idle[0], p == 1 ? rd : t.idle[1]);
      const unsigned want = latency(p == 0 ? kCfg[i].a : kCfg[i].b);
      unsigned seen = 1;
      while (!(t.out(i, p) == w) && seen < 8) t.step(i, t.idle[0], t.idle[1]), ++seen;
      EXPECT_EQ(seen, want) << kCfg[i].name << " port " << "AB"[p];
      if (!kCfg[i].base && !(p == 0 ? kCfg[i].a : kCfg[i].b).ext_ce) {
        EXPECT_EQ(ut::bit(p == 0 ? t.b.dut.rdaccess_a : t.b.dut.rdaccess_b, i), 1u) << kCfg[i].name;
      }
    }
  }
}

// Instance 0 (latency 1): in one edge port A's operation comes before B's.
TEST(UnisimUram, PortAThenPortB) {
  Directed t;
  const Word x{0x1111222233334444ull, 0x5A}, y{0x9999AAAABBBBCCCCull, 0xC3};
  // A writes x while B reads the same word: B gets x.
  t.step(0, t.op(1, 1, 9, 0x1FF, x), t.op(1, 0, 9));
  EXPECT_EQ(t.out(0, 1), x);
  // A reads while B writes y: A gets x, the word before B's write.
  t.step(0, t.op(1, 0, 9), t.op(1, 1, 9, 0x1FF, y));
  EXPECT_EQ(t.out(0, 0), x);
  // A write leaves DOUT_A as it was; B's read then sees y.
  t.step(0, t.op(1, 1, 10, 0x1FF, y), t.op(1, 0, 9));
  EXPECT_EQ(t.out(0, 0), x);
  EXPECT_EQ(t.out(0, 1), y);
  // Both write word 9: A all bytes x, B bytes 0-3 (and, interleaved, parity
  // bits 0-3) y: B's bytes stay, A's elsewhere.
  t.step(0, t.op(1, 1, 9, 0x1FF, x), t.op(1, 1, 9, 0x00F, y));
  t.step(0, t.op(1, 0, 9), t.idle[1]);
  EXPECT_EQ(t.out(0, 0), (Word{0x11112222BBBBCCCCull, 0x53}));
}

// Resets: "SYNC" clears DOUT on the edge, "ASYNC" at once; a write during
// reset still writes.
TEST(UnisimUram, Resets) {
  Directed t;
  const Word x{0xFEDCBA9876543210ull, 0x81};
  t.step(1, t.idle[0], t.op(1, 1, 3, 0x1FF, x));  // instance 1, port B: "ASYNC", latency 3
  for (unsigned k = 0; k < 3; ++k) t.step(1, t.idle[0], t.op(1, 0, 3));
  ASSERT_EQ(t.out(1, 1), x);
  PortIn rst = t.idle[1];
  rst.rst = 1;
  const PortIn in[2] = {t.idle[0], rst};
  t.inputs(1, in);
  t.b.eval();
  EXPECT_EQ(t.out(1, 1), Word{}) << "ASYNC: DOUT_B at once";
  t.step(0, t.op(1, 0, 3), t.idle[1]);  // instance 0, "SYNC": read word 3 (0 there)
  PortIn wr_rst = t.op(1, 1, 3, 0x1FF, x);
  wr_rst.rst = 1;
  t.step(0, wr_rst, t.idle[1]);  // a write during reset
  t.step(0, t.op(1, 0, 3), t.idle[1]);
  EXPECT_EQ(t.out(0, 0), x) << "the write under RST_A";
  PortIn rd_rst = t.op(1, 0, 3);
  rd_rst.rst = 1;
  const PortIn in0[2] = {rd_rst, t.idle[1]};
  t.inputs(0, in0);
  t.b.eval();
  EXPECT_EQ(t.out(0, 0), x) << "SYNC: nothing before the edge";
  t.cycle();
  t.end_cycle();
  EXPECT_EQ(t.out(0, 0), Word{}) << "SYNC: cleared on the edge, the read not done";
}

}  // namespace
