#include "tf2/inq.hpp"

#include <cmath>
#include <string>

#include "common/error.hpp"

namespace cosim::tf2 {

int inq_exponent(double abs_w) {
  int e2 = 0;
  // abs_w = m * 2^e2 with m in [0.5, 1): floor(log2) = e2 - 1, and the
  // 4/3 factor bumps the exponent when the mantissa in [1, 2) is >= 1.5.
  const double m = std::frexp(abs_w, &e2) * 2.0;
  const int e = e2 - 1;
  return m >= 1.5 ? e + 1 : e;
}

InqWeights inq_compress(const std::vector<float>& weights) {
  InqWeights out;
  out.codes.assign(weights.size(), kCodeZero);
  double max_abs = 0.0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i])) {
      throw InputError("tf2 INQ: weight " + std::to_string(i) + " is not finite");
    }
    max_abs = std::fmax(max_abs, std::fabs(static_cast<double>(weights[i])));
  }
  if (max_abs == 0.0) return out;
  const int max_exp = inq_exponent(max_abs);
  out.min_exp = max_exp - (kExpRange - 1);
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double w = weights[i];
    if (w == 0.0) continue;
    const int e = inq_exponent(std::fabs(w));
    if (e < out.min_exp) continue;  // below the seven kept magnitudes
    const int idx = e - out.min_exp;
    out.codes[i] = static_cast<uint8_t>(w < 0 ? idx : 8 + idx);
  }
  return out;
}

CodeFields decode_code(uint8_t code) {
  if (code >= kCodeInvalid) {
    throw InputError("tf2 weight code " + std::to_string(code) + " is invalid (1111 or wider than 4 bits)");
  }
  if (code == kCodeZero) return {true, false, 0};
  if (code < kCodeZero) return {false, true, code};
  return {false, false, code - 8};
}

double inq_code_value(uint8_t code, int min_exp) {
  const CodeFields f = decode_code(code);
  if (f.zero) return 0.0;
  const double mag = std::ldexp(1.0, min_exp + f.index);
  return f.negative ? -mag : mag;
}

}  // namespace cosim::tf2
