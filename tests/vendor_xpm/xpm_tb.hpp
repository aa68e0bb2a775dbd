// A Verilated XPM stand-in (rtl/vendor/xpm) on its own, clocked from a test:
// inputs are set between edges, outputs read after settle(), and a
// SystemVerilog $error (the stand-ins' SIM_ASSERT_CHK checks) becomes
// cosim::tb::RtlAssertionError at the edge it happens on. The vendor names
// the clock wr_clk (FIFO) or clka (memories): Clock picks it. Stand-ins with
// two clocks (xpm_fifo_async, xpm_cdc_*) are clocked by Tb2 from an
// EdgeSchedule instead.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rtl_assert/rtl_assert.hpp"

namespace cosim::vendor_xpm_test {

template <class Model, class Clock>
struct Tb {
  VerilatedContext ctx;
  Model dut{&ctx};
  uint64_t cycle = 0;

  Tb() {
    cosim::tb::catch_rtl_assertions(ctx);
    clk() = 0;
  }
  ~Tb() { cosim::tb::before_model_destruction(ctx); }

  auto& clk() { return Clock{}(dut); }

  // Settles the combinational outputs for the inputs set so far.
  void settle() {
    clk() = 0;
    dut.eval();
  }
  // One rising edge.
  void edge() {
    clk() = 0;
    dut.eval();
    clk() = 1;
    ctx.time(++cycle);
    dut.eval();
    cosim::tb::check_rtl_assertions(ctx, "vendor_xpm", cycle);
  }
};

struct WrClk {
  template <class M>
  auto& operator()(M& m) const { return m.wr_clk; }
};
struct ClkA {
  template <class M>
  auto& operator()(M& m) const { return m.clka; }
};
// The second clocks: xpm_fifo_async's read clock, the xpm_cdc_* clocks, the
// memories' port B clock (CLOCKING_MODE "independent_clock").
struct ClkB { template <class M> auto& operator()(M& m) const { return m.clkb; } };
struct RdClk { template <class M> auto& operator()(M& m) const { return m.rd_clk; } };
struct SrcClk { template <class M> auto& operator()(M& m) const { return m.src_clk; } };
struct DestClk { template <class M> auto& operator()(M& m) const { return m.dest_clk; } };

// The rising edges of two free-running clocks A and B in time order: periods
// and first edges in whole time units (10 and 7: A at 10, 20, 30, ..., B at
// 7, 14, 21, ...). Edges of both at the same instant come as one Edge.
class EdgeSchedule {
 public:
  struct Edge {
    uint64_t time;
    bool a, b;  // which clocks rise
  };
  EdgeSchedule(uint64_t period_a, uint64_t period_b, uint64_t first_a, uint64_t first_b)
      : period_a_(period_a), period_b_(period_b), next_a_(first_a), next_b_(first_b) {}
  EdgeSchedule(uint64_t period_a, uint64_t period_b) : EdgeSchedule(period_a, period_b, period_a, period_b) {}

  // The next edge, without taking it.
  Edge peek() const {
    const uint64_t t = std::min(next_a_, next_b_);
    return Edge{t, next_a_ == t, next_b_ == t};
  }
  Edge take() {
    const Edge e = peek();
    if (e.a) next_a_ += period_a_;
    if (e.b) next_b_ += period_b_;
    return e;
  }
  uint64_t period_a() const { return period_a_; }
  uint64_t period_b() const { return period_b_; }
  // "wr_clk period 10, rd_clk period 7", for a test's trace.
  std::string describe(const char* name_a, const char* name_b) const {
    return std::string(name_a) + " period " + std::to_string(period_a_) + ", " + name_b + " period " +
           std::to_string(period_b_);
  }

 private:
  uint64_t period_a_, period_b_, next_a_, next_b_;
};

// A stand-in with two clocks, clocked from an EdgeSchedule: inputs are set
// between edges, outputs read after settle(); edge() takes the next edge of
// the schedule, with the context time set to its time. Clocks rising at the
// same instant rise in one eval, so a flip-flop of either domain takes the
// other domain's values from before that instant (the setup time met).
template <class Model, class ClockA, class ClockB>
struct Tb2 {
  VerilatedContext ctx;
  Model dut{&ctx};
  EdgeSchedule schedule;

  explicit Tb2(const EdgeSchedule& s) : schedule(s) {
    cosim::tb::catch_rtl_assertions(ctx);
    settle();
  }
  ~Tb2() { cosim::tb::before_model_destruction(ctx); }

  auto& clk_a() { return ClockA{}(dut); }
  auto& clk_b() { return ClockB{}(dut); }

  void settle() {
    clk_a() = 0;
    clk_b() = 0;
    dut.eval();
  }
  EdgeSchedule::Edge edge() {
    const EdgeSchedule::Edge e = schedule.take();
    settle();
    if (e.a) clk_a() = 1;
    if (e.b) clk_b() = 1;
    ctx.time(e.time);
    dut.eval();
    cosim::tb::check_rtl_assertions(ctx, "vendor_xpm", e.time);
    return e;
  }
};

// Runs `edges` (some clock edges), which should make the stand-in report a
// misuse with $error (SIM_ASSERT_CHK): whether it did (an RtlAssertionError),
// and what it printed.
struct RtlError {
  bool fired = false;
  std::string output;
};
template <class Edges>
RtlError expect_rtl_error(Edges&& edges) {
  RtlError r;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  try {
    edges();
  } catch (const cosim::tb::RtlAssertionError&) {
    r.fired = true;
  }
  r.output = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  return r;
}

// Edge times of one clock, and what a synchroniser of that clock shows:
// STAGES flip-flops show, after the clock's k-th edge, what their input held
// just before its (k - STAGES + 1)-th edge (an edge of the input's own clock at
// that very instant does not count). sample_time() is that instant, 0 before
// there were enough edges.
class EdgeTimes {
 public:
  void add(uint64_t t) { times_.push_back(t); }
  std::size_t count() const { return times_.size(); }
  uint64_t sample_time(unsigned stages) const {
    if (times_.size() < stages) return 0;
    return times_[times_.size() - stages];
  }

 private:
  std::vector<uint64_t> times_;
};

// The values a signal took and when (in half time units: edges are at even
// instants, inputs set between two edges change at the odd instant after
// the first), and what it held just before an instant.
class History {
 public:
  explicit History(uint64_t initial) { changes_.emplace_back(0, initial); }
  void set(uint64_t half_time, uint64_t v) {
    if (v != changes_.back().second) changes_.emplace_back(half_time, v);
  }
  uint64_t before(uint64_t half_time) const {  // from the latest change back: tests ask about recent instants
    for (auto it = changes_.rbegin(); it != changes_.rend(); ++it) {
      if (it->first < half_time) return it->second;
    }
    return changes_.front().second;
  }
  uint64_t now() const { return changes_.back().second; }

 private:
  std::vector<std::pair<uint64_t, uint64_t>> changes_;
};

}  // namespace cosim::vendor_xpm_test
