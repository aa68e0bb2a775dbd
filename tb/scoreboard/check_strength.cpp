#include "scoreboard/check_strength.hpp"

#include <cstring>
#include <utility>

#include "scoreboard/scoreboard.hpp"

namespace cosim::tb {

namespace {

// The index of the value held by more than half of p[0, n) if there is one
// (else some index), and how many elements hold that value. Boyer-Moore's
// vote, then a count; T compares elements by their bit pattern.
template <class T>
std::pair<int64_t, int64_t> majority(const uint8_t* bytes, int64_t n) {
  const auto at = [bytes](int64_t i) {
    T v;
    std::memcpy(&v, bytes + static_cast<std::size_t>(i) * sizeof(T), sizeof(T));
    return v;
  };
  int64_t candidate = 0, votes = 0;
  T value{};
  for (int64_t i = 0; i < n; ++i) {
    const T v = at(i);
    if (votes == 0) {
      candidate = i;
      value = v;
      votes = 1;
    } else {
      votes += v == value ? 1 : -1;
    }
  }
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += at(i) == value ? 1 : 0;
  return {candidate, count};
}

}  // namespace

std::optional<WeakCheck> weak_check(const Tensor& expected) {
  const int64_t n = expected.numel();
  const std::size_t es = dtype_size(expected.dtype());
  if (n < 2 || es == 0 || expected.nbytes() < static_cast<std::size_t>(n) * es) return std::nullopt;
  const uint8_t* p = expected.bytes().data();
  // A value over 99 % is a majority: one pass finds the only candidate, a
  // second counts it (element sizes 1, 2, 4 and 8 bytes).
  std::pair<int64_t, int64_t> found;
  switch (es) {
    case 1: found = majority<uint8_t>(p, n); break;
    case 2: found = majority<uint16_t>(p, n); break;
    case 4: found = majority<uint32_t>(p, n); break;
    case 8: found = majority<uint64_t>(p, n); break;
    default: return std::nullopt;
  }
  const auto [candidate, count] = found;
  if (static_cast<double>(count) <= kWeakCheckFraction * static_cast<double>(n)) return std::nullopt;
  WeakCheck w;
  w.value = element_value(expected, candidate);
  w.count = count;
  w.elements = n;
  return w;
}

}  // namespace cosim::tb
