// StallCoin (tb/axis/stall_coin.hpp) must stall on exactly the cycles
// std::bernoulli_distribution over std::mt19937_64 did with the same seed:
// the seeded stalls of every AXI-Stream scenario, and so its cycles, depend
// on it. Also: p = 0 never stalls, p = 1 always does.
#include <gtest/gtest.h>

#include <random>

#include "axis/stall_coin.hpp"

using cosim::tb::axis::StallCoin;

TEST(StallCoin, DrawForDrawTheStandardBernoulli) {
  for (const double p : {0.01, 0.05, 0.1, 0.3, 0.5, 0.9, 0.999999}) {
    for (const uint64_t seed : {1ull, 2ull, 12345ull, 0xfeedfacecafebeefull}) {
      std::mt19937_64 rng(seed);
      std::bernoulli_distribution coin(p);
      StallCoin ours(seed, p);
      int stalls = 0;
      for (int i = 0; i < 200000; ++i) {
        const bool expected = coin(rng);
        ASSERT_EQ(ours(), expected) << "p " << p << ", seed " << seed << ", draw " << i;
        stalls += expected ? 1 : 0;
      }
      EXPECT_NEAR(stalls / 200000.0, p, 0.01) << "p " << p;  // the draws are the coin's, not a constant
    }
  }
}

TEST(StallCoin, NeverAtZeroAlwaysAtOne) {
  StallCoin never(7, 0.0), always(7, 1.0);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_FALSE(never());
    EXPECT_TRUE(always());
  }
}
