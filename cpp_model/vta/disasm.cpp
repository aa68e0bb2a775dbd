#include "vta/disasm.hpp"

#include <cstdio>
#include <sstream>

namespace cosim::vta {

namespace {

void put_loop(std::ostringstream& os, const LoopNest& l) {
  os << " uop=[" << l.uop_bgn << "," << l.uop_end << ") iter_out=" << l.iter_out << " iter_in=" << l.iter_in
     << " dst_factor=" << l.dst_factor_out << "," << l.dst_factor_in << " src_factor=" << l.src_factor_out << ","
     << l.src_factor_in;
}

std::string hex128(const InsnWord& w) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "0x%016llx%016llx", static_cast<unsigned long long>(w.w[1]),
                static_cast<unsigned long long>(w.w[0]));
  return buf;
}

}  // namespace

std::string dep_string(const DepFlags& d) {
  std::string s;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!s.empty()) s += ' ';
    s += name;
  };
  add(d.pop_prev, "pop_prev");
  add(d.pop_next, "pop_next");
  add(d.push_prev, "push_prev");
  add(d.push_next, "push_next");
  return s.empty() ? "-" : s;
}

std::string disassemble(const Insn& insn) {
  std::ostringstream os;
  if (const auto* m = std::get_if<MemInsn>(&insn)) {
    os << opcode_name(m->opcode) << ' ' << mem_type_name(m->mem_type) << " sram=" << m->sram_base
       << " dram=" << m->dram_base << " y_size=" << m->y_size << " x_size=" << m->x_size
       << " x_stride=" << m->x_stride << " y_pad=" << unsigned{m->y_pad_0} << "," << unsigned{m->y_pad_1}
       << " x_pad=" << unsigned{m->x_pad_0} << "," << unsigned{m->x_pad_1};
    if (m->x_size == 0) os << " (sync)";
  } else if (const auto* g = std::get_if<GemmInsn>(&insn)) {
    os << "GEMM" << (g->reset ? " reset" : "");
    put_loop(os, g->loop);
    os << " wgt_factor=" << g->wgt_factor_out << "," << g->wgt_factor_in;
  } else if (const auto* a = std::get_if<AluInsn>(&insn)) {
    os << "ALU " << alu_op_name(a->op);
    if (a->use_imm) {
      os << " imm=" << a->imm;
    } else {
      os << " reg";
    }
    if (a->reset) os << " reset";
    put_loop(os, a->loop);
  } else {
    os << "FINISH";
  }
  os << " | " << dep_string(dep_of(insn));
  return os.str();
}

std::string disassemble(const InsnWord& word) {
  unsigned op = raw_opcode(word);
  if (op > 4) return "UNDEFINED opcode=" + std::to_string(op) + " raw=" + hex128(word);
  return disassemble(decode(word));
}

std::string disassemble(const Uop& uop) {
  return "uop dst=" + std::to_string(uop.dst) + " src=" + std::to_string(uop.src) + " wgt=" + std::to_string(uop.wgt);
}

std::string disassemble_stream(const std::vector<uint8_t>& insn_bytes, std::size_t first_index) {
  std::vector<InsnWord> words = words_from_bytes(insn_bytes);
  std::ostringstream os;
  for (std::size_t k = 0; k < words.size(); ++k) {
    const std::size_t i = first_index + k;
    os << (i < 10 ? "   " : i < 100 ? "  " : i < 1000 ? " " : "") << i << ": " << disassemble(words[k]) << '\n';
  }
  return os.str();
}

}  // namespace cosim::vta
