// A recorded VTA run (the trace `cosim run` writes) as a raw program for
// BareDriver: the DRAM image the trace loads, the instruction address and
// count it writes to the core's registers, and the output check it ends with.
// Lets the bare loop and the TLM testbench run the same program side by side.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dut/vta_regs.hpp"
#include "trace/trace.hpp"

namespace cosim::tb::vta {

struct TraceProgram {
  std::vector<uint8_t> dram;
  uint32_t insn_addr = 0, insn_count = 0;
  const cosim::trace::Step* check = nullptr;  // the trace's last mem_check, if any (points into the trace)
};

inline TraceProgram program_of_trace(const cosim::trace::Trace& tr) {
  namespace trace = cosim::trace;
  TraceProgram p;
  for (const auto& s : tr.steps) {
    if (s.op == trace::Op::kMemLoad) {
      if (p.dram.size() < s.addr + s.data.size()) p.dram.resize(s.addr + s.data.size());
      std::copy(s.data.begin(), s.data.end(), p.dram.begin() + static_cast<std::ptrdiff_t>(s.addr));
    }
    if (s.op == trace::Op::kRegWrite && s.addr == cosim::vta::regs::kInsnCount) p.insn_count = static_cast<uint32_t>(s.value);
    if (s.op == trace::Op::kRegWrite && s.addr == cosim::vta::regs::kInsnAddr) p.insn_addr = static_cast<uint32_t>(s.value);
    if (s.op == trace::Op::kMemCheck) p.check = &s;
  }
  return p;
}

}  // namespace cosim::tb::vta
