// A small matrix multiply built with ProgramBuilder (shared by the model and
// the RTL tests): OUT[m][n] = clip((sum_k X[m][k] * W[n][k] + bias) >> 3)
// for M = 4, K = 32, N = 32, with the expected bytes computed directly.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "vta/program_builder.hpp"

namespace cosim::vta::testing {

struct MatmulCase {
  std::vector<uint8_t> dram;    // initial image with data, uops and insns
  BuiltProgram program;
  DramRegion out;
  std::vector<uint8_t> expect;  // expected bytes of `out`
};

inline MatmulCase make_matmul_case(uint32_t seed) {
  constexpr int M = 4, K = 32, N = 32, KB = K / 16, NB = N / 16;
  std::mt19937 rng(seed);
  std::vector<int8_t> x(M * K), w(N * K), bias(M * N);
  for (auto& v : x) v = static_cast<int8_t>(rng());
  for (auto& v : w) v = static_cast<int8_t>(rng());
  for (auto& v : bias) v = static_cast<int8_t>(rng());

  MatmulCase c;
  DramLayout layout(256);  // keep address 0 unused
  const DramRegion inp = layout.alloc("x", MemType::kInp, M * KB);
  const DramRegion wgt = layout.alloc("w", MemType::kWgt, NB * KB);
  const DramRegion acc8 = layout.alloc("bias", MemType::kAcc8, M * NB);
  c.out = layout.alloc("out", MemType::kOut, M * NB);

  ProgramBuilder b;
  b.load_2d(MemType::kInp, 0, inp.elem_base(), M, KB, KB);
  b.load_2d(MemType::kWgt, 0, wgt.elem_base(), 1, NB * KB, NB * KB);
  b.sync(Engine::kLoad, Engine::kCompute);
  b.load_2d(MemType::kAcc8, 0, acc8.elem_base(), M, NB, NB);  // the bias becomes the initial accumulator
  std::vector<Uop> gemm_uops;
  for (int nb = 0; nb < NB; ++nb) {
    for (int kb = 0; kb < KB; ++kb) {
      gemm_uops.push_back(Uop{static_cast<uint16_t>(nb), static_cast<uint16_t>(kb), static_cast<uint16_t>(nb * KB + kb)});
    }
  }
  const UopRange gk = b.load_uops(gemm_uops);
  b.gemm(gk, Loop{M, NB, KB, 0});
  std::vector<Uop> alu_uops;
  for (int nb = 0; nb < NB; ++nb) alu_uops.push_back(Uop{static_cast<uint16_t>(nb), static_cast<uint16_t>(nb), 0});
  const UopRange ak = b.load_uops(alu_uops);
  b.alu_imm(AluOp::kShr, 3, ak, Loop{M, NB, NB, 0});
  b.alu_imm(AluOp::kMin, 127, ak, Loop{M, NB, NB, 0});
  b.alu_imm(AluOp::kMax, -128, ak, Loop{M, NB, NB, 0});
  b.sync(Engine::kCompute, Engine::kStore);
  b.store_2d(0, c.out.elem_base(), M, NB, NB);
  b.finish();
  c.program = b.build(layout);
  c.dram = layout.make_image();
  // DRAM layouts: INP element (m, kb) = x[m][kb*16 .. +16]; WGT element
  // (nb, kb) row o = w[nb*16+o][kb*16 .. +16]; ACC_8BIT element (m, nb).
  std::vector<uint8_t> buf;
  for (int m = 0; m < M; ++m) {
    for (int k = 0; k < K; ++k) buf.push_back(static_cast<uint8_t>(x[m * K + k]));
  }
  write_region(c.dram, inp, buf.data(), buf.size());
  buf.clear();
  for (int nb = 0; nb < NB; ++nb) {
    for (int kb = 0; kb < KB; ++kb) {
      for (int o = 0; o < 16; ++o) {
        for (int k = 0; k < 16; ++k) buf.push_back(static_cast<uint8_t>(w[(nb * 16 + o) * K + kb * 16 + k]));
      }
    }
  }
  write_region(c.dram, wgt, buf.data(), buf.size());
  buf.assign(bias.begin(), bias.end());
  write_region(c.dram, acc8, buf.data(), buf.size());
  place(c.program, c.dram);

  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      int64_t s = bias[m * N + n];
      for (int k = 0; k < K; ++k) s += int64_t{x[m * K + k]} * w[n * K + k];
      s >>= 3;  // arithmetic: floor division by 8
      c.expect.push_back(static_cast<uint8_t>(static_cast<int8_t>(std::clamp<int64_t>(s, -128, 127))));
    }
  }
  return c;
}

// Double-buffered ("two virtual threads") tiled matrix multiply: tile t uses
// INP and ACC half t % 2, so the LOAD of tile t+1 overlaps the GEMM of tile t
// and the STORE of tile t-1. Buffer halves are handed over with tokens, with
// two credits pushed up front (queue counts reach 2) and drained at the end.
// OUT[m][n] = low byte of ((sum_k X[m][k] * W[n][k]) >> 4), M = 2 * tiles.
inline MatmulCase make_pingpong_case(uint32_t seed, int tiles = 6) {
  constexpr int MT = 2, K = 32, KB = 2, N = 16;
  const int M = MT * tiles;
  std::mt19937 rng(seed);
  std::vector<int8_t> x(M * K), w(N * K);
  for (auto& v : x) v = static_cast<int8_t>(rng());
  for (auto& v : w) v = static_cast<int8_t>(rng());
  MatmulCase c;
  DramLayout layout;
  const DramRegion inp = layout.alloc("x", MemType::kInp, M * KB);
  const DramRegion wgt = layout.alloc("w", MemType::kWgt, KB);
  c.out = layout.alloc("out", MemType::kOut, M);

  ProgramBuilder b;
  b.load_2d(MemType::kWgt, 0, wgt.elem_base(), 1, KB, KB);
  for (int credit = 0; credit < 2; ++credit) {
    b.push(Engine::kCompute, Engine::kLoad);   // INP half free
    b.push(Engine::kStore, Engine::kCompute);  // ACC half free
  }
  for (int t = 0; t < tiles; ++t) {
    const uint16_t h = static_cast<uint16_t>(t % 2);
    b.pop(Engine::kCompute, Engine::kLoad);
    b.load_2d(MemType::kInp, h * MT * KB, inp.elem(t * MT * KB), MT, KB, KB);
    b.push(Engine::kLoad, Engine::kCompute);
    b.pop(Engine::kLoad, Engine::kCompute);
    b.pop(Engine::kStore, Engine::kCompute);
    const UopRange reset = b.load_uops({Uop{static_cast<uint16_t>(h * MT), 0, 0}});
    b.gemm_reset(reset, Loop{MT, 1, 0, 0});
    std::vector<Uop> k;
    for (int kb = 0; kb < KB; ++kb) {
      k.push_back(Uop{static_cast<uint16_t>(h * MT), static_cast<uint16_t>(h * MT * KB + kb), static_cast<uint16_t>(kb)});
    }
    b.gemm(b.load_uops(k), Loop{MT, 1, KB, 0});
    b.push(Engine::kCompute, Engine::kLoad);
    const UopRange a = b.load_uops({Uop{static_cast<uint16_t>(h * MT), static_cast<uint16_t>(h * MT), 0}});
    b.alu_imm(AluOp::kShr, 4, a, Loop{MT, 1, 1, 0});
    b.push(Engine::kCompute, Engine::kStore);
    b.pop(Engine::kCompute, Engine::kStore);
    b.store_2d(h * MT, c.out.elem(t * MT), 1, MT, MT);
    b.push(Engine::kStore, Engine::kCompute);
  }
  for (int credit = 0; credit < 2; ++credit) {  // take the credits back
    b.pop(Engine::kCompute, Engine::kLoad);
    b.noop(Engine::kLoad);
    b.pop(Engine::kStore, Engine::kCompute);
    b.noop(Engine::kCompute);
  }
  b.finish();
  c.program = b.build(layout);
  c.dram = layout.make_image();
  std::vector<uint8_t> buf(x.begin(), x.end());
  write_region(c.dram, inp, buf.data(), buf.size());
  buf.clear();
  for (int kb = 0; kb < KB; ++kb) {
    for (int o = 0; o < 16; ++o) {
      for (int kk = 0; kk < 16; ++kk) buf.push_back(static_cast<uint8_t>(w[o * K + kb * 16 + kk]));
    }
  }
  write_region(c.dram, wgt, buf.data(), buf.size());
  place(c.program, c.dram);
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      int64_t s = 0;
      for (int kk = 0; kk < K; ++kk) s += int64_t{x[m * K + kk]} * w[n * K + kk];
      c.expect.push_back(static_cast<uint8_t>(static_cast<uint64_t>(s >> 4) & 0xFF));
    }
  }
  return c;
}

}  // namespace cosim::vta::testing
