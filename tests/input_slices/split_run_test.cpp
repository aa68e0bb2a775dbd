// A run split over processes (tb/cosim/input_slices.hpp): busy_cores(), the
// cores other processes keep busy now, which decides whether a run splits by
// default; the default merge of the slices' perf counters.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "cosim/backend.hpp"
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

// The default merge: what any target's wrapper counts, as one simulation
// would give it. Expected values written out by hand.
class NoDutBackend : public cosim::tb::TargetBackend {
 public:
  std::string name() const override { return "none"; }
  std::string description() const override { return "no DUT"; }
  std::unique_ptr<cosim::tb::DutWrapper> make_dut(const char*, const cosim::tb::TbConfig&) const override {
    return nullptr;
  }
};

TEST(MergePerfCounters, NumbersTheRunsOnAndSumsTheRest) {
  const NoDutBackend backend;
  const std::map<std::string, uint64_t> merged = backend.merge_perf_counters({
      {{{"run0_cycles", 5}, {"run1_cycles", 6}, {"busy_cycles", 10}}, 0},
      {{{"run0_cycles", 7}, {"busy_cycles", 3}}, 100},  // a slice of one run
      {{{"run0_cycles", 8}, {"run0_macs", 2}, {"run1_cycles", 9}, {"run10_x", 1}}, 200},
  });
  const std::map<std::string, uint64_t> expected = {
      {"run0_cycles", 5}, {"run1_cycles", 6}, {"run2_cycles", 7}, {"run3_cycles", 8}, {"run3_macs", 2},
      {"run4_cycles", 9}, {"run13_x", 1},     {"busy_cycles", 13}};
  EXPECT_EQ(merged, expected);
}

TEST(MergePerfCounters, OnlyRunDigitsUnderscoreIsARunCounter) {
  EXPECT_EQ(cosim::tb::numbered_run_counter("run12_cycles"), std::make_optional(std::make_pair(std::size_t{12},
                                                                                               std::string("cycles"))));
  for (const char* other : {"run_cycles", "runs", "run1", "run1_", "rerun1_cycles", "runx_1"}) {
    EXPECT_EQ(cosim::tb::numbered_run_counter(other), std::nullopt) << other;
  }
}

}  // namespace
