// The AXI-Stream binder: a model's s_axis_* (slave, DUT input) and m_axis_*
// (master, DUT output) ports to and from two axis::Pins, whose other ends
// (sources, sinks, DMA models, checkers) implement AxisEnds.
#pragma once

#include <cstdint>

#include "axis/axis_types.hpp"
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

template <class Model>
class AxisBinder final : public Port<Model> {
 public:
  explicit AxisBinder(AxisEnds& ends) : ends_(ends) {}

  void drive(Model& m) override {
    ends_.drive(in_, out_);
    m.s_axis_tvalid_i = in_.tvalid;
    m.s_axis_tdata_i = in_.tdata;
    m.s_axis_tlast_i = in_.tlast;
    m.m_axis_tready_i = out_.tready;
  }
  void sample(const Model& m, uint64_t time) override {
    in_.tready = m.s_axis_tready_o;
    out_.tvalid = m.m_axis_tvalid_o;
    out_.tdata = m.m_axis_tdata_o;
    out_.tlast = m.m_axis_tlast_o;
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
