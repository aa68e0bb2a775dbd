// TF2's own weight-file packing (spec/tf2.md, "Weight file format"), next to
// this project's DRAM packing (packing.hpp). The 4-bit codes of one output
// channel are packed per kernel row into 16-bit words, least-significant
// nibble first: one word per kernel row for 3x3 (3 codes) and 2x2 (2 codes)
// kernels; a 1x1 kernel row is one code, so 4 consecutive input channels
// share a word. Within an output channel: input channels in order, then
// kernel rows; every output channel starts a new word. Unused nibbles are
// written as the zero code 0111 and ignored when reading.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cosim::tf2 {

// Words of a layer's weights in TF2's format; throws InputError for a kernel
// other than 1x1, 2x2 or 3x3 or a non-positive channel count.
std::size_t tf2_weight_words(int c_out, int c_in, int k);

// OIHW codes (each 0..14) -> TF2 words. Throws InputError on an invalid code
// or a code count that does not match the shape.
std::vector<uint16_t> export_tf2_weights(const std::vector<uint8_t>& codes, int c_out, int c_in, int k);

// TF2 words -> OIHW codes. Throws InputError (naming `what`) on a word count
// that does not match the shape or a 1111 code, with its position.
std::vector<uint8_t> import_tf2_weights(const std::vector<uint16_t>& words, int c_out, int c_in, int k,
                                        const std::string& what = "TF2 weight file");

}  // namespace cosim::tf2
