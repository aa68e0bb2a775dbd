// Number text of common/text.hpp, against printf's %f and %g by hand.
#include <gtest/gtest.h>

#include <limits>

#include "common/text.hpp"

namespace cosim {
namespace {

TEST(NumberText, FixedDecimals) {
  EXPECT_EQ(fixed_text(82.849, 1), "82.8");
  EXPECT_EQ(fixed_text(2.0), "2.00");
  EXPECT_EQ(fixed_text(0.5, 0), "0");  // round half to even, as printf
  EXPECT_EQ(fixed_text(std::numeric_limits<double>::infinity(), 1), "inf");
  EXPECT_EQ(fixed_text(-std::numeric_limits<double>::infinity(), 1), "-inf");
}

TEST(NumberText, SignificantDigits) {
  EXPECT_EQ(significant_text(0.0012345), "0.00123");
  EXPECT_EQ(significant_text(4567.0), "4.57e+03");
  EXPECT_EQ(significant_text(12.0), "12");
  EXPECT_EQ(significant_text(1.0 / 3.0, 5), "0.33333");
}

TEST(NumberText, ValueText) {
  EXPECT_EQ(value_text(42.0), "42");
  EXPECT_EQ(value_text(0.1), "0.1");
}

}  // namespace
}  // namespace cosim
