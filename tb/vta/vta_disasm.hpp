// `cosim disasm` for VTA: the instruction streams a run executed, read back
// from its trace (one section per start of the core: per fused group of
// layers for models), or a raw program (an insn.bin file, or a folder
// holding one).
#pragma once

#include <ostream>
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace cosim::tb::vta {

// One start of the core in a trace: its index, the checks the run recorded
// for it (config vta_run<k>_check: the fused layers of a model), and the
// instruction stream as the core fetches it then (empty with `missing` set
// when the trace never loaded those bytes).
struct StartedProgram {
  int run = 0;
  std::string checks;  // "op00_conv2d op01_conv2d", or "" for a single op
  uint64_t insn_addr = 0, insn_count = 0;
  std::vector<uint8_t> insn_bytes;
  bool missing = false;
};
std::vector<StartedProgram> started_programs(const trace::Trace& tr);

// Every stream the trace starts the core on: the DRAM image its mem_load
// steps built up to that start, at the INSN_ADDR / INSN_COUNT it wrote.
// InputError when a stream lies outside everything the trace loaded.
void disassemble_trace(const trace::Trace& tr, std::ostream& os);
// An insn.bin file, or a raw program folder (insn.bin beside dram.bin):
// false when `path` is neither.
bool disassemble_raw(const std::string& path, std::ostream& os);

}  // namespace cosim::tb::vta
