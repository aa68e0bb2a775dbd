// Bit-exact encode/decode of VTA instructions and micro-ops.
#include "vta/isa.hpp"

#include <stdexcept>

#include "common/error.hpp"

namespace cosim::vta {

namespace {

// Field access on the 128-bit word; `lo` is the bit position of the LSB.
// Every field of the ISA lies inside one 64-bit half, but do not rely on it.
uint64_t get_bits(const InsnWord& word, unsigned lo, unsigned width) {
  uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) {
    unsigned pos = lo + b;
    v |= ((word.w[pos / 64] >> (pos % 64)) & 1u) << b;
  }
  return v;
}

void put_bits(InsnWord& word, unsigned lo, unsigned width, uint64_t value, const char* field) {
  if (width < 64 && (value >> width) != 0) {
    throw InputError(std::string("VTA encode: field ") + field + " = " + std::to_string(value) +
                     " does not fit in " + std::to_string(width) + " bits");
  }
  for (unsigned b = 0; b < width; ++b) {
    unsigned pos = lo + b;
    uint64_t mask = uint64_t{1} << (pos % 64);
    if ((value >> b) & 1u) {
      word.w[pos / 64] |= mask;
    } else {
      word.w[pos / 64] &= ~mask;
    }
  }
}

void put_dep(InsnWord& word, Opcode op, const DepFlags& d) {
  put_bits(word, 0, 3, static_cast<unsigned>(op), "opcode");
  put_bits(word, 3, 1, d.pop_prev, "pop_prev_dep");
  put_bits(word, 4, 1, d.pop_next, "pop_next_dep");
  put_bits(word, 5, 1, d.push_prev, "push_prev_dep");
  put_bits(word, 6, 1, d.push_next, "push_next_dep");
}

DepFlags get_dep(const InsnWord& word) {
  DepFlags d;
  d.pop_prev = get_bits(word, 3, 1);
  d.pop_next = get_bits(word, 4, 1);
  d.push_prev = get_bits(word, 5, 1);
  d.push_next = get_bits(word, 6, 1);
  return d;
}

void put_loop(InsnWord& word, const LoopNest& l) {
  put_bits(word, 8, 13, l.uop_bgn, "uop_bgn");
  put_bits(word, 21, 14, l.uop_end, "uop_end");
  put_bits(word, 35, 14, l.iter_out, "iter_out");
  put_bits(word, 49, 14, l.iter_in, "iter_in");
  put_bits(word, 64, 11, l.dst_factor_out, "dst_factor_out");
  put_bits(word, 75, 11, l.dst_factor_in, "dst_factor_in");
  put_bits(word, 86, 11, l.src_factor_out, "src_factor_out");
  put_bits(word, 97, 11, l.src_factor_in, "src_factor_in");
}

LoopNest get_loop(const InsnWord& word) {
  LoopNest l;
  l.uop_bgn = static_cast<uint16_t>(get_bits(word, 8, 13));
  l.uop_end = static_cast<uint16_t>(get_bits(word, 21, 14));
  l.iter_out = static_cast<uint16_t>(get_bits(word, 35, 14));
  l.iter_in = static_cast<uint16_t>(get_bits(word, 49, 14));
  l.dst_factor_out = static_cast<uint16_t>(get_bits(word, 64, 11));
  l.dst_factor_in = static_cast<uint16_t>(get_bits(word, 75, 11));
  l.src_factor_out = static_cast<uint16_t>(get_bits(word, 86, 11));
  l.src_factor_in = static_cast<uint16_t>(get_bits(word, 97, 11));
  return l;
}

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace

bool is_defined(MemType t) { return static_cast<unsigned>(t) <= 5; }
bool is_defined(AluOp op) { return static_cast<unsigned>(op) <= 4; }

const char* opcode_name(Opcode op) {
  switch (op) {
    case Opcode::kLoad: return "LOAD";
    case Opcode::kStore: return "STORE";
    case Opcode::kGemm: return "GEMM";
    case Opcode::kFinish: return "FINISH";
    case Opcode::kAlu: return "ALU";
  }
  return "OP?";
}

const char* mem_type_name(MemType t) {
  switch (static_cast<unsigned>(t)) {
    case 0: return "UOP";
    case 1: return "WGT";
    case 2: return "INP";
    case 3: return "ACC";
    case 4: return "OUT";
    case 5: return "ACC_8BIT";
    case 6: return "MEM?6";
    default: return "MEM?7";
  }
}

const char* alu_op_name(AluOp op) {
  switch (static_cast<unsigned>(op)) {
    case 0: return "MIN";
    case 1: return "MAX";
    case 2: return "ADD";
    case 3: return "SHR";
    case 4: return "MUL";
    case 5: return "ALU?5";
    case 6: return "ALU?6";
    default: return "ALU?7";
  }
}

const char* engine_name(Engine e) {
  switch (e) {
    case Engine::kLoad: return "LOAD";
    case Engine::kCompute: return "COMPUTE";
    case Engine::kStore: return "STORE";
  }
  return "?";
}

const char* queue_name(Queue q) {
  switch (q) {
    case Queue::kLoadToCompute: return "load->compute";
    case Queue::kComputeToLoad: return "compute->load";
    case Queue::kComputeToStore: return "compute->store";
    case Queue::kStoreToCompute: return "store->compute";
  }
  return "?";
}

int push_queue(Engine e, bool prev) {
  switch (e) {
    case Engine::kLoad: return prev ? -1 : static_cast<int>(Queue::kLoadToCompute);
    case Engine::kCompute:
      return prev ? static_cast<int>(Queue::kComputeToLoad) : static_cast<int>(Queue::kComputeToStore);
    case Engine::kStore: return prev ? static_cast<int>(Queue::kStoreToCompute) : -1;
  }
  return -1;
}

// An engine pops, on one side, the queue its neighbour there pushes towards
// it (engines in LOAD, COMPUTE, STORE order).
int pop_queue(Engine e, bool prev) {
  const int neighbour = static_cast<int>(e) + (prev ? -1 : 1);
  if (neighbour < 0 || neighbour > static_cast<int>(Engine::kStore)) return -1;
  return push_queue(static_cast<Engine>(neighbour), !prev);
}

std::size_t dram_element_bytes(MemType t) {
  switch (static_cast<unsigned>(t)) {
    case 0: return kUopBytes;
    case 1: return kWgtElemBytes;
    case 2: return kInpElemBytes;
    case 3: return kAccElemBytes;
    case 4: return kOutElemBytes;
    case 5: return kInpElemBytes;  // 16 int8 per ACC entry
    default: break;
  }
  throw std::invalid_argument(std::string("dram_element_bytes: undefined memory type ") +
                              std::to_string(static_cast<unsigned>(t)));
}

uint32_t sram_depth(MemType t) {
  switch (static_cast<unsigned>(t)) {
    case 0: return kUopDepth;
    case 1: return kWgtDepth;
    case 2: return kInpDepth;
    case 3:
    case 4:
    case 5: return kAccDepth;  // OUT is read from the ACC buffer
    default: break;
  }
  throw std::invalid_argument(std::string("sram_depth: undefined memory type ") +
                              std::to_string(static_cast<unsigned>(t)));
}

bool MemInsn::operator==(const MemInsn& o) const {
  return opcode == o.opcode && dep == o.dep && mem_type == o.mem_type && sram_base == o.sram_base &&
         dram_base == o.dram_base && y_size == o.y_size && x_size == o.x_size && x_stride == o.x_stride &&
         y_pad_0 == o.y_pad_0 && y_pad_1 == o.y_pad_1 && x_pad_0 == o.x_pad_0 && x_pad_1 == o.x_pad_1;
}

bool LoopNest::operator==(const LoopNest& o) const {
  return uop_bgn == o.uop_bgn && uop_end == o.uop_end && iter_out == o.iter_out && iter_in == o.iter_in &&
         dst_factor_out == o.dst_factor_out && dst_factor_in == o.dst_factor_in &&
         src_factor_out == o.src_factor_out && src_factor_in == o.src_factor_in;
}

bool GemmInsn::operator==(const GemmInsn& o) const {
  return dep == o.dep && reset == o.reset && loop == o.loop && wgt_factor_out == o.wgt_factor_out &&
         wgt_factor_in == o.wgt_factor_in;
}

bool AluInsn::operator==(const AluInsn& o) const {
  return dep == o.dep && reset == o.reset && loop == o.loop && op == o.op && use_imm == o.use_imm &&
         imm == o.imm;
}

Opcode opcode_of(const Insn& insn) {
  return std::visit(Overloaded{[](const MemInsn& m) { return m.opcode; },
                               [](const GemmInsn&) { return Opcode::kGemm; },
                               [](const AluInsn&) { return Opcode::kAlu; },
                               [](const FinishInsn&) { return Opcode::kFinish; }},
                    insn);
}

const DepFlags& dep_of(const Insn& insn) {
  return std::visit([](const auto& i) -> const DepFlags& { return i.dep; }, insn);
}

DepFlags& dep_of(Insn& insn) {
  return std::visit([](auto& i) -> DepFlags& { return i.dep; }, insn);
}

Engine engine_of(const Insn& insn) {
  if (const auto* m = std::get_if<MemInsn>(&insn)) {
    if (m->opcode == Opcode::kStore) return Engine::kStore;
    if (m->mem_type == MemType::kInp || m->mem_type == MemType::kWgt) return Engine::kLoad;
  }
  return Engine::kCompute;
}

InsnWord encode(const Insn& insn) {
  InsnWord w;
  std::visit(Overloaded{
                 [&](const MemInsn& m) {
                   if (m.opcode != Opcode::kLoad && m.opcode != Opcode::kStore) {
                     throw InputError("VTA encode: MemInsn opcode must be LOAD or STORE");
                   }
                   if (!is_defined(m.mem_type)) {
                     throw InputError("VTA encode: undefined memory_type " +
                                      std::to_string(static_cast<unsigned>(m.mem_type)));
                   }
                   put_dep(w, m.opcode, m.dep);
                   put_bits(w, 7, 3, static_cast<unsigned>(m.mem_type), "memory_type");
                   put_bits(w, 10, 16, m.sram_base, "sram_base");
                   put_bits(w, 26, 32, m.dram_base, "dram_base");
                   put_bits(w, 64, 16, m.y_size, "y_size");
                   put_bits(w, 80, 16, m.x_size, "x_size");
                   put_bits(w, 96, 16, m.x_stride, "x_stride");
                   put_bits(w, 112, 4, m.y_pad_0, "y_pad_0");
                   put_bits(w, 116, 4, m.y_pad_1, "y_pad_1");
                   put_bits(w, 120, 4, m.x_pad_0, "x_pad_0");
                   put_bits(w, 124, 4, m.x_pad_1, "x_pad_1");
                 },
                 [&](const GemmInsn& g) {
                   put_dep(w, Opcode::kGemm, g.dep);
                   put_bits(w, 7, 1, g.reset, "reset_reg");
                   put_loop(w, g.loop);
                   put_bits(w, 108, 10, g.wgt_factor_out, "wgt_factor_out");
                   put_bits(w, 118, 10, g.wgt_factor_in, "wgt_factor_in");
                 },
                 [&](const AluInsn& a) {
                   if (!is_defined(a.op)) {
                     throw InputError("VTA encode: undefined alu_opcode " +
                                      std::to_string(static_cast<unsigned>(a.op)));
                   }
                   put_dep(w, Opcode::kAlu, a.dep);
                   put_bits(w, 7, 1, a.reset, "reset_reg");
                   put_loop(w, a.loop);
                   put_bits(w, 108, 3, static_cast<unsigned>(a.op), "alu_opcode");
                   put_bits(w, 111, 1, a.use_imm, "use_imm");
                   put_bits(w, 112, 16, static_cast<uint16_t>(a.imm), "imm");
                 },
                 [&](const FinishInsn& f) { put_dep(w, Opcode::kFinish, f.dep); },
             },
             insn);
  return w;
}

Insn decode(const InsnWord& word) {
  unsigned op = raw_opcode(word);
  DepFlags dep = get_dep(word);
  switch (op) {
    case 0:
    case 1: {
      MemInsn m;
      m.opcode = static_cast<Opcode>(op);
      m.dep = dep;
      m.mem_type = static_cast<MemType>(get_bits(word, 7, 3));
      m.sram_base = static_cast<uint16_t>(get_bits(word, 10, 16));
      m.dram_base = static_cast<uint32_t>(get_bits(word, 26, 32));
      m.y_size = static_cast<uint16_t>(get_bits(word, 64, 16));
      m.x_size = static_cast<uint16_t>(get_bits(word, 80, 16));
      m.x_stride = static_cast<uint16_t>(get_bits(word, 96, 16));
      m.y_pad_0 = static_cast<uint8_t>(get_bits(word, 112, 4));
      m.y_pad_1 = static_cast<uint8_t>(get_bits(word, 116, 4));
      m.x_pad_0 = static_cast<uint8_t>(get_bits(word, 120, 4));
      m.x_pad_1 = static_cast<uint8_t>(get_bits(word, 124, 4));
      return m;
    }
    case 2: {
      GemmInsn g;
      g.dep = dep;
      g.reset = get_bits(word, 7, 1);
      g.loop = get_loop(word);
      g.wgt_factor_out = static_cast<uint16_t>(get_bits(word, 108, 10));
      g.wgt_factor_in = static_cast<uint16_t>(get_bits(word, 118, 10));
      return g;
    }
    case 3: {
      FinishInsn f;
      f.dep = dep;
      return f;
    }
    case 4: {
      AluInsn a;
      a.dep = dep;
      a.reset = get_bits(word, 7, 1);
      a.loop = get_loop(word);
      a.op = static_cast<AluOp>(get_bits(word, 108, 3));
      a.use_imm = get_bits(word, 111, 1);
      a.imm = static_cast<int16_t>(static_cast<uint16_t>(get_bits(word, 112, 16)));
      return a;
    }
    default:
      throw InputError("VTA decode: undefined opcode " + std::to_string(op));
  }
}

void store_word(const InsnWord& word, uint8_t* dst16) {
  for (int half = 0; half < 2; ++half) {
    for (int b = 0; b < 8; ++b) dst16[half * 8 + b] = static_cast<uint8_t>(word.w[half] >> (8 * b));
  }
}

InsnWord load_word(const uint8_t* src16) {
  InsnWord w;
  for (int half = 0; half < 2; ++half) {
    for (int b = 0; b < 8; ++b) w.w[half] |= uint64_t{src16[half * 8 + b]} << (8 * b);
  }
  return w;
}

std::vector<uint8_t> to_bytes(const std::vector<Insn>& insns) {
  std::vector<uint8_t> out(insns.size() * kInsnBytes);
  for (std::size_t i = 0; i < insns.size(); ++i) store_word(encode(insns[i]), out.data() + i * kInsnBytes);
  return out;
}

std::vector<InsnWord> words_from_bytes(const std::vector<uint8_t>& bytes) {
  if (bytes.size() % kInsnBytes != 0) {
    throw InputError("VTA instruction stream: " + std::to_string(bytes.size()) +
                     " bytes is not a multiple of 16 (one instruction = 16 bytes)");
  }
  std::vector<InsnWord> out(bytes.size() / kInsnBytes);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = load_word(bytes.data() + i * kInsnBytes);
  return out;
}

uint32_t encode_uop(const Uop& uop) {
  if (uop.dst >= (1u << 11)) throw InputError("VTA uop: dst_idx " + std::to_string(uop.dst) + " does not fit in 11 bits");
  if (uop.src >= (1u << 11)) throw InputError("VTA uop: src_idx " + std::to_string(uop.src) + " does not fit in 11 bits");
  if (uop.wgt >= (1u << 10)) throw InputError("VTA uop: wgt_idx " + std::to_string(uop.wgt) + " does not fit in 10 bits");
  return uint32_t{uop.dst} | (uint32_t{uop.src} << 11) | (uint32_t{uop.wgt} << 22);
}

Uop decode_uop(uint32_t word) {
  Uop u;
  u.dst = static_cast<uint16_t>(word & 0x7ffu);
  u.src = static_cast<uint16_t>((word >> 11) & 0x7ffu);
  u.wgt = static_cast<uint16_t>((word >> 22) & 0x3ffu);
  return u;
}

}  // namespace cosim::vta
