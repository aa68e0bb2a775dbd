// TFLite requantization as a VTA ALU program (derivation in the header).
#include "vta/compiler/tflite_requant_program.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

#include "common/error.hpp"

namespace cosim::vta {

namespace {

using quant::VtaAluOp;
constexpr int64_t kTwo16 = int64_t{1} << 16;

[[noreturn]] void bad(const std::string& what) { throw InputError("TFLite requantization on VTA: " + what); }

int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }
bool fits_imm(int64_t v) { return v >= -32768 && v <= 32767; }

// Proven ranges of the middle sum S0 = B + C + (D >> 16) over every int32 x
// and every M in [2^30, 2^31) (the extremes sit at xh in {-2^15, -1, 0,
// 2^15-1}, xl in {0, 2^16-1} and Ml at the ends of its range; the unit test
// enumerates them), without and with the -[x<0]*2^15 of double rounding.
constexpr int64_t kS0Min = -(int64_t{1} << 30), kS0Max = 3221127169;
constexpr int64_t kS0nMin = -(int64_t{1} << 30) - (int64_t{1} << 15), kS0nMax = 3221127168;

// Everything one channel's lane needs (see the header for the formulas).
struct Channel {
  int32_t pow2_left = 1;           // double: x * 2^shift for shift > 0
  bool clamp_x = false;            // single: x clamped to [-256, 256] first
  int32_t ml = 0, mh = 0, k1 = 0;  // Ml, Mh, Ml - 2^16*Mh (mod 2^32)
  bool sign_fix = false;           // double, e >= 1: the -[x<0]*2^15 term
  int32_t c1 = 0, s1 = 15, ma_mh = 0, c3 = 0, s2 = 0;
};

Channel channel_constants(quant::QuantizedMultiplier q, quant::Rounding r) {
  int64_t m = q.multiplier;
  int shift = q.shift;
  if (m == 0) shift = 0;  // the result is 0 whatever the shift
  Channel ch;
  const bool dbl = r == quant::Rounding::kDouble;
  if (!dbl && shift > 0) {
    ch.clamp_x = true;
    // Real multiplier >= 2^14: every x != 0 saturates; 2^9 does the same on [-256, 256].
    if (shift >= 15 && m != 0) m = int64_t{1} << 30, shift = 10;
  }
  if (dbl && shift > 0) ch.pow2_left = static_cast<int32_t>(int64_t{1} << shift);
  const int e = dbl ? std::max(-shift, 0) : -shift;
  int64_t ml = ((m + 32767) % kTwo16) - 32767;  // balanced low limb in (-2^15, 2^15]
  const int64_t mh = (m - ml) / kTwo16;
  ch.ml = static_cast<int32_t>(ml);
  ch.mh = static_cast<int32_t>(mh);
  ch.k1 = wrap32(ml - kTwo16 * mh);
  int64_t c1 = 0, c3 = 0, ma = 1;  // c1 relative to S0, c3 before the offset
  if (dbl) {
    ch.sign_fix = e >= 1;
    if (e == 0) ma = 2, ch.s1 = 15, c1 = 1 << 14;
    else if (e == 1) ch.s1 = 16, c1 = (1 << 14) + (1 << 15);
    else ch.s1 = 16, c1 = 1 << 14, c3 = int64_t{1} << (e - 2), ch.s2 = e - 1;
  } else if (e <= 1) {
    ma = int64_t{1} << (1 - e), ch.s1 = 15 + e, c1 = int64_t{1} << (14 + e);
  } else {
    ch.s1 = 16, c3 = int64_t{1} << (e - 2), ch.s2 = e - 1;
  }
  // OFF: the multiple of 2^s1 nearest the middle of S0's range (+ c1); the
  // margins to int32 are then >= 16384 on both sides for every class.
  const int64_t lo = (ch.sign_fix ? kS0nMin : kS0Min) + c1, hi = (ch.sign_fix ? kS0nMax : kS0Max) + c1;
  const int64_t unit = int64_t{1} << ch.s1;
  const int64_t off = ((lo + hi) / 2 + unit / 2) / unit * unit;
  if (lo - off < std::numeric_limits<int32_t>::min() || hi - off > std::numeric_limits<int32_t>::max())
    throw std::logic_error("tflite requant: no offset fits S0 (s1 " + std::to_string(ch.s1) + ")");
  ch.c1 = static_cast<int32_t>(c1 - off);
  ch.c3 = wrap32(c3 + (off >> ch.s1));
  ch.ma_mh = wrap32(ma * mh);
  return ch;
}

// Builds the step list, choosing an immediate where all channels agree on a
// value that fits one, a vector otherwise.
class Builder {
 public:
  explicit Builder(TfliteRequantProgram& p) : p_(p) {}
  void imm(int dst, VtaAluOp op, int32_t v) { p_.steps.push_back({op, dst, {RqOperand::Kind::kImm, v}}); }
  void reg(int dst, VtaAluOp op, RqOperand::Kind k, int idx) { p_.steps.push_back({op, dst, {k, idx}}); }
  // dst = op(dst, per-channel values): an immediate when uniform and small.
  void per_channel(int dst, VtaAluOp op, const std::string& name, const std::vector<int32_t>& v) {
    const bool uniform = std::all_of(v.begin(), v.end(), [&](int32_t x) { return x == v[0]; });
    if (uniform && fits_imm(v[0])) return imm(dst, op, v[0]);
    p_.vectors.push_back(v);
    p_.vector_names.push_back(name);
    reg(dst, op, RqOperand::Kind::kVector, static_cast<int>(p_.vectors.size() - 1));
  }
  void copy(int dst, RqOperand::Kind k, int idx) {  // no copy instruction: dst*0 + src
    imm(dst, VtaAluOp::kMul, 0);
    reg(dst, VtaAluOp::kAdd, k, idx);
  }

 private:
  TfliteRequantProgram& p_;
};

template <class F>
std::vector<int32_t> each(const std::vector<Channel>& chs, F f) {
  std::vector<int32_t> v;
  for (const Channel& c : chs) v.push_back(f(c));
  return v;
}

}  // namespace

TfliteRequantProgram make_tflite_requant_program(const std::vector<quant::QuantizedMultiplier>& multipliers,
                                                 quant::Rounding rounding, int32_t zero_point,
                                                 quant::ActivationRange act) {
  if (multipliers.empty()) bad("no output multipliers");
  for (std::size_t c = 0; c < multipliers.size(); ++c) {
    const auto& q = multipliers[c];
    const bool m_ok = q.multiplier == 0 || (q.multiplier >= (1 << 30));
    if (!m_ok || q.shift < -31 || q.shift > 30)
      bad("channel " + std::to_string(c) + ": multiplier " + std::to_string(q.multiplier) + " shift " +
          std::to_string(q.shift) + " is not a quantized multiplier (M in [2^30, 2^31) or 0, shift in -31..30)");
  }
  if (act.min > act.max || act.min < -128 || act.max > 127)
    bad("activation range [" + std::to_string(act.min) + ", " + std::to_string(act.max) + "] is not inside int8");
  if (!fits_imm(zero_point) || !fits_imm(int64_t{act.max} - zero_point) || !fits_imm(int64_t{act.min} - zero_point))
    bad("output zero point " + std::to_string(zero_point) + " does not fit an ALU immediate");

  TfliteRequantProgram p;
  p.rounding = rounding;
  p.channels = multipliers.size();
  std::vector<Channel> chs;
  for (const auto& q : multipliers) chs.push_back(channel_constants(q, rounding));
  const auto any = [&](auto f) { return std::any_of(chs.begin(), chs.end(), f); };
  const auto all = [&](auto f) { return std::all_of(chs.begin(), chs.end(), f); };

  using K = RqOperand::Kind;
  using Op = VtaAluOp;
  constexpr int a = kRqAcc, t0 = 0, t1 = 1;
  p.temps = 2;
  Builder b(p);
  // x' = x << left (double; wraps like the int32 reference).
  if (any([](const Channel& c) { return c.pow2_left != 1; })) {
    if (all([&](const Channel& c) { return c.pow2_left == chs[0].pow2_left; })) {
      int left = 0;
      while ((1 << left) != chs[0].pow2_left) ++left;
      b.imm(a, Op::kShr, -left);
    } else {
      b.per_channel(a, Op::kMul, "2^left", each(chs, [](const Channel& c) { return c.pow2_left; }));
    }
  }
  // Single rounding, shift > 0: clamp x so the result cannot leave int32.
  if (any([](const Channel& c) { return c.clamp_x; })) {
    b.per_channel(a, Op::kMin, "x_max", each(chs, [](const Channel& c) { return c.clamp_x ? 256 : INT32_MAX; }));
    b.per_channel(a, Op::kMax, "x_min", each(chs, [](const Channel& c) { return c.clamp_x ? -256 : INT32_MIN; }));
  }
  // t0 = xh; t1 = xl = x - 2^16*xh.
  b.copy(t0, K::kAcc, 0);
  b.imm(t0, Op::kShr, 16);
  b.copy(t1, K::kTemp, t0);
  b.per_channel(t1, Op::kMul, "-2^16", std::vector<int32_t>(chs.size(), -65536));
  b.reg(t1, Op::kAdd, K::kAcc, 0);
  // t1 = D >> 16; acc = x*Mh + (D >> 16) + xh*(Ml - 2^16*Mh) = S0 (mod 2^32).
  b.per_channel(t1, Op::kMul, "Ml", each(chs, [](const Channel& c) { return c.ml; }));
  b.imm(t1, Op::kShr, 16);
  b.per_channel(a, Op::kMul, "Mh", each(chs, [](const Channel& c) { return c.mh; }));
  b.reg(a, Op::kAdd, K::kTemp, t1);
  b.copy(t1, K::kTemp, t0);
  b.per_channel(t1, Op::kMul, "Ml-2^16*Mh", each(chs, [](const Channel& c) { return c.k1; }));
  b.reg(a, Op::kAdd, K::kTemp, t1);
  // Double rounding, e >= 1: - [x<0] * 2^15 (xh >> 15 is -[x<0]).
  if (any([](const Channel& c) { return c.sign_fix; })) {
    b.copy(t1, K::kTemp, t0);
    b.imm(t1, Op::kShr, 15);
    if (all([](const Channel& c) { return c.sign_fix; })) b.imm(t1, Op::kShr, -15);
    else b.per_channel(t1, Op::kMul, "2^15*[e>=1]", each(chs, [](const Channel& c) { return c.sign_fix ? 32768 : 0; }));
    b.reg(a, Op::kAdd, K::kTemp, t1);
  }
  // acc = floor((S0 + c1) / 2^s1) (offset by OFF) + A*mA + c3, then >> s2.
  b.per_channel(a, Op::kAdd, "c1", each(chs, [](const Channel& c) { return c.c1; }));
  b.per_channel(a, Op::kShr, "s1", each(chs, [](const Channel& c) { return c.s1; }));
  b.per_channel(t0, Op::kMul, "mA*Mh", each(chs, [](const Channel& c) { return c.ma_mh; }));
  b.reg(a, Op::kAdd, K::kTemp, t0);
  b.per_channel(a, Op::kAdd, "c3", each(chs, [](const Channel& c) { return c.c3; }));
  if (any([](const Channel& c) { return c.s2 != 0; }))
    b.per_channel(a, Op::kShr, "s2", each(chs, [](const Channel& c) { return c.s2; }));
  // Clamp before adding zp, so the add cannot wrap.
  b.imm(a, Op::kMin, act.max - zero_point);
  b.imm(a, Op::kMax, act.min - zero_point);
  if (zero_point != 0) b.imm(a, Op::kAdd, zero_point);
  return p;
}

int32_t TfliteRequantProgram::run_lane(int32_t acc, std::size_t channel, int32_t temp_garbage) const {
  std::vector<int32_t> t(static_cast<std::size_t>(temps), temp_garbage);
  for (const RqStep& s : steps) {
    int32_t src = 0;
    switch (s.src.kind) {
      case RqOperand::Kind::kImm: src = s.src.value; break;
      case RqOperand::Kind::kVector: src = vector_value(static_cast<std::size_t>(s.src.value), channel); break;
      case RqOperand::Kind::kTemp: src = t.at(static_cast<std::size_t>(s.src.value)); break;
      case RqOperand::Kind::kAcc: src = acc; break;
    }
    int32_t& dst = s.dst == kRqAcc ? acc : t.at(static_cast<std::size_t>(s.dst));
    dst = quant::vta_alu(s.op, dst, src);
  }
  return acc;
}

std::string TfliteRequantProgram::listing() const {
  static const char* names[] = {"MIN", "MAX", "ADD", "SHR", "MUL"};
  std::ostringstream os;
  const auto loc = [](int d) { return d == kRqAcc ? std::string("acc") : "t" + std::to_string(d); };
  for (const RqStep& s : steps) {
    os << loc(s.dst) << " = " << loc(s.dst) << " " << names[static_cast<int>(s.op)] << " ";
    switch (s.src.kind) {
      case RqOperand::Kind::kImm: os << s.src.value; break;
      case RqOperand::Kind::kVector: os << "v" << s.src.value << " (" << vector_names[static_cast<std::size_t>(s.src.value)] << ")"; break;
      case RqOperand::Kind::kTemp: os << loc(s.src.value); break;
      case RqOperand::Kind::kAcc: os << "acc"; break;
    }
    os << "\n";
  }
  return os.str();
}

}  // namespace cosim::vta
