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
constexpr uint64_t kRegPortCycles = 100;

// One wait of a register access: clocks `core` while `pending()`, at most
// kRegPortCycles rising edges of the port's clock (`edges`, as the binder
// counts them); then the TimeoutError whose message `give_up()` returns once
// it has withdrawn the request.
template <class Clock, class Pending, class GiveUp>
void clock_while(Clock& core, const uint64_t& edges, Pending pending, GiveUp give_up) {
  const uint64_t from = edges;
  while (pending()) {
    if (edges - from >= kRegPortCycles) throw TimeoutError(give_up());
    core.cycle();
  }
}

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
  // The request is taken at the edge that sees req_ready: it drops there.
  // req_valid as the pin shows it: a request made since this port's clock
  // last rose is driven after its next edge (on the primary clock, at once:
  // drive() comes first in every cycle).
  void sample(const Model& m, uint64_t) override {
    ++edges_;
    if (valid_ && Bus::req_valid(m) && Bus::req_ready(m)) {
      valid_ = false;
      dirty_ = true;
      waiting_ = true;
    }
  }
  // From that edge on, the response as each edge leaves it (taken at the
  // next edge: rsp_ready = 1). Looked for per edge, not per primary cycle,
  // so a port on a faster further clock loses no response.
  void update(const Model& m, uint64_t) override {
    if (waiting_ && Bus::rsp_valid(m)) {
      waiting_ = false;
      answered_ = true;
      rdata_ = static_cast<uint32_t>(Bus::rdata(m));
    }
  }
  bool has_update() const override { return true; }
  int clock() const override { return bus_clock<Bus>; }

  // One access on the clock loop `core` this binder is added to (its
  // cycle() and dut()). Returns the read data (writes: whatever the port
  // answers). Each wait is bounded by kRegPortCycles edges of the port's clock.
  template <class Clock>
  uint32_t access(Clock& core, bool write, uint32_t addr, uint32_t wdata) {
    const std::string& dut = core.dut();
    valid_ = true;
    write_ = write;
    addr_ = addr;
    wdata_ = wdata;
    dirty_ = true;
    answered_ = false;
    clock_while(core, edges_, [this] { return valid_; }, [&] {
      valid_ = false;
      dirty_ = true;
      return dut + ": register port did not take the request at " + hex(addr);
    });
    clock_while(core, edges_, [this] { return !answered_; }, [&] {
      waiting_ = false;
      return dut + ": register port did not answer at " + hex(addr);
    });
    return rdata_;
  }

  const std::vector<std::string>& errors() const { return errors_; }  // the bus has no error response

 private:
  std::vector<std::string> errors_;
  bool valid_ = false, write_ = false, dirty_ = true, waiting_ = false, answered_ = false;
  uint32_t addr_ = 0, wdata_ = 0, rdata_ = 0;
  uint64_t edges_ = 0;  // rising edges of the port's clock seen
};

}  // namespace cosim::tb::harness
