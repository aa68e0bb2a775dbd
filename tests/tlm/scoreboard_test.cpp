// Scoreboard: counts, first mismatches with layout coordinates, write cycles
// from the write log, bitwise float comparison, distance to a reference.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "scoreboard/check_strength.hpp"
#include "scoreboard/scoreboard.hpp"

using cosim::DType;
using cosim::Layout;
using cosim::Tensor;
using namespace cosim::tb;

TEST(Scoreboard, CountsAndNamesNhwcCoordinates) {
  Tensor e(DType::kInt8, {2, 3, 4, 5}, Layout::kNHWC);
  for (int i = 0; i < e.numel(); ++i) e.data<int8_t>()[i] = static_cast<int8_t>(i % 100);
  Tensor a = e;
  // n=1,h=2,w=3,c=4 is the last element: flat 1*60 + 2*20 + 3*5 + 4 = 119.
  a.data<int8_t>()[119] = -1;
  // n=0,h=1,w=0,c=2: flat 20 + 2 = 22.
  a.data<int8_t>()[22] = 100;
  CompareOptions o;
  o.name = "out";
  const Comparison c = compare(e, a, o);
  EXPECT_EQ(c.elements, 120);
  EXPECT_EQ(c.mismatches, 2);
  ASSERT_EQ(c.first.size(), 2u);
  EXPECT_EQ(c.first[0].coords, "n=0,h=1,w=0,c=2");  // in memory order
  EXPECT_EQ(c.first[0].index, (std::vector<int64_t>{0, 1, 0, 2}));
  EXPECT_EQ(c.first[0].expected, 22);
  EXPECT_EQ(c.first[0].actual, 100);
  EXPECT_EQ(c.first[1].coords, "n=1,h=2,w=3,c=4");
  EXPECT_EQ(c.first[1].expected, 19);
  EXPECT_EQ(c.first[1].actual, -1);
  EXPECT_FALSE(c.first[0].address.has_value());
}

TEST(Scoreboard, NchwAndPlainCoordinates) {
  EXPECT_EQ(coords({1, 2, 3, 4}, Layout::kNCHW), "n=1,c=2,h=3,w=4");
  EXPECT_EQ(coords({1, 2, 3, 4}, Layout::kNHWC), "n=1,h=2,w=3,c=4");
  EXPECT_EQ(coords({7, 8}, Layout::kAny), "i0=7,i1=8");
  EXPECT_EQ(unravel({2, 3, 4}, 23), (std::vector<int64_t>{1, 2, 3}));
}

TEST(Scoreboard, ReportsOnlyTheFirstNButCountsAll) {
  Tensor e(DType::kInt32, {100});
  Tensor a(DType::kInt32, {100});
  for (int i = 0; i < 100; ++i) {
    e.data<int32_t>()[i] = i;
    a.data<int32_t>()[i] = i % 2 == 0 ? i : -i;
  }
  CompareOptions o;
  o.max_report = 3;
  const Comparison c = compare(e, a, o);
  EXPECT_EQ(c.mismatches, 50);
  ASSERT_EQ(c.first.size(), 3u);
  EXPECT_EQ(c.first[0].index[0], 1);
  EXPECT_EQ(c.first[2].index[0], 5);
  EXPECT_EQ(c.first[2].actual, -5);
}

TEST(Scoreboard, AddressAndWriteCycleFromTheLog) {
  Tensor e(DType::kInt16, {4});
  Tensor a(DType::kInt16, {4});
  for (int i = 0; i < 4; ++i) e.data<int16_t>()[i] = a.data<int16_t>()[i] = static_cast<int16_t>(i);
  a.data<int16_t>()[2] = 77;
  a.data<int16_t>()[3] = 99;
  WriteLog log;
  log.record(0x1000, 4, 10);   // elements 0, 1
  log.record(0x1004, 1, 12);   // low byte of element 2
  log.record(0x1005, 1, 15);   // high byte of element 2: the later write counts
  const uint8_t strobe[2] = {0, 0};
  log.record(0x1006, 2, 20, strobe);  // element 3: strobed off, never written
  CompareOptions o;
  o.base_addr = 0x1000;
  o.log = &log;
  const Comparison c = compare(e, a, o);
  ASSERT_EQ(c.first.size(), 2u);
  EXPECT_EQ(*c.first[0].address, 0x1004u);
  ASSERT_TRUE(c.first[0].cycle.has_value());
  EXPECT_EQ(*c.first[0].cycle, 15u);
  EXPECT_EQ(*c.first[1].address, 0x1006u);
  EXPECT_FALSE(c.first[1].cycle.has_value());
  EXPECT_EQ(*log.last_write(0x1000), 10u);
  EXPECT_FALSE(log.last_write(0x2000).has_value());
}

// The log against a byte-by-byte map (the obvious model), over random
// writes with random strobes that cross 4 KiB pages, and random spans.
TEST(WriteLog, MatchesAByteMapAcrossPages) {
  std::mt19937_64 g(7);
  WriteLog log;
  std::map<uint64_t, uint64_t> model;
  for (uint64_t cycle = 0; cycle < 400; ++cycle) {
    const uint64_t addr = 0x10000 + g() % 0x5000;
    const std::size_t len = 1 + g() % 9000;
    std::vector<uint8_t> strobe(len);
    for (auto& b : strobe) b = g() % 4 != 0;
    const bool strobed = g() % 2 == 0;
    log.record(addr, len, cycle, strobed ? strobe.data() : nullptr);
    for (std::size_t i = 0; i < len; ++i)
      if (!strobed || strobe[i]) model[addr + i] = cycle;
  }
  for (int q = 0; q < 2000; ++q) {
    const uint64_t addr = 0xf000 + g() % 0x8000;
    const std::size_t len = g() % 12000;
    std::optional<uint64_t> want;
    for (auto it = model.lower_bound(addr); it != model.end() && it->first < addr + len; ++it)
      if (!want || it->second > *want) want = it->second;
    ASSERT_EQ(log.last_write(addr, len), want) << "addr " << addr << " len " << len;
    const auto one = model.find(addr);
    ASSERT_EQ(log.last_write(addr), one == model.end() ? std::nullopt : std::optional<uint64_t>(one->second));
  }
}

// 64-bit integers: 2^53 + 1 and 2^53 are one double apart from nothing, but two elements apart in
// the comparison and in the texts a mismatch prints.
TEST(Scoreboard, SixtyFourBitValuesArePrintedInFull) {
  Tensor e(DType::kInt64, {2}), u(DType::kUint64, {1});
  e.data<int64_t>()[0] = (int64_t{1} << 53) + 1;
  e.data<int64_t>()[1] = INT64_MIN;
  Tensor a = e;
  a.data<int64_t>()[0] = int64_t{1} << 53;
  a.data<int64_t>()[1] = INT64_MAX;
  const Comparison c = compare(e, a, CompareOptions{});
  ASSERT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.first[0].expected_text, "9007199254740993");
  EXPECT_EQ(c.first[0].actual_text, "9007199254740992");
  EXPECT_EQ(c.first[1].expected_text, "-9223372036854775808");
  EXPECT_EQ(c.first[1].actual_text, "9223372036854775807");
  u.data<uint64_t>()[0] = UINT64_MAX;
  Tensor v = u;
  v.data<uint64_t>()[0] = 0;
  const Comparison cu = compare(u, v, CompareOptions{});
  ASSERT_EQ(cu.mismatches, 1);
  EXPECT_EQ(cu.first[0].expected_text, "18446744073709551615");
  EXPECT_EQ(element_text(Tensor(DType::kFp32, {1}), 0), "0");
}

TEST(Scoreboard, FloatsCompareBitwise) {
  Tensor e(DType::kFp32, {2});
  Tensor a(DType::kFp32, {2});
  e.data<float>()[0] = 0.0f;
  a.data<float>()[0] = -0.0f;  // equal as numbers, different bits
  e.data<float>()[1] = a.data<float>()[1] = 1.5f;
  const Comparison c = compare(e, a, CompareOptions{});
  EXPECT_EQ(c.mismatches, 1);
  Tensor b(DType::kBf16, {1});
  b.data<uint16_t>()[0] = 0x3fc0;  // bf16 1.5
  EXPECT_DOUBLE_EQ(element_value(b, 0), 1.5);
}

TEST(Scoreboard, DistanceToAReference) {
  Tensor r(DType::kInt8, {5});
  Tensor a(DType::kInt8, {5});
  const int8_t rv[5] = {1, 2, 3, 4, -128};
  const int8_t av[5] = {1, 3, 3, 1, 127};
  std::memcpy(r.data<int8_t>(), rv, 5);
  std::memcpy(a.data<int8_t>(), av, 5);
  const Distance d = distance("tflite_double", r, a);
  EXPECT_EQ(d.reference, "tflite_double");
  EXPECT_EQ(d.elements, 5);
  EXPECT_EQ(d.exact, 2);
  EXPECT_DOUBLE_EQ(d.exact_pct, 40.0);
  EXPECT_DOUBLE_EQ(d.max_abs_diff, 255.0);
}

TEST(Scoreboard, ShapeMismatchIsABug) {
  EXPECT_THROW(compare(Tensor(DType::kInt8, {4}), Tensor(DType::kInt8, {5}), CompareOptions{}), std::invalid_argument);
  EXPECT_THROW(compare(Tensor(DType::kInt8, {4}), Tensor(DType::kInt16, {4}), CompareOptions{}), std::invalid_argument);
}

// weak_check (scoreboard/check_strength.hpp): a value on more than 99 % of
// the elements, compared by bit pattern, for every element size.
TEST(WeakCheck, MajorityOverNinetyNinePercentForEveryElementSize) {
  // int8: 995 of 1000 hold -7, placed after the other values so that the
  // vote's first candidate is not the majority.
  Tensor i8(DType::kInt8, {1000}, Layout::kAny);
  for (int i = 0; i < 1000; ++i) i8.data<int8_t>()[i] = static_cast<int8_t>(i < 5 ? i + 1 : -7);
  const std::optional<WeakCheck> w = weak_check(i8);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->value, -7.0);
  EXPECT_EQ(w->count, 995);
  EXPECT_FALSE(w->constant());
  // 980 of 1000: not weak.
  for (int i = 0; i < 20; ++i) i8.data<int8_t>()[i] = static_cast<int8_t>(i + 1);
  EXPECT_FALSE(weak_check(i8).has_value());
  // int16, int32: constant.
  Tensor i16(DType::kInt16, {64}, Layout::kAny);
  for (int i = 0; i < 64; ++i) i16.data<int16_t>()[i] = 300;
  ASSERT_TRUE(weak_check(i16).has_value());
  EXPECT_TRUE(weak_check(i16)->constant());
  EXPECT_EQ(weak_check(i16)->value, 300.0);
  Tensor i32(DType::kInt32, {300}, Layout::kAny);
  for (int i = 0; i < 300; ++i) i32.data<int32_t>()[i] = i == 150 ? 1 : 70000;
  ASSERT_TRUE(weak_check(i32).has_value());  // 299 of 300 = 99.67 %
  EXPECT_EQ(weak_check(i32)->count, 299);
  EXPECT_EQ(weak_check(i32)->value, 70000.0);
  // fp32 by bit pattern: -0.0 is not +0.0 (200 of 202 hold +0.0).
  Tensor f32(DType::kFp32, {202}, Layout::kAny);
  for (int i = 0; i < 202; ++i) f32.data<float>()[i] = i % 101 == 0 ? -0.0f : 0.0f;
  ASSERT_TRUE(weak_check(f32).has_value());
  EXPECT_EQ(weak_check(f32)->count, 200);
  // One element: nothing to be constant across.
  Tensor one(DType::kInt8, {1}, Layout::kAny);
  EXPECT_FALSE(weak_check(one).has_value());
}
