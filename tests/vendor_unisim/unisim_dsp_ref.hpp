// The reference DSP slice of the DSP stand-in tests (unisim_dsp_test.cpp:
// DSP48E2; unisim_dsp_e1_58_test.cpp: DSP48E1, DSP58), written from UG579's,
// UG479's and AM004's tables (rtl/vendor/README.md "DSP48E2", "DSP48E1",
// "DSP58"), not from the RTL: one slice of any of the three by its widths,
// the pins of a test top's wide ports (`Layout`), random pins, and the
// cycle-by-cycle run of a top (`DspRun`): every output before and after each
// edge against the reference.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "unisim_tb.hpp"

namespace cosim::vendor_unisim_test::dsp {

namespace ut = cosim::vendor_unisim_test;

inline int64_t sext(uint64_t v, unsigned bits) {
  const uint64_t m = 1ull << (bits - 1);
  v &= ut::mask(bits);
  return static_cast<int64_t>((v ^ m) - m);
}

// What the test drives a slice for: anything, add/subtract of A:B and C, or
// the head / tail of a two-slice cascade (the tail is the next slice).
enum class Role { kFree, kAddSub, kHead, kTail };

// A slice's attributes. The widths are the primitive's: DSP48E2 30/18/27/48,
// DSP48E1 30/18/25/48 with a 7-bit OPMODE, DSP58 34/24/27/58 with its
// shift of 23 and NEGATE.
struct Cfg {
  const char* name;
  unsigned aw = 30, bw = 18, mw = 27, pw = 48, shift = 17, opw = 9;
  bool int8 = false;        // DSP58's DSP_MODE "INT8"
  bool negate_pin = false;  // DSP58's NEGATE[0]
  int areg = 1, acascreg = 1, breg = 1, bcascreg = 1, creg = 1, dreg = 1, adreg = 1, mreg = 1, preg = 1;
  int inmodereg = 1, opmodereg = 1, alumodereg = 1, carryinreg = 1, carryinselreg = 1;
  bool a_cascade = false, b_cascade = false, amult_ad = false, bmult_ad = false, preadd_b = false;
  bool use_mult = true;
  uint64_t rnd = 0;
  unsigned inv_inmode = 0, inv_opmode = 0, inv_alumode = 0, inv_carryin = 0, inv_rst = 0, inv_negate = 0;
  Role role = Role::kFree;
};
inline Cfg dsp48e1(const char* name) {
  Cfg c{name};
  c.mw = 25;
  c.opw = 7;
  return c;
}
inline Cfg dsp58(const char* name) {
  Cfg c{name};
  c.aw = 34;
  c.bw = 24;
  c.pw = 58;
  c.shift = 23;
  c.negate_pin = true;
  return c;
}
inline void unregistered(Cfg& c) {
  c.areg = c.acascreg = c.breg = c.bcascreg = c.creg = c.dreg = c.adreg = 0;
  c.mreg = c.preg = c.inmodereg = c.opmodereg = c.alumodereg = 0;
  c.carryinreg = c.carryinselreg = 0;
}

// The pins of a slice.
enum Ce { kCea1, kCea2, kCeb1, kCeb2, kCec, kCed, kCead, kCem, kCep, kCeinmode, kCectrl, kCealumode, kCecarryin };
enum Rst { kRsta, kRstb, kRstc, kRstd, kRstm, kRstp, kRstinmode, kRstctrl, kRstalumode, kRstallcarryin };
struct In {
  uint64_t a = 0, b = 0, c = 0, d = 0, acin = 0, bcin = 0, pcin = 0;
  unsigned carryin = 0, carrycascin = 0, multsignin = 0, alumode = 0, carryinsel = 0, inmode = 0, opmode = 0;
  unsigned negate = 0, ce = 0, rst = 0;
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
inline std::string show(const Out& o) {
  char s[256];
  std::snprintf(s, sizeof s, "P %015llx ACOUT %09llx BCOUT %06llx PCOUT %015llx CARRYOUT %x CCOUT %u MSOUT %u "
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
    unsigned inmode = 0, negate = 0, opmode = 0, alumode = 0, carryinsel = 0, carryin = 0, rnd = 0;
    unsigned carryout3 = 0, ccout = 0, msout = 0;
  } r;

  // The multiplier: MW x BW signed, or (INT8) three 9 x 8 signed lanes summed.
  int64_t product(uint64_t ma, uint64_t mb) const {
    if (!cfg.int8) return sext(ma, cfg.mw) * sext(mb, cfg.bw);
    int64_t sum = 0;
    for (unsigned k = 0; k < 3; ++k) sum += sext(ma >> (9 * k), 9) * sext(mb >> (8 * k), 8);
    return sum;
  }

  // The combinational values for the current registers and pins: the
  // outputs and, in `next`, what each register would load.
  Out eval(const In& in, Regs* next = nullptr) const {
    const unsigned pw = cfg.pw;
    const uint64_t mp = ut::mask(pw);
    Regs n;
    n.inmode = (in.inmode ^ cfg.inv_inmode) & 0x1F;
    n.negate = (in.negate ^ cfg.inv_negate) & 1;
    n.opmode = (in.opmode ^ cfg.inv_opmode) & ut::mask(cfg.opw);
    n.alumode = (in.alumode ^ cfg.inv_alumode) & 0xF;
    n.carryinsel = in.carryinsel & 7;
    n.carryin = (in.carryin ^ cfg.inv_carryin) & 1;
    const unsigned inmode = cfg.inmodereg ? r.inmode : n.inmode;
    const unsigned negate = cfg.inmodereg ? r.negate : n.negate;
    const unsigned opmode = cfg.opmodereg ? r.opmode : n.opmode;
    const unsigned alumode = cfg.alumodereg ? r.alumode : n.alumode;
    const unsigned carryinsel = cfg.carryinselreg ? r.carryinsel : n.carryinsel;
    const unsigned carryin = cfg.carryinreg ? r.carryin : n.carryin;

    // A and B: 0, 1 or 2 registers; the cascade output after ACASCREG of them.
    const uint64_t a_in = (cfg.a_cascade ? in.acin : in.a) & ut::mask(cfg.aw);
    const uint64_t b_in = (cfg.b_cascade ? in.bcin : in.b) & ut::mask(cfg.bw);
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
    uint64_t a_mul = ((inmode & 1) ? a1 : a2) & ut::mask(cfg.mw), b_mul = (inmode & 0x10) ? b1 : b2;
    if ((inmode & 2) && !cfg.preadd_b) a_mul = 0;
    if ((inmode & 2) && cfg.preadd_b) b_mul = 0;
    const int64_t pre = cfg.preadd_b ? sext(b_mul, cfg.bw) : sext(a_mul, cfg.mw);
    n.c = in.c & mp;
    n.d = in.d & ut::mask(cfg.mw);
    const uint64_t c = cfg.creg ? r.c : n.c, d = cfg.dreg ? r.d : n.d;
    n.ad = static_cast<uint64_t>(((inmode & 4) ? sext(d, cfg.mw) : 0) + ((inmode & 8) ? -pre : pre)) &
           ut::mask(cfg.mw);
    const uint64_t ad = cfg.adreg ? r.ad : n.ad;

    // The multiplier, its product negated by NEGATE.
    const uint64_t ma = cfg.amult_ad ? ad : a_mul;
    const uint64_t mb = cfg.bmult_ad ? ad & ut::mask(cfg.bw) : b_mul;
    const int64_t prod = negate ? -product(ma, mb) : product(ma, mb);
    n.m = cfg.use_mult ? static_cast<uint64_t>(prod) & mp : 0;
    n.rnd = ut::bit(ma, cfg.mw - 1) == ut::bit(mb, cfg.bw - 1) ? 1 : 0;
    const uint64_t m = cfg.mreg ? r.m : n.m;
    const unsigned rnd = cfg.mreg ? r.rnd : n.rnd;

    // The multiplexers. P as an operand needs PREG 1 (0 otherwise).
    const uint64_t p_fb = cfg.preg ? r.p : 0;
    const unsigned cc_fb = cfg.preg ? r.ccout : 0;
    const uint64_t ab = (a2 << cfg.bw) | b2;
    const uint64_t pcin = in.pcin & mp;
    auto shr = [&](uint64_t v) { return static_cast<uint64_t>(sext(v, pw) >> cfg.shift) & mp; };
    const uint64_t xs[4] = {0, m, p_fb, ab};
    const unsigned zsel = (opmode >> 4) & 7;
    const uint64_t ys[4] = {0, 0, zsel == 4 ? (in.multsignin ? mp : 0) : mp, c};
    const uint64_t zs[8] = {0, pcin, p_fb, c, p_fb, shr(pcin), shr(p_fb), 0};
    const uint64_t ws[4] = {0, p_fb, cfg.rnd & mp, c};
    const uint64_t x = xs[opmode & 3], y = ys[(opmode >> 2) & 3], z = zs[zsel], w = ws[(opmode >> 7) & 3];
    const unsigned top = pw - 1;
    const unsigned cins[8] = {carryin,  1u ^ ut::bit(pcin, top), in.carrycascin, ut::bit(pcin, top),
                              cc_fb,    1u ^ ut::bit(p_fb, top), rnd,            ut::bit(p_fb, top)};
    const unsigned cin = cins[carryinsel] & 1;

    // The ALU, as the tables write it.
    const unsigned __int128 t = static_cast<unsigned __int128>(w) + x + y + cin;
    uint64_t res = 0;
    unsigned carry = 0, carryout3 = 0;
    // The logic modes: the table gives each function for Y = 0 and for
    // Y = all ones; a bit of any other Y picks that bit's column (W and CIN
    // take no part).
    auto logic = [&](uint64_t y0, uint64_t y1) { return (y0 & ~y) | (y1 & y); };
    switch (alumode) {
      case 0x0: res = static_cast<uint64_t>(z + t); break;         // Z + W + X + Y + CIN
      case 0x1: res = static_cast<uint64_t>((~z & mp) + t); break;  // -Z + (W + X + Y + CIN) - 1
      case 0x2: res = ~static_cast<uint64_t>(z + t); break;        // -(Z + W + X + Y + CIN) - 1
      case 0x3: res = static_cast<uint64_t>(z - t); break;         // Z - (W + X + Y + CIN)
      case 0x4: case 0x7: res = logic(x ^ z, ~(x ^ z)); break;
      case 0x5: case 0x6: res = logic(~(x ^ z), x ^ z); break;
      case 0xC: res = logic(x & z, x | z); break;
      case 0xD: res = logic(x & ~z, x | ~z); break;
      case 0xE: res = logic(~(x & z), ~(x | z)); break;
      case 0xF: res = logic(~x | z, ~x & z); break;
      default: res = 0; break;  // 10xx: reserved, 0 (the stand-in's choice)
    }
    if (alumode < 4) {
      // Bit PW of the unsigned sum as the adder sees it (Z inverted in 0001
      // and 0011); CARRYOUT[3] reads "no borrow" in 0011.
      const unsigned __int128 zin = (alumode & 1) ? (~z & mp) : z;
      carry = static_cast<unsigned>((zin + t) >> pw) & 1;
      carryout3 = alumode == 3 ? carry ^ 1 : carry;
    }
    n.p = res & mp;
    n.carryout3 = carryout3;
    n.ccout = carry;
    n.msout = ut::bit(m, top);
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
    upd(r.negate, n.negate, cfg.inmodereg, kCeinmode, kRstinmode);
    upd(r.opmode, n.opmode, cfg.opmodereg, kCectrl, kRstctrl);
    upd(r.carryinsel, n.carryinsel, cfg.carryinselreg, kCectrl, kRstctrl);
    upd(r.alumode, n.alumode, cfg.alumodereg, kCealumode, kRstalumode);
    upd(r.carryin, n.carryin, cfg.carryinreg, kCecarryin, kRstallcarryin);
  }
};

// The fields of a test top's `in` / `out` ports, per slice, lowest bits
// first (tops/unisim_dsp_top.sv, tops/unisim_dsp_e1_58_top.sv):
//   in:  A, B, C, D, ACIN, BCIN, PCIN, CARRYIN, CARRYCASCIN, MULTSIGNIN,
//        ALUMODE 4, CARRYINSEL 3, INMODE 5, OPMODE 9, NEGATE (if any), CE 13,
//        RST 10
//   out: P, ACOUT, BCOUT, PCOUT, CARRYOUT 4, CARRYCASCOUT, MULTSIGNOUT,
//        XOROUT 8, PATTERNDETECT, PATTERNBDETECT, OVERFLOW, UNDERFLOW
struct Layout {
  unsigned a, b, c, d, negate;
  unsigned in_w() const { return 2 * (a + b + c) + d + 3 + 4 + 3 + 5 + 9 + negate + 13 + 10; }
  unsigned out_w() const { return 2 * c + a + b + 4 + 2 + 8 + 4; }
};

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
void drive(Wide& w, const Layout& l, unsigned n, const In& in) {
  unsigned at = n * l.in_w();
  for (auto [v, bits] : {std::pair<uint64_t, unsigned>{in.a, l.a}, {in.b, l.b}, {in.c, l.c}, {in.d, l.d},
                         {in.acin, l.a}, {in.bcin, l.b}, {in.pcin, l.c}, {in.carryin, 1}, {in.carrycascin, 1},
                         {in.multsignin, 1}, {in.alumode, 4}, {in.carryinsel, 3}, {in.inmode, 5}, {in.opmode, 9},
                         {in.negate, l.negate}, {in.ce, 13}, {in.rst, 10}}) {
    put(w, at, bits, v);
    at += bits;
  }
}

template <class Wide>
Out sample(const Wide& w, const Layout& l, unsigned n) {
  Out o;
  unsigned at = n * l.out_w();
  auto take = [&](unsigned bits) {
    const uint64_t v = get(w, at, bits);
    at += bits;
    return v;
  };
  o.p = take(l.c);
  o.acout = take(l.a);
  o.bcout = take(l.b);
  o.pcout = take(l.c);
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

// A legal OPMODE (M on X and Y together; W 0 without a W multiplexer) and
// an ALUMODE for it: mostly the four arithmetic modes, the logic modes where
// the tables allow them (W 0, Y 0 or all ones), now and then a reserved 10xx.
inline void random_mode(std::mt19937_64& g, unsigned opw, unsigned& opmode, unsigned& alumode) {
  const unsigned xsel = g() % 4, ysel = xsel == 1 ? 1 : std::array<unsigned, 3>{0, 2, 3}[g() % 3];
  const unsigned zsel = g() % 7, wsel = opw == 9 ? g() % 4 : 0;
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
  unsigned loads_p = 0, resets_p = 0, casc_carries = 0, subtracts = 0, nonzero_tail = 0;
};

// A test top of slices on inputs of their own, run cycle by cycle against
// the reference: random pins for each slice by its role (a tail takes its
// cascade inputs from the slice before it), every output compared before
// and after each rising edge of `clk`.
template <class Top>
struct DspRun {
  ut::Bench<Top> b;
  Layout layout;
  std::vector<Dsp> ref;
  std::mt19937_64 g;
  Stats stats;

  DspRun(const Layout& l, const std::vector<Cfg>& cfgs, uint64_t seed) : layout(l), g(seed) {
    for (const Cfg& c : cfgs) ref.push_back(Dsp{c, {}});
  }

  // Random pins for slice n as the slice should see them (the caller applies
  // the top's inversions).
  In random_in(unsigned n, unsigned ce_odds, unsigned rst_odds) {
    const Cfg& cfg = ref[n].cfg;
    In in;
    in.a = g() & ut::mask(cfg.aw);
    in.b = g() & ut::mask(cfg.bw);
    in.c = g() & ut::mask(cfg.pw);
    in.d = g() & ut::mask(cfg.mw);
    in.acin = g() & ut::mask(cfg.aw);
    in.bcin = g() & ut::mask(cfg.bw);
    in.pcin = g() & ut::mask(cfg.pw);
    // Small or sign-only values now and then, so products and sums wrap,
    // carry and borrow both ways.
    if (ut::coin(g, 1, 4)) in.a = (g() % 2) ? ut::mask(cfg.aw) : 1;
    if (ut::coin(g, 1, 4)) in.c = (g() % 2) ? ut::mask(cfg.pw) : g() % 4;
    in.carryin = ut::coin(g, 1, 2);
    in.carrycascin = ut::coin(g, 1, 2);
    in.multsignin = ut::coin(g, 1, 2);
    in.carryinsel = g() % 8;
    in.inmode = g() % 32;
    in.negate = cfg.negate_pin ? g() % 8 : 0;
    random_mode(g, cfg.opw, in.opmode, in.alumode);
    for (unsigned k = 0; k < 13; ++k) in.ce |= ut::coin(g, ce_odds, 8) << k;
    for (unsigned k = 0; k < 10; ++k) in.rst |= ut::coin(g, 1, rst_odds) << k;
    if (cfg.role == Role::kAddSub) {  // P = C +- (A:B + CIN) (Z = C, X = A:B), W = C now and then
      in.opmode = 0x033 | (cfg.opw == 9 && ut::coin(g, 1, 4) ? 0x180 : 0);
      in.alumode = g() % 4;
      in.carryinsel = 0;
    } else if (cfg.role == Role::kHead) {  // M, or P + M (so that it carries out)
      in.opmode = ut::coin(g, 1, 2) ? 0x005 : 0x025;
      in.alumode = 0;
      in.carryinsel = 0;
    } else if (cfg.role == Role::kTail) {  // PCIN + M, or the MACC extension's P + MULTSIGNIN + CARRYCASCIN
      const bool extend = ut::coin(g, 1, 4);
      in.opmode = extend ? 0x048 : 0x015;
      in.alumode = 0;
      in.carryinsel = extend || ut::coin(g, 1, 4) ? 2 : 0;
    }
    return in;
  }

  // A tail's cascade inputs are its head's outputs before the edge.
  void link(std::vector<In>& in) const {
    for (unsigned n = 1; n < ref.size(); ++n) {
      if (ref[n].cfg.role != Role::kTail) continue;
      const Out head = ref[n - 1].eval(in[n - 1]);
      in[n].acin = head.acout;
      in[n].bcin = head.bcout;
      in[n].pcin = head.pcout;
      in[n].carrycascin = head.carrycascout;
      in[n].multsignin = head.multsignout;
    }
  }

  // One clock cycle: new pins with clk low, check; rising edge, check.
  void cycle(int step, unsigned ce_odds, unsigned rst_odds) {
    std::vector<In> in(ref.size());
    for (unsigned n = 0; n < ref.size(); ++n) in[n] = random_in(n, ce_odds, rst_odds);
    for (unsigned n = 0; n < ref.size(); ++n) {
      const Cfg& cfg = ref[n].cfg;
      In& pins = in[n];
      pins.inmode ^= cfg.inv_inmode;  // the pin values that give the wanted ones inside
      pins.opmode ^= cfg.inv_opmode;
      pins.alumode ^= cfg.inv_alumode;
      pins.carryin ^= cfg.inv_carryin;
      pins.negate ^= cfg.inv_negate;
      pins.rst ^= cfg.inv_rst;
      drive(b.dut.in, layout, n, pins);
    }
    b.dut.clk = 0;
    b.eval();
    link(in);
    check(in, step, "before the edge");
    for (unsigned n = 0; n < ref.size(); ++n) {
      const unsigned rst = in[n].rst ^ ref[n].cfg.inv_rst;
      if (ref[n].cfg.preg && ut::bit(rst, kRstp)) ++stats.resets_p;
      else if (ref[n].cfg.preg && ut::bit(in[n].ce, kCep)) ++stats.loads_p;
    }
    for (unsigned n = 0; n < ref.size(); ++n) ref[n].clock(in[n]);
    b.dut.clk = 1;
    b.eval();
    link(in);
    check(in, step, "after the edge");
    for (unsigned n = 0; n < ref.size(); ++n) {
      if (ref[n].cfg.role != Role::kTail) continue;
      if (ref[n].eval(in[n]).p != 0) ++stats.nonzero_tail;
      if (in[n].carrycascin) ++stats.casc_carries;
    }
  }

  void check(const std::vector<In>& in, int step, const char* when) {
    for (unsigned n = 0; n < ref.size(); ++n) {
      const Out want = ref[n].eval(in[n]), got = sample(b.dut.out, layout, n);
      ASSERT_TRUE(got == want) << "slice " << n << " (" << ref[n].cfg.name << "), " << when << " of cycle " << step
                               << "\n  got  " << show(got) << "\n  want " << show(want) << "\n  OPMODE "
                               << std::hex << ref[n].r.opmode << " ALUMODE " << ref[n].r.alumode << " INMODE "
                               << ref[n].r.inmode << " CARRYINSEL " << ref[n].r.carryinsel << "\n  pins: OPMODE "
                               << in[n].opmode << " ALUMODE " << in[n].alumode << " INMODE " << in[n].inmode
                               << " CARRYINSEL " << in[n].carryinsel << " NEGATE " << in[n].negate << " CE "
                               << in[n].ce << " RST " << in[n].rst;
    }
  }

  // `steps` cycles; false after a failed check.
  bool run(int steps, unsigned ce_odds, unsigned rst_odds) {
    for (int step = 0; step < steps; ++step) {
      cycle(step, ce_odds, rst_odds);
      if (::testing::Test::HasFatalFailure()) return false;
    }
    return true;
  }
};

}  // namespace cosim::vendor_unisim_test::dsp
