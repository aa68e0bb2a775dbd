// The abstract seam between a DUT's core (the class its callers hold, which
// names no model class) and the core's model-specific half (a class template
// over one Verilated variant's model class, harness/variant.hpp). CoreSeam
// holds the calls every DUT's half answers; a DUT's own seam (its
// `Core::Impl`) derives from it and adds its questions. CoreSeamOver
// (harness/core_seam_over.hpp) answers them with the harness core and its
// control binder, so a DUT's half only adds its binders and its own answers.
// One virtual call per run or register access: the clock loop stays inside
// the template. No Verilator here: a core's header includes this.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace cosim::tb::timeline {
class Timeline;
}  // namespace cosim::tb::timeline

namespace cosim::tb::harness {

struct CoreSeam {
  virtual ~CoreSeam() = default;
  // From now on cycles are DUT time (Core::start_timeline).
  virtual void start_timeline(std::function<void()> after_cycle) = 0;
  virtual void cycle() = 0;
  // Registers by byte offset, through the control binder.
  virtual uint32_t reg_read(uint32_t offset) = 0;
  virtual void reg_write(uint32_t offset, uint32_t value) = 0;
  // Clocks until the DUT finished (harness::run_to_done); false when
  // `max_cycles` more cycles passed first.
  virtual bool run(uint64_t max_cycles) = 0;
  virtual uint64_t time() const = 0;    // cycles on the DUT's timeline
  virtual uint64_t cycles() const = 0;  // every clock since reset
  virtual std::map<std::string, uint64_t> wave_stats() const = 0;
  // The engine timeline so far; null when not sampled.
  virtual const timeline::Timeline* timeline() const = 0;
};

}  // namespace cosim::tb::harness
