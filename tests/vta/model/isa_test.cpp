// Bit positions of every instruction and micro-op field, checked against
// words assembled by hand with shifts from the spec's field table.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "common/error.hpp"
#include "insn_builders.hpp"
#include "vta/isa.hpp"

namespace cosim::vta {
namespace {

using test::load;
using test::nest;
using u64 = uint64_t;

// `insn` encodes to the words {w0, w1} and decodes back to itself.
template <class T>
void expect_encodes(const T& insn, u64 w0, u64 w1) {
  const InsnWord w = encode(insn);
  EXPECT_EQ(w.w[0], w0);
  EXPECT_EQ(w.w[1], w1);
  EXPECT_EQ(std::get<T>(decode(w)), insn);
}

TEST(VtaIsa, LoadWordMatchesFieldTable) {
  MemInsn m = load(MemType::kInp, 0x1234, 0xDEADBEEF, 0x0102, 0x0304, 0x0506, 1, 2, 3, 4);
  m.dep.pop_prev = true;
  m.dep.push_next = true;
  // opcode [2:0]=0, pop_prev [3], push_next [6], memory_type [9:7]=2,
  // sram_base [25:10], dram_base [57:26]; word 1: y_size [79:64],
  // x_size [95:80], x_stride [111:96], pads [115:112] [119:116] [123:120] [127:124].
  const u64 w0 = (u64{1} << 3) | (u64{1} << 6) | (u64{2} << 7) | (u64{0x1234} << 10) | (u64{0xDEADBEEF} << 26);
  const u64 w1 = u64{0x0102} | (u64{0x0304} << 16) | (u64{0x0506} << 32) | (u64{1} << 48) | (u64{2} << 52) |
                 (u64{3} << 56) | (u64{4} << 60);
  expect_encodes(m, w0, w1);
}

TEST(VtaIsa, StoreAndAcc8Codes) {
  MemInsn m;
  m.opcode = Opcode::kStore;
  m.mem_type = MemType::kOut;
  m.dep.push_prev = true;
  EXPECT_EQ(encode(m).w[0], u64{1} | (u64{1} << 5) | (u64{4} << 7));
  m.opcode = Opcode::kLoad;
  m.mem_type = MemType::kAcc8;
  m.dep = DepFlags{};
  m.dep.pop_next = true;
  EXPECT_EQ(encode(m).w[0], (u64{1} << 4) | (u64{5} << 7));
}

TEST(VtaIsa, GemmWordMatchesFieldTable) {
  GemmInsn g;
  g.dep.pop_next = true;
  g.dep.push_prev = true;
  g.reset = true;
  // uop_bgn 13 bits, uop_end and the iteration counts 14, the dst / src factors 11.
  g.loop = nest(0x1ABC, 0x2DEF, {0x3001, 0x2ABC}, {0x7FF, 0x123}, {0x456, 0x789});
  g.wgt_factor_out = 0x3FF;
  g.wgt_factor_in = 0x2AA;
  const u64 w0 = u64{2} | (u64{1} << 4) | (u64{1} << 5) | (u64{1} << 7) | (u64{0x1ABC} << 8) |
                 (u64{0x2DEF} << 21) | (u64{0x3001} << 35) | (u64{0x2ABC} << 49);
  // word 1: dst_factor_out [74:64], dst_factor_in [85:75], src_factor_out
  // [96:86], src_factor_in [107:97], wgt_factor_out [117:108], wgt_factor_in [127:118].
  const u64 w1 = u64{0x7FF} | (u64{0x123} << 11) | (u64{0x456} << 22) | (u64{0x789} << 33) | (u64{0x3FF} << 44) |
                 (u64{0x2AA} << 54);
  expect_encodes(g, w0, w1);
}

TEST(VtaIsa, AluWordMatchesFieldTable) {
  AluInsn a;
  a.dep.pop_prev = true;
  a.loop = nest(5, 9, {3, 2}, {7, 1}, {0x400, 2});
  a.op = AluOp::kShr;
  a.use_imm = true;
  a.imm = -2;
  const u64 w0 = u64{4} | (u64{1} << 3) | (u64{5} << 8) | (u64{9} << 21) | (u64{3} << 35) | (u64{2} << 49);
  // alu_opcode [110:108], use_imm [111], imm [127:112].
  const u64 w1 = u64{7} | (u64{1} << 11) | (u64{0x400} << 22) | (u64{2} << 33) | (u64{3} << 44) | (u64{1} << 47) |
                 (u64{0xFFFE} << 48);
  expect_encodes(a, w0, w1);
  EXPECT_EQ(std::get<AluInsn>(decode(encode(a))).imm, -2);
  // The ALU opcode codes.
  const unsigned codes[] = {0, 1, 2, 3, 4};
  const AluOp ops[] = {AluOp::kMin, AluOp::kMax, AluOp::kAdd, AluOp::kShr, AluOp::kMul};
  for (int i = 0; i < 5; ++i) {
    AluInsn x;
    x.op = ops[i];
    EXPECT_EQ((encode(x).w[1] >> 44) & 7u, codes[i]);
  }
}

TEST(VtaIsa, FinishWord) {
  FinishInsn f;
  f.dep.pop_prev = true;
  f.dep.pop_next = true;
  const InsnWord w = encode(f);
  EXPECT_EQ(w.w[0], u64{3} | (u64{1} << 3) | (u64{1} << 4));
  EXPECT_EQ(w.w[1], 0u);
  EXPECT_TRUE(std::holds_alternative<FinishInsn>(decode(w)));
}

// Each field alone at its maximum sets exactly its bits.
TEST(VtaIsa, EachFieldOccupiesExactlyItsBits) {
  struct Field {
    const char* name;
    unsigned lo, width;
    std::function<Insn()> make;
  };
  auto mem = [](auto set) {
    return [set]() {
      MemInsn m;
      m.mem_type = MemType::kUop;
      set(m);
      return Insn(m);
    };
  };
  auto gemm = [](auto set) {
    return [set]() {
      GemmInsn g;
      g.loop.iter_out = 0;
      g.loop.iter_in = 0;
      set(g);
      return Insn(g);
    };
  };
  auto alu = [](auto set) {
    return [set]() {
      AluInsn a;
      a.op = AluOp::kMin;
      a.loop.iter_out = 0;
      a.loop.iter_in = 0;
      set(a);
      return Insn(a);
    };
  };
  const std::vector<Field> fields = {
      {"pop_prev", 3, 1, mem([](MemInsn& m) { m.dep.pop_prev = true; })},
      {"pop_next", 4, 1, mem([](MemInsn& m) { m.dep.pop_next = true; })},
      {"push_prev", 5, 1, mem([](MemInsn& m) { m.dep.push_prev = true; })},
      {"push_next", 6, 1, mem([](MemInsn& m) { m.dep.push_next = true; })},
      {"memory_type", 7, 3, mem([](MemInsn& m) { m.mem_type = MemType::kAcc8; })},  // 5 = 0b101
      {"sram_base", 10, 16, mem([](MemInsn& m) { m.sram_base = 0xFFFF; })},
      {"dram_base", 26, 32, mem([](MemInsn& m) { m.dram_base = 0xFFFFFFFF; })},
      {"y_size", 64, 16, mem([](MemInsn& m) { m.y_size = 0xFFFF; })},
      {"x_size", 80, 16, mem([](MemInsn& m) { m.x_size = 0xFFFF; })},
      {"x_stride", 96, 16, mem([](MemInsn& m) { m.x_stride = 0xFFFF; })},
      {"y_pad_0", 112, 4, mem([](MemInsn& m) { m.y_pad_0 = 15; })},
      {"y_pad_1", 116, 4, mem([](MemInsn& m) { m.y_pad_1 = 15; })},
      {"x_pad_0", 120, 4, mem([](MemInsn& m) { m.x_pad_0 = 15; })},
      {"x_pad_1", 124, 4, mem([](MemInsn& m) { m.x_pad_1 = 15; })},
      {"reset_reg", 7, 1, gemm([](GemmInsn& g) { g.reset = true; })},
      {"uop_bgn", 8, 13, gemm([](GemmInsn& g) { g.loop.uop_bgn = 0x1FFF; })},
      {"uop_end", 21, 14, gemm([](GemmInsn& g) { g.loop.uop_end = 0x3FFF; })},
      {"iter_out", 35, 14, gemm([](GemmInsn& g) { g.loop.iter_out = 0x3FFF; })},
      {"iter_in", 49, 14, gemm([](GemmInsn& g) { g.loop.iter_in = 0x3FFF; })},
      {"dst_factor_out", 64, 11, gemm([](GemmInsn& g) { g.loop.dst_factor_out = 0x7FF; })},
      {"dst_factor_in", 75, 11, gemm([](GemmInsn& g) { g.loop.dst_factor_in = 0x7FF; })},
      {"src_factor_out", 86, 11, gemm([](GemmInsn& g) { g.loop.src_factor_out = 0x7FF; })},
      {"src_factor_in", 97, 11, gemm([](GemmInsn& g) { g.loop.src_factor_in = 0x7FF; })},
      {"wgt_factor_out", 108, 10, gemm([](GemmInsn& g) { g.wgt_factor_out = 0x3FF; })},
      {"wgt_factor_in", 118, 10, gemm([](GemmInsn& g) { g.wgt_factor_in = 0x3FF; })},
      {"alu reset_reg", 7, 1, alu([](AluInsn& a) { a.reset = true; })},
      {"alu_opcode", 108, 3, alu([](AluInsn& a) { a.op = AluOp::kMul; })},  // 4 = 0b100
      {"use_imm", 111, 1, alu([](AluInsn& a) { a.use_imm = true; })},
      {"imm", 112, 16, alu([](AluInsn& a) { a.imm = -1; })},
  };
  for (const Field& f : fields) {
    const Insn insn = f.make();
    InsnWord base = encode(insn);
    // Expected: the opcode bits plus the field's bits (with the field's value).
    const u64 op = static_cast<u64>(opcode_of(insn));
    u64 value = f.width == 64 ? ~u64{0} : (u64{1} << f.width) - 1;
    if (std::string(f.name) == "memory_type") value = 5;
    if (std::string(f.name) == "alu_opcode") value = 4;
    InsnWord expect;
    expect.w[0] = op;
    for (unsigned b = 0; b < f.width; ++b) {
      if ((value >> b) & 1u) expect.w[(f.lo + b) / 64] |= u64{1} << ((f.lo + b) % 64);
    }
    EXPECT_EQ(base.w[0], expect.w[0]) << f.name;
    EXPECT_EQ(base.w[1], expect.w[1]) << f.name;
  }
}

TEST(VtaIsa, RandomRoundTrips) {
  std::mt19937_64 rng(42);
  for (int n = 0; n < 2000; ++n) {
    InsnWord w{{rng(), rng()}};
    // Make it a defined instruction with the unused bits clear.
    const unsigned op = static_cast<unsigned>(rng() % 5);
    w.w[0] = (w.w[0] & ~u64{7}) | op;
    if (op <= 1) {
      w.w[0] = (w.w[0] & ~(u64{7} << 7)) | (u64{rng() % 6} << 7);
      w.w[0] &= (u64{1} << 58) - 1;  // bits 63:58 unused
    } else if (op == 2 || op == 4) {
      w.w[0] &= ~(u64{1} << 63);  // bit 63 unused
      if (op == 4) w.w[1] = (w.w[1] & ~(u64{7} << 44)) | (u64{rng() % 5} << 44);
    } else {
      w.w[0] &= 0x7f;  // FINISH carries only opcode and flags
      w.w[1] = 0;
    }
    const Insn insn = decode(w);
    EXPECT_EQ(encode(insn), w) << "iteration " << n;
  }
}

TEST(VtaIsa, BytesAreLittleEndian) {
  InsnWord w{{0x0807060504030201ull, 0x100F0E0D0C0B0A09ull}};
  uint8_t b[16];
  store_word(w, b);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], i + 1);
  EXPECT_EQ(load_word(b), w);
  EXPECT_THROW(words_from_bytes(std::vector<uint8_t>(17)), InputError);
  EXPECT_EQ(words_from_bytes(std::vector<uint8_t>(32)).size(), 2u);
}

TEST(VtaIsa, UopFields) {
  EXPECT_EQ(encode_uop({0x7FF, 0, 0}), 0x7FFu);
  EXPECT_EQ(encode_uop({0, 0x7FF, 0}), 0x7FFu << 11);
  EXPECT_EQ(encode_uop({0, 0, 0x3FF}), 0x3FFu << 22);
  EXPECT_EQ(encode_uop({3, 5, 7}), 3u | (5u << 11) | (7u << 22));
  const Uop u = decode_uop(0xFFFFFFFFu);
  EXPECT_EQ(u.dst, 0x7FF);
  EXPECT_EQ(u.src, 0x7FF);
  EXPECT_EQ(u.wgt, 0x3FF);
  EXPECT_THROW(encode_uop({0x800, 0, 0}), InputError);
  EXPECT_THROW(encode_uop({0, 0x800, 0}), InputError);
  EXPECT_THROW(encode_uop({0, 0, 0x400}), InputError);
}

TEST(VtaIsa, EncodeRejectsOverwideFields) {
  GemmInsn g;
  g.loop.uop_bgn = 0x2000;  // 14 bits into a 13-bit field
  try {
    encode(g);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("uop_bgn"), std::string::npos) << e.what();
  }
  GemmInsn g2;
  g2.wgt_factor_in = 0x400;
  EXPECT_THROW(encode(g2), InputError);
  MemInsn m;
  m.y_pad_0 = 16;
  EXPECT_THROW(encode(m), InputError);
  MemInsn bad;
  bad.mem_type = static_cast<MemType>(6);
  EXPECT_THROW(encode(bad), InputError);
}

TEST(VtaIsa, DecodeUndefinedOpcodeThrows) {
  for (unsigned op = 5; op < 8; ++op) EXPECT_THROW(decode(InsnWord{{op, 0}}), InputError);
  // Undefined memory types survive decoding for the model to report.
  const Insn i = decode(InsnWord{{u64{7} << 7, 0}});
  EXPECT_EQ(static_cast<unsigned>(std::get<MemInsn>(i).mem_type), 7u);
  EXPECT_FALSE(is_defined(std::get<MemInsn>(i).mem_type));
}

TEST(VtaIsa, ElementSizesAndEngines) {
  EXPECT_EQ(dram_element_bytes(MemType::kUop), 4u);
  EXPECT_EQ(dram_element_bytes(MemType::kWgt), 256u);
  EXPECT_EQ(dram_element_bytes(MemType::kInp), 16u);
  EXPECT_EQ(dram_element_bytes(MemType::kAcc), 64u);
  EXPECT_EQ(dram_element_bytes(MemType::kOut), 16u);
  EXPECT_EQ(dram_element_bytes(MemType::kAcc8), 16u);
  EXPECT_EQ(sram_depth(MemType::kInp), 2048u);
  EXPECT_EQ(sram_depth(MemType::kWgt), 1024u);
  EXPECT_EQ(sram_depth(MemType::kAcc), 2048u);
  EXPECT_EQ(sram_depth(MemType::kUop), 8192u);
  auto load = [](MemType t) {
    MemInsn m;
    m.mem_type = t;
    return Insn(m);
  };
  EXPECT_EQ(engine_of(load(MemType::kInp)), Engine::kLoad);
  EXPECT_EQ(engine_of(load(MemType::kWgt)), Engine::kLoad);
  EXPECT_EQ(engine_of(load(MemType::kUop)), Engine::kCompute);
  EXPECT_EQ(engine_of(load(MemType::kAcc)), Engine::kCompute);
  EXPECT_EQ(engine_of(load(MemType::kAcc8)), Engine::kCompute);
  MemInsn st;
  st.opcode = Opcode::kStore;
  st.mem_type = MemType::kOut;
  EXPECT_EQ(engine_of(st), Engine::kStore);
  EXPECT_EQ(engine_of(GemmInsn{}), Engine::kCompute);
  EXPECT_EQ(engine_of(AluInsn{}), Engine::kCompute);
  EXPECT_EQ(engine_of(FinishInsn{}), Engine::kCompute);
}

}  // namespace
}  // namespace cosim::vta
