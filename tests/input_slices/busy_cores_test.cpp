// busy_cores() (tb/cosim/input_slices.hpp): the cores other processes keep
// busy now, which decides whether a run splits over processes by default.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "cosim/input_slices.hpp"

namespace {

TEST(BusyCores, CountsTasksSpinningBesideTheCaller) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
  for (int i = 0; i < 2; ++i) {
    spinners.emplace_back([&stop] {
      while (!stop.load(std::memory_order_relaxed)) {
      }
    });
  }
  // Runnable whether or not they hold a core: every sample counts both.
  const std::size_t busy = cosim::tb::busy_cores();
  stop = true;
  for (std::thread& t : spinners) t.join();
  EXPECT_GE(busy, 2u);
}

TEST(BusyCores, DefaultJobsTakeOnlyTheFreeCores) {
  EXPECT_EQ(cosim::tb::default_jobs(100, 2), 2u);
  EXPECT_EQ(cosim::tb::default_jobs(100, 1), 1u);
  EXPECT_EQ(cosim::tb::default_jobs(15, 4), 1u);  // fewer than 2 x kInputsPerProcess inputs
  EXPECT_EQ(cosim::tb::default_jobs(16, 4), 2u);
}

}  // namespace
