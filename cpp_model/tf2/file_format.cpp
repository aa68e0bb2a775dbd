#include "tf2/file_format.hpp"

#include "common/error.hpp"
#include "tf2/inq.hpp"

namespace cosim::tf2 {

namespace {

constexpr uint16_t kZeroWord = 0x7777;  // four zero codes: unused nibbles stay 0111

// Where code (o, c, ky, kx) sits: its word within the output channel and
// its nibble within the word.
struct Slot {
  std::size_t word;
  unsigned nibble;
};

void check_shape(int c_out, int c_in, int k) {
  if (k < 1 || k > 3) {
    throw InputError("TF2 weight file: kernel " + std::to_string(k) + "x" + std::to_string(k) +
                     " has no packing in TF2's format (1x1, 2x2 or 3x3)");
  }
  if (c_out < 1 || c_in < 1) throw InputError("TF2 weight file: channel counts must be >= 1");
}

std::size_t words_per_channel(int c_in, int k) {
  return k == 1 ? static_cast<std::size_t>((c_in + 3) / 4) : static_cast<std::size_t>(c_in) * k;
}

Slot slot(int c, int ky, int kx, int k) {
  if (k == 1) return {static_cast<std::size_t>(c / 4), static_cast<unsigned>(c % 4)};
  return {static_cast<std::size_t>(c) * k + ky, static_cast<unsigned>(kx)};
}

}  // namespace

std::size_t tf2_weight_words(int c_out, int c_in, int k) {
  check_shape(c_out, c_in, k);
  return static_cast<std::size_t>(c_out) * words_per_channel(c_in, k);
}

std::vector<uint16_t> export_tf2_weights(const std::vector<uint8_t>& codes, int c_out, int c_in, int k) {
  const std::size_t n = tf2_weight_words(c_out, c_in, k);
  const std::size_t per = words_per_channel(c_in, k);
  if (codes.size() != static_cast<std::size_t>(c_out) * c_in * k * k) {
    throw InputError("TF2 weight file: " + std::to_string(codes.size()) + " codes for " + std::to_string(c_out) +
                     "x" + std::to_string(c_in) + "x" + std::to_string(k) + "x" + std::to_string(k));
  }
  std::vector<uint16_t> words(n, kZeroWord);
  std::size_t i = 0;
  for (int o = 0; o < c_out; ++o)
    for (int c = 0; c < c_in; ++c)
      for (int ky = 0; ky < k; ++ky)
        for (int kx = 0; kx < k; ++kx, ++i) {
          if (codes[i] >= kCodeInvalid) {
            throw InputError("TF2 weight file: invalid weight code " + std::to_string(codes[i]) + " at index " +
                             std::to_string(i));
          }
          const Slot s = slot(c, ky, kx, k);
          uint16_t& w = words[o * per + s.word];
          w = static_cast<uint16_t>((w & ~(0xFu << (4 * s.nibble))) | (codes[i] << (4 * s.nibble)));
        }
  return words;
}

std::vector<uint8_t> import_tf2_weights(const std::vector<uint16_t>& words, int c_out, int c_in, int k,
                                        const std::string& what) {
  const std::size_t n = tf2_weight_words(c_out, c_in, k);
  const std::size_t per = words_per_channel(c_in, k);
  if (words.size() != n) {
    throw InputError(what + ": " + std::to_string(words.size()) + " words, expected " + std::to_string(n) + " for " +
                     std::to_string(c_out) + "x" + std::to_string(c_in) + "x" + std::to_string(k) + "x" +
                     std::to_string(k));
  }
  std::vector<uint8_t> codes;
  codes.reserve(static_cast<std::size_t>(c_out) * c_in * k * k);
  for (int o = 0; o < c_out; ++o)
    for (int c = 0; c < c_in; ++c)
      for (int ky = 0; ky < k; ++ky)
        for (int kx = 0; kx < k; ++kx) {
          const Slot s = slot(c, ky, kx, k);
          const auto code = static_cast<uint8_t>((words[o * per + s.word] >> (4 * s.nibble)) & 0xF);
          if (code >= kCodeInvalid) {
            throw InputError(what + ": invalid weight code 1111 at output channel " + std::to_string(o) +
                             ", input channel " + std::to_string(c) + ", row " + std::to_string(ky) + ", column " +
                             std::to_string(kx) + " (word " + std::to_string(o * per + s.word) + ")");
          }
          codes.push_back(code);
        }
  return codes;
}

}  // namespace cosim::tf2
