// Distance between two results: int8 ones (a golden model vs the reference
// semantics, or DUT vs golden) by the share of exact elements and max |diff|;
// float ones (a float model's tensor vs its quantized or bfloat16 stand-in)
// by signal-to-noise ratio and max |diff|.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/error.hpp"

#include "tensor/tensor.hpp"

namespace cosim::ops {

struct Distance {
  int64_t count = 0;
  int64_t exact = 0;
  int max_abs_diff = 0;
  double exact_pct() const { return count ? 100.0 * static_cast<double>(exact) / static_cast<double>(count) : 100.0; }
};

// Both int8 with the same shape, else cosim::InputError.
Distance int8_distance(const Tensor& a, const Tensor& b);

// Float distance, accumulated over as many tensor pairs as are added (one
// layer over a batch of inputs, say): the reference's energy (signal), the
// difference's (noise) and the largest |difference|.
struct FloatDistance {
  double signal = 0, noise = 0, max_abs = 0;
  // `got` against `ref`, element by element; same size, else cosim::InputError.
  void add(const std::vector<float>& ref, const std::vector<float>& got) {
    if (ref.size() != got.size()) {
      throw InputError("float distance: " + std::to_string(got.size()) + " elements against a reference of " +
                       std::to_string(ref.size()));
    }
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const double d = static_cast<double>(got[i]) - ref[i];
      signal += static_cast<double>(ref[i]) * ref[i];
      noise += d * d;
      max_abs = std::max(max_abs, std::fabs(d));
    }
  }
  // 10 log10(signal / noise) in dB; +inf when every element was equal.
  double snr_db() const {
    return noise == 0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10(signal / noise);
  }
};

}  // namespace cosim::ops
