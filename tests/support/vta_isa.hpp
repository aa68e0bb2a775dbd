// A VTA instruction encoder for tests, written from the bit positions of
// shared/spec/vta-isa.md and kept independent of cpp_model/vta and of the
// RTL package, so a test's expectations never come from the code under test.
// Used by the RTL tests of the whole core (tests/vta/rtl) and of its modules
// (tests/vta/unit).
#pragma once

#include <cstdint>
#include <cstring>

namespace cosim::test::vta_isa {

enum Op : uint32_t { kLoad = 0, kStore = 1, kGemm = 2, kFinish = 3, kAlu = 4 };
enum Mem : uint32_t { kUop = 0, kWgt = 1, kInp = 2, kAcc = 3, kOut = 4, kAcc8 = 5 };
enum AluOp : uint32_t { kMin = 0, kMax = 1, kAdd = 2, kShr = 3, kMul = 4 };

struct Deps {
  bool pop_prev = false, pop_next = false, push_prev = false, push_next = false;
};

// One 128-bit instruction as four 32-bit words, word 0 = bits 31:0 (the
// layout of a Verilator wide port); in memory the 16 bytes are little-endian.
struct Insn {
  uint32_t w[4] = {0, 0, 0, 0};
  void set(unsigned lo, unsigned width, uint64_t v) {
    for (unsigned i = 0; i < width; ++i) {
      const unsigned b = lo + i;
      const uint32_t bit = static_cast<uint32_t>((v >> i) & 1u);
      w[b / 32] = (w[b / 32] & ~(1u << (b % 32))) | (bit << (b % 32));
    }
  }
  // The 16 bytes as the instruction stream in DRAM holds them.
  void store(uint8_t* dst) const {
    for (unsigned b = 0; b < 16; ++b) dst[b] = static_cast<uint8_t>(w[b / 4] >> (8 * (b % 4)));
  }
};

inline Insn header(uint32_t op, Deps d) {
  Insn in;
  in.set(0, 3, op);
  in.set(3, 1, d.pop_prev);
  in.set(4, 1, d.pop_next);
  in.set(5, 1, d.push_prev);
  in.set(6, 1, d.push_next);
  return in;
}

struct Pads {
  uint32_t y0 = 0, y1 = 0, x0 = 0, x1 = 0;
};

inline Insn mem_insn(uint32_t op, uint32_t mem, uint32_t sram_base, uint32_t dram_base, uint32_t y_size,
                     uint32_t x_size, uint32_t x_stride, Deps d = {}, Pads p = {}) {
  Insn in = header(op, d);
  in.set(7, 3, mem);
  in.set(10, 16, sram_base);
  in.set(26, 32, dram_base);
  in.set(64, 16, y_size);
  in.set(80, 16, x_size);
  in.set(96, 16, x_stride);
  in.set(112, 4, p.y0);
  in.set(116, 4, p.y1);
  in.set(120, 4, p.x0);
  in.set(124, 4, p.x1);
  return in;
}

// The loop nest of GEMM and ALU: for i < iter_out, j < iter_in, each
// micro-op in [uop_bgn, uop_end); the dst / src / wgt indices advance by
// i * *_out + j * *_in. Set field by field, or pair by pair as the spec
// groups them: Loop{}.uops(0, 4).iters(2, 2).dst(2, 4).src(4, 1).wgt(0, 4).
struct Loop {
  uint32_t uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1;
  uint32_t dst_out = 0, dst_in = 0, src_out = 0, src_in = 0, wgt_out = 0, wgt_in = 0;

  Loop& uops(uint32_t bgn, uint32_t end) { return set(uop_bgn, uop_end, bgn, end); }
  Loop& iters(uint32_t out, uint32_t in) { return set(iter_out, iter_in, out, in); }
  Loop& dst(uint32_t out, uint32_t in) { return set(dst_out, dst_in, out, in); }
  Loop& src(uint32_t out, uint32_t in) { return set(src_out, src_in, out, in); }
  Loop& wgt(uint32_t out, uint32_t in) { return set(wgt_out, wgt_in, out, in); }

 private:
  Loop& set(uint32_t& a, uint32_t& b, uint32_t va, uint32_t vb) {
    a = va;
    b = vb;
    return *this;
  }
};

inline Insn gemm_insn(const Loop& l, bool reset, Deps d = {}) {
  Insn in = header(kGemm, d);
  in.set(7, 1, reset);
  in.set(8, 13, l.uop_bgn);
  in.set(21, 14, l.uop_end);
  in.set(35, 14, l.iter_out);
  in.set(49, 14, l.iter_in);
  in.set(64, 11, l.dst_out);
  in.set(75, 11, l.dst_in);
  in.set(86, 11, l.src_out);
  in.set(97, 11, l.src_in);
  in.set(108, 10, l.wgt_out);
  in.set(118, 10, l.wgt_in);
  return in;
}

inline Insn alu_insn(const Loop& l, uint32_t alu_op, bool use_imm, int32_t imm, Deps d = {}) {
  Insn in = gemm_insn(l, false, d);
  in.set(0, 3, kAlu);
  in.set(108, 3, alu_op);
  in.set(111, 1, use_imm);
  in.set(112, 16, static_cast<uint16_t>(imm));
  return in;
}

inline Insn finish_insn(Deps d = {}) { return header(kFinish, d); }

// A micro-op: dst (11 bits), src (11 bits), wgt (10 bits).
inline uint32_t uop(uint32_t dst, uint32_t src, uint32_t wgt) {
  return (dst & 0x7ff) | ((src & 0x7ff) << 11) | ((wgt & 0x3ffu) << 22);
}

}  // namespace cosim::test::vta_isa
