// The field layouts generated from rtl/vta/vta_isa.yaml (dut/vta_isa.hpp)
// against the field table of shared/spec/vta-isa.md, written out here by hand:
// every field of every format at its spec bits, nothing more, and each field
// written at its largest value sets exactly those bits of the word.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dut/vta_isa.hpp"

namespace cosim::vta {
namespace {

namespace layout = isa_layout;

struct SpecField {
  const char* name;
  unsigned hi, lo;
};

// shared/spec/vta-isa.md, "Instruction fields".
const std::vector<SpecField> kHeader = {
    {"opcode", 2, 0}, {"pop_prev_dep", 3, 3}, {"pop_next_dep", 4, 4}, {"push_prev_dep", 5, 5}, {"push_next_dep", 6, 6}};
const std::vector<SpecField> kMem = {{"memory_type", 9, 7}, {"sram_base", 25, 10}, {"dram_base", 57, 26},
                                     {"y_size", 79, 64},    {"x_size", 95, 80},     {"x_stride", 111, 96},
                                     {"y_pad_0", 115, 112}, {"y_pad_1", 119, 116},  {"x_pad_0", 123, 120},
                                     {"x_pad_1", 127, 124}};
const std::vector<SpecField> kLoop = {{"uop_bgn", 20, 8},         {"uop_end", 34, 21},        {"iter_out", 48, 35},
                                      {"iter_in", 62, 49},        {"dst_factor_out", 74, 64}, {"dst_factor_in", 85, 75},
                                      {"src_factor_out", 96, 86}, {"src_factor_in", 107, 97}};
const std::vector<SpecField> kGemmOwn = {
    {"reset_reg", 7, 7}, {"wgt_factor_out", 117, 108}, {"wgt_factor_in", 127, 118}};
const std::vector<SpecField> kAluOwn = {
    {"reset_reg", 7, 7}, {"alu_opcode", 110, 108}, {"use_imm", 111, 111}, {"imm", 127, 112}};
const std::vector<SpecField> kUop = {{"dst_idx", 10, 0}, {"src_idx", 21, 11}, {"wgt_idx", 31, 22}};

std::vector<SpecField> join(std::initializer_list<std::vector<SpecField>> parts) {
  std::vector<SpecField> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// The word with bits hi..lo set, as 64-bit chunks.
std::vector<uint64_t> spec_mask(const SpecField& s, unsigned chunks) {
  std::vector<uint64_t> m(chunks, 0);
  for (unsigned b = s.lo; b <= s.hi; ++b) m[b / 64] |= uint64_t{1} << (b % 64);
  return m;
}

template <std::size_t N>
void expect_layout(const layout::Field (&generated)[N], const std::vector<SpecField>& spec, unsigned word_bits,
                   const char* format) {
  SCOPED_TRACE(format);
  EXPECT_EQ(N, spec.size()) << "the generated layout has another number of fields than the spec";
  const unsigned chunks = (word_bits + 63) / 64;
  for (const SpecField& s : spec) {
    SCOPED_TRACE(s.name);
    const layout::Field* g = nullptr;
    for (const layout::Field& f : generated) {
      if (std::string(f.name) == s.name) g = &f;
    }
    ASSERT_NE(g, nullptr) << "field missing from the generated layout";
    EXPECT_EQ(g->lsb, s.lo);
    EXPECT_EQ(g->lsb + g->width - 1, s.hi);
    // Written at its largest value into an empty word: exactly the spec bits.
    std::vector<uint64_t> word(chunks, 0);
    layout::put(word.data(), *g, layout::field_max(*g));
    EXPECT_EQ(word, spec_mask(s, chunks));
    EXPECT_EQ(layout::get(word.data(), *g), layout::field_max(*g));
    // Every other bit set: the field reads 0 and writing it leaves the rest alone.
    std::vector<uint64_t> rest(chunks, ~uint64_t{0});
    if (word_bits % 64) rest.back() = (uint64_t{1} << (word_bits % 64)) - 1;
    for (unsigned c = 0; c < chunks; ++c) rest[c] &= ~word[c];
    std::vector<uint64_t> both = rest;
    layout::put(both.data(), *g, layout::field_max(*g));
    EXPECT_EQ(layout::get(rest.data(), *g), 0u);
    for (unsigned c = 0; c < chunks; ++c) EXPECT_EQ(both[c], rest[c] | word[c]);
  }
}

TEST(VtaIsaLayout, InstructionFormatsMatchTheSpecTable) {
  EXPECT_EQ(layout::kInsnBits, 128u);
  expect_layout(layout::insn_hdr::kFields, kHeader, layout::kInsnBits, "header");
  expect_layout(layout::insn_mem::kFields, join({kHeader, kMem}), layout::kInsnBits, "LOAD / STORE");
  expect_layout(layout::insn_gemm::kFields, join({kHeader, kGemmOwn, kLoop}), layout::kInsnBits, "GEMM");
  expect_layout(layout::insn_alu::kFields, join({kHeader, kAluOwn, kLoop}), layout::kInsnBits, "ALU");
  expect_layout(layout::insn_finish::kFields, kHeader, layout::kInsnBits, "FINISH");
}

TEST(VtaIsaLayout, MicroOpMatchesTheSpecTable) {
  EXPECT_EQ(layout::kUopBits, 32u);
  expect_layout(layout::uop::kFields, kUop, layout::kUopBits, "micro-op");
}

TEST(VtaIsaLayout, OpcodesAndSignedImmediate) {
  // Spec: LOAD 0, STORE 1, GEMM 2, FINISH 3, ALU 4.
  EXPECT_EQ(layout::insn_mem::kOpLoad, 0u);
  EXPECT_EQ(layout::insn_mem::kOpStore, 1u);
  EXPECT_EQ(layout::insn_gemm::kOpGemm, 2u);
  EXPECT_EQ(layout::insn_finish::kOpFinish, 3u);
  EXPECT_EQ(layout::insn_alu::kOpAlu, 4u);
  // imm is the only signed field (signed 16 bit, sign-extended).
  for (const layout::Field& f : layout::insn_alu::kFields) {
    EXPECT_EQ(f.is_signed, std::string(f.name) == "imm") << f.name;
  }
  uint64_t word[2] = {0, 0};
  layout::put(word, layout::insn_alu::kImm, 0x8001);
  EXPECT_EQ(layout::get_signed(word, layout::insn_alu::kImm), -32767);
  layout::put(word, layout::insn_alu::kImm, 0x7fff);
  EXPECT_EQ(layout::get_signed(word, layout::insn_alu::kImm), 32767);
}

}  // namespace
}  // namespace cosim::vta
