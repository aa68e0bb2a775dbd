// The TFLite requantization ALU program on one lane against the TFLite golden
// (quant::multiply_by_quantized_multiplier, both roundings) + zp + clamp.
// Expected values never come from the program: they are the golden's.
//
// TFLITE_REQUANT_SWEEP=n sets the number of random cases per rounding
// (default 1000000).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <random>

#include "common/error.hpp"
#include "quant/tflite_quant.hpp"
#include "vta/compiler/tflite_requant_program.hpp"

namespace {

using cosim::quant::ActivationRange;
using cosim::quant::QuantizedMultiplier;
using cosim::quant::Rounding;
using cosim::vta::make_tflite_requant_program;
using cosim::vta::RqOperand;
using cosim::vta::TfliteRequantProgram;
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

int32_t golden(int32_t x, QuantizedMultiplier m, Rounding r, int32_t zp, ActivationRange act) {
  const int64_t v = int64_t{cosim::quant::multiply_by_quantized_multiplier(x, m, r)} + zp;
  return static_cast<int32_t>(std::clamp<int64_t>(v, act.min, act.max));
}

const char* name(Rounding r) { return r == Rounding::kDouble ? "double" : "single"; }

// Runs x through a one-channel program, with two different temporaries'
// garbage (the program must write before it reads them).
::testing::AssertionResult lane_ok(const TfliteRequantProgram& p, std::size_t c, int32_t x, QuantizedMultiplier m,
                                   Rounding r, int32_t zp, ActivationRange act) {
  const int32_t want = golden(x, m, r, zp, act);
  const int32_t got = p.run_lane(x, c), got2 = p.run_lane(x, c, -1);
  if (got == want && got2 == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << name(r) << " x=" << x << " M=" << m.multiplier << " shift=" << m.shift
                                       << " zp=" << zp << " act=[" << act.min << "," << act.max << "]: golden " << want
                                       << ", program " << got << " / " << got2 << "\n"
                                       << p.listing();
}

const int32_t kEdgeX[] = {kMin, kMin + 1, kMax, kMax - 1, 0, 1, -1, 2, -2, 65535, 65536, -65536, -65537,
                          32767, -32768, 1 << 30, -(1 << 30), (1 << 30) + 1, -(1 << 30) - 1, 255, -256};
const int32_t kEdgeM[] = {1 << 30, (1 << 30) + 1, kMax, kMax - 1, (1 << 30) + (1 << 15), (1 << 30) + (1 << 15) + 1,
                          kMax - (1 << 15), kMax - (1 << 15) + 1, kMax - (1 << 15) + 2, 1518500250};

// Every shift, the multipliers at the limb boundaries, the edge accumulators.
TEST(TfliteRequantProgram, EdgeMultipliersShiftsAndAccumulators) {
  for (Rounding r : {Rounding::kDouble, Rounding::kSingle}) {
    for (int shift = -31; shift <= 30; ++shift) {
      for (int32_t mm : kEdgeM) {
        const QuantizedMultiplier m{mm, shift};
        for (const ActivationRange act : {ActivationRange{-128, 127}, ActivationRange{-3, 127}, ActivationRange{-128, -128}}) {
          for (int32_t zp : {0, -3, 127, -128}) {
            const TfliteRequantProgram p = make_tflite_requant_program({m}, r, zp, act);
            for (int32_t x : kEdgeX) ASSERT_TRUE(lane_ok(p, 0, x, m, r, zp, act));
          }
        }
      }
    }
  }
}

// Accumulators around the rounding ties of both stages: x where x*M / 2^31
// or the RoundingDivideByPOT of it lands on (or next to) a half.
TEST(TfliteRequantProgram, AccumulatorsNearRoundingTies) {
  std::mt19937_64 rng(7);
  int checked = 0;
  for (Rounding r : {Rounding::kDouble, Rounding::kSingle}) {
    for (int shift = -31; shift <= 4; ++shift) {
      for (int rep = 0; rep < 40; ++rep) {
        // M = 2^30 (a power of two) makes exact halves reachable for every e.
        const int32_t mm = rep % 2 ? (1 << 30) : static_cast<int32_t>((1u << 30) + (rng() % (1u << 30)));
        const QuantizedMultiplier m{mm, shift};
        const TfliteRequantProgram p = make_tflite_requant_program({m}, r, 0, {-128, 127});
        // x with x*M = (k + 1/2) * 2^(31 + e) (+-1), for small k of both signs.
        const int e = std::max(-shift, 0);
        for (int64_t k = -130; k <= 130; k += 1 + static_cast<int64_t>(rng() % 7)) {
          const long double target = (static_cast<long double>(k) + 0.5L) * std::ldexp(1.0L, 31 + e) / mm;
          for (int d = -2; d <= 2; ++d) {
            const long double xv = std::floor(target) + d;
            if (xv < kMin || xv > kMax) continue;
            ASSERT_TRUE(lane_ok(p, 0, static_cast<int32_t>(xv), m, r, 0, {-128, 127}));
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 100000);
}

// Random multipliers, shifts (positive ones, tiny multipliers), accumulators
// (uniform over int32, small, and near the ends), zero points and ranges.
TEST(TfliteRequantProgram, RandomSweepAgainstTheGolden) {
  const char* env = std::getenv("TFLITE_REQUANT_SWEEP");
  const int n = env && *env ? std::atoi(env) : 1000000;
  std::mt19937_64 rng(20240516);
  for (Rounding r : {Rounding::kDouble, Rounding::kSingle}) {
    for (int i = 0; i < n; i += 64) {
      const int32_t mm = rng() % 8 == 0 ? kEdgeM[rng() % std::size(kEdgeM)]
                                        : static_cast<int32_t>((1u << 30) + (rng() % (1u << 30)));
      const int shift = rng() % 4 == 0 ? static_cast<int>(rng() % 31) : -static_cast<int>(rng() % 32);
      const QuantizedMultiplier m{mm, shift};
      const int32_t zp = static_cast<int32_t>(rng() % 256) - 128;
      const int32_t lo = rng() % 2 ? -128 : std::max(-128, zp);
      const ActivationRange act{lo, std::max<int32_t>(lo, 127 - static_cast<int32_t>(rng() % 20))};
      const TfliteRequantProgram p = make_tflite_requant_program({m}, r, zp, act);
      for (int j = 0; j < 64; ++j) {
        int32_t x;
        switch (rng() % 4) {
          case 0: x = static_cast<int32_t>(rng()); break;
          case 1: x = static_cast<int32_t>(rng() % 20001) - 10000; break;
          case 2: x = kMin + static_cast<int32_t>(rng() % 1000); break;
          default: x = static_cast<int32_t>(static_cast<int64_t>(rng() >> 33) >> (rng() % 31)) * (rng() % 2 ? 1 : -1);
        }
        ASSERT_TRUE(lane_ok(p, 0, x, m, r, zp, act));
      }
    }
  }
}

// The S0 range the program relies on: at the corners of the limbs, for every
// high limb of M with the low limb at both ends, with shifts where a wrong
// middle sum would not saturate (large e: results of a few units).
TEST(TfliteRequantProgram, LimbCornersForEveryHighLimb) {
  const int32_t xh[] = {-32768, -32767, -1, 0, 1, 32767};
  const int32_t xl[] = {0, 1, 32768, 65534, 65535};
  for (Rounding r : {Rounding::kDouble, Rounding::kSingle}) {
    for (int shift : {-31, -30, -17, -2, -1, 0}) {
      for (int64_t mh = 1 << 14; mh <= 1 << 15; ++mh) {
        for (int64_t ml : {-32767, -1, 0, 1, 32768}) {
          const int64_t mm = mh * 65536 + ml;
          if (mm < (1 << 30) || mm > kMax) continue;
          if (mh % 61 != 0 && mh != (1 << 14) && mh != (1 << 15) && mh != (1 << 15) - 1) continue;
          const QuantizedMultiplier m{static_cast<int32_t>(mm), shift};
          const TfliteRequantProgram p = make_tflite_requant_program({m}, r, 0, {-128, 127});
          for (int32_t h : xh)
            for (int32_t l : xl) ASSERT_TRUE(lane_ok(p, 0, static_cast<int32_t>(h * 65536 + l), m, r, 0, {-128, 127}));
        }
      }
    }
  }
}

// One program for channels of every class (left shifts, e = 0, 1, >= 2,
// zero multipliers, single-rounding clamps and saturating shifts): per-channel
// vectors, and register shift amounts kept in 0..31 (spec/vta-isa.md).
TEST(TfliteRequantProgram, MixedChannelsShareOneProgram) {
  std::vector<QuantizedMultiplier> ms;
  for (int shift = -31; shift <= 30; ++shift) ms.push_back({static_cast<int32_t>((1u << 30) + 12345u * (shift + 40)), shift});
  ms.push_back({0, 0});
  ms.push_back({kMax, 16});
  std::mt19937_64 rng(3);
  for (Rounding r : {Rounding::kDouble, Rounding::kSingle}) {
    const TfliteRequantProgram p = make_tflite_requant_program(ms, r, 5, {-128, 127});
    EXPECT_EQ(p.channels, ms.size());
    EXPECT_EQ(p.temps, 2);
    for (const auto& s : p.steps) {
      if (s.src.kind == RqOperand::Kind::kVector) {
        ASSERT_EQ(p.vectors.at(static_cast<std::size_t>(s.src.value)).size(), ms.size());
        if (s.op == cosim::quant::VtaAluOp::kShr) {
          for (int32_t v : p.vectors[static_cast<std::size_t>(s.src.value)]) {
            EXPECT_TRUE(v >= 0 && v <= 31) << v;
          }
        }
      }
      if (s.src.kind == RqOperand::Kind::kImm) {
        EXPECT_TRUE(s.src.value >= -32768 && s.src.value <= 32767);
      }
    }
    for (std::size_t c = 0; c < ms.size(); ++c) {
      for (int32_t x : kEdgeX) ASSERT_TRUE(lane_ok(p, c, x, ms[c], r, 5, {-128, 127}));
      for (int i = 0; i < 2000; ++i) ASSERT_TRUE(lane_ok(p, c, static_cast<int32_t>(rng()), ms[c], r, 5, {-128, 127}));
    }
  }
}

// Per-tensor programs with a typical shift use immediates where they can:
// the cost figures the README quotes.
TEST(TfliteRequantProgram, StepCountsOfTypicalLayers) {
  const QuantizedMultiplier m{1518500250, -9};
  const auto d = make_tflite_requant_program({m}, Rounding::kDouble, 3, {-128, 127});
  const auto s = make_tflite_requant_program({m}, Rounding::kSingle, 3, {-128, 127});
  EXPECT_EQ(d.uops_per_entry(), 29u) << d.listing();
  EXPECT_EQ(s.uops_per_entry(), 24u) << s.listing();
  EXPECT_LT(s.uops_per_entry(), d.uops_per_entry());
}

TEST(TfliteRequantProgram, BadInputIsOneClearError) {
  const ActivationRange a{-128, 127};
  EXPECT_THROW(make_tflite_requant_program({}, Rounding::kDouble, 0, a), cosim::InputError);
  EXPECT_THROW(make_tflite_requant_program({{(1 << 30) - 1, 0}}, Rounding::kDouble, 0, a), cosim::InputError);
  EXPECT_THROW(make_tflite_requant_program({{1 << 30, 31}}, Rounding::kDouble, 0, a), cosim::InputError);
  EXPECT_THROW(make_tflite_requant_program({{1 << 30, -32}}, Rounding::kSingle, 0, a), cosim::InputError);
  EXPECT_THROW(make_tflite_requant_program({{1 << 30, 0}}, Rounding::kSingle, 40000, a), cosim::InputError);
  EXPECT_THROW(make_tflite_requant_program({{1 << 30, 0}}, Rounding::kSingle, 0, {5, 4}), cosim::InputError);
  try {
    make_tflite_requant_program({{1 << 30, 0}, {5, 0}}, Rounding::kDouble, 0, a);
    FAIL();
  } catch (const cosim::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("channel 1"), std::string::npos) << e.what();
  }
}

}  // namespace
