// TimedCoreSeamOver: harness::CoreSeamOver (harness/core_seam_over.hpp) with
// the DUT's engine timeline (CoreTimeline), started with DUT time and
// answering CoreSeam::timeline(), so a DUT's model-specific half only names
// its lanes and its probe:
//
//   template <class Model>
//   class ImplOver final : public timeline::TimedCoreSeamOver<DutCore::Impl, Model, Status, pins::Top, Probe> {
//     ImplOver(..., const TbConfig* wave) : TimedCoreSeamOver("dut", wave, &timeline_lanes) { ... }
//   };
//
// This file names no DUT. Include after the model's header, before anything
// SystemC.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "harness/core_seam_over.hpp"
#include "timeline/core_timeline.hpp"

namespace cosim::tb::timeline {

// `Probe`: the DUT's (timeline/timeline_port.hpp), default-constructed
// unless the half overrides timeline_probe().
template <class Seam, class Model, class Status, class Pins, class Probe>
class TimedCoreSeamOver : public harness::CoreSeamOver<Seam, Model, Status, Pins> {
 public:
  const Timeline* timeline() const override { return timeline_.get(); }

 protected:
  // `dut`, `wave` as for CoreSeamOver; `lanes`: the DUT's timeline lanes.
  TimedCoreSeamOver(std::string dut, const TbConfig* wave, std::vector<Lane> (*lanes)())
      : harness::CoreSeamOver<Seam, Model, Status, Pins>(std::move(dut), wave), timeline_(wave, lanes) {}
  // The probe the timeline samples with, made when DUT time starts.
  virtual Probe timeline_probe() const { return Probe{}; }

 private:
  void on_timeline_start() final { timeline_.start(this->core_, timeline_probe()); }

  CoreTimeline<Model, Probe> timeline_;
};

}  // namespace cosim::tb::timeline
