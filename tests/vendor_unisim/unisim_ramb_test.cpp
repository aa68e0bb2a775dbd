// The block RAM stand-ins (rtl/vendor/unisim/RAMB*.sv): RAMB36E2 / RAMB18E2
// in tops/unisim_ramb_top.sv, RAMB36E1 / RAMB18E1 in
// tops/unisim_ramb_e1_top.sv (the same ports), against one reference written
// from UG974 / UG573 and UG953 / UG473 (the two families behave alike):
// the RAM is a row of data bits and a row of parity bits; a port of width W
// moves D data bits (W, 8 per 9) and D / 8 parity bits, its word at address
// pins ADDR being bits [a*D, a*D + D) with a = ADDR >> log2(D); a write
// changes the 8-bit lanes (and their parity bit) whose WE bit is set (below
// width 9: one lane under WE[0]); the read latch takes SRVAL on RSTRAM, the
// new word (WRITE_FIRST), the old word (READ_FIRST) or nothing (NO_CHANGE)
// on a write, the word on a read, all on an edge with EN; the output
// register (DO_REG 1) takes SRVAL on RSTREG (with RSTREG_PRIORITY "REGCE":
// and REGCE), else the latch on REGCE. Both ports run on their own clocks at
// several ratios, with random enables, writes and resets; each port's edge
// sees the array as it was before it (the same-instant rule of the
// stand-ins), and both ports never write one bit at one instant. Address
// pins above the array's 15 / 14 (RAMB36E1's bit 15, the cascade's) are
// ignored.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "Vunisim_ramb_e1_top.h"
#include "Vunisim_ramb_top.h"
#include "unisim_tb.hpp"

namespace {

namespace ut = cosim::vendor_unisim_test;

enum Mode { kWriteFirst, kReadFirst, kNoChange };

struct PortCfg {
  unsigned read_width, write_width;
  Mode mode;
  bool do_reg, rst_first;
  bool inv_clk, inv_en, inv_rstram, inv_rstreg;
};
struct Cfg {
  const char* name;
  bool big, sdp;
  PortCfg a, b;
  unsigned addr_pins;                  // 15 / 14, 16 on RAMB36E1
  unsigned init_a, init_b, sr_a, sr_b;  // k of the top's mix(SEED, 1000 + k)
};
// A test top: its SEED and its instances, as its header lists them.
struct Top {
  uint64_t seed;
  std::vector<Cfg> cfg;
};
const Top kE2 = {0xB4A3,
                 {
                     {"RAMB36E2 TDP 36/36", true, false, {36, 36, kWriteFirst, true, false, 0, 0, 0, 0},
                      {36, 36, kReadFirst, false, true, 0, 0, 0, 0}, 15, 0, 1, 2, 3},
                     {"RAMB36E2 TDP 9r18w/4r1w", true, false, {9, 18, kNoChange, false, true, 0, 1, 0, 0},
                      {4, 1, kWriteFirst, true, true, 1, 0, 1, 1}, 15, 2, 3, 0, 1},
                     {"RAMB36E2 SDP 72", true, true, {72, 0, kNoChange, true, true, 0, 0, 0, 0},
                      {0, 72, kNoChange, true, true, 0, 0, 0, 0}, 15, 2, 3, 0, 1},
                     {"RAMB18E2 TDP 18/2", false, false, {18, 18, kReadFirst, true, true, 1, 0, 1, 1},
                      {2, 2, kNoChange, true, true, 0, 1, 0, 0}, 14, 1, 2, 3, 0},
                     {"RAMB18E2 SDP 36", false, true, {36, 0, kWriteFirst, false, true, 0, 0, 0, 0},
                      {0, 36, kWriteFirst, true, true, 0, 0, 0, 0}, 14, 1, 2, 3, 0},
                 }};
// Instance i of the E1 top takes INIT_A, INIT_B, SRVAL_A, SRVAL_B from i, i + 1, i + 2, i + 3 (mod 4).
const Top kE1 = {0x7E51,
                 {
                     {"RAMB36E1 TDP 18r36w/1r9w", true, false, {18, 36, kReadFirst, true, false, 1, 0, 0, 1},
                      {1, 9, kWriteFirst, false, true, 0, 1, 0, 0}, 16, 0, 1, 2, 3},
                     {"RAMB36E1 SDP 72", true, true, {72, 0, kNoChange, true, true, 0, 0, 1, 0},
                      {0, 72, kWriteFirst, false, true, 0, 0, 0, 0}, 16, 1, 2, 3, 0},
                     {"RAMB36E1 TDP 36/36", true, false, {36, 36, kNoChange, false, true, 0, 0, 0, 0},
                      {36, 36, kWriteFirst, false, true, 1, 0, 1, 0}, 16, 2, 3, 0, 1},
                     {"RAMB18E1 TDP 9r4w/18", false, false, {9, 4, kWriteFirst, true, true, 0, 1, 0, 0},
                      {18, 18, kNoChange, true, true, 1, 0, 0, 1}, 14, 3, 0, 1, 2},
                     {"RAMB18E1 SDP 36", false, true, {36, 0, kWriteFirst, true, false, 0, 0, 0, 0},
                      {0, 36, kWriteFirst, false, true, 0, 0, 0, 0}, 14, 0, 1, 2, 3},
                 }};

unsigned dbits(unsigned w) { return w < 9 ? w : w / 9 * 8; }
unsigned lg(unsigned n) {
  unsigned s = 0;
  while ((1u << s) < n) ++s;
  return s;
}

// What a port shows: data (up to 64 bits) and parity (up to 8 bits).
struct Word {
  uint64_t d = 0;
  unsigned p = 0;
  bool operator==(const Word& o) const { return d == o.d && p == o.p; }
};

// {parity, data} of an SRVAL/INIT of the pins' width dp + dp/8, as pins show it.
Word split(uint64_t v, unsigned dp) { return Word{v & ut::mask(dp), unsigned(v >> dp) & unsigned(ut::mask(dp / 8))}; }

struct PortState {
  Word latch, reg;
};

struct RamRef {
  const Cfg& c;
  unsigned dp;  // data pins per port
  std::vector<uint8_t> data, par;
  PortState port[2];
  Word srval[2];

  RamRef(const Cfg& cfg, unsigned i, uint64_t seed) : c(cfg), dp(cfg.big ? 32 : 16) {
    data.assign(cfg.big ? 32768 : 16384, 0);
    par.assign(data.size() / 8, 0);
    // INIT_00, INIT_01, the last INIT_, INITP_00 = init256(8i + 0..3).
    auto init256 = [&](unsigned k, std::vector<uint8_t>& bits, unsigned at) {
      for (unsigned w = 0; w < 4; ++w) {
        const uint64_t v = ut::mix(seed, 4 * k + w);
        for (unsigned b = 0; b < 64; ++b) bits[at + 64 * w + b] = ut::bit(v, b);
      }
    };
    init256(8 * i, data, 0);
    init256(8 * i + 1, data, 256);
    init256(8 * i + 2, data, unsigned(data.size()) - 256);
    init256(8 * i + 3, par, 0);
    const unsigned tw = dp + dp / 8;
    auto v = [&](unsigned k) { return ut::mix(seed, 1000 + k) & ut::mask(tw); };
    const uint64_t init_a = v(cfg.init_a), init_b = v(cfg.init_b), sr_a = v(cfg.sr_a), sr_b = v(cfg.sr_b);
    for (int p = 0; p < 2; ++p) {
      const Word in = pins(p == 0 ? init_a : init_b, init_b, p);
      port[p] = PortState{in, in};
      srval[p] = pins(p == 0 ? sr_a : sr_b, sr_b, p);
    }
  }
  const PortCfg& pc(int p) const { return p == 0 ? c.a : c.b; }
  // The address the array sees: the pins above its 15 / 14 ignored.
  unsigned array_addr(unsigned addr) const { return addr & unsigned(ut::mask(c.big ? 15 : 14)); }
  // An SRVAL/INIT value on port p's read (SDP: B's attribute is the upper half).
  Word pins(uint64_t own, uint64_t upper_b, int p) const {
    const unsigned rd = dbits(pc(p).read_width);
    Word w = split(own, dp);
    if (c.sdp && p == 0) {
      const Word hi = split(upper_b, dp);
      w.d |= hi.d << dp;
      w.p |= hi.p << (dp / 8);
    }
    w.d &= ut::mask(rd);
    w.p &= unsigned(ut::mask(rd / 8));
    return w;
  }
  Word read(unsigned addr, unsigned width, const std::vector<uint8_t>& d, const std::vector<uint8_t>& pa) const {
    const unsigned dw = dbits(width), pw = dw / 8, a = array_addr(addr) >> lg(dw);
    Word w;
    for (unsigned b = 0; b < dw; ++b) w.d |= uint64_t{d[a * dw + b]} << b;
    for (unsigned b = 0; b < pw; ++b) w.p |= unsigned{pa[a * pw + b]} << b;
    return w;
  }
};

struct PortIn {
  unsigned en, rstram, rstreg, regce, addr, we;
  uint64_t din;  // SDP B: {DINB, DINA}
  unsigned dinp;
};

// The bits port p's write changes: (data bit, value) and (parity bit, value).
struct Write {
  std::vector<std::pair<unsigned, uint8_t>> d, p;
};
Write write_of(const RamRef& r, int p, const PortIn& in) {
  Write w;
  const unsigned ww = r.pc(p).write_width;
  if (ww == 0 || !in.en) return w;
  const unsigned dw = dbits(ww), pw = dw / 8, a = r.array_addr(in.addr) >> lg(dw);
  const unsigned lanes = dw >= 8 ? dw / 8 : 1, lane_w = dw >= 8 ? 8 : dw;
  for (unsigned k = 0; k < lanes; ++k) {
    if (!ut::bit(in.we, k)) continue;
    for (unsigned b = 0; b < lane_w; ++b) w.d.push_back({a * dw + k * lane_w + b, uint8_t(ut::bit(in.din, k * lane_w + b))});
    if (pw > 0) w.p.push_back({a * pw + k, uint8_t(ut::bit(in.dinp, k))});
  }
  return w;
}

// One active edge of port p: the next latch and register, from the state before the edge.
PortState next_state(const RamRef& r, int p, const PortIn& in, const Write& own) {
  const PortCfg& pc = r.pc(p);
  PortState s = r.port[p];
  if (pc.read_width == 0) return s;
  if (pc.do_reg) {
    if (in.rstreg && (pc.rst_first || in.regce)) s.reg = r.srval[p];
    else if (in.regce) s.reg = r.port[p].latch;
  }
  if (in.en) {
    const bool wr = pc.write_width > 0 && !own.d.empty();
    if (in.rstram) {
      s.latch = r.srval[p];
    } else if (!wr || pc.mode == kReadFirst) {
      s.latch = r.read(in.addr, pc.read_width, r.data, r.par);
    } else if (pc.mode == kWriteFirst) {
      std::vector<uint8_t> d = r.data, pa = r.par;
      for (auto [i, v] : own.d) d[i] = v;
      for (auto [i, v] : own.p) pa[i] = v;
      s.latch = r.read(in.addr, pc.read_width, d, pa);
    }
  }
  return s;
}

Word shown(const RamRef& r, int p) {
  return r.pc(p).do_reg ? r.port[p].reg : r.port[p].latch;
}

// The test top Model with the instances `top` lists, and their references.
template <class Model>
struct Bench {
  const std::vector<Cfg>& cfg;
  const unsigned num;
  ut::Bench<Model> b;
  std::vector<RamRef> ref;
  explicit Bench(const Top& top) : cfg(top.cfg), num(unsigned(top.cfg.size())) {
    for (unsigned i = 0; i < num; ++i) ref.emplace_back(cfg[i], i, top.seed);
  }
  unsigned level(unsigned i, int p, unsigned active) const {
    const PortCfg& pc = p == 0 ? cfg[i].a : cfg[i].b;
    return active ^ unsigned(pc.inv_clk);
  }
  void drive(unsigned i, int p, const PortIn& in) {
    const PortCfg& pc = p == 0 ? cfg[i].a : cfg[i].b;
    auto set = [&](auto& bus, unsigned v) { bus = ut::with_bit(bus, i, v); };
    auto& d = b.dut;
    if (p == 0) {
      set(d.ena, in.en ^ pc.inv_en), set(d.rstrama, in.rstram ^ pc.inv_rstram);
      set(d.rstrega, in.rstreg ^ pc.inv_rstreg), set(d.regcea, in.regce);
      d.addra[i] = in.addr, d.wea[i] = in.we, d.dina[i] = uint32_t(in.din), d.dinpa[i] = in.dinp & 0xF;
    } else {
      set(d.enb, in.en ^ pc.inv_en), set(d.rstramb, in.rstram ^ pc.inv_rstram);
      set(d.rstregb, in.rstreg ^ pc.inv_rstreg), set(d.regceb, in.regce);
      d.addrb[i] = in.addr, d.webwe[i] = in.we;
      if (cfg[i].sdp) {  // the write port takes both halves
        const unsigned dp = cfg[i].big ? 32 : 16;
        d.dina[i] = uint32_t(in.din & ut::mask(dp)), d.dinb[i] = uint32_t(in.din >> dp);
        d.dinpa[i] = in.dinp & unsigned(ut::mask(dp / 8)), d.dinpb[i] = in.dinp >> (dp / 8);
      } else {
        d.dinb[i] = uint32_t(in.din), d.dinpb[i] = in.dinp & 0xF;
      }
    }
  }
  // Clocks to their inactive level (as the RAM sees them).
  void settle() {
    unsigned ca = 0, cb = 0;
    for (unsigned i = 0; i < num; ++i) ca |= level(i, 0, 0) << i, cb |= level(i, 1, 0) << i;
    b.dut.clka = ca, b.dut.clkb = cb;
    b.eval();
  }
  // Both clocks of every instance rise (as seen) if a / b; the reference follows.
  void edge(bool a, bool bb, const std::vector<PortIn> (&in)[2]) {
    settle();
    unsigned ca = b.dut.clka, cb = b.dut.clkb;
    for (unsigned i = 0; i < num; ++i) {
      if (a) ca = ut::with_bit(ca, i, level(i, 0, 1));
      if (bb) cb = ut::with_bit(cb, i, level(i, 1, 1));
    }
    b.dut.clka = ca, b.dut.clkb = cb;
    b.eval();
    for (unsigned i = 0; i < num; ++i) {
      RamRef& r = ref[i];
      const bool fire[2] = {a, bb};
      Write w[2];
      PortState next[2] = {r.port[0], r.port[1]};
      for (int p = 0; p < 2; ++p) {
        if (!fire[p]) continue;
        w[p] = write_of(r, p, in[p][i]);
        next[p] = next_state(r, p, in[p][i], w[p]);
      }
      for (int p = 0; p < 2; ++p) {
        r.port[p] = next[p];
        for (auto [k, v] : w[p].d) r.data[k] = v;
        for (auto [k, v] : w[p].p) r.par[k] = v;
      }
    }
  }
  void check(const std::string& where) {
    for (unsigned i = 0; i < num; ++i) {
      const RamRef& r = ref[i];
      const unsigned dp = cfg[i].big ? 32 : 16, pp = dp / 8;
      Word want[2] = {shown(r, 0), shown(r, 1)};
      if (cfg[i].sdp) {  // port A's read on both sets of pins
        want[1] = Word{want[0].d >> dp, want[0].p >> pp};
        want[0] = Word{want[0].d & ut::mask(dp), want[0].p & unsigned(ut::mask(pp))};
      }
      const Word got[2] = {Word{b.dut.douta[i], b.dut.doutpa[i]}, Word{b.dut.doutb[i], b.dut.doutpb[i]}};
      for (int p = 0; p < 2; ++p) {
        ASSERT_EQ(got[p].d, want[p].d) << cfg[i].name << ": DOUT" << "AB"[p] << ", " << where;
        ASSERT_EQ(got[p].p, want[p].p) << cfg[i].name << ": DOUTP" << "AB"[p] << ", " << where;
      }
      ASSERT_EQ(ut::bit(b.dut.unused_o, i), 0u) << cfg[i].name << ": a cascade or ECC output is not 0";
    }
  }
};

// Random inputs of port p of an instance: addresses mostly in the first rows
// (so reads find writes), any value of the address pins sometimes.
PortIn random_in(std::mt19937_64& g, const Cfg& c, int p, unsigned reset_rate) {
  PortIn in{};
  in.en = ut::coin(g, 3, 4);
  in.rstram = ut::coin(g, 1, reset_rate);
  in.rstreg = ut::coin(g, 1, reset_rate);
  in.regce = ut::coin(g, 3, 4);
  in.addr = ut::coin(g, 7, 8) ? unsigned(g() % 256) : unsigned(g() & ut::mask(c.addr_pins));
  in.we = ut::coin(g, 1, 2) ? unsigned(g() & 0xFF) : 0;
  in.din = g();
  in.dinp = unsigned(g() & 0xFF);
  const unsigned lanes = (c.sdp ? 2u : 1u) * (c.big ? 4u : 2u);
  if (p == 0) in.we &= unsigned(ut::mask(c.big ? 4 : 2));
  else in.we &= unsigned(ut::mask(lanes));
  if (!(c.sdp && p == 1)) in.din &= ut::mask(c.big ? 32 : 16);
  return in;
}

// Both ports writing one bit at one instant is undefined: B's write gives way.
void no_shared_write(const RamRef& r, PortIn& a, PortIn& b) {
  const Write wa = write_of(r, 0, a), wb = write_of(r, 1, b);
  for (auto [i, v] : wa.d)
    for (auto [j, u] : wb.d)
      if (i == j) {
        b.we = 0;
        return;
      }
  for (auto [i, v] : wa.p)
    for (auto [j, u] : wb.p)
      if (i == j) {
        b.we = 0;
        return;
      }
}

template <class Model>
void run(const Top& top, unsigned period_a, unsigned period_b, unsigned edges, uint64_t seed) {
  Bench<Model> t(top);
  std::mt19937_64 g(seed);
  t.settle();
  t.check("at the start (INIT)");
  uint64_t next_a = period_a, next_b = period_b;
  unsigned writes = 0, both = 0;
  for (unsigned e = 0; e < edges; ++e) {
    const uint64_t now = std::min(next_a, next_b);
    const bool a = next_a == now, b = next_b == now;
    if (a) next_a += period_a;
    if (b) next_b += period_b;
    std::vector<PortIn> in[2];
    for (unsigned i = 0; i < t.num; ++i) {
      const unsigned reset_rate = (e / 2000) % 2 ? 8 : 64;  // stretches with few and with many resets
      in[0].push_back(random_in(g, top.cfg[i], 0, reset_rate));
      in[1].push_back(random_in(g, top.cfg[i], 1, reset_rate));
      if (a && b) no_shared_write(t.ref[i], in[0][i], in[1][i]);
      t.drive(i, 0, in[0][i]);
      t.drive(i, 1, in[1][i]);
      writes += (a && in[0][i].en && in[0][i].we) + (b && in[1][i].en && in[1][i].we);
    }
    both += a && b;
    t.edge(a, b, in);
    t.check("edge " + std::to_string(e) + " at " + std::to_string(now) + (a ? " A" : "") + (b ? " B" : "") +
            ", periods " + std::to_string(period_a) + "/" + std::to_string(period_b));
    if (testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GT(writes, edges);
  if (period_a == period_b) EXPECT_EQ(both, edges);
}

TEST(UnisimRamb, OneClock) { run<Vunisim_ramb_top>(kE2, 10, 10, 40000, 1); }
TEST(UnisimRamb, TwoClocks10To7) { run<Vunisim_ramb_top>(kE2, 10, 7, 30000, 2); }
TEST(UnisimRamb, TwoClocks10To23) { run<Vunisim_ramb_top>(kE2, 10, 23, 30000, 3); }
TEST(UnisimRamb, TwoClocks3To10) { run<Vunisim_ramb_top>(kE2, 3, 10, 30000, 4); }
TEST(UnisimRamb, TwoClocks10To5) { run<Vunisim_ramb_top>(kE2, 10, 5, 30000, 5); }  // every other B edge shared

TEST(UnisimRambE1, OneClock) { run<Vunisim_ramb_e1_top>(kE1, 10, 10, 40000, 11); }
TEST(UnisimRambE1, TwoClocks10To7) { run<Vunisim_ramb_e1_top>(kE1, 10, 7, 30000, 12); }
TEST(UnisimRambE1, TwoClocks10To23) { run<Vunisim_ramb_e1_top>(kE1, 10, 23, 30000, 13); }
TEST(UnisimRambE1, TwoClocks3To10) { run<Vunisim_ramb_e1_top>(kE1, 3, 10, 30000, 14); }
TEST(UnisimRambE1, TwoClocks10To5) { run<Vunisim_ramb_e1_top>(kE1, 10, 5, 30000, 15); }

// Port A reads back the whole initial contents (INIT_xx / INITP_xx) before
// any write: every address of its read width, through the latch (and the
// register); every other read with the address pins above the array set.
template <class Model>
void reads_initial_contents(const Top& top) {
  Bench<Model> t(top);
  t.settle();
  for (unsigned i = 0; i < t.num; ++i) {
    const Cfg& c = top.cfg[i];
    const RamRef& r = t.ref[i];
    const unsigned rw = c.a.read_width, aw = c.big ? 15 : 14, step = 1u << lg(dbits(rw));
    const unsigned above = unsigned(ut::mask(c.addr_pins) & ~ut::mask(aw));
    std::vector<PortIn> in[2];
    for (unsigned k = 0; k < t.num; ++k) in[0].push_back(PortIn{}), in[1].push_back(PortIn{});
    for (unsigned addr = 0; addr < (1u << aw); addr += step) {
      in[0][i] = PortIn{1, 0, 0, 1, addr | ((addr / step) % 2 ? above : 0u), 0, 0, 0};
      for (unsigned k = 0; k < t.num; ++k) t.drive(k, 0, in[0][k]), t.drive(k, 1, in[1][k]);  // the others idle
      t.edge(true, false, in);
      t.edge(true, false, in);
      const Word want = r.read(addr, rw, r.data, r.par);
      const Word latch = t.ref[i].port[0].latch;
      ASSERT_EQ(latch, want) << c.name << " reference at address " << addr;
      t.check(std::string("initial contents at address ") + std::to_string(addr));
      if (testing::Test::HasFatalFailure()) return;
    }
  }
}
TEST(UnisimRamb, ReadsInitialContents) { reads_initial_contents<Vunisim_ramb_top>(kE2); }
TEST(UnisimRambE1, ReadsInitialContents) { reads_initial_contents<Vunisim_ramb_e1_top>(kE1); }

}  // namespace
