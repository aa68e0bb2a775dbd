// Bit-exact encode/decode of VTA instructions and micro-ops.
#include "vta/isa.hpp"

#include <stdexcept>

#include "common/error.hpp"
#include "dut/vta_isa.hpp"

namespace cosim::vta {

namespace {

namespace layout = isa_layout;  // generated from rtl/vta/vta_isa.yaml (dut/vta_isa.hpp)

// The enums of isa.hpp hold the opcode values the ISA description gives.
static_assert(static_cast<unsigned>(Opcode::kLoad) == layout::insn_mem::kOpLoad &&
              static_cast<unsigned>(Opcode::kStore) == layout::insn_mem::kOpStore &&
              static_cast<unsigned>(Opcode::kGemm) == layout::insn_gemm::kOpGemm &&
              static_cast<unsigned>(Opcode::kFinish) == layout::insn_finish::kOpFinish &&
              static_cast<unsigned>(Opcode::kAlu) == layout::insn_alu::kOpAlu);
// The header's fields are taken at their own bits: it starts every instruction.
static_assert(layout::insn_mem::kHdr.lsb == 0 && layout::insn_gemm::kHdr.lsb == 0 &&
              layout::insn_alu::kHdr.lsb == 0 && layout::insn_finish::kHdr.lsb == 0);
static_assert(layout::kInsnChunks == 2 && layout::kUopChunks == 1, "InsnWord and the uint32_t micro-op");

uint64_t get_bits(const InsnWord& word, layout::Field f) { return layout::get(word.w, f); }

void put_bits(InsnWord& word, layout::Field f, uint64_t value) {
  if (!layout::fits(f, value)) {
    throw InputError(std::string("VTA encode: field ") + f.name + " = " + std::to_string(value) +
                     " does not fit in " + std::to_string(f.width) + " bits");
  }
  layout::put(word.w, f, value);
}

// A member of any integral or enum type to its field and back (the generated
// visit_fields() pairs fields and members); a signed field keeps its low bits
// (two's complement) and is sign-extended when read.
template <class T>
void write_field(InsnWord& word, layout::Field f, T value) {
  const auto raw = static_cast<uint64_t>(value);
  put_bits(word, f, f.is_signed ? raw & layout::field_max(f) : raw);
}

template <class T>
void read_field(const InsnWord& word, layout::Field f, T& value) {
  value = f.is_signed ? static_cast<T>(layout::get_signed(word.w, f)) : static_cast<T>(get_bits(word, f));
}

// A micro-op field, checked against its width.
void put_uop_field(uint64_t& word, layout::Field f, uint16_t value) {
  if (!layout::fits(f, value)) {
    throw InputError(std::string("VTA uop: ") + f.name + " " + std::to_string(value) + " does not fit in " +
                     std::to_string(f.width) + " bits");
  }
  layout::put(&word, f, value);
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
  const auto write = [&w](layout::Field f, const auto& value) { write_field(w, f, value); };
  std::visit(Overloaded{
                 [&](const MemInsn& m) {
                   if (m.opcode != Opcode::kLoad && m.opcode != Opcode::kStore) {
                     throw InputError("VTA encode: MemInsn opcode must be LOAD or STORE");
                   }
                   if (!is_defined(m.mem_type)) {
                     throw InputError("VTA encode: undefined memory_type " +
                                      std::to_string(static_cast<unsigned>(m.mem_type)));
                   }
                   write(layout::insn_hdr::kOpcode, m.opcode);
                   layout::insn_mem::visit_fields(m, write);
                 },
                 [&](const GemmInsn& g) {
                   write(layout::insn_hdr::kOpcode, Opcode::kGemm);
                   layout::insn_gemm::visit_fields(g, write);
                 },
                 [&](const AluInsn& a) {
                   if (!is_defined(a.op)) {
                     throw InputError("VTA encode: undefined alu_opcode " +
                                      std::to_string(static_cast<unsigned>(a.op)));
                   }
                   write(layout::insn_hdr::kOpcode, Opcode::kAlu);
                   layout::insn_alu::visit_fields(a, write);
                 },
                 [&](const FinishInsn& f) {
                   write(layout::insn_hdr::kOpcode, Opcode::kFinish);
                   layout::insn_finish::visit_fields(f, write);
                 },
             },
             insn);
  return w;
}

Insn decode(const InsnWord& word) {
  const auto read = [&word](layout::Field f, auto& value) { read_field(word, f, value); };
  const unsigned op = raw_opcode(word);
  switch (op) {
    case layout::insn_mem::kOpLoad:
    case layout::insn_mem::kOpStore: {
      MemInsn m;
      m.opcode = static_cast<Opcode>(op);
      layout::insn_mem::visit_fields(m, read);
      return m;
    }
    case layout::insn_gemm::kOpGemm: {
      GemmInsn g;
      layout::insn_gemm::visit_fields(g, read);
      return g;
    }
    case layout::insn_finish::kOpFinish: {
      FinishInsn f;
      layout::insn_finish::visit_fields(f, read);
      return f;
    }
    case layout::insn_alu::kOpAlu: {
      AluInsn a;
      layout::insn_alu::visit_fields(a, read);
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
  uint64_t word = 0;
  layout::uop::visit_fields(uop, [&word](layout::Field f, uint16_t value) { put_uop_field(word, f, value); });
  return static_cast<uint32_t>(word);
}

Uop decode_uop(uint32_t word) {
  const uint64_t w = word;
  Uop u;
  layout::uop::visit_fields(u, [&w](layout::Field f, uint16_t& value) {
    value = static_cast<uint16_t>(layout::get(&w, f));
  });
  return u;
}

unsigned raw_opcode(const InsnWord& word) {
  return static_cast<unsigned>(get_bits(word, layout::insn_hdr::kOpcode));
}

}  // namespace cosim::vta
