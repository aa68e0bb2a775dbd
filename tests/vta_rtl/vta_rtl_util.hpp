// Test-local VTA instruction encoder and program builder, written from the
// bit positions of shared/spec/vta-isa.md (independent of cpp_model/vta).
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "vta_bare/bare_driver.hpp"

namespace vta_rtl_test {

enum Op : uint32_t { kLoad = 0, kStore = 1, kGemm = 2, kFinish = 3, kAlu = 4 };
enum Mem : uint32_t { kUop = 0, kWgt = 1, kInp = 2, kAcc = 3, kOut = 4, kAcc8 = 5 };
enum AluOp : uint32_t { kMin = 0, kMax = 1, kAdd = 2, kShr = 3, kMul = 4 };

struct Deps {
  bool pop_prev = false, pop_next = false, push_prev = false, push_next = false;
};

struct Insn {
  uint64_t w[2] = {0, 0};
  void set(unsigned lo, unsigned width, uint64_t v) {
    for (unsigned i = 0; i < width; ++i) {
      const unsigned b = lo + i;
      const uint64_t bit = (v >> i) & 1u;
      w[b / 64] = (w[b / 64] & ~(1ULL << (b % 64))) | (bit << (b % 64));
    }
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

struct Loop {
  uint32_t uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1;
  uint32_t dst_out = 0, dst_in = 0, src_out = 0, src_in = 0, wgt_out = 0, wgt_in = 0;
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

inline uint32_t uop(uint32_t dst, uint32_t src, uint32_t wgt) {
  return (dst & 0x7ff) | ((src & 0x7ff) << 11) | ((wgt & 0x3ff) << 22);
}

// Flat DRAM image with fixed regions (byte addresses), element-aligned.
struct Layout {
  static constexpr uint64_t kInsn = 0x0;
  static constexpr uint64_t kUop = 0x10000;   // UOP elements: 4 B
  static constexpr uint64_t kInp = 0x20000;   // 16 B
  static constexpr uint64_t kWgt = 0x40000;   // 256 B
  static constexpr uint64_t kAcc = 0x80000;   // 64 B
  static constexpr uint64_t kOut = 0xc0000;   // 16 B
  static constexpr uint64_t kSize = 0x100000;
};

struct Program {
  std::vector<uint8_t> dram = std::vector<uint8_t>(Layout::kSize, 0);
  std::vector<Insn> insns;

  void add(const Insn& i) { insns.push_back(i); }
  uint32_t uop_base() const { return Layout::kUop / 4; }
  uint32_t inp_base() const { return Layout::kInp / 16; }
  uint32_t wgt_base() const { return Layout::kWgt / 256; }
  uint32_t acc_base() const { return Layout::kAcc / 64; }
  uint32_t out_base() const { return Layout::kOut / 16; }

  void put_u32(uint64_t addr, uint32_t v) { std::memcpy(&dram[addr], &v, 4); }
  uint32_t get_u32(uint64_t addr) const {
    uint32_t v;
    std::memcpy(&v, &dram[addr], 4);
    return v;
  }

  cosim::vta::RtlRunResult run(cosim::vta::BareOptions opts = {}, uint64_t max_cycles = 200000,
                               std::vector<std::string>* protocol_errors = nullptr) {
    for (std::size_t i = 0; i < insns.size(); ++i) {
      std::memcpy(&dram[Layout::kInsn + 16 * i], &insns[i].w[0], 8);
      std::memcpy(&dram[Layout::kInsn + 16 * i + 8], &insns[i].w[1], 8);
    }
    cosim::vta::BareDriver drv(dram, opts);
    auto r = drv.run(Layout::kInsn, static_cast<uint32_t>(insns.size()), max_cycles);
    if (protocol_errors) *protocol_errors = drv.axi_protocol_errors();
    return r;
  }
};

// Emits STOREs of acc[sram, sram+n) that, together, reveal every bit of the
// int32 lanes: plane k holds bits 8k+7..8k (ALU SHR by 8 between stores; the
// uop at uop_idx must be {sram, sram, 0}). Planes go to OUT elements
// out_elem + k * n. Expects the compute->store token for the first STORE to
// be pushed by the caller's last compute instruction; leaves a
// store->compute token for FINISH.
inline void store_planes(Program& p, uint32_t sram, uint32_t n, uint32_t out_elem, uint32_t uop_idx) {
  for (uint32_t k = 0; k < 4; ++k) {
    Deps sd;
    sd.pop_prev = true;
    sd.push_prev = true;
    p.add(mem_insn(kStore, kOut, sram, out_elem + k * n, 1, n, n, sd));
    if (k == 3) break;
    Loop l;
    l.uop_bgn = uop_idx;
    l.uop_end = uop_idx + 1;
    l.iter_out = n;
    l.dst_out = 1;
    l.src_out = 1;
    Insn a = alu_insn(l, kShr, true, 8, Deps{});
    // Wait for the STORE before shifting, then hand over to the next STORE.
    a.set(4, 1, 1);  // pop_next (store->compute)
    a.set(6, 1, 1);  // push_next (compute->store)
    p.add(a);
  }
}

// Reads back the planes written by store_planes: element e, lane o.
inline int32_t plane_value(const Program& p, uint32_t n, uint32_t out_elem, uint32_t e, uint32_t o) {
  uint32_t v = 0;
  for (uint32_t k = 0; k < 4; ++k) {
    const uint64_t addr = (static_cast<uint64_t>(out_elem) + k * n + e) * 16 + o;
    v |= static_cast<uint32_t>(p.dram[addr]) << (8 * k);
  }
  return static_cast<int32_t>(v);
}

}  // namespace vta_rtl_test
