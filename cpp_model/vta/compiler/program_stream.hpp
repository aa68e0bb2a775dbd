// Compiled programs run back to back as one instruction stream, so that a
// program's loads overlap the tail of the one before (e.g. the layers of a
// network between two host steps).
//
// Each program but the last gives up its FINISH: it becomes a COMPUTE no-op
// with the same token pops, so the COMPUTE engine still waits there for the
// program's last LOAD and STORE. For the next program to start on a clean
// core, a program that is followed must
// - end with FINISH and leave all four token queues empty (as many pushes
//   as pops on each), and
// - push a compute->load token after its last GEMM: its LOAD engine then
//   takes that token before its last instruction, so the next program's
//   INP/WGT loads (which follow on the LOAD engine) never overwrite data a
//   GEMM still reads. ACC and UOP writes are COMPUTE's own, in order after
//   the no-op, i.e. after the program's last STORE.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vta/isa.hpp"
#include "vta/compiler/compiled_program.hpp"

namespace cosim::vta {

// Why `p` cannot be followed by another program in one stream; empty when it can.
std::string why_not_followable(const CompiledProgram& p);

// The instructions of `programs` as one stream (see above). std::logic_error
// naming the program when one but the last cannot be followed.
std::vector<Insn> link_stream(const std::vector<const CompiledProgram*>& programs);

}  // namespace cosim::vta
