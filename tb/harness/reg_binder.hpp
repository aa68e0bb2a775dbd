// The register-bus binder: the host side of a DUT's `reg` interface (the
// common register bus of rtl/common/cosim_reg_slave.sv): a valid/ready
// request (write, byte address, write data) and a valid/ready response with
// the read data. Pins come from the generated binding (`Bus`, harness/bus.hpp).
// The host is always ready for a response, so the response of one access is
// taken at the clock edge that starts the next cycle, and back-to-back
// accesses cost one cycle each. Core clocks this binder itself (it is not in
// the list of added binders), and its pins are written only when they change.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/text.hpp"
#include "harness/bus.hpp"

namespace cosim::tb::harness {

// Cycles a register access may wait for the request or the response.
constexpr int kRegPortCycles = 100;

template <class Model, class Bus>
class RegBinder {
 public:
  void drive(Model& m) {
    if (!dirty_) return;
    dirty_ = false;
    set_pin(Bus::req_valid(m), valid_);
    set_pin(Bus::write(m), write_);
    set_pin(Bus::addr(m), addr_);
    set_pin(Bus::wdata(m), wdata_);
    set_pin(Bus::rsp_ready(m), 1);
  }
  void sample(const Model& m) { fired_ = valid_ && Bus::req_ready(m); }

  // One access; `cycle()` clocks the model once (Core::cycle). Returns the
  // read data (writes: whatever the port answers).
  template <class Cycle>
  uint32_t access(Model& m, bool write, uint32_t addr, uint32_t wdata, Cycle&& cycle, const std::string& dut) {
    request(write, addr, wdata);
    int n = 0;
    do {
      if (n++ == kRegPortCycles) {
        idle();
        throw TimeoutError(dut + ": register port did not take the request at " + hex(addr));
      }
      cycle();
    } while (!fired_);
    idle();
    for (n = 0; !Bus::rsp_valid(m); ++n) {
      if (n == kRegPortCycles) throw TimeoutError(dut + ": register port did not answer at " + hex(addr));
      cycle();
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
