// INQ power-of-two weight compression (TF2 Transform Kit): every weight
// becomes 0 or +-2^e with e in [min_exp, min_exp + 6], stored as a 4-bit code.
#pragma once

#include <cstdint>
#include <vector>

namespace cosim::tf2 {

// 4-bit weight codes (spec table): 0..6 negative, 7 zero, 8..14 positive,
// 15 invalid.
constexpr uint8_t kCodeZero = 7;
constexpr uint8_t kCodeInvalid = 15;
constexpr int kExpRange = 7;  // seven magnitudes per layer

struct InqWeights {
  int min_exp = 0;             // exponent of code 0 / code 8
  std::vector<uint8_t> codes;  // one code per weight, same order as the input
};

// floor(log2(4/3 * |w|)) computed exactly: the threshold between 2^e and
// 2^(e+1) sits at 1.5 * 2^e (a weight at the threshold rounds up).
// |w| must be finite and non-zero.
int inq_exponent(double abs_w);

// Compresses one layer. All-zero weights give min_exp = 0 and zero codes.
// Non-finite weights throw cosim::InputError naming the index.
InqWeights inq_compress(const std::vector<float>& weights);

// The value a code stands for (0 for the zero code). Throws InputError for 15.
double inq_code_value(uint8_t code, int min_exp);

// Decoded fields of a valid code.
struct CodeFields {
  bool zero;
  bool negative;
  int index;  // exponent offset from min_exp, 0..6 (0 when zero)
};
CodeFields decode_code(uint8_t code);  // throws InputError for 15 and > 15

}  // namespace cosim::tf2
