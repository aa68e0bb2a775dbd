// Tf2Core's model-specific half: the harness core, the register port, the
// AXI master and the debug vector's event counters over one Verilated
// variant's model class. A class template over that class, instantiated once
// per variant by the build (cosim_core_over_variants,
// tb/tf2/core/CMakeLists.txt); Tf2Core reaches it through the abstract
// Tf2Core::Impl, one virtual call per run or register access (the clock
// loop runs inside the template). Include after the model's header, before
// anything SystemC.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "dut/tf2_pins.hpp"
#include "harness/control.hpp"
#include "harness/core.hpp"
#include "harness/variant.hpp"
#include "tf2/core/tf2_core.hpp"
#include "tf2/core/tf2_timeline.hpp"
#include "timeline/timeline_port.hpp"

namespace cosim::tb::tf2 {

// What Tf2Core asks of its model.
struct Tf2Core::Impl {
  virtual ~Impl() = default;
  virtual void start_timeline(std::function<void()> after_cycle) = 0;
  virtual void cycle() = 0;
  virtual uint32_t reg_read(uint32_t offset) = 0;
  virtual void reg_write(uint32_t offset, uint32_t value) = 0;
  virtual bool run(uint64_t max_cycles) = 0;
  virtual bool busy() const = 0;
  virtual bool done() const = 0;
  virtual bool error() const = 0;
  virtual uint32_t err_info() const = 0;
  // The units' FSM states; `host`: what the host programmed, or empty.
  virtual std::string diagnosis(const std::string& host) const = 0;
  virtual EventCounts& events() = 0;
  virtual std::size_t& first_desc() = 0;
  virtual uint64_t time() const = 0;
  virtual std::map<std::string, uint64_t> wave_stats() const = 0;
  virtual const timeline::Timeline* timeline() const = 0;
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
class ImplOver final : public Tf2Core::Impl {
  using Top = cosim::tf2::pins::Top;
  using Mem = cosim::tf2::pins::Mem;

 public:
  ImplOver(harness::AxiSlavePort& s, const TbConfig* wave)
      : axi_(s), core_("tf2", wave, {&ctrl_}), sample_timeline_(wave != nullptr && wave->timeline) {
    core_.add_port(axi_);
    core_.add_port(events_);
  }
  static std::unique_ptr<Tf2Core::Impl> make(harness::AxiSlavePort& s, const TbConfig* wave) {
    return std::make_unique<ImplOver>(s, wave);
  }

  void start_timeline(std::function<void()> after_cycle) override {
    core_.start_timeline(std::move(after_cycle));
    // Sampled from here: the timeline's cycles are the DUT's timeline.
    if (sample_timeline_ && !timeline_) {
      timeline_ = std::make_unique<timeline::Timeline>(timeline_lanes());
      timeline_port_ = std::make_unique<timeline::TimelinePort<Model, TimelineProbe>>(*timeline_, TimelineProbe{});
      core_.add_port(*timeline_port_);
    }
  }
  void cycle() override { core_.cycle(); }
  uint32_t reg_read(uint32_t offset) override { return ctrl_.read(core_, offset); }
  void reg_write(uint32_t offset, uint32_t value) override { ctrl_.write(core_, offset, value); }
  bool run(uint64_t max_cycles) override { return core_.run(max_cycles); }
  bool busy() const override { return core_.model().busy_o; }
  bool done() const override { return core_.model().done_o; }
  bool error() const override { return core_.model().error_o; }
  uint32_t err_info() const override { return core_.model().err_info_o; }
  std::string diagnosis(const std::string& host) const override {
    return describe(DbgWords(core_.model()), core_.model().done_o != 0, host);
  }
  EventCounts& events() override { return events_.c; }
  std::size_t& first_desc() override { return events_.first_desc; }
  uint64_t time() const override { return core_.time(); }
  std::map<std::string, uint64_t> wave_stats() const override { return core_.wave_stats(); }
  const timeline::Timeline* timeline() const override { return timeline_.get(); }

 private:
  static_assert(harness::AxiMasterBinder<Model, Mem>::kDataBytes == kAxiDataBytes);
  harness::ControlBinder<Model, Top> ctrl_;  // the register port
  harness::AxiMasterBinder<Model, Mem> axi_;
  EventPort<Model> events_;
  harness::Core<Model, Tf2Status, Top> core_;
  bool sample_timeline_;
  std::unique_ptr<timeline::Timeline> timeline_;
  std::unique_ptr<timeline::TimelinePort<Model, TimelineProbe>> timeline_port_;
};

}  // namespace model

template <class Model>
const Tf2Core::Build& Tf2CoreOver<Model>::build() {
  static const Tf2Core::Build b{harness::VariantOf<Model>::kVariant, &model::ImplOver<Model>::make};
  return b;
}

}  // namespace cosim::tb::tf2
