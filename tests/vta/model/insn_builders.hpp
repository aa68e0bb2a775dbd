// cpp_model's LOAD and ALU-immediate instructions and loop nests built from
// their fields in the order the ISA lists them, for the model tests
// (tests/vta/model).
#pragma once

#include <cstdint>

#include "vta/isa.hpp"

namespace cosim::test {

// LOAD `t`: y_size rows of x_size elements from dram (row pitch x_stride)
// into sram, with the pads (top, bottom, left, right); no dependency flags.
inline vta::MemInsn load(vta::MemType t, uint16_t sram, uint32_t dram, uint16_t y, uint16_t x, uint16_t stride,
                         uint8_t yp0 = 0, uint8_t yp1 = 0, uint8_t xp0 = 0, uint8_t xp1 = 0) {
  return vta::MemInsn{vta::Opcode::kLoad, vta::DepFlags{}, t, sram, dram, y, x, stride, yp0, yp1, xp0, xp1};
}

// A loop nest by the pairs the ISA groups: micro-ops [bgn, end), then
// {outer, inner} of the iteration counts, the dst factors and the src factors.
struct Pair {
  uint16_t out = 0, in = 0;
};
inline vta::LoopNest nest(uint16_t bgn, uint16_t end, Pair iters = {1, 1}, Pair dst = {}, Pair src = {}) {
  return vta::LoopNest{bgn, end, iters.out, iters.in, dst.out, dst.in, src.out, src.in};
}

// ALU `op` with the immediate `imm` over `loop`; no dependency flags.
inline vta::AluInsn alu_imm(vta::AluOp op, int16_t imm, const vta::LoopNest& loop) {
  return vta::AluInsn{vta::DepFlags{}, false, loop, op, true, imm};
}

}  // namespace cosim::test
