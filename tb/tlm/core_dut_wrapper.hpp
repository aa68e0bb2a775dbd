// An AXI DUT wrapper over a core's model-specific half (harness::CoreSeam,
// one Verilated variant behind it): DUT time from the moment the half is
// attached, each cycle counted for SystemC (tick), run() synchronised with
// SystemC at its end, the registers through the half's control binder. A
// DUT's wrapper derives from it, attaches its half in its constructor (once
// axi_port() exists) and adds its reports from its own seam (seam<Impl>()).
// No Verilator here.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "harness/core_seam.hpp"
#include "tlm/axi_dut_wrapper.hpp"

namespace cosim::tb {

class CoreDutWrapper : public AxiDutWrapper {
 public:
  using AxiDutWrapper::AxiDutWrapper;

  // Clocks until the DUT finished (harness::CoreSeam::run).
  bool run(uint64_t max_cycles) override {
    const bool done = seam_->run(max_cycles);
    sync();
    return done;
  }

 protected:
  // Takes the model's half and starts DUT time: every later cycle ticks.
  void attach(std::unique_ptr<harness::CoreSeam> seam) {
    seam_ = std::move(seam);
    seam_->start_timeline([this] { tick(); });
  }
  // The DUT's own seam (derived from CoreSeam), where its type is complete.
  template <class Impl>
  Impl& seam() const {
    return static_cast<Impl&>(*seam_);
  }
  uint32_t reg_read(uint32_t offset) override { return seam_->reg_read(offset); }
  void reg_write(uint32_t offset, uint32_t value) override { seam_->reg_write(offset, value); }

 private:
  std::unique_ptr<harness::CoreSeam> seam_;
};

}  // namespace cosim::tb
