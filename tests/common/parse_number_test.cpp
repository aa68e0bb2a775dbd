// parse_unsigned: decimal or 0x hex, nothing else, at most max.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>

#include "common/parse_number.hpp"

namespace cosim {
namespace {

TEST(ParseUnsigned, DecimalAndHex) {
  EXPECT_EQ(parse_unsigned("0"), 0u);
  EXPECT_EQ(parse_unsigned("4096"), 4096u);
  EXPECT_EQ(parse_unsigned("0x1000"), 4096u);
  EXPECT_EQ(parse_unsigned("0XfF"), 255u);
  EXPECT_EQ(parse_unsigned("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parse_unsigned("0xffffffffffffffff"), UINT64_MAX);
}

TEST(ParseUnsigned, LeadingZeroIsDecimalNotOctal) {
  EXPECT_EQ(parse_unsigned("010"), 10u);
  EXPECT_EQ(parse_unsigned("0100"), 100u);
  EXPECT_EQ(parse_unsigned("09"), 9u);  // not a bad octal digit
}

TEST(ParseUnsigned, AnythingElseIsRefused) {
  for (const char* bad : {"", "0x", "x10", "-1", "+1", " 1", "1 ", "1x", "12a", "0x1g", "1.0", "1e3", "0b101",
                          "18446744073709551616", "0x10000000000000000"}) {
    EXPECT_EQ(parse_unsigned(bad), std::nullopt) << "'" << bad << "'";
  }
}

TEST(ParseUnsigned, AtMostMax) {
  EXPECT_EQ(parse_unsigned("255", 255), 255u);
  EXPECT_EQ(parse_unsigned("256", 255), std::nullopt);
  EXPECT_EQ(parse_unsigned("0x100", 255), std::nullopt);
}

}  // namespace
}  // namespace cosim
