// VTA core figures (issue 3), on the Verilated core from the bare C++ clock
// loop (cosim::tb::vta::BareDriver), default AXI slave (one beat per cycle, no
// extra latency):
//
//  1. GEMM efficiency. A GEMM-heavy program (one reset GEMM + kGemms GEMMs
//     of 64 x 64 micro-op iterations on resident INP / WGT tiles). Ideal =
//     one micro-op per cycle. "Steady state" = GEMM micro-ops / GEMM_BUSY
//     cycles (perf counter: cycles a GEMM instruction executes, so it
//     includes each instruction's pipeline fill and drain); "overall" =
//     GEMM micro-ops / all cycles from start to FINISH (loads, store, fetch).
//
//  2. LOAD / COMPUTE overlap. A double-buffered program: kTiles tiles, each
//     a LOAD INP + LOAD WGT into buffer half t % 2 and one GEMM on that half;
//     tokens let LOAD fetch tile t + 1 (and t + 2) while COMPUTE works on
//     tile t (two virtual threads). With L = LOAD_BUSY, C = COMPUTE busy
//     (GEMM_BUSY + ALU_BUSY + CLOAD_BUSY) and T = all cycles:
//        overlap = (L + C - T) / min(L, C)
//     the share of the shorter engine's busy time hidden under the other
//     one: 1 = fully hidden, 0 = serial (or worse: idle gaps, T counts
//     fetch and the final STORE too, so the figure is a lower bound). The
//     same tiles with single-buffered tokens (each load waits for the
//     previous GEMM) are run for comparison.
//
//  3. Simulation speed: simulated cycles per wall second and per CPU second
//     (std::clock: this process only, since the machine is shared).
//
// Every run's DRAM result is checked against the functional model.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "vta/functional_model.hpp"
#include "vta/isa.hpp"
#include "vta/core/bare_driver.hpp"

#ifdef BENCH_VTA_FAST
class Vvta_rtl_fast;
#endif

namespace {

using namespace cosim::vta;
using cosim::tb::vta::BareDriver;
using cosim::tb::vta::RtlRunResult;

// Flat DRAM image regions (byte addresses).
constexpr uint64_t kInsnAddr = 0x0;
constexpr uint64_t kUopAddr = 0x8000;    // 4 B elements
constexpr uint64_t kInpAddr = 0x10000;   // 16 B
constexpr uint64_t kWgtAddr = 0x40000;   // 256 B
constexpr uint64_t kOutAddr = 0x200000;  // 16 B
constexpr uint64_t kDramSize = 0x240000;

struct Program {
  std::vector<uint8_t> dram = std::vector<uint8_t>(kDramSize, 0);
  std::vector<Insn> insns;
  uint64_t gemm_uops = 0;
};

DepFlags deps(bool pop_prev, bool pop_next, bool push_prev, bool push_next) {
  DepFlags d;
  d.pop_prev = pop_prev;
  d.pop_next = pop_next;
  d.push_prev = push_prev;
  d.push_next = push_next;
  return d;
}

MemInsn mem(Opcode op, MemType t, uint32_t sram, uint64_t byte_addr, uint32_t elem_bytes, uint32_t n, DepFlags d = {}) {
  MemInsn m;
  m.opcode = op;
  m.dep = d;
  m.mem_type = t;
  m.sram_base = static_cast<uint16_t>(sram);
  m.dram_base = static_cast<uint32_t>(byte_addr / elem_bytes);
  m.y_size = 1;
  m.x_size = static_cast<uint16_t>(n);
  m.x_stride = static_cast<uint16_t>(n);
  return m;
}

GemmInsn gemm(uint32_t uop_bgn, uint32_t iter_out, uint32_t iter_in, uint32_t dst_out, uint32_t src_out,
              uint32_t src_in, uint32_t wgt_in, bool reset, DepFlags d = {}) {
  GemmInsn g;
  g.dep = d;
  g.reset = reset;
  g.loop.uop_bgn = static_cast<uint16_t>(uop_bgn);
  g.loop.uop_end = static_cast<uint16_t>(uop_bgn + 1);
  g.loop.iter_out = static_cast<uint16_t>(iter_out);
  g.loop.iter_in = static_cast<uint16_t>(iter_in);
  g.loop.dst_factor_out = static_cast<uint16_t>(dst_out);
  g.loop.src_factor_out = static_cast<uint16_t>(src_out);
  g.loop.src_factor_in = static_cast<uint16_t>(src_in);
  g.wgt_factor_in = static_cast<uint16_t>(wgt_in);
  return g;
}

void put_uop(Program& p, uint32_t idx, uint16_t dst, uint16_t src, uint16_t wgt) {
  Uop u;
  u.dst = dst;
  u.src = src;
  u.wgt = wgt;
  const uint32_t w = encode_uop(u);
  std::memcpy(&p.dram[kUopAddr + 4ull * idx], &w, 4);
}

void fill_random(Program& p, uint64_t addr, uint64_t bytes, uint32_t seed) {
  std::mt19937 g(seed);
  for (uint64_t i = 0; i < bytes; ++i) p.dram[addr + i] = static_cast<uint8_t>(g());
}

// 1. acc[0..64) = sum over kGemms x 64 weights of inp[i] . wgt[j].
Program gemm_heavy(int gemms) {
  Program p;
  fill_random(p, kInpAddr, 64 * 16, 1);
  fill_random(p, kWgtAddr, 64 * 256, 2);
  put_uop(p, 0, 0, 0, 0);
  p.insns.push_back(mem(Opcode::kLoad, MemType::kInp, 0, kInpAddr, 16, 64));
  p.insns.push_back(mem(Opcode::kLoad, MemType::kWgt, 0, kWgtAddr, 256, 64, deps(false, false, false, true)));
  p.insns.push_back(mem(Opcode::kLoad, MemType::kUop, 0, kUopAddr, 4, 1, deps(true, false, false, false)));
  p.insns.push_back(gemm(0, 64, 1, 1, 0, 0, 0, true));
  for (int i = 0; i < gemms; ++i)
    p.insns.push_back(gemm(0, 64, 64, 1, 1, 0, 1, false, deps(false, false, false, i + 1 == gemms)));
  p.gemm_uops = 64ull * 64 * static_cast<uint64_t>(gemms);
  p.insns.push_back(mem(Opcode::kStore, MemType::kOut, 0, kOutAddr, 16, 64, deps(true, false, true, false)));
  FinishInsn f;
  f.dep = deps(false, true, false, false);
  p.insns.push_back(f);
  return p;
}

// 2. kTiles tiles of kRows INP rows x kCols WGT rows; tile t lives in half
// t % 2 of the INP / WGT buffers and accumulates into acc[0..kRows).
constexpr uint32_t kRows = 32, kCols = 32;
Program tiled(uint32_t tiles, bool double_buffer) {
  Program p;
  fill_random(p, kInpAddr, uint64_t{tiles} * kRows * 16, 3);
  fill_random(p, kWgtAddr, uint64_t{tiles} * kCols * 256, 4);
  put_uop(p, 0, 0, 0, 0);
  put_uop(p, 1, 0, kRows, kCols);
  const uint32_t ahead = double_buffer ? 2 : 1;  // tiles LOAD may run ahead of COMPUTE
  auto load_tile = [&](uint32_t t) {
    const uint32_t h = t % 2;
    // pop_next: wait until COMPUTE has freed this half (tile t - ahead done).
    p.insns.push_back(mem(Opcode::kLoad, MemType::kInp, h * kRows, kInpAddr + uint64_t{t} * kRows * 16, 16, kRows,
                          deps(false, t >= ahead, false, false)));
    p.insns.push_back(mem(Opcode::kLoad, MemType::kWgt, h * kCols, kWgtAddr + uint64_t{t} * kCols * 256, 256, kCols,
                          deps(false, false, false, true)));
  };
  for (uint32_t t = 0; t < std::min(ahead, tiles); ++t) load_tile(t);
  p.insns.push_back(mem(Opcode::kLoad, MemType::kUop, 0, kUopAddr, 4, 2));
  p.insns.push_back(gemm(0, kRows, 1, 1, 0, 0, 0, true));
  for (uint32_t t = 0; t < tiles; ++t) {
    const bool last = t + 1 == tiles;
    // pop_prev: tile t loaded; push_prev: half free for tile t + ahead.
    p.insns.push_back(gemm(t % 2, kRows, kCols, 1, 1, 0, 1, false, deps(true, false, t + ahead < tiles, last)));
    if (t + ahead < tiles) load_tile(t + ahead);
  }
  p.gemm_uops = uint64_t{tiles} * kRows * kCols;
  p.insns.push_back(mem(Opcode::kStore, MemType::kOut, 0, kOutAddr, 16, kRows, deps(true, false, true, false)));
  FinishInsn f;
  f.dep = deps(false, true, false, false);
  p.insns.push_back(f);
  return p;
}

struct Timed {
  RtlRunResult r;
  double wall = 0, cpu = 0;
  bool exact = false;
};

Timed run(const Program& prog) {
  Program p = prog;
  const std::vector<uint8_t> code = to_bytes(p.insns);
  std::copy(code.begin(), code.end(), p.dram.begin() + kInsnAddr);
  std::vector<uint8_t> golden = p.dram;
  run_model(golden, kInsnAddr, static_cast<uint32_t>(p.insns.size()));
  Timed t;
  cosim::tb::vta::BareOptions opts;
#ifdef BENCH_VTA_FAST
  opts.build = &cosim::tb::vta::VtaCoreOver<Vvta_rtl_fast>::build();  // the fast variant: no assertions
#endif
  BareDriver drv(p.dram, opts);
  const auto w0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  t.r = drv.run(kInsnAddr, static_cast<uint32_t>(p.insns.size()), 50000000);
  t.cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  t.exact = t.r.status == RtlRunResult::Status::kDone && p.dram == golden && drv.axi_protocol_errors().empty();
  if (t.r.status != RtlRunResult::Status::kDone) std::printf("  run failed: %s\n", t.r.diagnosis.c_str());
  return t;
}

double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0.0; }

}  // namespace

int main() {
  bool ok = true;
  std::printf("VTA core (Verilated%s, bare C++ clock loop, AXI slave 1 beat/cycle, no added latency)\n\n",
#ifdef BENCH_VTA_FAST
              ", fast build: no assertions"
#else
              ""
#endif
  );

  // ---- 1. GEMM efficiency ---------------------------------------------------
  const int kGemms = 32;
  const Program g = gemm_heavy(kGemms);
  Timed best;
  std::vector<double> khz_wall, khz_cpu;
  for (int rep = 0; rep < 3; ++rep) {
    Timed t = run(g);
    ok = ok && t.exact;
    khz_wall.push_back(static_cast<double>(t.r.cycles) / t.wall / 1e3);
    khz_cpu.push_back(static_cast<double>(t.r.cycles) / t.cpu / 1e3);
    best = t;
  }
  const auto& pf = best.r.perf;
  const double uops = static_cast<double>(g.gemm_uops);
  const double reset_uops = 64;  // the reset GEMM's micro-ops, also in GEMM_BUSY
  std::printf("1. GEMM-heavy program: %d GEMMs x 64 x 64 uops (+1 reset GEMM of 64)%s\n", kGemms,
              best.exact ? "" : "  ** RESULT MISMATCH **");
  std::printf("   cycles (start to FINISH)      %llu\n", static_cast<unsigned long long>(best.r.cycles));
  std::printf("   GEMM uops                     %.0f (+%.0f reset)\n", uops, reset_uops);
  std::printf("   ideal cycles (1 uop/cycle)    %.0f\n", uops + reset_uops);
  std::printf("   GEMM busy cycles              %llu\n", static_cast<unsigned long long>(pf.gemm_busy));
  std::printf("   steady state (uops/GEMM busy) %.2f %% of ideal   [target >= 95 %%]\n",
              pct(uops + reset_uops, static_cast<double>(pf.gemm_busy)));
  std::printf("   overall (uops/all cycles)     %.2f %% of ideal\n\n",
              pct(uops + reset_uops, static_cast<double>(best.r.cycles)));

  // ---- 2. LOAD / COMPUTE overlap ------------------------------------------
  const uint32_t kTiles = 16;
  auto overlap_line = [&](const char* name, const Timed& t) {
    const auto& q = t.r.perf;
    const double L = static_cast<double>(q.load_busy);
    const double C = static_cast<double>(q.gemm_busy + q.alu_busy + q.compute_load_busy);
    const double T = static_cast<double>(t.r.cycles);
    std::printf("   %-15s cycles %7.0f  LOAD busy %7.0f  COMPUTE busy %7.0f  overlap %6.1f %%%s\n", name, T, L, C,
                pct(L + C - T, std::min(L, C)), t.exact ? "" : "  ** RESULT MISMATCH **");
    return T;
  };
  std::printf("2. %u tiles of %u INP + %u WGT rows (LOAD %u beats), GEMM %u uops per tile\n", kTiles, kRows, kCols,
              kRows + kCols * 16, kRows * kCols);
  std::printf("   overlap = (LOAD busy + COMPUTE busy - cycles) / min(LOAD busy, COMPUTE busy)\n");
  const Timed db = run(tiled(kTiles, true));
  const Timed sb = run(tiled(kTiles, false));
  ok = ok && db.exact && sb.exact;
  const double tdb = overlap_line("double-buffered", db);
  const double tsb = overlap_line("single-buffered", sb);
  std::printf("   speed-up of double buffering  %.2fx\n\n", tsb / tdb);

  // ---- 3. Simulation speed ----------------------------------------------------
  std::sort(khz_wall.begin(), khz_wall.end());
  std::sort(khz_cpu.begin(), khz_cpu.end());
  std::printf("3. simulated speed, GEMM-heavy program (%llu cycles, 3 runs, median [min..max])\n",
              static_cast<unsigned long long>(best.r.cycles));
  std::printf("   per wall second  %.0f kHz [%.0f..%.0f]\n", khz_wall[1], khz_wall[0], khz_wall[2]);
  std::printf("   per CPU second   %.0f kHz [%.0f..%.0f]   [target >= 500 kHz]\n", khz_cpu[1], khz_cpu[0],
              khz_cpu[2]);
  std::printf("   double-buffered tile program: %.0f kHz per CPU second, %.0f kHz wall\n",
              static_cast<double>(db.r.cycles) / db.cpu / 1e3, static_cast<double>(db.r.cycles) / db.wall / 1e3);
  std::printf("\nresults bit-exact against the functional model: %s\n", ok ? "yes" : "NO");
  return ok ? 0 : 1;
}
