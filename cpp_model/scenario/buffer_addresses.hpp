// The DRAM addresses of an op's buffers, from a scenario's `addresses` map:
// the one check every DRAM-to-DRAM op makes before it lays its tensors out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"

namespace cosim::scenario {

// The addresses under sc["addresses"][key] for `keys`, the inputs first and
// the output last, each buffer `bytes` long: each must be `align`-byte
// aligned and end within `dram_bytes`, and the output must not overlap an
// input; otherwise that key's one-line InputError.
std::vector<uint64_t> buffer_addresses(const Scenario& sc, const std::vector<std::string>& keys, uint64_t bytes,
                                       uint64_t align, uint64_t dram_bytes);

}  // namespace cosim::scenario
