// In-place edits of .tflite bytes, for reading an intermediate tensor out of
// an external runtime: the subgraph's output entry is an int32 in the
// flatbuffer, so repointing it changes four bytes and nothing else (no JSON
// round trip, no float re-encoding).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tflite/model.hpp"

namespace cosim::tflite {

// A copy of `bytes` (the file `model` was parsed from) whose subgraph-0
// output `slot` is tensor `tensor`. InputError when the slot or the tensor
// index is out of range.
std::vector<uint8_t> repoint_output(const std::vector<uint8_t>& bytes, const Model& model, std::size_t slot,
                                    int32_t tensor);

std::vector<uint8_t> read_file_bytes(const std::string& path);

}  // namespace cosim::tflite
