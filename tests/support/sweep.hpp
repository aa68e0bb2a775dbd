// The two knobs every random sweep takes from the environment, so that CI can
// run a bounded slice of each sweep with fresh seeds besides the fixed ones
// (scripts/ci-slices) and a failure can be replayed from the printed seed:
//   COSIM_SWEEP_SEED=s   added to the sweep's fixed base seed (default 0)
//   COSIM_SWEEP_COUNT=n  the number of cases (default: the suite's own)
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace cosim::testing {

inline uint64_t sweep_seed_offset() {
  const char* env = std::getenv("COSIM_SWEEP_SEED");
  return env != nullptr && *env != '\0' ? std::strtoull(env, nullptr, 0) : 0;
}

// `base` shifted by COSIM_SWEEP_SEED; says so on stdout when shifted.
inline uint64_t sweep_seed(uint64_t base) {
  const uint64_t off = sweep_seed_offset();
  if (off != 0) {
    std::printf("sweep: base seed %llu + COSIM_SWEEP_SEED %llu\n", static_cast<unsigned long long>(base),
                static_cast<unsigned long long>(off));
  }
  return base + off;
}

inline int sweep_count(int suite_default) {
  const char* env = std::getenv("COSIM_SWEEP_COUNT");
  const int n = env != nullptr && *env != '\0' ? std::atoi(env) : suite_default;
  return n > 0 ? n : suite_default;
}

}  // namespace cosim::testing
