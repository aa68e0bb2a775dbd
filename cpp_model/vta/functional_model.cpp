#include "vta/functional_model.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <random>
#include <sstream>

#include "common/error.hpp"
#include "vta/disasm.hpp"

namespace cosim::vta {

namespace {

std::string where(std::size_t index, const Insn& insn) {
  std::string s = "VTA instruction " + std::to_string(index) + " (" + opcode_name(opcode_of(insn));
  if (const auto* m = std::get_if<MemInsn>(&insn)) s += std::string(" ") + mem_type_name(m->mem_type);
  if (const auto* a = std::get_if<AluInsn>(&insn)) s += std::string(" ") + alu_op_name(a->op);
  return s + ")";
}

const char* buffer_name(MemType t) {
  switch (t) {
    case MemType::kUop: return "UOP";
    case MemType::kWgt: return "WGT";
    case MemType::kInp: return "INP";
    default: return "ACC";
  }
}

// Checks a DRAM byte range and throws with the instruction context.
void check_dram(const std::vector<uint8_t>& dram, uint64_t addr, uint64_t len, std::size_t index,
                const Insn& insn) {
  if (addr > dram.size() || len > dram.size() - addr) {
    throw InputError(where(index, insn) + ": DRAM bytes [" + std::to_string(addr) + ", " +
                     std::to_string(addr + len) + ") outside the DRAM image of " + std::to_string(dram.size()) +
                     " bytes");
  }
}

int32_t read_le32(const uint8_t* p) {
  return static_cast<int32_t>(uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) |
                              (uint32_t{p[3]} << 24));
}

// Writes one LOADed element (or zeros when src == nullptr) into SRAM entry idx.
void write_element(VtaSram& s, MemType t, uint64_t idx, const uint8_t* src) {
  switch (t) {
    case MemType::kUop:
      s.uop[idx] = src ? decode_uop(static_cast<uint32_t>(read_le32(src))) : Uop{};
      break;
    case MemType::kWgt:
      for (std::size_t b = 0; b < kWgtElemBytes; ++b) s.wgt[idx * kWgtElemBytes + b] = src ? static_cast<int8_t>(src[b]) : 0;
      break;
    case MemType::kInp:
      for (std::size_t b = 0; b < kInpElemBytes; ++b) s.inp[idx * kInpElemBytes + b] = src ? static_cast<int8_t>(src[b]) : 0;
      break;
    case MemType::kAcc:
      for (int l = 0; l < kBlock; ++l) s.acc[idx * kBlock + l] = src ? read_le32(src + 4 * l) : 0;
      break;
    case MemType::kAcc8:  // int8 sign-extended into the int32 lanes
      for (int l = 0; l < kBlock; ++l) s.acc[idx * kBlock + l] = src ? static_cast<int8_t>(src[l]) : 0;
      break;
    default:
      break;
  }
}

void exec_load(const MemInsn& m, std::size_t index, const Insn& insn, VtaSram& s, std::vector<uint8_t>& dram,
               ModelStats& st) {
  if (!is_defined(m.mem_type) || m.mem_type == MemType::kOut) {
    throw InputError(where(index, insn) + ": memory_type " + std::to_string(static_cast<unsigned>(m.mem_type)) +
                     " cannot be loaded (expected UOP, WGT, INP, ACC or ACC_8BIT)");
  }
  ++st.loads_by_type[static_cast<unsigned>(m.mem_type)];
  if (m.x_size == 0) {  // pure synchronisation
    ++st.syncs;
    return;
  }
  const uint64_t eb = dram_element_bytes(m.mem_type);
  const uint64_t depth = sram_depth(m.mem_type);
  const uint64_t xt = uint64_t{m.x_pad_0} + m.x_size + m.x_pad_1;
  const uint64_t rows = uint64_t{m.y_pad_0} + m.y_size + m.y_pad_1;
  const uint64_t end = m.sram_base + rows * xt;
  if (end > depth) {
    throw InputError(where(index, insn) + ": SRAM entries [" + std::to_string(m.sram_base) + ", " +
                     std::to_string(end) + ") exceed the " + buffer_name(m.mem_type) + " buffer depth " +
                     std::to_string(depth));
  }
  for (uint64_t y = 0; y < m.y_size; ++y) {
    check_dram(dram, (uint64_t{m.dram_base} + y * m.x_stride) * eb, m.x_size * eb, index, insn);
  }
  uint64_t idx = m.sram_base;
  for (uint64_t k = 0; k < uint64_t{m.y_pad_0} * xt; ++k) write_element(s, m.mem_type, idx++, nullptr);
  for (uint64_t y = 0; y < m.y_size; ++y) {
    for (unsigned k = 0; k < m.x_pad_0; ++k) write_element(s, m.mem_type, idx++, nullptr);
    const uint64_t row = (uint64_t{m.dram_base} + y * m.x_stride) * eb;
    for (uint64_t x = 0; x < m.x_size; ++x) write_element(s, m.mem_type, idx++, &dram[row + x * eb]);
    for (unsigned k = 0; k < m.x_pad_1; ++k) write_element(s, m.mem_type, idx++, nullptr);
  }
  for (uint64_t k = 0; k < uint64_t{m.y_pad_1} * xt; ++k) write_element(s, m.mem_type, idx++, nullptr);
  st.load_bytes += uint64_t{m.y_size} * m.x_size * eb;
}

void exec_store(const MemInsn& m, std::size_t index, const Insn& insn, VtaSram& s, std::vector<uint8_t>& dram,
                ModelStats& st) {
  if (m.mem_type != MemType::kOut) {
    throw InputError(where(index, insn) + ": memory_type " + std::to_string(static_cast<unsigned>(m.mem_type)) +
                     " cannot be stored (expected OUT)");
  }
  if (m.x_size == 0) {
    ++st.syncs;
    return;
  }
  const uint64_t end = m.sram_base + uint64_t{m.y_size} * m.x_size;
  if (end > kAccDepth) {
    throw InputError(where(index, insn) + ": SRAM entries [" + std::to_string(m.sram_base) + ", " +
                     std::to_string(end) + ") exceed the ACC buffer depth " + std::to_string(kAccDepth));
  }
  for (uint64_t y = 0; y < m.y_size; ++y) {
    check_dram(dram, (uint64_t{m.dram_base} + y * m.x_stride) * kOutElemBytes, m.x_size * kOutElemBytes, index, insn);
  }
  // Padding fields are not used by STORE.
  for (uint64_t y = 0; y < m.y_size; ++y) {
    for (uint64_t x = 0; x < m.x_size; ++x) {
      const uint64_t acc_idx = m.sram_base + y * m.x_size + x;
      uint8_t* dst = &dram[(uint64_t{m.dram_base} + y * m.x_stride + x) * kOutElemBytes];
      for (int l = 0; l < kBlock; ++l) dst[l] = static_cast<uint8_t>(s.acc[acc_idx * kBlock + l]);
    }
  }
  st.store_bytes += uint64_t{m.y_size} * m.x_size * kOutElemBytes;
}

uint64_t checked_index(uint64_t v, uint64_t depth, const char* what, uint64_t i, uint64_t j, uint64_t u,
                       std::size_t index, const Insn& insn) {
  if (v >= depth) {
    throw InputError(where(index, insn) + ": " + what + " index " + std::to_string(v) + " at i=" +
                     std::to_string(i) + " j=" + std::to_string(j) + " uop=" + std::to_string(u) +
                     " is out of range (depth " + std::to_string(depth) + ")");
  }
  return v;
}

void check_uop_range(const LoopNest& l, std::size_t index, const Insn& insn) {
  if (l.uop_bgn < l.uop_end && l.uop_end > kUopDepth) {
    throw InputError(where(index, insn) + ": uop range [" + std::to_string(l.uop_bgn) + ", " +
                     std::to_string(l.uop_end) + ") exceeds the UOP buffer depth " + std::to_string(kUopDepth));
  }
}

// The loop nest of a GEMM / ALU instruction: visit(i, j, u, uop) for every
// micro-op execution, in the spec's order, after the uop range check.
template <class Visit>
void for_each_uop(const LoopNest& l, std::size_t index, const Insn& insn, const VtaSram& s, Visit visit) {
  check_uop_range(l, index, insn);
  if (l.uop_bgn >= l.uop_end) return;  // no uop: the loop nest does nothing
  for (uint64_t i = 0; i < l.iter_out; ++i) {
    for (uint64_t j = 0; j < l.iter_in; ++j) {
      for (uint64_t u = l.uop_bgn; u < l.uop_end; ++u) visit(i, j, u, s.uop[u]);
    }
  }
}

void exec_gemm(const GemmInsn& g, std::size_t index, const Insn& insn, VtaSram& s, ModelStats& st) {
  const LoopNest& l = g.loop;
  for_each_uop(l, index, insn, s, [&](uint64_t i, uint64_t j, uint64_t u, const Uop& uop) {
    const uint64_t a =
        checked_index(uop.dst + i * l.dst_factor_out + j * l.dst_factor_in, kAccDepth, "acc", i, j, u, index, insn);
    int32_t* acc = &s.acc[a * kBlock];
    if (g.reset) {
      for (int o = 0; o < kBlock; ++o) acc[o] = 0;
      ++st.gemm_resets;
      return;
    }
    const uint64_t x =
        checked_index(uop.src + i * l.src_factor_out + j * l.src_factor_in, kInpDepth, "inp", i, j, u, index, insn);
    const uint64_t w =
        checked_index(uop.wgt + i * g.wgt_factor_out + j * g.wgt_factor_in, kWgtDepth, "wgt", i, j, u, index, insn);
    const int8_t* inp = &s.inp[x * kInpElemBytes];
    const int8_t* wgt = &s.wgt[w * kWgtElemBytes];
    for (int o = 0; o < kBlock; ++o) {
      uint32_t sum = static_cast<uint32_t>(acc[o]);  // wrapping int32 arithmetic
      for (int k = 0; k < kBlock; ++k) {
        sum += static_cast<uint32_t>(int32_t{inp[k]} * int32_t{wgt[o * kBlock + k]});
      }
      acc[o] = static_cast<int32_t>(sum);
    }
    ++st.gemm_uops;
  });
}

int32_t alu_apply(AluOp op, int32_t a, int32_t b) {
  switch (op) {
    case AluOp::kMin: return a < b ? a : b;
    case AluOp::kMax: return a > b ? a : b;
    case AluOp::kAdd: return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
    case AluOp::kMul: return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
    case AluOp::kShr:
      // Amounts of 32 and more are outside the spec; take the natural limit
      // (sign fill for right shifts, zero for left shifts).
      if (b >= 0) return b >= 32 ? (a < 0 ? -1 : 0) : (a >> b);
      if (b <= -32) return 0;
      return static_cast<int32_t>(static_cast<uint32_t>(a) << -b);
  }
  return a;
}

void exec_alu(const AluInsn& al, std::size_t index, const Insn& insn, VtaSram& s, ModelStats& st) {
  if (!is_defined(al.op)) {
    throw InputError(where(index, insn) + ": undefined alu_opcode " + std::to_string(static_cast<unsigned>(al.op)));
  }
  const LoopNest& l = al.loop;
  for_each_uop(l, index, insn, s, [&](uint64_t i, uint64_t j, uint64_t u, const Uop& uop) {
    const uint64_t d =
        checked_index(uop.dst + i * l.dst_factor_out + j * l.dst_factor_in, kAccDepth, "dst", i, j, u, index, insn);
    const uint64_t r =
        checked_index(uop.src + i * l.src_factor_out + j * l.src_factor_in, kAccDepth, "src", i, j, u, index, insn);
    for (int o = 0; o < kBlock; ++o) {
      const int32_t b = al.use_imm ? int32_t{al.imm} : s.acc[r * kBlock + o];
      s.acc[d * kBlock + o] = alu_apply(al.op, s.acc[d * kBlock + o], b);
    }
    ++st.alu_ops;
  });
}

// GEMM / ALU uop executions of one instruction (0 for the others).
uint64_t uop_executions(const Insn& insn) {
  const LoopNest* l = nullptr;
  if (const auto* g = std::get_if<GemmInsn>(&insn)) l = &g->loop;
  if (const auto* a = std::get_if<AluInsn>(&insn)) l = &a->loop;
  if (l == nullptr || l->uop_bgn >= l->uop_end) return 0;
  return uint64_t{l->iter_out} * l->iter_in * (uint64_t{l->uop_end} - l->uop_bgn);  // < 2^42
}

}  // namespace

bool execute_insn(const Insn& insn, std::size_t index, VtaSram& sram, std::vector<uint8_t>& dram,
                  ModelStats& stats) {
  if (const auto* m = std::get_if<MemInsn>(&insn)) {
    if (m->opcode == Opcode::kLoad) {
      ++stats.loads;
      exec_load(*m, index, insn, sram, dram, stats);
    } else {
      ++stats.stores;
      exec_store(*m, index, insn, sram, dram, stats);
    }
  } else if (const auto* g = std::get_if<GemmInsn>(&insn)) {
    ++stats.gemms;
    exec_gemm(*g, index, insn, sram, stats);
  } else if (const auto* a = std::get_if<AluInsn>(&insn)) {
    ++stats.alus;
    exec_alu(*a, index, insn, sram, stats);
  } else {
    ++stats.finishes;
    return true;
  }
  return false;
}

namespace {

// The token queues (Queue indices) the instruction pops on engine `e`, -1
// for a flag the hardware ignores or that is not set.
std::array<int, 2> pops_of(const Insn& insn, Engine e) {
  const DepFlags& d = dep_of(insn);
  return {d.pop_prev ? pop_queue(e, true) : -1, d.pop_next ? pop_queue(e, false) : -1};
}

// The three engines' instruction queues (stream indices, in order) and the
// tokens waiting in the four queues between them.
struct EngineQueues {
  std::array<std::deque<std::size_t>, 3> queues;
  std::array<uint64_t, 4> tokens{};

  explicit EngineQueues(const std::vector<Insn>& insns) {
    for (std::size_t i = 0; i < insns.size(); ++i) queues[static_cast<int>(engine_of(insns[i]))].push_back(i);
  }
  // Engine e's next instruction has the tokens it pops.
  bool ready(const std::vector<Insn>& insns, int e) const {
    for (int q : pops_of(insns[queues[e].front()], static_cast<Engine>(e))) {
      if (q >= 0 && tokens[q] == 0) return false;
    }
    return true;
  }
  void take_tokens(const Insn& insn, Engine e) {
    for (int q : pops_of(insn, e)) {
      if (q >= 0) --tokens[q];
    }
  }
  void give_tokens(const Insn& insn, Engine e) {
    const DepFlags& d = dep_of(insn);
    if (d.push_prev && push_queue(e, true) >= 0) ++tokens[push_queue(e, true)];
    if (d.push_next && push_queue(e, false) >= 0) ++tokens[push_queue(e, false)];
  }
};

// The engine to run next among those whose instruction is ready (-1: none):
// a seeded random one, the first in opt.engine_priority, or the one whose
// instruction comes first in the stream.
int pick_engine(const EngineQueues& eq, const std::vector<Insn>& insns, const ModelOptions& opt,
                std::mt19937_64& rng) {
  // Position in opt.engine_priority (engines it leaves out come last).
  const auto rank = [&opt](int e) {
    const auto it = std::find(opt.engine_priority.begin(), opt.engine_priority.end(), static_cast<Engine>(e));
    return static_cast<std::size_t>(it - opt.engine_priority.begin());
  };
  int pick = -1;
  int runnable = 0;
  for (int e = 0; e < 3; ++e) {
    if (eq.queues[e].empty() || !eq.ready(insns, e)) continue;
    ++runnable;
    if (opt.schedule_seed != 0) {
      if (std::uniform_int_distribution<int>(1, runnable)(rng) == 1) pick = e;  // reservoir choice
    } else if (!opt.engine_priority.empty()) {
      if (pick < 0 || rank(e) < rank(pick)) pick = e;
    } else if (pick < 0 || eq.queues[e].front() < eq.queues[pick].front()) {
      pick = e;
    }
  }
  return pick;
}

// No engine can run: every instruction ran without a FINISH, or a token
// deadlock (each stuck engine, its instruction, the queues it waits on).
[[noreturn]] void throw_stall(const EngineQueues& eq, const std::vector<Insn>& insns, uint64_t executed) {
  bool any = false;
  for (auto& q : eq.queues) any = any || !q.empty();
  if (!any) {
    throw TimeoutError("VTA program: all " + std::to_string(insns.size()) +
                       " instructions ran but none was a FINISH; done is never raised");
  }
  std::ostringstream os;
  os << "VTA deadlock after " << executed << " instructions:";
  for (int e = 0; e < 3; ++e) {
    if (eq.queues[e].empty()) continue;
    const std::size_t idx = eq.queues[e].front();
    os << " " << engine_name(static_cast<Engine>(e)) << " engine stuck at instruction " << idx << " ("
       << disassemble(insns[idx]) << ") waiting on";
    for (int q : pops_of(insns[idx], static_cast<Engine>(e))) {
      if (q >= 0 && eq.tokens[q] == 0) os << " " << queue_name(static_cast<Queue>(q));
    }
    os << " [" << eq.queues[e].size() << " queued];";
  }
  os << " tokens:";
  for (int q = 0; q < 4; ++q) os << " " << queue_name(static_cast<Queue>(q)) << "=" << eq.tokens[q];
  throw TimeoutError(os.str());
}

// The instruction's uop executions, once checked against what is left of
// the work bound `max_uops` after `uops_run`.
uint64_t bounded_uops(const Insn& insn, std::size_t idx, uint64_t max_uops, uint64_t uops_run) {
  const uint64_t uops = uop_executions(insn);
  if (uops > max_uops - uops_run) {
    const LoopNest& l =
        std::holds_alternative<GemmInsn>(insn) ? std::get<GemmInsn>(insn).loop : std::get<AluInsn>(insn).loop;
    throw ModelWorkBoundError(where(idx, insn) + " needs " + std::to_string(uops) + " uop executions (" +
                              std::to_string(l.uop_end - l.uop_bgn) + " uops x " + std::to_string(l.iter_out) +
                              " x " + std::to_string(l.iter_in) + "), which with the " + std::to_string(uops_run) +
                              " run before it exceeds the work bound of " + std::to_string(max_uops) +
                              " uop executions; stopped before running it");
  }
  return uops;
}

}  // namespace

ModelStats run_model(const std::vector<Insn>& insns, std::vector<uint8_t>& dram, const ModelOptions& opt) {
  EngineQueues eq(insns);
  VtaSram sram;
  ModelStats st;
  std::mt19937_64 rng(opt.schedule_seed);
  uint64_t uops_run = 0;  // against opt.max_uops
  while (true) {
    const int pick = pick_engine(eq, insns, opt, rng);
    if (pick < 0) throw_stall(eq, insns, st.executed);
    const std::size_t idx = eq.queues[pick].front();
    eq.queues[pick].pop_front();
    const Insn& insn = insns[idx];
    const Engine eng = static_cast<Engine>(pick);
    if (opt.max_uops != 0) uops_run += bounded_uops(insn, idx, opt.max_uops, uops_run);
    eq.take_tokens(insn, eng);
    const bool finish = opt.data ? execute_insn(insn, idx, sram, dram, st) : opcode_of(insn) == Opcode::kFinish;
    ++st.executed;
    eq.give_tokens(insn, eng);
    if (opt.on_execute) opt.on_execute(idx, eng);
    if (finish) {
      st.finished = true;
      for (auto& q : eq.queues) st.unexecuted += q.size();
      return st;
    }
  }
}

ModelStats run_model(std::vector<uint8_t>& dram, uint64_t insn_addr, uint32_t insn_count, const ModelOptions& opt) {
  const uint64_t bytes = uint64_t{insn_count} * kInsnBytes;
  if (insn_addr > dram.size() || bytes > dram.size() - insn_addr) {
    throw InputError("VTA program: instruction stream at byte address " + std::to_string(insn_addr) + " with " +
                     std::to_string(insn_count) + " instructions runs past the DRAM image of " +
                     std::to_string(dram.size()) + " bytes");
  }
  std::vector<Insn> insns;
  insns.reserve(insn_count);
  for (uint32_t i = 0; i < insn_count; ++i) {
    const InsnWord w = load_word(&dram[insn_addr + uint64_t{i} * kInsnBytes]);
    if (raw_opcode(w) > 4) {
      throw InputError("VTA instruction " + std::to_string(i) + " (at byte address " +
                       std::to_string(insn_addr + uint64_t{i} * kInsnBytes) + "): undefined opcode " +
                       std::to_string(raw_opcode(w)));
    }
    insns.push_back(decode(w));
  }
  return run_model(insns, dram, opt);
}

std::vector<std::size_t> stores_writing(const std::vector<Insn>& insns, uint64_t byte_addr) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < insns.size(); ++i) {
    const auto* m = std::get_if<MemInsn>(&insns[i]);
    if (!m || m->opcode != Opcode::kStore || m->x_size == 0) continue;
    for (uint64_t y = 0; y < m->y_size; ++y) {
      const uint64_t lo = (uint64_t{m->dram_base} + y * m->x_stride) * kOutElemBytes;
      if (byte_addr >= lo && byte_addr < lo + uint64_t{m->x_size} * kOutElemBytes) {
        out.push_back(i);
        break;
      }
    }
  }
  return out;
}

std::string format_stats(const ModelStats& s) {
  std::ostringstream os;
  os << "executed=" << s.executed << " loads=" << s.loads << " (uop=" << s.loads_by_type[0]
     << " wgt=" << s.loads_by_type[1] << " inp=" << s.loads_by_type[2] << " acc=" << s.loads_by_type[3]
     << " acc8=" << s.loads_by_type[5] << ") stores=" << s.stores << " gemms=" << s.gemms << " alus=" << s.alus
     << " finishes=" << s.finishes << " syncs=" << s.syncs << " gemm_uops=" << s.gemm_uops
     << " macs=" << s.macs() << " gemm_resets=" << s.gemm_resets << " alu_ops=" << s.alu_ops
     << " load_bytes=" << s.load_bytes << " store_bytes=" << s.store_bytes
     << " finished=" << (s.finished ? 1 : 0) << " unexecuted=" << s.unexecuted;
  return os.str();
}

}  // namespace cosim::vta
