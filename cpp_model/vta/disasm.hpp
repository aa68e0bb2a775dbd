// Human-readable one-line disassembly of VTA instructions and uops.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vta/isa.hpp"

namespace cosim::vta {

// e.g. "LOAD INP sram=16 dram=256 y_size=2 x_size=4 x_stride=4 y_pad=1,0 x_pad=0,2 | pop_next push_next"
// Every field is printed; the dep flags follow '|' ("-" when none).
std::string disassemble(const Insn& insn);
// Also handles undefined opcodes ("UNDEFINED opcode=5 raw=0x...").
std::string disassemble(const InsnWord& word);
std::string disassemble(const Uop& uop);  // "uop dst=.. src=.. wgt=.."
std::string dep_string(const DepFlags& dep);

// One line per instruction, "  <index>: <text>", the first numbered
// `first_index` (a chunk of a longer stream). Throws cosim::InputError when
// the size is not a multiple of 16.
std::string disassemble_stream(const std::vector<uint8_t>& insn_bytes, std::size_t first_index = 0);

}  // namespace cosim::vta
