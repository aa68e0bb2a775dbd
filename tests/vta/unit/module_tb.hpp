// One Verilated VTA engine under test: its own context and model, the
// coverage dump when it goes, and the reset the engines share. The engine
// testbenches (ComputeTb, LoadTb, StoreTb) derive from it and model the
// engine's surroundings.
#pragma once

#include "verilated.h"

#include <cstdint>
#include <deque>
#include <random>
#include <stdexcept>
#include <string>

#include "coverage/rtl_coverage.hpp"
#include "unit_util.hpp"

namespace vta_unit {

template <class Model>
struct ModuleTb {
  VerilatedContext ctx;
  Model dut{&ctx};

  std::deque<Insn> queue;  // instructions offered to the engine, oldest first
  std::mt19937 rng;        // the surroundings' random stalls
  uint64_t cycle = 0;      // clock edges since reset

  explicit ModuleTb(uint32_t seed) : rng(seed) {}
  ModuleTb(const ModuleTb&) = delete;
  ModuleTb& operator=(const ModuleTb&) = delete;
  ~ModuleTb() {
    // Verilator 5.006 unregisters the model's scopes (--assert) from the
    // thread's current context: make that ours, not a destroyed one.
    Verilated::threadContextp(&ctx);
    cosim::tb::write_rtl_coverage(ctx, "vta");  // coverage builds only
  }

  // Reset asserted with the clock low and no instruction offered.
  void hold_reset() {
    dut.clk_i = 0;
    dut.rst_ni = 0;
    dut.clr_i = 0;
    dut.halt_i = 0;
    dut.insn_valid_i = 0;
    dut.eval();
  }
  // The same, then released.
  void reset() {
    hold_reset();
    dut.rst_ni = 1;
    dut.eval();
  }

  // Start of a cycle: the clock low and the queue's oldest instruction offered.
  void offer_insn() {
    dut.clk_i = 0;
    dut.insn_valid_i = !queue.empty();
    if (!queue.empty()) put_insn(dut.insn_i, queue.front());
  }
  // True with probability p (never for 0): a handshake the surroundings
  // hold off this cycle.
  bool stalls(double p) {
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    return p > 0.0 && u01(rng) < p;
  }

  // Clocks the engine (`step()`: one cycle of the testbench, counting
  // `cycle`) until its instruction queue is drained, the engine shows
  // EngIdle and `idle()` holds for the rest of its surroundings; throws
  // naming `engine` after `max_cycles`.
  template <class Step, class Idle>
  void run_until_idle(Step step, Idle idle, uint64_t max_cycles, const char* engine) {
    const uint64_t end = cycle + max_cycles;
    while (cycle < end) {
      step();
      dut.clk_i = 0;
      dut.insn_valid_i = !queue.empty();
      dut.eval();
      if (queue.empty() && dut.state_o == 0 /* EngIdle */ && idle()) return;
    }
    throw std::runtime_error(std::string(engine) + " did not go idle within " + std::to_string(max_cycles) + " cycles");
  }
};

}  // namespace vta_unit
