// What every control binder (RegBinder, AxiLiteBinder, NoControl) is: a
// binder like any other, clocked by Core in its order, plus register access
// that clocks the core it is added to until the access completes. `Self`
// provides
//   template <class Clock> uint32_t access(Clock& core, bool write, uint32_t addr, uint32_t wdata);
// over a clock loop with cycle(), model() and dut() (harness::Core).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "harness/port.hpp"

namespace cosim::tb::harness {

template <class Model, class Self>
class ControlPort : public Port<Model> {
 public:
  template <class Clock>
  uint32_t read(Clock& core, uint32_t addr) {
    return static_cast<Self&>(*this).access(core, false, addr, 0);
  }
  template <class Clock>
  void write(Clock& core, uint32_t addr, uint32_t value) {
    static_cast<Self&>(*this).access(core, true, addr, value);
  }
  // What the port counted for the report's perf_counters (ApCtrlBinder: the kernel's calls and
  // their latency); none by default.
  std::map<std::string, uint64_t> counters() const { return {}; }
};

}  // namespace cosim::tb::harness
