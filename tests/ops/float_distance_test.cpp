// FloatDistance: SNR and max |diff| of a float result against its reference,
// by hand from the definition 10 log10(sum ref^2 / sum (got - ref)^2).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/error.hpp"
#include "ops/distance.hpp"

namespace cosim::ops {
namespace {

TEST(FloatDistance, SnrAndMaxDiffByHand) {
  FloatDistance d;
  d.add({1.0f, 2.0f}, {1.0f, 3.0f});  // signal 1 + 4, noise 1
  EXPECT_DOUBLE_EQ(d.signal, 5.0);
  EXPECT_DOUBLE_EQ(d.noise, 1.0);
  EXPECT_DOUBLE_EQ(d.max_abs, 1.0);
  EXPECT_NEAR(d.snr_db(), 6.989700043360188, 1e-12);
}

TEST(FloatDistance, AccumulatesOverPairs) {
  FloatDistance d;
  d.add({3.0f}, {3.5f});   // signal 9, noise 0.25
  d.add({-4.0f}, {-6.0f});  // signal 16, noise 4
  EXPECT_DOUBLE_EQ(d.signal, 25.0);
  EXPECT_DOUBLE_EQ(d.noise, 4.25);
  EXPECT_DOUBLE_EQ(d.max_abs, 2.0);
  EXPECT_NEAR(d.snr_db(), 10.0 * std::log10(25.0 / 4.25), 1e-12);
}

TEST(FloatDistance, ExactIsPlusInfinityAndAZeroReferenceMinusInfinity) {
  FloatDistance exact;
  exact.add({1.5f, -2.0f}, {1.5f, -2.0f});
  EXPECT_EQ(exact.snr_db(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(exact.max_abs, 0.0);
  FloatDistance zeros;
  zeros.add({0.0f, 0.0f}, {0.0f, 1.0f});
  EXPECT_EQ(zeros.snr_db(), -std::numeric_limits<double>::infinity());
}

TEST(FloatDistance, SizesMustAgree) { EXPECT_THROW(FloatDistance().add({1.0f}, {1.0f, 2.0f}), InputError); }

}  // namespace
}  // namespace cosim::ops
