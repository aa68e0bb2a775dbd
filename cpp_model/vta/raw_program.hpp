// Raw VTA programs on disk: an instruction stream plus a flat DRAM image
// (byte 0 = address 0) in which the stream sits at a byte address.
//
// Directory layout:
//   insn.bin   the instruction stream, 16 bytes per instruction
//   dram.bin   the DRAM image (the stream is (re)written at insn_addr)
//   meta       text lines "key value": insn_addr (byte address, decimal or
//              0x hex), optional insn_count (must match insn.bin), optional
//              max_cycles (the replay's cycle budget, for the RTL and the
//              functional model's work bound; default the caller's)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vta/functional_model.hpp"

namespace cosim::vta {

// The largest DRAM image (and so the highest instruction address + stream)
// a raw program may describe: the testbench's DRAM (TbConfig::dram_size,
// 64 MiB), which no replayed image can exceed anyway. Checked before anything
// is allocated, so a crafted size or address is one clear error and at most
// this much memory, never an allocation failure.
constexpr uint64_t kMaxRawImageBytes = uint64_t{64} << 20;

struct RawProgram {
  std::vector<uint8_t> dram;  // holds the instruction stream at insn_addr
  uint64_t insn_addr = 0;
  uint32_t insn_count = 0;
  uint64_t max_cycles = 0;  // meta's max_cycles; 0 = not given
};

// Places `insn_bytes` into `dram` at `insn_addr` (growing the image when it
// ends there). Throws cosim::InputError for a size that is not a multiple of
// 16, an address not aligned to 16, or a stream ending past kMaxRawImageBytes.
RawProgram make_raw_program(const std::vector<uint8_t>& insn_bytes, std::vector<uint8_t> dram, uint64_t insn_addr);

// File helpers; cosim::InputError names the file on failure. A file larger
// than `max_bytes` is refused before it is read.
std::vector<uint8_t> read_binary_file(const std::string& path, uint64_t max_bytes = kMaxRawImageBytes);
void write_binary_file(const std::string& path, const std::vector<uint8_t>& bytes);

RawProgram read_raw_program_dir(const std::string& dir);
void write_raw_program_dir(const std::string& dir, const RawProgram& program);

// Runs the functional model; program.dram becomes the final DRAM image.
ModelStats run_raw_program(RawProgram& program, const ModelOptions& opt = {});

// Parses "123" or "0x7b"; throws cosim::InputError naming `what`.
uint64_t parse_address(const std::string& text, const std::string& what);

}  // namespace cosim::vta
