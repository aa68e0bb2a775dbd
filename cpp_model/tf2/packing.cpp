#include "tf2/packing.hpp"

#include "common/error.hpp"
#include "tf2/inq.hpp"

namespace cosim::tf2 {

std::vector<uint16_t> pack_codes(const std::vector<uint8_t>& codes) {
  std::vector<uint16_t> words((codes.size() + 3) / 4, 0);
  for (std::size_t i = 0; i < words.size() * 4; ++i) {
    uint8_t c = kCodeZero;
    if (i < codes.size()) {
      c = codes[i];
      if (c >= kCodeInvalid) {
        throw InputError("tf2 pack: code " + std::to_string(c) + " at index " + std::to_string(i) +
                         " is not a valid 4-bit weight code (0..14)");
      }
    }
    words[i / 4] = static_cast<uint16_t>(words[i / 4] | (c << (4 * (i % 4))));
  }
  return words;
}

std::vector<uint8_t> unpack_codes(const std::vector<uint16_t>& words, std::size_t count,
                                  const std::string& what) {
  if (count > words.size() * 4) {
    throw InputError(what + ": " + std::to_string(count) + " codes requested but only " +
                     std::to_string(words.size()) + " words present");
  }
  std::vector<uint8_t> codes(count);
  for (std::size_t i = 0; i < count; ++i) {
    const uint8_t c = static_cast<uint8_t>((words[i / 4] >> (4 * (i % 4))) & 0xF);
    if (c == kCodeInvalid) {
      throw InputError(what + ": invalid weight code 1111 at index " + std::to_string(i) +
                       " (word " + std::to_string(i / 4) + ", nibble " + std::to_string(i % 4) + ")");
    }
    codes[i] = c;
  }
  return codes;
}

std::vector<uint8_t> words_to_bytes(const std::vector<uint16_t>& words) {
  std::vector<uint8_t> b(words.size() * 2);
  for (std::size_t i = 0; i < words.size(); ++i) {
    b[2 * i] = static_cast<uint8_t>(words[i] & 0xFF);
    b[2 * i + 1] = static_cast<uint8_t>(words[i] >> 8);
  }
  return b;
}

}  // namespace cosim::tf2
