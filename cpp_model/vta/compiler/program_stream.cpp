#include "vta/compiler/program_stream.hpp"

#include <array>
#include <stdexcept>

namespace cosim::vta {

namespace {

bool reads_inp_wgt(const Insn& insn) {
  const auto* g = std::get_if<GemmInsn>(&insn);
  return g != nullptr && !g->reset;
}

}  // namespace

std::string why_not_followable(const CompiledProgram& p) {
  if (p.insns.empty() || opcode_of(p.insns.back()) != Opcode::kFinish) return "it does not end with FINISH";
  // Pushes minus pops per queue, and whether a compute->load push follows
  // the last INP/WGT-reading GEMM.
  std::array<long, 4> balance{};
  bool released = true;
  for (const Insn& insn : p.insns) {
    const DepFlags& d = dep_of(insn);
    const Engine e = engine_of(insn);
    for (const bool prev : {true, false}) {
      const int popped = (prev ? d.pop_prev : d.pop_next) ? pop_queue(e, prev) : -1;
      const int pushed = (prev ? d.push_prev : d.push_next) ? push_queue(e, prev) : -1;
      if (popped >= 0) --balance[static_cast<std::size_t>(popped)];
      if (pushed >= 0) ++balance[static_cast<std::size_t>(pushed)];
    }
    if (reads_inp_wgt(insn)) released = false;
    if (e == Engine::kCompute && d.push_prev) released = true;
  }
  for (int q = 0; q < 4; ++q) {
    if (balance[static_cast<std::size_t>(q)] != 0)
      return "it leaves " + std::to_string(balance[static_cast<std::size_t>(q)]) + " " +
             queue_name(static_cast<Queue>(q)) + " token(s) unbalanced";
  }
  if (!released) return "no compute->load token follows its last GEMM";
  return "";
}

std::vector<Insn> link_stream(const std::vector<const CompiledProgram*>& programs) {
  std::vector<Insn> out;
  for (std::size_t k = 0; k < programs.size(); ++k) {
    const CompiledProgram& p = *programs[k];
    out.insert(out.end(), p.insns.begin(), p.insns.end());
    if (k + 1 == programs.size()) break;
    const std::string why = why_not_followable(p);
    if (!why.empty())
      throw std::logic_error("VTA stream: program " + std::to_string(k) + " (" + p.op + ") cannot be followed: " + why);
    MemInsn sync;  // a COMPUTE no-op (LOAD UOP of size 0) with FINISH's pops
    sync.opcode = Opcode::kLoad;
    sync.mem_type = MemType::kUop;
    sync.x_size = 0;
    sync.dep = dep_of(out.back());
    out.back() = sync;
  }
  return out;
}

}  // namespace cosim::vta
