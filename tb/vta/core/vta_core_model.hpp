// VtaCore's model-specific half: the harness core, the register port and
// the AXI master over one Verilated variant's model class. A class template
// over that class, instantiated once per variant by the build
// (cosim_core_over_variants, tb/vta/core/CMakeLists.txt); VtaCore reaches it
// through the abstract VtaCore::Impl, one virtual call per run or register
// access (the clock loop runs inside the template). Include after the
// model's header, before anything SystemC.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "dut/vta_pins.hpp"
#include "harness/control.hpp"
#include "harness/core.hpp"
#include "harness/variant.hpp"
#include "timeline/timeline_port.hpp"
#include "vta/core/vta_core.hpp"
#include "vta/core/vta_timeline.hpp"

namespace cosim::tb::vta {

// What VtaCore asks of its model.
struct VtaCore::Impl {
  virtual ~Impl() = default;
  virtual void start_timeline(std::function<void()> after_cycle) = 0;
  virtual void cycle() = 0;
  virtual bool run(uint64_t max_cycles) = 0;
  virtual uint32_t reg_read(uint8_t addr) = 0;
  virtual void reg_write(uint8_t addr, uint32_t data) = 0;
  virtual bool done() const = 0;
  virtual bool error() const = 0;
  virtual StatusVector status() const = 0;
  virtual std::string deadlock_note() const = 0;
  virtual uint64_t cycles() const = 0;
  virtual std::map<std::string, uint64_t> wave_stats() const = 0;
  virtual const timeline::Timeline* timeline() const = 0;
};

namespace model {

template <class Model>
StatusVector status_of(const Model& t) {
  StatusVector s;
  for (int i = 0; i < 4; ++i) s.w[i] = t.status_o[i];
  return s;
}

// FINISH, the error flag, the debug status vector.
struct VtaStatus {
  template <class Model>
  static bool done(const Model& t) {
    return t.done_o != 0;
  }
  template <class Model>
  static bool error(const Model& t) {
    return t.error_o != 0;
  }
  template <class Model>
  static std::string diagnosis(const Model& t) {
    return cosim::vta::describe_status(status_of(t));
  }
  // The manifest's deadlock rule (vta.yaml `deadlock`) over status_o.
  using Watch = cosim::vta::regs::deadlock::Watch;
  static constexpr const char* kWatchRule = cosim::vta::regs::deadlock::kRule;
  static constexpr uint64_t kWatchCycles = cosim::vta::regs::deadlock::kCycles;
  template <class Model>
  static const uint32_t* watch_words(const Model& t) {
    return t.status_o.data();
  }
};

template <class Model>
class ImplOver final : public VtaCore::Impl {
  using Top = cosim::vta::pins::Top;
  using Mem = cosim::vta::pins::Mem;

 public:
  ImplOver(harness::AxiSlavePort& s, const TbConfig* wave) : axi_(s), core_("vta", wave, {&ctrl_}) {
    core_.add_port(axi_);
    if (wave != nullptr && wave->timeline) {
      timeline_ = std::make_unique<timeline::Timeline>(timeline_lanes());
      timeline_port_ = std::make_unique<timeline::TimelinePort<Model, TimelineProbe>>(*timeline_, TimelineProbe{});
      core_.add_port(*timeline_port_);
    }
  }
  static std::unique_ptr<VtaCore::Impl> make(harness::AxiSlavePort& s, const TbConfig* wave) {
    return std::make_unique<ImplOver>(s, wave);
  }

  void start_timeline(std::function<void()> after_cycle) override { core_.start_timeline(std::move(after_cycle)); }
  void cycle() override { core_.cycle(); }
  bool run(uint64_t max_cycles) override { return core_.run(max_cycles); }
  uint32_t reg_read(uint8_t addr) override { return ctrl_.read(core_, addr); }
  void reg_write(uint8_t addr, uint32_t data) override { ctrl_.write(core_, addr, data); }
  bool done() const override { return core_.done(); }
  bool error() const override { return core_.error(); }
  StatusVector status() const override { return status_of(core_.model()); }
  std::string deadlock_note() const override { return core_.deadlock_note(); }
  uint64_t cycles() const override { return core_.cycles(); }
  std::map<std::string, uint64_t> wave_stats() const override { return core_.wave_stats(); }
  const timeline::Timeline* timeline() const override { return timeline_.get(); }

 private:
  static_assert(harness::AxiMasterBinder<Model, Mem>::kDataBytes == cosim::vta::kAxiDataBytes);
  harness::ControlBinder<Model, Top> ctrl_;  // the register port
  harness::AxiMasterBinder<Model, Mem> axi_;
  harness::Core<Model, VtaStatus, Top> core_;
  std::unique_ptr<timeline::Timeline> timeline_;
  std::unique_ptr<timeline::TimelinePort<Model, TimelineProbe>> timeline_port_;
};

}  // namespace model

template <class Model>
const VtaCore::Build& VtaCoreOver<Model>::build() {
  static const VtaCore::Build b{harness::VariantOf<Model>::kVariant, &model::ImplOver<Model>::make};
  return b;
}

}  // namespace cosim::tb::vta
