// The VTA instruction set (default hw_spec configuration): instruction and
// micro-op types, and their exact bit encodings. An instruction is 128 bits,
// held as two little-endian 64-bit words (word 0 = bits 63:0); a micro-op is
// 32 bits. See shared/spec/vta-isa.md for the field table.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace cosim::vta {

// ---- configuration ----------------------------------------------------------
constexpr int kBatch = 1;
constexpr int kBlock = 16;  // BLOCK_IN == BLOCK_OUT
constexpr uint32_t kInpDepth = 2048;
constexpr uint32_t kWgtDepth = 1024;
constexpr uint32_t kAccDepth = 2048;
constexpr uint32_t kUopDepth = 8192;
constexpr std::size_t kInsnBytes = 16;
constexpr std::size_t kUopBytes = 4;
constexpr std::size_t kInpElemBytes = kBatch * kBlock;          // 16 x int8
constexpr std::size_t kWgtElemBytes = kBlock * kBlock;          // 16 x 16 int8
constexpr std::size_t kAccElemBytes = kBatch * kBlock * 4;      // 16 x int32
constexpr std::size_t kOutElemBytes = kBatch * kBlock;          // 16 x int8

// ---- enumerations -----------------------------------------------------------
enum class Opcode : uint8_t { kLoad = 0, kStore = 1, kGemm = 2, kFinish = 3, kAlu = 4 };
// The underlying value may hold an undefined code (6, 7) read from a raw word;
// is_defined() tells, and the functional model rejects it.
enum class MemType : uint8_t { kUop = 0, kWgt = 1, kInp = 2, kAcc = 3, kOut = 4, kAcc8 = 5 };
enum class AluOp : uint8_t { kMin = 0, kMax = 1, kAdd = 2, kShr = 3, kMul = 4 };
// The three engines and the four token queues between them.
enum class Engine : uint8_t { kLoad = 0, kCompute = 1, kStore = 2 };
enum class Queue : uint8_t { kLoadToCompute = 0, kComputeToLoad = 1, kComputeToStore = 2, kStoreToCompute = 3 };

bool is_defined(MemType t);
bool is_defined(AluOp op);
const char* opcode_name(Opcode op);
const char* mem_type_name(MemType t);  // "UOP", "WGT", ..., "ACC_8BIT", "MEM?6"
const char* alu_op_name(AluOp op);     // "MIN", ..., "MUL"
const char* engine_name(Engine e);     // "LOAD", "COMPUTE", "STORE"
const char* queue_name(Queue q);       // "load->compute", ...
// The queue a dependency flag of engine `e` pops / pushes (`prev`: the
// *_prev flag), as an index of Queue; -1 when the hardware ignores that flag.
int pop_queue(Engine e, bool prev);
int push_queue(Engine e, bool prev);

// DRAM bytes per element of a memory type (UOP 4, WGT 256, INP 16, ACC 64,
// OUT 16, ACC_8BIT 16). Throws std::invalid_argument for undefined types.
std::size_t dram_element_bytes(MemType t);
// Entries of the on-chip buffer a LOAD of this type writes (ACC_8BIT -> ACC).
uint32_t sram_depth(MemType t);

// ---- instructions -----------------------------------------------------------
// The four dependency flags every instruction carries (bits 6:3).
struct DepFlags {
  bool pop_prev = false;
  bool pop_next = false;
  bool push_prev = false;
  bool push_next = false;
  bool any() const { return pop_prev || pop_next || push_prev || push_next; }
  bool operator==(const DepFlags& o) const {
    return pop_prev == o.pop_prev && pop_next == o.pop_next && push_prev == o.push_prev &&
           push_next == o.push_next;
  }
};

// LOAD and STORE.
struct MemInsn {
  Opcode opcode = Opcode::kLoad;  // kLoad or kStore
  DepFlags dep;
  MemType mem_type = MemType::kInp;
  uint16_t sram_base = 0;
  uint32_t dram_base = 0;  // in elements of mem_type
  uint16_t y_size = 0;
  uint16_t x_size = 0;
  uint16_t x_stride = 0;  // in elements of mem_type
  uint8_t y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0;  // 4 bits each
  bool operator==(const MemInsn& o) const;
};

// The loop nest shared by GEMM and ALU: for i < iter_out, j < iter_in, for
// each uop in [uop_bgn, uop_end).
struct LoopNest {
  uint16_t uop_bgn = 0;  // 13 bits
  uint16_t uop_end = 0;  // 14 bits
  uint16_t iter_out = 1;  // 14 bits
  uint16_t iter_in = 1;   // 14 bits
  uint16_t dst_factor_out = 0, dst_factor_in = 0;  // 11 bits
  uint16_t src_factor_out = 0, src_factor_in = 0;  // 11 bits
  bool operator==(const LoopNest& o) const;
};

struct GemmInsn {
  DepFlags dep;
  bool reset = false;
  LoopNest loop;
  uint16_t wgt_factor_out = 0, wgt_factor_in = 0;  // 10 bits
  bool operator==(const GemmInsn& o) const;
};

struct AluInsn {
  DepFlags dep;
  bool reset = false;  // encoded (bit 7) but ignored by the hardware
  LoopNest loop;
  AluOp op = AluOp::kAdd;
  bool use_imm = false;
  int16_t imm = 0;
  bool operator==(const AluInsn& o) const;
};

struct FinishInsn {
  DepFlags dep;
  bool operator==(const FinishInsn& o) const { return dep == o.dep; }
};

using Insn = std::variant<MemInsn, GemmInsn, AluInsn, FinishInsn>;

Opcode opcode_of(const Insn& insn);
const DepFlags& dep_of(const Insn& insn);
DepFlags& dep_of(Insn& insn);
// The engine an instruction runs on: LOAD INP/WGT -> LOAD; STORE -> STORE;
// everything else (GEMM, ALU, FINISH, LOAD UOP/ACC/ACC_8BIT) -> COMPUTE.
// LOADs of other memory types go to COMPUTE (where they are rejected).
Engine engine_of(const Insn& insn);

// ---- encoding ---------------------------------------------------------------
// One 128-bit instruction word: w[0] = bits 63:0, w[1] = bits 127:64.
struct InsnWord {
  uint64_t w[2] = {0, 0};
  bool operator==(const InsnWord& o) const { return w[0] == o.w[0] && w[1] == o.w[1]; }
  bool operator!=(const InsnWord& o) const { return !(*this == o); }
};

// Encode checks that every field fits its width (and that the memory type and
// ALU op are defined) and throws cosim::InputError naming the field otherwise.
InsnWord encode(const Insn& insn);
// Decode takes any bit pattern; an undefined opcode (5..7) throws
// cosim::InputError. Undefined memory types and ALU ops are kept as their raw
// value so that the model can report them with the instruction index.
Insn decode(const InsnWord& word);
// Raw opcode field of a word (no validation).
unsigned raw_opcode(const InsnWord& word);

// Little-endian serialisation: 16 bytes per instruction.
void store_word(const InsnWord& word, uint8_t* dst16);
InsnWord load_word(const uint8_t* src16);
std::vector<uint8_t> to_bytes(const std::vector<Insn>& insns);
// Throws cosim::InputError when bytes.size() is not a multiple of 16.
std::vector<InsnWord> words_from_bytes(const std::vector<uint8_t>& bytes);

// ---- micro-ops --------------------------------------------------------------
struct Uop {
  uint16_t dst = 0;  // ACC index, 11 bits
  uint16_t src = 0;  // INP index (GEMM) or ACC index (ALU), 11 bits
  uint16_t wgt = 0;  // WGT index, 10 bits
  bool operator==(const Uop& o) const { return dst == o.dst && src == o.src && wgt == o.wgt; }
};

// Throws cosim::InputError when a field does not fit its width.
uint32_t encode_uop(const Uop& uop);
Uop decode_uop(uint32_t word);

}  // namespace cosim::vta
