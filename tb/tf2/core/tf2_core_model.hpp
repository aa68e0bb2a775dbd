// Tf2Core's model-specific half: the harness core, the register port, the
// AXI master and the debug vector's event counters over one Verilated
// variant's model class. A class template over that class, instantiated once
// per variant by the build (cosim_core_over_variants,
// tb/tf2/core/CMakeLists.txt); Tf2Core reaches it through the abstract
// Tf2Core::Impl, one virtual call per run or register access (the clock
// loop runs inside the template). Include after the model's header, before
// anything SystemC.
#pragma once

#include <memory>
#include <string>

#include "dut/tf2_pins.hpp"
#include "harness/core.hpp"
#include "harness/variant.hpp"
#include "tf2/core/tf2_core.hpp"
#include "tf2/core/tf2_timeline.hpp"
#include "timeline/timed_core_seam.hpp"
#include "timeline/timeline_port.hpp"

namespace cosim::tb::tf2 {

// What Tf2Core asks of its model, besides what every core asks (harness::CoreSeam).
struct Tf2Core::Impl : harness::CoreSeam {
  virtual bool busy() const = 0;
  virtual bool done() const = 0;
  virtual bool error() const = 0;
  virtual uint32_t err_info() const = 0;
  // The units' FSM states; `host`: what the host programmed, or empty.
  virtual std::string diagnosis(const std::string& host) const = 0;
  virtual EventCounts& events() = 0;
  virtual std::size_t& first_desc() = 0;
};

namespace model {

// The units' states from the debug vector; `done`: the done pin (tf2_core.cpp).
std::string describe(const DbgWords& d, bool done, const std::string& host);

// The debug vector's events, counted at each rising edge.
template <class Model>
class EventPort final : public harness::Port<Model> {
 public:
  void drive(Model& m) override { (void)m; }
  void sample(const Model& m, uint64_t time) override {
    namespace dbg = cosim::tf2::regs::dbg_t;
    using timeline::bits;
    (void)time;
    const DbgWords d(m);
    const bool pe_busy = bits<dbg::kPeBusyLsb, dbg::kPeBusyWidth>(d.w);
    if (m.busy_o) {
      ++c.busy;
      const std::size_t i = first_desc + bits<dbg::kDescIdxLsb, dbg::kDescIdxWidth>(d.w);
      if (i >= c.desc_busy.size()) {
        c.desc_busy.resize(i + 1, 0);
        c.desc_pe_busy.resize(i + 1, 0);
      }
      ++c.desc_busy[i];
      if (pe_busy) ++c.desc_pe_busy[i];
    }
    if (pe_busy) ++c.pe_busy;
    if (bits<dbg::kFiltWaitLsb, dbg::kFiltWaitWidth>(d.w)) ++c.filt_wait;
    if (bits<dbg::kOutWaitLsb, dbg::kOutWaitWidth>(d.w)) ++c.out_wait;
  }
  EventCounts c;
  std::size_t first_desc = 0;  // the running list's first descriptor in EventCounts' numbering
};

// CTRL.done; an engine error also ends the run with done. Tf2Core::diagnosis
// adds the host's descriptor registers to the units' states.
struct Tf2Status : harness::NoErrorPin {
  template <class Model>
  static bool done(const Model& m) {
    return m.done_o != 0;
  }
  template <class Model>
  static std::string diagnosis(const Model& m) {
    return describe(DbgWords(m), m.done_o != 0, "");
  }
};

template <class Model>
class ImplOver final
    : public timeline::TimedCoreSeamOver<Tf2Core::Impl, Model, Tf2Status, cosim::tf2::pins::Top, TimelineProbe> {
  using Mem = cosim::tf2::pins::Mem;

 public:
  ImplOver(harness::AxiSlavePort& s, const TbConfig* wave)
      : ImplOver::TimedCoreSeamOver("tf2", wave, &timeline_lanes), axi_(s) {
    this->core_.add_port(axi_);
    this->core_.add_port(events_);
  }
  static std::unique_ptr<Tf2Core::Impl> make(harness::AxiSlavePort& s, const TbConfig* wave) {
    return std::make_unique<ImplOver>(s, wave);
  }

  bool busy() const override { return this->core_.model().busy_o; }
  bool done() const override { return this->core_.model().done_o; }
  bool error() const override { return this->core_.model().error_o; }
  uint32_t err_info() const override { return this->core_.model().err_info_o; }
  std::string diagnosis(const std::string& host) const override {
    return describe(DbgWords(this->core_.model()), this->core_.model().done_o != 0, host);
  }
  EventCounts& events() override { return events_.c; }
  std::size_t& first_desc() override { return events_.first_desc; }

 private:
  static_assert(harness::AxiMasterBinder<Model, Mem>::kDataBytes == kAxiDataBytes);
  harness::AxiMasterBinder<Model, Mem> axi_;
  EventPort<Model> events_;
};

}  // namespace model

template <class Model>
const Tf2Core::Build& Tf2CoreOver<Model>::build() {
  return harness::build_of<Tf2Core::Build, Model, model::ImplOver<Model>>();
}

}  // namespace cosim::tb::tf2
