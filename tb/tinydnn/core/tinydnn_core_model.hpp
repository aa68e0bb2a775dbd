// TinyDnnCore's model-specific half: the harness core, the register port,
// the AXI-Stream binder over TinyDnnCore's Streams and the event counters
// over one Verilated variant's model class. A class template over that
// class, instantiated once per variant by the build
// (cosim_core_over_variants, tb/tinydnn/core/CMakeLists.txt); TinyDnnCore
// reaches it through the abstract TinyDnnCore::Impl, one virtual call per
// run or register access (the clock loop runs inside the template). Include
// after the model's header, before anything SystemC.
#pragma once

#include <memory>
#include <sstream>
#include <string>

#include "dut/tinydnn_pins.hpp"
#include "harness/core.hpp"
#include "harness/variant.hpp"
#include "timeline/timed_core_seam.hpp"
#include "timeline/timeline_port.hpp"
#include "tinydnn/core/tinydnn_core.hpp"
#include "tinydnn/core/tinydnn_timeline.hpp"

namespace cosim::tb::tinydnn {

// What TinyDnnCore asks of its model, besides what every core asks (harness::CoreSeam).
struct TinyDnnCore::Impl : harness::CoreSeam {
  virtual bool busy() const = 0;
  virtual void set_od(uint32_t od) = 0;
  virtual const StreamCounters& counters() const = 0;
  virtual std::string diagnosis() const = 0;
};

namespace model {

namespace pins = cosim::tinydnn::pins;  // the generated binding (manifest ports)

// The event pins and the stream handshakes, counted at each rising edge.
template <class Model>
class CounterPort final : public harness::Port<Model> {
 public:
  explicit CounterPort(const harness::AxisBinder<Model, pins::In, pins::Out>& axis) : axis_(axis) {}
  void drive(Model& m) override { (void)m; }
  void sample(const Model& m, uint64_t time) override {
    (void)time;
    const axis::Pins& in = axis_.in();
    const axis::Pins& out = axis_.out();
    if (m.busy_o) ++c.busy_cycles;
    if (m.mac_step_o) {
      ++c.mac_cycles;
      c.mac_ops += od;
    }
    if (in.fire()) ++c.in_beats;
    if (out.fire()) ++c.out_beats;
    if (in.tready && !in.tvalid && m.busy_o) ++c.in_starved;
    if (in.tvalid && !in.tready) ++c.in_backpressure;
    if (out.tvalid && !out.tready) ++c.out_backpressure;
  }
  StreamCounters c;
  uint32_t od = 1;

 private:
  const harness::AxisBinder<Model, pins::In, pins::Out>& axis_;
};

struct TinyDnnStatus : harness::NoErrorPin {
  // The done pin is CTRL's sticky done bit: cleared by a start, set at the end.
  template <class Model>
  static bool done(const Model& m) {
    return m.done_o && !m.busy_o;
  }
  template <class Model>
  static std::string diagnosis(const Model& m) {
    std::ostringstream os;
    const CtrlState st = CtrlState::decode(m.dbg_o);
    os << "tinydnn CTRL busy=" << int(m.busy_o) << " done=" << int(m.done_o) << "; " << st.str();
    if (st.batch_state == cosim::tinydnn::regs::batch_state_e::kStIdle && !m.done_o) os << " [idle and not done: no command was started]";
    return os.str();
  }
};

template <class Model>
class ImplOver final
    : public timeline::TimedCoreSeamOver<TinyDnnCore::Impl, Model, TinyDnnStatus, pins::Top, TimelineProbe> {
 public:
  ImplOver(Streams& streams, const TbConfig* wave)
      : ImplOver::TimedCoreSeamOver("tinydnn", wave, &timeline_lanes), streams_(streams), axis_(streams),
        counters_(axis_) {
    this->core_.add_port(axis_);
    this->core_.add_port(counters_);
  }
  static std::unique_ptr<TinyDnnCore::Impl> make(Streams& streams, const TbConfig* wave) {
    return std::make_unique<ImplOver>(streams, wave);
  }

  bool busy() const override { return this->core_.model().busy_o; }
  void set_od(uint32_t od) override { counters_.od = od; }
  const StreamCounters& counters() const override { return counters_.c; }
  std::string diagnosis() const override {
    const CtrlState st = CtrlState::decode(this->core_.model().dbg_o);
    std::string d = this->core_.diagnosis() + "; " + streams_.describe(axis_.in(), axis_.out());
    if (st.batch_state == cosim::tinydnn::regs::batch_state_e::kStRun && st.rx_busy && !axis_.in().tvalid &&
        streams_.input_idle())
      d += " [the receiver waits for input that no MM2S transfer provides]";
    return d;
  }

 private:
  TimelineProbe timeline_probe() const override { return TimelineProbe{&axis_.in(), &axis_.out()}; }

  Streams& streams_;
  harness::AxisBinder<Model, pins::In, pins::Out> axis_;
  CounterPort<Model> counters_;
};

}  // namespace model

template <class Model>
const TinyDnnCore::Build& TinyDnnCoreOver<Model>::build() {
  return harness::build_of<TinyDnnCore::Build, Model, model::ImplOver<Model>>();
}

}  // namespace cosim::tb::tinydnn
