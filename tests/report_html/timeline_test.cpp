// tb/timeline Timeline: exact cycle counts per state, bounded buckets for a
// long run, level lanes' peak and mean; the JSON's buckets add up to them.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "timeline/timeline_port.hpp"
#include "timeline/timeline.hpp"

namespace act = cosim::tb::timeline;

namespace {

// Sum of one state's cells over a lane's JSON buckets (each [repeat, cells...]).
uint64_t bucket_sum(const nlohmann::json& lane, std::size_t cell) {
  uint64_t s = 0;
  for (const auto& run : lane["buckets"]) s += run[0].get<uint64_t>() * run[1 + cell].get<uint64_t>();
  return s;
}

}  // namespace

TEST(Timeline, CountsEveryCycleOfALongRunInBoundedBuckets) {
  act::Timeline t({act::state_lane("engine", {"idle", "busy", "wait"}), act::level_lane("queue")});
  const uint64_t n = 3'000'017;  // widens many times; not a multiple of the width
  uint64_t busy = 0, wait = 0, level_sum = 0;
  for (uint64_t c = 0; c < n; ++c) {
    const uint32_t s = (c % 7 < 4) ? 1 : (c % 7 == 6 ? 2 : 0);
    const uint32_t q = static_cast<uint32_t>(c % 5);
    busy += s == 1, wait += s == 2, level_sum += q;
    const uint32_t v[2] = {s, q};
    t.record(c, v);
  }
  EXPECT_EQ(t.cycles(), n);
  EXPECT_EQ(t.state_cycles(0, 1), busy);
  EXPECT_EQ(t.state_cycles(0, 2), wait);
  const nlohmann::json j = t.to_json();
  const uint64_t w = j["bucket_cycles"].get<uint64_t>();
  EXPECT_LE((n + w - 1) / w, act::Timeline::kMaxBuckets);
  EXPECT_GT((n + w - 1) / w, act::Timeline::kMaxBuckets / 2);  // no wider than needed
  const nlohmann::json& engine = j["lanes"][0];
  EXPECT_EQ(engine["cycles"][1].get<uint64_t>(), busy);
  EXPECT_EQ(bucket_sum(engine, 1), busy);
  EXPECT_EQ(bucket_sum(engine, 2), wait);
  EXPECT_EQ(bucket_sum(engine, 0) + busy + wait, n);
  const nlohmann::json& queue = j["lanes"][1];
  EXPECT_EQ(queue["max"].get<uint64_t>(), 4u);
  EXPECT_NEAR(queue["mean"].get<double>(), static_cast<double>(level_sum) / static_cast<double>(n), 1e-9);
  EXPECT_EQ(bucket_sum(queue, 1), level_sum);
}

TEST(Timeline, ShortRunIsExactPerCycleAndMergesEqualBuckets) {
  act::Timeline t({act::state_lane("unit", {"idle", "busy"})});
  const uint32_t pattern[] = {0, 1, 1, 1, 0, 0, 1};
  for (uint64_t c = 0; c < 7; ++c) t.record(c, &pattern[c]);
  const nlohmann::json j = t.to_json();
  EXPECT_EQ(j["bucket_cycles"], 1);
  // [repeat, idle, busy]: idle 1, busy 3, idle 2, busy 1.
  EXPECT_EQ(j["lanes"][0]["buckets"], nlohmann::json::parse("[[1,1,0],[3,0,1],[2,1,0],[1,0,1]]"));
}

TEST(Timeline, ClampsAStateBeyondTheLanesStates) {
  act::Timeline t({act::state_lane("unit", {"idle", "busy"})});
  const uint32_t v = 9;
  t.record(0, &v);
  t.record(1, &v);
  EXPECT_EQ(t.state_cycles(0, 1), 2u);
}

TEST(Timeline, BitsReadsFieldsAcrossWords) {
  const uint32_t w[2] = {0xA0000000u, 0x00000005u};  // bits 29..34 = 0b101101
  EXPECT_EQ((act::bits<29, 6>(w)), 0x2Du);
  EXPECT_EQ((act::bits<32, 3>(w)), 5u);
  EXPECT_EQ((act::bits<31, 1>(w)), 1u);
}

TEST(Timeline, AdvanceKeepsEveryLanesValue) {
  act::Timeline t({act::state_lane("unit", {"idle", "busy"})});
  const uint32_t busy = 1;
  t.record(0, &busy);
  for (uint64_t c = 1; c < 100; ++c) t.advance(c);  // a probe that saw no pin change
  EXPECT_EQ(t.cycles(), 100u);
  EXPECT_EQ(t.state_cycles(0, 1), 100u);
  EXPECT_EQ(t.to_json()["lanes"][0]["cycles"][1], 100);
}
