// Emits a TfliteRequantProgram as VTA ALU instructions over a block of ACC
// entries: one instruction per step, all its micro-ops in one kernel.
#pragma once

#include <cstdint>
#include <vector>

#include "vta/program_builder.hpp"
#include "vta/compiler/tflite_requant_program.hpp"

namespace cosim::vta {

// Where the operands sit in ACC for one pass. The accumulators and each
// temporary are laid out alike (the same loops step them); a per-channel
// vector j sits at `vectors + j`, stepped by the loops' src_factor (the
// parameter block stride, or 0 when every entry uses the same vector entry).
struct RqPlacement {
  uint32_t acc = 0;             // first accumulator entry
  std::vector<uint32_t> temps;  // first entry of each temporary
  uint32_t vectors = 0;         // entry of vector 0 for the first block
  Loop outer, inner;            // extents, entry steps (dst_factor), vector steps (src_factor)
};

// Returns the ALU uop executions emitted (steps x outer x inner extents).
// Throws std::logic_error when fewer temporaries are placed than the program uses.
uint64_t emit_tflite_requant(ProgramBuilder& b, const TfliteRequantProgram& p, const RqPlacement& at);

}  // namespace cosim::vta
