#include "scoreboard/check_strength.hpp"

#include <cstring>

#include "scoreboard/scoreboard.hpp"

namespace cosim::tb {

std::optional<WeakCheck> weak_check(const Tensor& expected) {
  const int64_t n = expected.numel();
  const std::size_t es = dtype_size(expected.dtype());
  if (n < 2 || es == 0 || expected.nbytes() < static_cast<std::size_t>(n) * es) return std::nullopt;
  const uint8_t* p = expected.bytes().data();
  // A value over 99 % is a majority: one Boyer-Moore pass finds the only
  // candidate, a second counts it.
  int64_t candidate = 0, votes = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (votes == 0) {
      candidate = i;
      votes = 1;
    } else {
      votes += std::memcmp(p + i * es, p + candidate * es, es) == 0 ? 1 : -1;
    }
  }
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += std::memcmp(p + i * es, p + candidate * es, es) == 0 ? 1 : 0;
  if (static_cast<double>(count) <= kWeakCheckFraction * static_cast<double>(n)) return std::nullopt;
  WeakCheck w;
  w.value = element_value(expected, candidate);
  w.count = count;
  w.elements = n;
  return w;
}

}  // namespace cosim::tb
