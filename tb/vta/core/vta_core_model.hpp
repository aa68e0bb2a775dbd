// VtaCore's model-specific half: the harness core, the register port and
// the AXI master over one Verilated variant's model class. A class template
// over that class, instantiated once per variant by the build
// (cosim_core_over_variants, tb/vta/core/CMakeLists.txt); VtaCore reaches it
// through the abstract VtaCore::Impl, one virtual call per run or register
// access (the clock loop runs inside the template). Include after the
// model's header, before anything SystemC.
#pragma once

#include <memory>
#include <string>

#include "dut/vta_pins.hpp"
#include "harness/core.hpp"
#include "harness/variant.hpp"
#include "timeline/timed_core_seam.hpp"
#include "timeline/timeline_port.hpp"
#include "vta/core/vta_core.hpp"
#include "vta/core/vta_timeline.hpp"

namespace cosim::tb::vta {

// What VtaCore asks of its model, besides what every core asks (harness::CoreSeam).
struct VtaCore::Impl : harness::CoreSeam {
  virtual bool done() const = 0;
  virtual bool error() const = 0;
  virtual StatusVector status() const = 0;
  virtual std::string deadlock_note() const = 0;
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
    return describe_status(status_of(t));
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
class ImplOver final
    : public timeline::TimedCoreSeamOver<VtaCore::Impl, Model, VtaStatus, cosim::vta::pins::Top, TimelineProbe> {
  using Mem = cosim::vta::pins::Mem;

 public:
  ImplOver(harness::AxiSlavePort& s, const TbConfig* wave)
      : ImplOver::TimedCoreSeamOver("vta", wave, &timeline_lanes), axi_(s) {
    this->core_.add_port(axi_);
  }
  static std::unique_ptr<VtaCore::Impl> make(harness::AxiSlavePort& s, const TbConfig* wave) {
    return std::make_unique<ImplOver>(s, wave);
  }

  bool done() const override { return this->core_.done(); }
  bool error() const override { return this->core_.error(); }
  StatusVector status() const override { return status_of(this->core_.model()); }
  std::string deadlock_note() const override { return this->core_.deadlock_note(); }

 private:
  static_assert(harness::AxiMasterBinder<Model, Mem>::kDataBytes == kAxiDataBytes);
  harness::AxiMasterBinder<Model, Mem> axi_;
};

}  // namespace model

template <class Model>
const VtaCore::Build& VtaCoreOver<Model>::build() {
  return harness::build_of<VtaCore::Build, Model, model::ImplOver<Model>>();
}

}  // namespace cosim::tb::vta
