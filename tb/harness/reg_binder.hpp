// The register-bus binder: the host side of a DUT's `reg` interface (the
// common register bus of rtl/common/cosim_reg_slave.sv): a valid/ready
// request (write, byte address, write data) and a valid/ready response with
// the read data. Pins come from the generated binding (`Bus`, harness/bus.hpp).
// The host is always ready for a response, so the response of one access is
// taken at the clock edge that starts the next cycle, and back-to-back
// accesses cost one cycle each. An ordinary binder: Core clocks it like any
// other (harness/control.hpp: add it first, from reset on), and its pins are
// written only when they change.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/text.hpp"
#include "harness/bus.hpp"
#include "harness/control_port.hpp"

namespace cosim::tb::harness {

// Cycles a register access may wait for the request or the response.
constexpr int kRegPortCycles = 100;

template <class Model, class Bus>
class RegBinder final : public ControlPort<Model, RegBinder<Model, Bus>> {
 public:
  void drive(Model& m) override {
    if (!dirty_) return;
    dirty_ = false;
    set_pin(Bus::req_valid(m), valid_);
    set_pin(Bus::write(m), write_);
    set_pin(Bus::addr(m), addr_);
    set_pin(Bus::wdata(m), wdata_);
    set_pin(Bus::rsp_ready(m), 1);
  }
  void sample(const Model& m, uint64_t) override { fired_ = valid_ && Bus::req_ready(m); }

  // One access on the clock loop `core` this binder is added to (its
  // cycle(), model() and dut()). Returns the read data (writes: whatever the
  // port answers).
  template <class Clock>
  uint32_t access(Clock& core, bool write, uint32_t addr, uint32_t wdata) {
    const Model& m = core.model();
    const std::string& dut = core.dut();
    request(write, addr, wdata);
    int n = 0;
    do {
      if (n++ == kRegPortCycles) {
        idle();
        throw TimeoutError(dut + ": register port did not take the request at " + hex(addr));
      }
      core.cycle();
    } while (!fired_);
    idle();
    for (n = 0; !Bus::rsp_valid(m); ++n) {
      if (n == kRegPortCycles) throw TimeoutError(dut + ": register port did not answer at " + hex(addr));
      core.cycle();
    }
    return static_cast<uint32_t>(Bus::rdata(m));  // taken at the next clock edge (rsp_ready = 1)
  }

  const std::vector<std::string>& errors() const { return errors_; }  // the bus has no error response

 private:
  std::vector<std::string> errors_;
  void request(bool write, uint32_t addr, uint32_t wdata) {
    valid_ = true;
    write_ = write;
    addr_ = addr;
    wdata_ = wdata;
    dirty_ = true;
  }
  void idle() {
    valid_ = false;
    dirty_ = true;
  }

  bool valid_ = false, write_ = false, fired_ = false, dirty_ = true;
  uint32_t addr_ = 0, wdata_ = 0;
};

}  // namespace cosim::tb::harness
