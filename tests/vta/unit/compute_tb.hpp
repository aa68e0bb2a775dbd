// vta_compute Verilated alone, with its buffers, token queues, instruction
// queue and DMA port modelled here in C++ and clocked cycle by cycle.
//
// Buffer model (cosim_ram's contract, ReadLatency 1): a read issued before a clock edge
// returns the entry as it was before that edge's write; read data is held
// while the read enable is low. The DMA model answers every row request with
// its beats from `dram` in order, one per cycle unless `r_gap` thins them.
#pragma once

#include <array>
#include <deque>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "module_tb.hpp"
#include "unit_util.hpp"

#include "Vvta_compute.h"
#include "verilated.h"

namespace vta_unit {

struct ComputeTb : ModuleTb<Vvta_compute> {
  static constexpr uint32_t kUopDepth = 8192, kInpDepth = 2048, kWgtDepth = 1024, kAccDepth = 2048;
  using AccEntry = std::array<int32_t, 16>;

  // Buffers.
  std::vector<uint32_t> uop = std::vector<uint32_t>(kUopDepth, 0);
  std::vector<std::array<int8_t, 16>> inp = std::vector<std::array<int8_t, 16>>(kInpDepth);
  std::vector<std::array<int8_t, 256>> wgt = std::vector<std::array<int8_t, 256>>(kWgtDepth);  // [o*16+k]
  std::vector<AccEntry> acc = std::vector<AccEntry>(kAccDepth);

  // Environment.
  int l2c_tokens = 0, s2c_tokens = 0;
  int c2l_pushes = 0, c2s_pushes = 0, finishes = 0, errors = 0;
  uint32_t last_err = 0;
  std::vector<uint8_t> dram = std::vector<uint8_t>(1 << 16, 0);
  std::deque<std::array<uint8_t, 16>> beats;
  double r_gap = 0.0;  // probability of an idle R cycle

  // Observations.
  uint64_t gemm_busy = 0, alu_busy = 0, acc_writes = 0;
  uint64_t last_accept = 0, last_push = 0;
  int stall_l2c_cycles = 0;

  ComputeTb() : ModuleTb(1) {
    hold_reset();  // one clock edge in reset, then released with the clock low
    dut.clk_i = 1;
    dut.eval();
    dut.rst_ni = 1;
    dut.clk_i = 0;
    dut.eval();
  }

  void step() {
    // Inputs for this cycle, then settle the combinational outputs.
    offer_insn();
    dut.l2c_avail_i = l2c_tokens > 0;
    dut.s2c_avail_i = s2c_tokens > 0;
    dut.req_ready_i = 1;
    dut.rvalid_i = !beats.empty() && !stalls(r_gap);
    if (dut.rvalid_i) put_bytes(dut.rdata_i, 0, beats.front().data(), 16);
    dut.eval();

    if (dut.insn_ready_o) {
      queue.pop_front();
      last_accept = cycle;
    }
    if (dut.l2c_pop_o) --l2c_tokens;
    if (dut.s2c_pop_o) --s2c_tokens;
    if (dut.c2l_push_o) ++c2l_pushes, last_push = cycle;
    if (dut.c2s_push_o) ++c2s_pushes, last_push = cycle;
    if (dut.finish_o) ++finishes;
    if (dut.err_o) ++errors, last_err = dut.err_code_o;
    if (dut.gemm_busy_o) ++gemm_busy;
    if (dut.alu_busy_o) ++alu_busy;
    if (dut.stall_l2c_o) ++stall_l2c_cycles;
    if (l2c_tokens < 0 || s2c_tokens < 0) throw std::runtime_error("token popped while none available");
    if (dut.req_valid_o && dut.req_ready_i) {
      for (uint32_t b = 0; b < dut.req_beats_o; ++b) {
        std::array<uint8_t, 16> beat{};
        const uint64_t a = dut.req_addr_o + 16ull * b;
        if (a + 16 > dram.size()) throw std::runtime_error("DMA read beyond the test DRAM");
        for (int i = 0; i < 16; ++i) beat[i] = dram[a + i];
        beats.push_back(beat);
      }
    }
    if (dut.rvalid_i && dut.rready_o) beats.pop_front();

    // Reads see the buffers before this edge's writes.
    const bool uop_re = dut.uop_re_o, inp_re = dut.inp_re_o, wgt_re = dut.wgt_re_o;
    const uint32_t acc_re = dut.acc_re_o;
    const uint32_t uop_ra = dut.uop_raddr_o, inp_ra = dut.inp_raddr_o, wgt_ra = dut.wgt_raddr_o;
    const uint32_t acc_ra0 = dut.acc_raddr_o & 0x7ff, acc_ra1 = (dut.acc_raddr_o >> 11) & 0x7ff;
    const uint32_t uop_rd = uop.at(uop_ra);
    const std::array<int8_t, 16> inp_rd = inp.at(inp_ra);
    const std::array<int8_t, 256>& wgt_rd = wgt.at(wgt_ra);  // not written by this module
    const AccEntry acc_rd0 = acc.at(acc_ra0), acc_rd1 = acc.at(acc_ra1);

    // Writes.
    if (dut.uop_we_o) uop.at(dut.uop_waddr_o) = dut.uop_wdata_o;
    if (dut.acc_we_o) {
      ++acc_writes;
      AccEntry& e = acc.at(dut.acc_waddr_o);
      for (unsigned c = 0; c < 4; ++c)
        if ((dut.acc_wmask_o >> c) & 1u) get_bytes(dut.acc_wdata_o, 16 * c, reinterpret_cast<uint8_t*>(e.data()) + 16 * c, 16);
    }

    // The edge, then the registered read data (changing them before the
    // edge would let this edge's flops see next cycle's data).
    dut.clk_i = 1;
    dut.eval();
    if (uop_re) dut.uop_rdata_i = uop_rd;
    if (inp_re) put_bytes(dut.inp_rdata_i, 0, inp_rd.data(), 16);
    if (wgt_re) put_bytes(dut.wgt_rdata_i, 0, wgt_rd.data(), 256);
    if (acc_re & 1) put_bytes(dut.acc_rdata_i, 0, acc_rd0.data(), 64);
    if (acc_re & 2) put_bytes(dut.acc_rdata_i, 64, acc_rd1.data(), 64);
    ++cycle;
  }

  // Clocks until the queue is drained and the engine idle again.
  void run(uint64_t max_cycles = 200000) {
    this->run_until_idle([this] { step(); }, [] { return true; }, max_cycles, "vta_compute");
  }
};

}  // namespace vta_unit
