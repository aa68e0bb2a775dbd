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

namespace vta_unit {

struct ComputeTb : ModuleTb<Vvta_compute, EnginePins<1>> {
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
  std::deque<Beat> beats;
  double r_gap = 0.0;  // probability of an idle R cycle

  // Observations.
  uint64_t gemm_busy = 0, alu_busy = 0, acc_writes = 0;
  uint64_t last_accept = 0, last_push = 0;
  int stall_l2c_cycles = 0;

  // One clock edge in reset, released with the clock low.
  ComputeTb() : ModuleTb(1, "vta_compute") {}

  // Inputs for this cycle (the instruction from insn_port): tokens, the DMA
  // port and the registered read data of the last edge's reads.
  void drive(Vvta_compute& m) override {
    m.l2c_avail_i = l2c_tokens > 0;
    m.s2c_avail_i = s2c_tokens > 0;
    m.req_ready_i = 1;
    m.rvalid_i = !beats.empty() && !stalls(r_gap);
    if (m.rvalid_i) put_bytes(m.rdata_i, 0, beats.front().data(), 16);
    read_data.present(m);
  }

  // The settled outputs: handshakes, counters, and what the edge does to
  // the buffers.
  void sample(const Vvta_compute& m, uint64_t cycle) override {
    if (m.insn_ready_o) last_accept = cycle;
    if (m.l2c_pop_o) --l2c_tokens;
    if (m.s2c_pop_o) --s2c_tokens;
    if (m.c2l_push_o) ++c2l_pushes, last_push = cycle;
    if (m.c2s_push_o) ++c2s_pushes, last_push = cycle;
    if (m.finish_o) ++finishes;
    if (m.err_o) ++errors, last_err = m.err_code_o;
    if (m.gemm_busy_o) ++gemm_busy;
    if (m.alu_busy_o) ++alu_busy;
    if (m.stall_l2c_o) ++stall_l2c_cycles;
    if (l2c_tokens < 0 || s2c_tokens < 0) throw std::runtime_error("token popped while none available");
    if (m.req_valid_o && m.req_ready_i) queue_row_beats(beats, dram, m.req_addr_o, m.req_beats_o);
    if (m.rvalid_i && m.rready_o) beats.pop_front();

    // Reads see the buffers before this edge's writes.
    read_data.read(m, *this);

    // Writes.
    if (m.uop_we_o) uop.at(m.uop_waddr_o) = m.uop_wdata_o;
    if (m.acc_we_o) {
      ++acc_writes;
      AccEntry& e = acc.at(m.acc_waddr_o);
      for (unsigned c = 0; c < 4; ++c)
        if ((m.acc_wmask_o >> c) & 1u) get_bytes(m.acc_wdata_o, 16 * c, reinterpret_cast<uint8_t*>(e.data()) + 16 * c, 16);
    }
  }

  // Clocks until the queue is drained and the engine idle again.
  void run(uint64_t max_cycles = 200000) {
    run_until_idle([] { return true; }, max_cycles);
  }

 private:
  // The buffers' read ports: the entries read at an edge, presented to the
  // engine from the next cycle on (held while the read enable is low).
  struct ReadData {
    bool uop_re = false, inp_re = false, wgt_re = false;
    uint32_t acc_re = 0;
    uint32_t uop = 0;
    std::array<int8_t, 16> inp{};
    std::array<int8_t, 256> wgt{};
    AccEntry acc0{}, acc1{};

    void read(const Vvta_compute& m, const ComputeTb& tb) {
      uop_re = m.uop_re_o, inp_re = m.inp_re_o, wgt_re = m.wgt_re_o, acc_re = m.acc_re_o;
      if (uop_re) uop = tb.uop.at(m.uop_raddr_o);
      if (inp_re) inp = tb.inp.at(m.inp_raddr_o);
      if (wgt_re) wgt = tb.wgt.at(m.wgt_raddr_o);
      if (acc_re & 1) acc0 = tb.acc.at(m.acc_raddr_o & 0x7ff);
      if (acc_re & 2) acc1 = tb.acc.at((m.acc_raddr_o >> 11) & 0x7ff);
    }
    void present(Vvta_compute& m) {
      if (uop_re) m.uop_rdata_i = uop;
      if (inp_re) put_bytes(m.inp_rdata_i, 0, inp.data(), 16);
      if (wgt_re) put_bytes(m.wgt_rdata_i, 0, wgt.data(), 256);
      if (acc_re & 1) put_bytes(m.acc_rdata_i, 0, acc0.data(), 64);
      if (acc_re & 2) put_bytes(m.acc_rdata_i, 64, acc1.data(), 64);
      uop_re = inp_re = wgt_re = false, acc_re = 0;
    }
  };
  ReadData read_data;
};

}  // namespace vta_unit
