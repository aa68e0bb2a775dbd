// Four 4-bit weight codes per 16-bit word, least-significant nibble first,
// in OIHW order (the compressed model is 1/8 of its float size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cosim::tf2 {

// Packs codes (each 0..14); a tail shorter than four is padded with the zero
// code 0111. Throws InputError on an invalid code, naming its index.
std::vector<uint16_t> pack_codes(const std::vector<uint8_t>& codes);

// Unpacks `count` codes and rejects 1111 with an InputError naming the code
// index and word (`what` names the source, e.g. a file or a layer).
std::vector<uint8_t> unpack_codes(const std::vector<uint16_t>& words, std::size_t count,
                                  const std::string& what = "packed weights");

// Little-endian byte view of packed words (the DRAM and file format).
std::vector<uint8_t> words_to_bytes(const std::vector<uint16_t>& words);

}  // namespace cosim::tf2
