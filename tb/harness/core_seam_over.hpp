// CoreSeamOver: the calls of CoreSeam (harness/core_seam.hpp) answered by
// the harness core over one Verilated variant's model class and its control
// binder, so a DUT's model-specific half only adds its own binders and its
// own answers:
//
//   template <class Model>
//   class ImplOver final : public harness::CoreSeamOver<DutCore::Impl, Model, Status, pins::Top> {
//     ImplOver(...) : CoreSeamOver(...)  { this->core_.add_port(axi_); }
//   };
//
// Include after the model's header, before anything SystemC.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "harness/control.hpp"
#include "harness/core.hpp"
#include "harness/core_seam.hpp"

namespace cosim::tb::harness {

// `Seam`: the DUT's seam (derived from CoreSeam); `Status`, `Pins`: as for
// Core. The control binder drives its idle bus through reset.
template <class Seam, class Model, class Status, class Pins>
class CoreSeamOver : public Seam {
 public:
  void start_timeline(std::function<void()> after_cycle) override {
    core_.start_timeline(std::move(after_cycle));
    on_timeline_start();
  }
  void cycle() override { core_.cycle(); }
  uint32_t reg_read(uint32_t offset) override { return ctrl_.read(core_, offset); }
  void reg_write(uint32_t offset, uint32_t value) override { ctrl_.write(core_, offset, value); }
  bool run(uint64_t max_cycles) override { return run_to_done(core_, ctrl_, max_cycles); }
  uint64_t time() const override { return core_.time(); }
  uint64_t cycles() const override { return core_.cycles(); }
  std::map<std::string, uint64_t> wave_stats() const override { return core_.wave_stats(); }
  const timeline::Timeline* timeline() const override { return nullptr; }

 protected:
  // Resets the model (Core's constructor); `dut` and `wave` as for Core.
  CoreSeamOver(std::string dut, const TbConfig* wave) : core_(std::move(dut), wave, {&ctrl_}) {}
  // Called once DUT time started: where a DUT's half starts sampling its timeline.
  virtual void on_timeline_start() {}

  ControlBinder<Model, Pins> ctrl_;  // the register port
  Core<Model, Status, Pins> core_;
};

}  // namespace cosim::tb::harness
