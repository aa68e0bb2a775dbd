// The further clocks of a DUT (the manifest's `ports.clocks`: a Vitis
// kernel's ap_clk_2, FINN's ap_clk2x), each at a fixed ratio to the primary
// clock (ports.clock), which stays the clock of the cycle count, of the TLM
// time and of every interface that names no other (an interface's `clock:`:
// its binder's phases run around that clock's rising edges, harness/core.hpp).
//
// Time is counted in units: the primary clock's half period is
// Clocks::kHalfCycle units and further clock i's half period
// Clocks::kHalfPeriod[i] (both whole numbers: scripts/dutgen_ports.py picks
// the unit from the ratios). The primary clock starts low at time 0 and
// rises at kHalfCycle, 3 kHalfCycle, ...; every further clock rises at the
// primary clock's first rising edge too (their rising edges aligned there, as
// a clock generator's outputs are) and toggles every kHalfPeriod[i] before
// and after it, so a clock twice as fast rises at each primary edge. The
// harness core asks for the further edges up to each primary edge it is
// about to make (to_next_edge): those strictly before it are made and
// evaluated one time step at a time, in order; those at the same instant are
// only set, so the primary edge's eval takes them together, like
// simultaneous edges in an event simulator: every flop samples the values
// from before them. A clock marked early (kEarly[i], the manifest's
// `early: true`) has its edges that meet a primary edge evaluated just
// before it instead: logic that reads the primary clock as data on its
// edges (FINN's double-pumped units find their phase so, through LUTs whose
// delay shows the level before the edge) sees the level before it.
//
// `Clocks` is the generated pins::Top::Clocks:
//   static constexpr unsigned kCount;
//   static constexpr uint64_t kHalfCycle, kHalfPeriod[kCount];
//   static constexpr bool kEarly[kCount];
//   static constexpr int kResetCycles;   // primary cycles the resets are held
//   template <class M> static void set(M&, unsigned i, uint8_t level);
//   template <class M> static void reset(M&, bool active);  // their resets
#pragma once

#include <array>
#include <cstdint>

namespace cosim::tb::harness {

template <class Clocks>
class ClockSet {
 public:
  static constexpr unsigned kCount = Clocks::kCount;

  // Each further clock at its level at time 0: the edge after time 0 is
  // the first of its sequence through kHalfCycle (rising there) that lies
  // after 0.
  template <class Model>
  void start(Model& m) {
    for (unsigned i = 0; i < kCount; ++i) {
      const uint64_t h = Clocks::kHalfPeriod[i];
      const uint64_t whole = Clocks::kHalfCycle / h;  // half periods from 0 to the first primary rise
      const bool exact = Clocks::kHalfCycle % h == 0;
      next_[i] = exact ? h : Clocks::kHalfCycle % h;
      // That edge is `whole` (or whole - 1) half periods before the rising
      // edge at kHalfCycle: rising itself when that count is even.
      const bool next_rises = (exact ? whole - 1 : whole) % 2 == 0;
      level_[i] = next_rises ? 0 : 1;
      Clocks::set(m, i, level_[i]);
    }
    now_ = 0;
  }

  // Moves time to the primary clock's next edge. For each further edge
  // strictly before it: `before(rises)` (rises: bit i set when clock i
  // rises there) before the clocks change, then `between(units_before,
  // rises)` after (the model to be evaluated there; the edge lies
  // units_before units ahead of the primary one); the same for the early
  // clocks' edges at it (units_before 0). The other edges at the primary
  // edge are set and left to its eval: returns the clocks rising among them.
  template <class Model, class Before, class Between>
  uint32_t to_next_edge(Model& m, Before&& before, Between&& between) {
    now_ += Clocks::kHalfCycle;
    for (;;) {
      uint64_t at = next_[0];
      for (unsigned i = 1; i < kCount; ++i) at = next_[i] < at ? next_[i] : at;
      if (at > now_) return 0;
      if (at == now_) {
        const uint32_t early = rising_at(at, true);
        before(early);
        if (toggle_at(m, at, true)) between(0, early);
        const uint32_t rest = rising_at(at, false);
        toggle_at(m, at, false);
        return rest;
      }
      const uint32_t rises = rising_at(at, true) | rising_at(at, false);
      before(rises);
      toggle_at(m, at, true);
      toggle_at(m, at, false);
      between(now_ - at, rises);
    }
  }

 private:
  static_assert(kCount <= 32, "at most 32 further clocks (a mask of them is a uint32_t)");

  // The clocks (the early ones, or the others) rising at `at`.
  uint32_t rising_at(uint64_t at, bool early) const {
    uint32_t rises = 0;
    for (unsigned i = 0; i < kCount; ++i) {
      if (next_[i] == at && Clocks::kEarly[i] == early && level_[i] == 0) rises |= uint32_t{1} << i;
    }
    return rises;
  }

  // Toggles the clocks (the early ones, or the others) whose next edge is at
  // `at`; whether any did.
  template <class Model>
  bool toggle_at(Model& m, uint64_t at, bool early) {
    bool any = false;
    for (unsigned i = 0; i < kCount; ++i) {
      if (next_[i] != at || Clocks::kEarly[i] != early) continue;
      level_[i] ^= 1;
      Clocks::set(m, i, level_[i]);
      next_[i] += Clocks::kHalfPeriod[i];
      any = true;
    }
    return any;
  }

  uint64_t now_ = 0;                    // the primary clock's last edge
  std::array<uint64_t, kCount> next_{};  // each further clock's next edge
  std::array<uint8_t, kCount> level_{};
};

}  // namespace cosim::tb::harness
