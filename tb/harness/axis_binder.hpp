// The AXI-Stream binder: a model's axis_in interface `In` (DUT input) and
// axis_out interface `Out` (DUT output), from the generated binding
// (harness/bus.hpp), to and from two axis::Pins, whose other ends (sources,
// sinks, DMA models, checkers) implement AxisEnds. TLAST, TKEEP, TSTRB and
// TUSER are bound when the model has them. Data up to 64 bits wide.
#pragma once

#include <cstdint>

#include "axis/axis_types.hpp"
#include "harness/bus.hpp"
#include "harness/pins.hpp"
#include "harness/port.hpp"

namespace cosim::tb::harness {

// The testbench side of a DUT's two streams, in the phases of a cycle.
class AxisEnds {
 public:
  virtual ~AxisEnds() = default;
  // Set TVALID / TDATA / TLAST of `in` and TREADY of `out`.
  virtual void drive(axis::Pins& in, axis::Pins& out) = 0;
  // Both streams as the rising edge will take them.
  virtual void observe(uint64_t time, const axis::Pins& in, const axis::Pins& out) = 0;
  // After the edge: advance on the handshakes.
  virtual void update(uint64_t time, const axis::Pins& in, const axis::Pins& out) = 0;
};

template <class Model, class In, class Out>
class AxisBinder final : public Port<Model> {
  static_assert(pin_bytes<decltype(In::tdata(std::declval<Model&>()))> <= 8 &&
                    pin_bytes<decltype(Out::tdata(std::declval<Model&>()))> <= 8,
                "AXI-Stream data wider than 64 bits is not bound yet (tb/axis carries 64-bit beats)");

 public:
  explicit AxisBinder(AxisEnds& ends) : ends_(ends) {}

  void drive(Model& m) override {
    ends_.drive(in_, out_);
    set_pin(In::tvalid(m), in_.tvalid);
    set_pin(In::tdata(m), in_.tdata);
    if constexpr (COSIM_HAS(In, tlast, Model)) set_pin(In::tlast(m), in_.tlast);
    if constexpr (COSIM_HAS(In, tkeep, Model)) set_pin(In::tkeep(m), in_.tkeep);
    if constexpr (COSIM_HAS(In, tstrb, Model)) set_pin(In::tstrb(m), in_.tstrb);
    if constexpr (COSIM_HAS(In, tuser, Model)) set_pin(In::tuser(m), in_.tuser);
    set_pin(Out::tready(m), out_.tready);
  }
  void sample(const Model& m, uint64_t time) override {
    in_.tready = In::tready(m);
    out_.tvalid = Out::tvalid(m);
    out_.tdata = Out::tdata(m);
    if constexpr (COSIM_HAS(Out, tlast, Model)) out_.tlast = Out::tlast(m);
    if constexpr (COSIM_HAS(Out, tkeep, Model)) out_.tkeep = Out::tkeep(m);
    if constexpr (COSIM_HAS(Out, tstrb, Model)) out_.tstrb = Out::tstrb(m);
    if constexpr (COSIM_HAS(Out, tuser, Model)) out_.tuser = Out::tuser(m);
    ends_.observe(time, in_, out_);
  }
  void update(const Model& m, uint64_t time) override {
    (void)m;
    ends_.update(time, in_, out_);
  }
  bool has_update() const override { return true; }

  const axis::Pins& in() const { return in_; }
  const axis::Pins& out() const { return out_; }

 private:
  AxisEnds& ends_;
  axis::Pins in_, out_;
};

}  // namespace cosim::tb::harness
