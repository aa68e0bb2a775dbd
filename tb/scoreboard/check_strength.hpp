// How much a check can tell: a check whose expected tensor is constant, or
// in which one value covers more than 99 % of the elements, is weak. A DUT
// that writes only that value would pass it (or miss at most 1 % of it), so
// its PASS says little. It is still compared bit-exact; `weak` is a label in
// the console, report.json and report.html, not a failure.
#pragma once

#include <cstdint>
#include <optional>

#include "tensor/tensor.hpp"

namespace cosim::tb {

// Over this share of the elements holding one value, a check is weak.
constexpr double kWeakCheckFraction = 0.99;

struct WeakCheck {
  double value = 0;        // the dominant value (scoreboard::element_value)
  int64_t count = 0;       // elements holding it
  int64_t elements = 0;    // elements in the check
  bool constant() const { return count == elements; }
  double fraction() const { return elements > 0 ? static_cast<double>(count) / static_cast<double>(elements) : 0.0; }
};

// The dominant value of `expected` when it makes the check weak; nullopt for
// a check with fewer than two elements (nothing to be constant across) or
// no value over kWeakCheckFraction. Values compare by their bit pattern.
std::optional<WeakCheck> weak_check(const Tensor& expected);

}  // namespace cosim::tb
