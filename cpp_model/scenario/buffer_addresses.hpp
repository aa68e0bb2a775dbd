// The DRAM addresses of an op's buffers, from a scenario's `addresses` map:
// the one check every DRAM-to-DRAM op makes before it lays its tensors out.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.hpp"

namespace cosim::scenario {

// The addresses under sc["addresses"][key] for `keys`, the inputs first and
// the output last, each buffer `bytes` long: each must be `align`-byte
// aligned and end within `dram_bytes`, and the output must not overlap an
// input; otherwise that key's one-line InputError.
std::vector<uint64_t> buffer_addresses(const Scenario& sc, const std::vector<std::string>& keys, uint64_t bytes,
                                       uint64_t align, uint64_t dram_bytes);

// The schema of that map: each key a 32-bit address, by default the text
// paired with it, e.g. {{"src", "0x1000"}, {"dst", "0x100000"}}.
Schema buffer_addresses_schema(const std::vector<std::pair<std::string, std::string>>& defaults);

}  // namespace cosim::scenario
