// One Verilated VTA engine under test, clocked by the harness's clock loop
// (harness::Core over a ModuleBinding with the engine's reset): the engine
// testbenches (ComputeTb, LoadTb, StoreTb) derive from ModuleTb and are the
// binder of the engine's surroundings, driving its inputs before the
// falling-edge eval and modelling what the rising edge takes from its
// outputs. The instruction queue is a binder of its own, which also holds
// the engine's inputs at rest through reset.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/core.hpp"
#include "harness/module_binding.hpp"
#include "harness/port.hpp"
#include "unit_util.hpp"

namespace vta_unit {

namespace harness = cosim::tb::harness;

// The engines' clock and active-low reset, held for `ResetCycles` edges
// (0: released again with no edge).
template <int ResetCycles>
struct EnginePins : harness::ModuleBinding {
  COSIM_PIN(clock, clk_i)
  COSIM_PIN(reset, rst_ni)
  static constexpr bool kResetActiveLow = true;
  static constexpr int kResetCycles = ResetCycles;
};

// The engine's instruction queue: the oldest instruction offered, popped when
// the engine takes it; no clear, no halt. Empty through reset.
template <class Model>
class InsnQueuePort final : public harness::Port<Model> {
 public:
  explicit InsnQueuePort(std::deque<Insn>& queue) : queue_(queue) {}
  void drive(Model& m) override {
    m.clr_i = 0;
    m.halt_i = 0;
    m.insn_valid_i = !queue_.empty();
    if (!queue_.empty()) put_insn(m.insn_i, queue_.front());
  }
  void sample(const Model& m, uint64_t) override {
    if (m.insn_ready_o) queue_.pop_front();
  }

 private:
  std::deque<Insn>& queue_;
};

// One 16-byte beat of the engines' DMA read port (R data).
using Beat = std::array<uint8_t, 16>;

// The DMA model's answer to an accepted row request of `n` beats from `addr`
// (LOAD's reads, compute's ACC / UOP loads): the beats from `dram`, queued
// for R in order.
inline void queue_row_beats(std::deque<Beat>& beats, const std::vector<uint8_t>& dram, uint64_t addr, uint32_t n) {
  for (uint32_t b = 0; b < n; ++b) {
    const uint64_t a = addr + 16ull * b;
    if (a + 16 > dram.size()) throw std::runtime_error("DMA read beyond the test DRAM");
    Beat& beat = beats.emplace_back();
    std::copy_n(dram.begin() + static_cast<std::ptrdiff_t>(a), beat.size(), beat.begin());
  }
}

template <class Model, class Pins>
struct ModuleTb : harness::Port<Model> {
  std::deque<Insn> queue;  // instructions offered to the engine, oldest first
  std::mt19937 rng;        // the surroundings' random stalls
  InsnQueuePort<Model> insn_port{queue};
  harness::Core<Model, harness::NeverDone, Pins> core;
  Model& dut = core.model();

  // `engine` names the model and the engine in messages; its coverage counts
  // for the accelerator, vta.
  ModuleTb(uint32_t seed, const char* engine) : rng(seed), core(engine, nullptr, {&insn_port}) {
    core.set_coverage_name("vta");
    core.add_port(*this);
  }
  ModuleTb(const ModuleTb&) = delete;
  ModuleTb& operator=(const ModuleTb&) = delete;

  uint64_t cycles() const { return core.cycles(); }  // clock edges since reset
  // One clock cycle of the engine and its surroundings.
  void step() { core.cycle(); }

  // True with probability p (never for 0): a handshake the surroundings
  // hold off this cycle.
  bool stalls(double p) {
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    return p > 0.0 && u01(rng) < p;
  }

  // Clocks the engine until its instruction queue is drained, the engine
  // shows EngIdle and `idle()` holds for the rest of its surroundings;
  // throws naming the engine after `max_cycles`.
  template <class Idle>
  void run_until_idle(Idle idle, uint64_t max_cycles) {
    const uint64_t end = cycles() + max_cycles;
    while (cycles() < end) {
      step();
      // state_o follows insn_valid_i combinationally: show it the queue as
      // the next cycle will offer it.
      dut.insn_valid_i = !queue.empty();
      core.settle();
      if (queue.empty() && dut.state_o == 0 /* EngIdle */ && idle()) return;
    }
    throw std::runtime_error(core.dut() + " did not go idle within " + std::to_string(max_cycles) + " cycles");
  }
};

}  // namespace vta_unit
