// The DSP48E2 stand-in (rtl/vendor/unisim/DSP48E2.sv) in
// tops/unisim_dsp_top.sv: seven slices in different configurations (every
// register off; every register on; the pre-adder on B with every pin
// inverted; add/subtract of A:B and C; a two-slice PCIN cascade; a dynamic
// one with ACIN and the pre-adder on both multiplier inputs), driven with
// random data, controls, clock enables and resets, every output compared
// before and after each clock edge with a reference written here from UG579's
// tables (rtl/vendor/README.md "DSP48E2"), not from the RTL.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "Vunisim_dsp_top.h"
#include "unisim_tb.hpp"

namespace {

namespace ut = cosim::vendor_unisim_test;
constexpr unsigned kNum = 7, kInW = 266, kOutW = 162;  // the top's NUM, InW, OutW
constexpr uint64_t kM48 = (1ull << 48) - 1;

int64_t sext(uint64_t v, unsigned bits) {
  const uint64_t m = 1ull << (bits - 1);
  v &= ut::mask(bits);
  return static_cast<int64_t>((v ^ m) - m);
}

// A slice's attributes (the table in tops/unisim_dsp_top.sv).
struct Cfg {
  const char* name;
  int areg = 1, acascreg = 1, breg = 1, bcascreg = 1, creg = 1, dreg = 1, adreg = 1, mreg = 1, preg = 1;
  int inmodereg = 1, opmodereg = 1, alumodereg = 1, carryinreg = 1, carryinselreg = 1;
  bool a_cascade = false, b_cascade = false, amult_ad = false, bmult_ad = false, preadd_b = false;
  bool use_mult = true;
  uint64_t rnd = 0;
  unsigned inv_inmode = 0, inv_opmode = 0, inv_alumode = 0, inv_carryin = 0, inv_rst = 0;
};

std::array<Cfg, kNum> configs() {
  std::array<Cfg, kNum> c{};
  c[0].name = "combinational";
  c[0].areg = c[0].acascreg = c[0].breg = c[0].bcascreg = c[0].creg = c[0].dreg = c[0].adreg = 0;
  c[0].mreg = c[0].preg = c[0].inmodereg = c[0].opmodereg = c[0].alumodereg = 0;
  c[0].carryinreg = c[0].carryinselreg = 0;
  c[0].rnd = 0x00000001FFFFull;
  c[1].name = "pipelined";
  c[1].areg = c[1].acascreg = c[1].breg = 2;
  c[1].amult_ad = true;
  c[1].rnd = 0x800000000000ull;
  c[2].name = "pre-adder on B, inverted pins";
  c[2].preadd_b = c[2].bmult_ad = true;
  c[2].creg = c[2].dreg = c[2].mreg = c[2].inmodereg = c[2].opmodereg = c[2].carryinreg = 0;
  c[2].rnd = 0x123456789ABCull;
  c[2].inv_carryin = 1;
  c[2].inv_alumode = 0x2;
  c[2].inv_inmode = 0x15;
  c[2].inv_opmode = 0x0A5;
  c[2].inv_rst = 0x3FF;
  c[3].name = "add/subtract";
  c[3].use_mult = false;
  c[3].mreg = c[3].alumodereg = c[3].carryinselreg = c[3].adreg = 0;
  c[4].name = "cascade head";
  c[4].breg = c[4].bcascreg = 2;
  c[5].name = "cascade tail";
  c[5].a_cascade = c[5].b_cascade = true;
  c[5].areg = 2;
  c[6].name = "dynamic";
  c[6].a_cascade = c[6].amult_ad = c[6].bmult_ad = true;
  c[6].breg = c[6].bcascreg = 2;
  c[6].creg = c[6].adreg = c[6].alumodereg = c[6].carryinselreg = 0;
  c[6].rnd = 0xFFFFFFFF0000ull;
  return c;
}

// The pins of a slice.
enum Ce { kCea1, kCea2, kCeb1, kCeb2, kCec, kCed, kCead, kCem, kCep, kCeinmode, kCectrl, kCealumode, kCecarryin };
enum Rst { kRsta, kRstb, kRstc, kRstd, kRstm, kRstp, kRstinmode, kRstctrl, kRstalumode, kRstallcarryin };
struct In {
  uint64_t a = 0, b = 0, c = 0, d = 0, acin = 0, bcin = 0, pcin = 0;
  unsigned carryin = 0, carrycascin = 0, multsignin = 0, alumode = 0, carryinsel = 0, inmode = 0, opmode = 0;
  unsigned ce = 0, rst = 0;
};
struct Out {
  uint64_t p = 0, acout = 0, bcout = 0, pcout = 0;
  unsigned carryout = 0, carrycascout = 0, multsignout = 0, xorout = 0, patdet = 0, patbdet = 0, ovf = 0, unf = 0;
  bool operator==(const Out& o) const {
    return p == o.p && acout == o.acout && bcout == o.bcout && pcout == o.pcout && carryout == o.carryout &&
           carrycascout == o.carrycascout && multsignout == o.multsignout && xorout == o.xorout &&
           patdet == o.patdet && patbdet == o.patbdet && ovf == o.ovf && unf == o.unf;
  }
};
std::string show(const Out& o) {
  char s[256];
  std::snprintf(s, sizeof s, "P %012llx ACOUT %08llx BCOUT %05llx PCOUT %012llx CARRYOUT %x CCOUT %u MSOUT %u "
                "XOROUT %x PD %u PBD %u OVF %u UNF %u",
                static_cast<unsigned long long>(o.p), static_cast<unsigned long long>(o.acout),
                static_cast<unsigned long long>(o.bcout), static_cast<unsigned long long>(o.pcout), o.carryout,
                o.carrycascout, o.multsignout, o.xorout, o.patdet, o.patbdet, o.ovf, o.unf);
  return s;
}

// The reference slice. Every register holds its value (0 at the start); a
// stage that is off passes its input through.
struct Dsp {
  Cfg cfg;
  struct Regs {
    uint64_t a1 = 0, a2 = 0, b1 = 0, b2 = 0, c = 0, d = 0, ad = 0, m = 0, p = 0;
    unsigned inmode = 0, opmode = 0, alumode = 0, carryinsel = 0, carryin = 0, rnd = 0;
    unsigned carryout3 = 0, ccout = 0, msout = 0;
  } r;

  // The combinational values for the current registers and pins: the
  // outputs and, in `next`, what each register would load.
  Out eval(const In& in, Regs* next = nullptr) const {
    Regs n;
    n.inmode = (in.inmode ^ cfg.inv_inmode) & 0x1F;
    n.opmode = (in.opmode ^ cfg.inv_opmode) & 0x1FF;
    n.alumode = (in.alumode ^ cfg.inv_alumode) & 0xF;
    n.carryinsel = in.carryinsel & 7;
    n.carryin = (in.carryin ^ cfg.inv_carryin) & 1;
    const unsigned inmode = cfg.inmodereg ? r.inmode : n.inmode;
    const unsigned opmode = cfg.opmodereg ? r.opmode : n.opmode;
    const unsigned alumode = cfg.alumodereg ? r.alumode : n.alumode;
    const unsigned carryinsel = cfg.carryinselreg ? r.carryinsel : n.carryinsel;
    const unsigned carryin = cfg.carryinreg ? r.carryin : n.carryin;

    // A and B: 0, 1 or 2 registers; the cascade output after ACASCREG of them.
    const uint64_t a_in = (cfg.a_cascade ? in.acin : in.a) & ut::mask(30);
    const uint64_t b_in = (cfg.b_cascade ? in.bcin : in.b) & ut::mask(18);
    n.a1 = a_in;
    n.a2 = cfg.areg == 2 ? r.a1 : a_in;
    n.b1 = b_in;
    n.b2 = cfg.breg == 2 ? r.b1 : b_in;
    const uint64_t a1 = cfg.areg ? r.a1 : a_in, a2 = cfg.areg ? r.a2 : a_in;
    const uint64_t b1 = cfg.breg ? r.b1 : b_in, b2 = cfg.breg ? r.b2 : b_in;
    Out o;
    o.acout = cfg.areg == 0 ? a_in : (cfg.acascreg == cfg.areg ? r.a2 : r.a1);
    o.bcout = cfg.breg == 0 ? b_in : (cfg.bcascreg == cfg.breg ? r.b2 : r.b1);

    // INMODE: [0] A1 (else A2), [4] B1 (else B2), [1] the pre-adder's port
    // (PREADDINSEL) is 0, [2] D is used, [3] the pre-adder subtracts.
    uint64_t a_mul = (inmode & 1) ? a1 : a2, b_mul = (inmode & 0x10) ? b1 : b2;
    if ((inmode & 2) && !cfg.preadd_b) a_mul = 0;
    if ((inmode & 2) && cfg.preadd_b) b_mul = 0;
    const int64_t pre = cfg.preadd_b ? sext(b_mul, 18) : sext(a_mul, 27);
    n.c = in.c & kM48;
    n.d = in.d & ut::mask(27);
    const uint64_t c = cfg.creg ? r.c : n.c, d = cfg.dreg ? r.d : n.d;
    n.ad = static_cast<uint64_t>(((inmode & 4) ? sext(d, 27) : 0) + ((inmode & 8) ? -pre : pre)) & ut::mask(27);
    const uint64_t ad = cfg.adreg ? r.ad : n.ad;

    // The 27 x 18 signed multiplier.
    const uint64_t ma = cfg.amult_ad ? ad : a_mul & ut::mask(27);
    const uint64_t mb = cfg.bmult_ad ? ad & ut::mask(18) : b_mul;
    n.m = cfg.use_mult ? static_cast<uint64_t>(sext(ma, 27) * sext(mb, 18)) & kM48 : 0;
    n.rnd = ut::bit(ma, 26) == ut::bit(mb, 17) ? 1 : 0;
    const uint64_t m = cfg.mreg ? r.m : n.m;
    const unsigned rnd = cfg.mreg ? r.rnd : n.rnd;

    // The multiplexers. P as an operand needs PREG 1 (0 otherwise).
    const uint64_t p_fb = cfg.preg ? r.p : 0;
    const unsigned cc_fb = cfg.preg ? r.ccout : 0;
    const uint64_t ab = (a2 << 18) | b2;
    const uint64_t pcin = in.pcin & kM48;
    auto shr17 = [](uint64_t v) { return static_cast<uint64_t>(sext(v, 48) >> 17) & kM48; };
    const uint64_t xs[4] = {0, m, p_fb, ab};
    const unsigned zsel = (opmode >> 4) & 7;
    const uint64_t ys[4] = {0, 0, zsel == 4 ? (in.multsignin ? kM48 : 0) : kM48, c};
    const uint64_t zs[8] = {0, pcin, p_fb, c, p_fb, shr17(pcin), shr17(p_fb), 0};
    const uint64_t ws[4] = {0, p_fb, cfg.rnd, c};
    const uint64_t x = xs[opmode & 3], y = ys[(opmode >> 2) & 3], z = zs[zsel], w = ws[(opmode >> 7) & 3];
    const unsigned cins[8] = {carryin,  1u ^ ut::bit(pcin, 47), in.carrycascin, ut::bit(pcin, 47),
                              cc_fb,    1u ^ ut::bit(p_fb, 47), rnd,            ut::bit(p_fb, 47)};
    const unsigned cin = cins[carryinsel] & 1;

    // The ALU, as UG579's tables write it.
    const unsigned __int128 t = static_cast<unsigned __int128>(w) + x + y + cin;
    uint64_t res = 0;
    unsigned carry = 0, carryout3 = 0;
    // The logic modes: UG579's table gives each function for Y = 0 and for
    // Y = all ones; a bit of any other Y picks that bit's column (W and CIN
    // take no part).
    auto logic = [&](uint64_t y0, uint64_t y1) { return (y0 & ~y) | (y1 & y); };
    switch (alumode) {
      case 0x0: res = static_cast<uint64_t>(z + t); break;           // Z + W + X + Y + CIN
      case 0x1: res = static_cast<uint64_t>((~z & kM48) + t); break;  // -Z + (W + X + Y + CIN) - 1
      case 0x2: res = ~static_cast<uint64_t>(z + t); break;          // -(Z + W + X + Y + CIN) - 1
      case 0x3: res = static_cast<uint64_t>(z - t); break;           // Z - (W + X + Y + CIN)
      case 0x4: case 0x7: res = logic(x ^ z, ~(x ^ z)); break;
      case 0x5: case 0x6: res = logic(~(x ^ z), x ^ z); break;
      case 0xC: res = logic(x & z, x | z); break;
      case 0xD: res = logic(x & ~z, x | ~z); break;
      case 0xE: res = logic(~(x & z), ~(x | z)); break;
      case 0xF: res = logic(~x | z, ~x & z); break;
      default: res = 0; break;  // 10xx: reserved, 0 (the stand-in's choice)
    }
    if (alumode < 4) {
      // Bit 48 of the unsigned sum as the adder sees it (Z inverted in 0001
      // and 0011); CARRYOUT[3] reads "no borrow" in 0011.
      const unsigned __int128 zin = (alumode & 1) ? (~z & kM48) : z;
      carry = static_cast<unsigned>((zin + t) >> 48) & 1;
      carryout3 = alumode == 3 ? carry ^ 1 : carry;
    }
    n.p = res & kM48;
    n.carryout3 = carryout3;
    n.ccout = carry;
    n.msout = ut::bit(m, 47);
    o.p = o.pcout = cfg.preg ? r.p : n.p;
    o.carryout = (cfg.preg ? r.carryout3 : n.carryout3) << 3;
    o.carrycascout = cfg.preg ? r.ccout : n.ccout;
    o.multsignout = cfg.preg ? r.msout : n.msout;
    if (next) *next = n;
    return o;
  }

  // The clock edge: each register that is on loads 0 while its reset is
  // active, else its input while its enable is high.
  void clock(const In& in) {
    Regs n;
    eval(in, &n);
    const unsigned rst = in.rst ^ cfg.inv_rst;
    auto upd = [&](auto& reg, auto val, int stages, unsigned ce, unsigned rs) {
      if (!stages) return;
      if (ut::bit(rst, rs)) reg = 0;
      else if (ut::bit(in.ce, ce)) reg = val;
    };
    upd(r.a1, n.a1, cfg.areg, kCea1, kRsta);
    upd(r.a2, n.a2, cfg.areg, kCea2, kRsta);
    upd(r.b1, n.b1, cfg.breg, kCeb1, kRstb);
    upd(r.b2, n.b2, cfg.breg, kCeb2, kRstb);
    upd(r.c, n.c, cfg.creg, kCec, kRstc);
    upd(r.d, n.d, cfg.dreg, kCed, kRstd);
    upd(r.ad, n.ad, cfg.adreg, kCead, kRstd);
    upd(r.m, n.m, cfg.mreg, kCem, kRstm);
    upd(r.rnd, n.rnd, cfg.mreg, kCem, kRstallcarryin);
    upd(r.p, n.p, cfg.preg, kCep, kRstp);
    upd(r.carryout3, n.carryout3, cfg.preg, kCep, kRstp);
    upd(r.ccout, n.ccout, cfg.preg, kCep, kRstp);
    upd(r.msout, n.msout, cfg.preg, kCep, kRstp);
    upd(r.inmode, n.inmode, cfg.inmodereg, kCeinmode, kRstinmode);
    upd(r.opmode, n.opmode, cfg.opmodereg, kCectrl, kRstctrl);
    upd(r.carryinsel, n.carryinsel, cfg.carryinselreg, kCectrl, kRstctrl);
    upd(r.alumode, n.alumode, cfg.alumodereg, kCealumode, kRstalumode);
    upd(r.carryin, n.carryin, cfg.carryinreg, kCecarryin, kRstallcarryin);
  }
};

// Bits of the top's wide ports.
template <class Wide>
void put(Wide& w, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned i = 0; i < width; ++i) {
    const unsigned k = lsb + i;
    w[k / 32] = (w[k / 32] & ~(1u << (k % 32))) | (static_cast<uint32_t>((v >> i) & 1) << (k % 32));
  }
}
template <class Wide>
uint64_t get(const Wide& w, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned k = lsb + i;
    v |= static_cast<uint64_t>((w[k / 32] >> (k % 32)) & 1) << i;
  }
  return v;
}

template <class Wide>
void drive(Wide& w, unsigned n, const In& in) {
  unsigned at = n * kInW;
  for (auto [v, bits] : {std::pair<uint64_t, unsigned>{in.a, 30}, {in.b, 18}, {in.c, 48}, {in.d, 27}, {in.acin, 30},
                         {in.bcin, 18}, {in.pcin, 48}, {in.carryin, 1}, {in.carrycascin, 1}, {in.multsignin, 1},
                         {in.alumode, 4}, {in.carryinsel, 3}, {in.inmode, 5}, {in.opmode, 9}, {in.ce, 13},
                         {in.rst, 10}}) {
    put(w, at, bits, v);
    at += bits;
  }
}

template <class Wide>
Out sample(const Wide& w, unsigned n) {
  Out o;
  unsigned at = n * kOutW;
  auto take = [&](unsigned bits) {
    const uint64_t v = get(w, at, bits);
    at += bits;
    return v;
  };
  o.p = take(48);
  o.acout = take(30);
  o.bcout = take(18);
  o.pcout = take(48);
  o.carryout = static_cast<unsigned>(take(4));
  o.carrycascout = static_cast<unsigned>(take(1));
  o.multsignout = static_cast<unsigned>(take(1));
  o.xorout = static_cast<unsigned>(take(8));
  o.patdet = static_cast<unsigned>(take(1));
  o.patbdet = static_cast<unsigned>(take(1));
  o.ovf = static_cast<unsigned>(take(1));
  o.unf = static_cast<unsigned>(take(1));
  return o;
}

// A legal OPMODE (M on X and Y together) and an ALUMODE for it: mostly the
// four arithmetic modes, the logic modes where UG579 allows them (W 0, Y 0 or
// all ones), now and then a reserved 10xx.
void random_mode(std::mt19937_64& g, unsigned& opmode, unsigned& alumode) {
  const unsigned xsel = g() % 4, ysel = xsel == 1 ? 1 : std::array<unsigned, 3>{0, 2, 3}[g() % 3];
  const unsigned zsel = g() % 7, wsel = g() % 4;
  opmode = (wsel << 7) | (zsel << 4) | (ysel << 2) | xsel;
  alumode = g() % 4;
  const unsigned pick = g() % 16;
  if (pick < 4 && wsel == 0 && (ysel == 0 || ysel == 2) && zsel != 4) {
    alumode = std::array<unsigned, 8>{4, 5, 6, 7, 12, 13, 14, 15}[g() % 8];
  } else if (pick == 4) {
    alumode = 8 + g() % 4;
  }
}

struct Stats {
  unsigned loads_p = 0, resets_p = 0, casc_carries = 0, subtracts = 0, nonzero_p5 = 0;
};

class UnisimDsp : public ::testing::Test {
 protected:
  ut::Bench<Vunisim_dsp_top> b;
  std::array<Dsp, kNum> ref;
  std::mt19937_64 g{0xD5B};
  Stats stats;

  void SetUp() override {
    const auto cfg = configs();
    for (unsigned n = 0; n < kNum; ++n) ref[n].cfg = cfg[n];
  }

  // Random pins for slice n as the slice should see them (`rst`, the
  // controls before the top's inversions are applied by the caller).
  In random_in(unsigned n, unsigned ce_odds, unsigned rst_odds) {
    In in;
    in.a = g() & ut::mask(30);
    in.b = g() & ut::mask(18);
    in.c = g() & kM48;
    in.d = g() & ut::mask(27);
    in.acin = g() & ut::mask(30);
    in.bcin = g() & ut::mask(18);
    in.pcin = g() & kM48;
    // Small or sign-only values now and then, so products and sums wrap,
    // carry and borrow both ways.
    if (ut::coin(g, 1, 4)) in.a = (g() % 2) ? ut::mask(30) : 1;
    if (ut::coin(g, 1, 4)) in.c = (g() % 2) ? kM48 : g() % 4;
    in.carryin = ut::coin(g, 1, 2);
    in.carrycascin = ut::coin(g, 1, 2);
    in.multsignin = ut::coin(g, 1, 2);
    in.carryinsel = g() % 8;
    in.inmode = g() % 32;
    random_mode(g, in.opmode, in.alumode);
    for (unsigned k = 0; k < 13; ++k) in.ce |= ut::coin(g, ce_odds, 8) << k;
    for (unsigned k = 0; k < 10; ++k) in.rst |= ut::coin(g, 1, rst_odds) << k;
    if (n == 3) {  // add/subtract: P = C +- (A:B + CIN) (Z = C, X = A:B)
      in.opmode = 0x033 | (ut::coin(g, 1, 4) ? 0x180 : 0);  // W = C now and then
      in.alumode = g() % 4;
      in.carryinsel = 0;
    } else if (n == 4) {  // cascade head: M, or P + M (so that it carries out)
      in.opmode = ut::coin(g, 1, 2) ? 0x005 : 0x025;
      in.alumode = 0;
      in.carryinsel = 0;
    } else if (n == 5) {  // cascade tail: PCIN + M, or the MACC extension's P + MULTSIGNIN + CARRYCASCIN
      const bool extend = ut::coin(g, 1, 4);
      in.opmode = extend ? 0x048 : 0x015;
      in.alumode = 0;
      in.carryinsel = extend || ut::coin(g, 1, 4) ? 2 : 0;
    }
    return in;
  }

  // One clock cycle: new pins with clk low, check; rising edge, check.
  void cycle(int step, unsigned ce_odds, unsigned rst_odds) {
    std::array<In, kNum> in;
    for (unsigned n = 0; n < kNum; ++n) in[n] = random_in(n, ce_odds, rst_odds);
    for (unsigned n = 0; n < kNum; ++n) {
      In pins = in[n];
      pins.inmode ^= ref[n].cfg.inv_inmode;  // the pin values that give the wanted ones inside
      pins.opmode ^= ref[n].cfg.inv_opmode;
      pins.alumode ^= ref[n].cfg.inv_alumode;
      pins.carryin ^= ref[n].cfg.inv_carryin;
      pins.rst ^= ref[n].cfg.inv_rst;
      in[n] = pins;
      drive(b.dut.in, n, pins);
    }
    b.dut.clk = 0;
    b.eval();
    // Slice 5's cascade inputs are slice 4's outputs before the edge.
    auto link = [&]() {
      const Out head = ref[4].eval(in[4]);
      in[5].acin = head.acout;
      in[5].bcin = head.bcout;
      in[5].pcin = head.pcout;
      in[5].carrycascin = head.carrycascout;
      in[5].multsignin = head.multsignout;
    };
    link();
    check(in, step, "before the edge");
    for (unsigned n = 0; n < kNum; ++n) {
      const unsigned rst = in[n].rst ^ ref[n].cfg.inv_rst;
      if (ref[n].cfg.preg && ut::bit(rst, kRstp)) ++stats.resets_p;
      else if (ref[n].cfg.preg && ut::bit(in[n].ce, kCep)) ++stats.loads_p;
    }
    for (unsigned n = 0; n < kNum; ++n) ref[n].clock(in[n]);
    b.dut.clk = 1;
    b.eval();
    link();
    check(in, step, "after the edge");
    if (ref[5].eval(in[5]).p != 0) ++stats.nonzero_p5;
    if (in[5].carrycascin) ++stats.casc_carries;
  }

  void check(const std::array<In, kNum>& in, int step, const char* when) {
    for (unsigned n = 0; n < kNum; ++n) {
      const Out want = ref[n].eval(in[n]), got = sample(b.dut.out, n);
      ASSERT_TRUE(got == want) << "slice " << n << " (" << ref[n].cfg.name << "), " << when << " of cycle " << step
                               << "\n  got  " << show(got) << "\n  want " << show(want) << "\n  OPMODE "
                               << std::hex << ref[n].r.opmode << " ALUMODE " << ref[n].r.alumode << " INMODE "
                               << ref[n].r.inmode << " CARRYINSEL " << ref[n].r.carryinsel << "\n  pins: OPMODE "
                               << in[n].opmode << " ALUMODE " << in[n].alumode << " INMODE " << in[n].inmode
                               << " CARRYINSEL " << in[n].carryinsel << " CE " << in[n].ce << " RST " << in[n].rst;
    }
  }
};

// Random everything, clock enables mostly high and rare resets: the data path
// and the control registers by their tables, every output, each cycle.
TEST_F(UnisimDsp, EveryOutputEachCycleOnRandomInputs) {
  for (int step = 0; step < 40000; ++step) {
    cycle(step, 7, 64);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(stats.loads_p, 100000u);
  EXPECT_GT(stats.resets_p, 1000u);
  EXPECT_GT(stats.nonzero_p5, 30000u);
  EXPECT_GT(stats.casc_carries, 2000u);
}

// The cascade as a two-tap systolic filter, checked against the products
// themselves rather than the reference slice: every enable high, no reset,
// slice 4 M and slice 5 PCIN + M, A and B reaching slice 5 through ACOUT /
// BCOUT. With slice 4's AREG 1 and BREG 2 and slice 5's AREG 2 and BREG 1,
// after edge t slice 5's P is a(t-3) b(t-4) + a(t-4) b(t-4) (48 bits), a and b
// being slice 4's A[26:0] and B as driven before each edge.
TEST_F(UnisimDsp, CascadeSumsTwoProducts) {
  std::vector<int64_t> a, bv;
  unsigned nonzero = 0;
  for (int step = 0; step < 20000; ++step) {
    In head;
    head.a = g() & ut::mask(30);
    head.b = g() & ut::mask(18);
    head.opmode = 0x005;
    head.ce = 0x1FFF;
    In tail = head;
    tail.opmode = 0x015;
    for (unsigned n = 0; n < kNum; ++n) drive(b.dut.in, n, n == 4 ? head : n == 5 ? tail : In{});
    a.push_back(sext(head.a, 27));
    bv.push_back(sext(head.b, 18));
    b.dut.clk = 0;
    b.eval();
    b.dut.clk = 1;
    b.eval();
    const size_t t = a.size() - 1;
    if (t < 5) continue;
    const uint64_t want = static_cast<uint64_t>(a[t - 3] * bv[t - 4] + a[t - 4] * bv[t - 4]) & kM48;
    ASSERT_EQ(sample(b.dut.out, 5).p, want) << "after edge " << t;
    if (want) ++nonzero;
  }
  EXPECT_GT(nonzero, 19000u);
}

// Enables low half of the time and frequent resets: each register holds and
// clears on its own enable and reset.
TEST_F(UnisimDsp, EnablesAndResetsEachCycle) {
  for (int step = 0; step < 30000; ++step) {
    cycle(step, 4, 6);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(stats.resets_p, 20000u);
}

}  // namespace
