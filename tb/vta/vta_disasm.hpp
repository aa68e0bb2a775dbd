// `cosim disasm` for VTA: the instruction streams a run executed, read back
// from its trace (one section per start of the core: per fused group of
// layers for models), or a raw program (an insn.bin file, or a folder
// holding one).
#pragma once

#include <ostream>
#include <string>

#include "trace/trace.hpp"

namespace cosim::tb::vta {

// Every stream the trace starts the core on: the DRAM image its mem_load
// steps built up to that start, at the INSN_ADDR / INSN_COUNT it wrote.
// InputError when a stream lies outside everything the trace loaded.
void disassemble_trace(const trace::Trace& tr, std::ostream& os);
// An insn.bin file, or a raw program folder (insn.bin beside dram.bin):
// false when `path` is neither.
bool disassemble_raw(const std::string& path, std::ostream& os);

}  // namespace cosim::tb::vta
