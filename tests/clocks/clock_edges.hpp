// The clock schedule's rule (tb/harness/clock_set.hpp), written again for
// the tests from the manifest's ratios alone: every further clock rises at
// the primary clock's first rising edge, half a cycle after time 0, and a
// clock of ratio p/q again every q/p cycles.
#pragma once

#include <cstdint>

namespace cosim::tb::harness::clocktest {

struct Ratio {
  int64_t p, q;  // the clock's frequency over the primary clock's: p / q
};

inline int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// Rising edges of clock r in the time span (a, b], times in half cycles
// (the primary clock rises at half cycles 1, 3, 5, ...): clock r rises at
// 1/2 + k q/p cycles, so #k = floor((b/2 - 1/2) p/q) - floor((a/2 - 1/2) p/q).
inline int64_t rising_edges(Ratio r, int64_t a, int64_t b) {
  return floor_div((b - 1) * r.p, 2 * r.q) - floor_div((a - 1) * r.p, 2 * r.q);
}

}  // namespace cosim::tb::harness::clocktest
