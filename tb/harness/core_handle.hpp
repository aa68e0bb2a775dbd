// A DUT's core as its callers hold it: the Verilated variant it runs and its
// model-specific half behind the seam (harness/core_seam.hpp), with the calls
// every DUT's core forwards to it. A DUT's core derives from it and adds its
// own calls, reaching its own seam through seam<Impl>() in its source (where
// Impl is complete). No Verilator here.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "harness/core_seam.hpp"
#include "harness/variant.hpp"

namespace cosim::tb::harness {

class CoreHandle {
 public:
  CoreHandle(const Variant& variant, std::unique_ptr<CoreSeam> seam) : variant_(variant), seam_(std::move(seam)) {}
  CoreHandle(const CoreHandle&) = delete;
  CoreHandle& operator=(const CoreHandle&) = delete;

  // From now on cycles are DUT time (harness::Core::start_timeline).
  void start_timeline(std::function<void()> after_cycle = {}) { seam_->start_timeline(std::move(after_cycle)); }
  void cycle() { seam_->cycle(); }
  // Registers by byte offset; cosim::TimeoutError when the port does not answer.
  uint32_t reg_read(uint32_t offset) { return seam_->reg_read(offset); }
  void reg_write(uint32_t offset, uint32_t value) { seam_->reg_write(offset, value); }
  // Clocks until the DUT finished; false when `max_cycles` more cycles passed first.
  bool run(uint64_t max_cycles) { return seam_->run(max_cycles); }
  uint64_t time() const { return seam_->time(); }      // cycles on the DUT's timeline
  uint64_t cycles() const { return seam_->cycles(); }  // every clock since reset
  // wave_first_cycle / wave_last_cycle / wave_truncated once a dump opened.
  std::map<std::string, uint64_t> wave_stats() const { return seam_->wave_stats(); }
  // The engine timeline so far; null when not sampled.
  const timeline::Timeline* timeline() const { return seam_->timeline(); }
  // The Verilated variant this core runs.
  const Variant& variant() const { return variant_; }

 protected:
  ~CoreHandle() = default;
  // The DUT's own seam (a CoreSeam), where its type is complete.
  template <class Impl>
  Impl& seam() const {
    return static_cast<Impl&>(*seam_);
  }

 private:
  const Variant& variant_;
  std::unique_ptr<CoreSeam> seam_;
};

}  // namespace cosim::tb::harness
