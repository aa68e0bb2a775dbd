// The AXI4-Lite binder: the host side of a DUT's `axi4lite` control port
// (a Vitis kernel's s_axi_control_*, say). A write drives AW and W together
// and holds each until its handshake, then takes the B response; a read
// drives AR, then takes the R beat. BREADY and RREADY are held high, as an
// XRT host's interconnect does. Pins come from the generated binding (`Bus`,
// harness/bus.hpp); AWPROT / ARPROT / WSTRB are driven when the top has them
// (WSTRB all ones: 32-bit accesses only). An ordinary binder: Core clocks
// it like any other (harness/control.hpp: add it first, from reset on).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/text.hpp"
#include "harness/bus.hpp"
#include "harness/control_port.hpp"
#include "harness/reg_binder.hpp"

namespace cosim::tb::harness {

template <class Model, class Bus>
class AxiLiteBinder final : public ControlPort<Model, AxiLiteBinder<Model, Bus>> {
 public:
  void drive(Model& m) override {
    if (!dirty_) return;
    dirty_ = false;
    set_pin(Bus::awvalid(m), aw_);
    set_pin(Bus::awaddr(m), addr_);
    set_pin(Bus::wvalid(m), w_);
    set_pin(Bus::wdata(m), wdata_);
    if constexpr (COSIM_HAS(Bus, wstrb, Model)) set_pin(Bus::wstrb(m), 0xf);
    if constexpr (COSIM_HAS(Bus, awprot, Model)) set_pin(Bus::awprot(m), 0);
    set_pin(Bus::bready(m), 1);
    set_pin(Bus::arvalid(m), ar_);
    set_pin(Bus::araddr(m), addr_);
    if constexpr (COSIM_HAS(Bus, arprot, Model)) set_pin(Bus::arprot(m), 0);
    set_pin(Bus::rready(m), 1);
  }
  // What the rising edge takes. The response of an access whose address
  // phase ended at an earlier edge (BREADY / RREADY are held high); then
  // each valid drops after its handshake. Kept per edge, not per primary
  // cycle, so a port on a faster further clock neither repeats a request nor
  // loses a response.
  void sample(const Model& m, uint64_t) override {
    ++edges_;
    if (waiting_ && (write_ ? Bus::bvalid(m) : Bus::rvalid(m))) {
      waiting_ = false;
      answered_ = true;
      if (write_) {
        if constexpr (COSIM_HAS(Bus, bresp, Model)) resp_ = static_cast<uint32_t>(Bus::bresp(m));
      } else {
        rdata_ = static_cast<uint32_t>(Bus::rdata(m));
        if constexpr (COSIM_HAS(Bus, rresp, Model)) resp_ = static_cast<uint32_t>(Bus::rresp(m));
      }
    }
    // The valids as the pins show them: a request made since this port's
    // clock last rose is driven after its next edge (on the primary clock,
    // at once: drive() comes first in every cycle).
    const bool aw = aw_ && Bus::awvalid(m) && Bus::awready(m);
    const bool w = w_ && Bus::wvalid(m) && Bus::wready(m);
    const bool ar = ar_ && Bus::arvalid(m) && Bus::arready(m);
    if (aw || w || ar) {
      aw_ = aw_ && !aw;
      w_ = w_ && !w;
      ar_ = ar_ && !ar;
      dirty_ = true;
      waiting_ = !aw_ && !w_ && !ar_;
    }
  }
  int clock() const override { return bus_clock<Bus>; }

  // One 32-bit access on the clock loop `core` this binder is added to (its
  // cycle() and dut()). Returns the read data (writes: 0). A response other
  // than OKAY is recorded in errors(). Each wait is bounded by
  // kRegPortCycles edges of the port's clock.
  template <class Clock>
  uint32_t access(Clock& core, bool write, uint32_t addr, uint32_t wdata) {
    const std::string& dut = core.dut();
    addr_ = addr;
    wdata_ = wdata;
    write_ = write;
    aw_ = w_ = write;
    ar_ = !write;
    dirty_ = true;
    resp_ = 0;
    answered_ = false;
    // Address (and data).
    clock_while(core, edges_, [this] { return aw_ || w_ || ar_; }, [&] {
      aw_ = w_ = ar_ = false;
      dirty_ = true;
      return dut + ": AXI4-Lite control port did not take the " + (write ? "write" : "read") + " at " + hex(addr) +
             " within " + std::to_string(kRegPortCycles) + " cycles";
    });
    // Response.
    clock_while(core, edges_, [this] { return !answered_; }, [&] {
      waiting_ = false;
      return dut + ": AXI4-Lite control port gave no " + (write ? "B" : "R") + " response at " + hex(addr) +
             " within " + std::to_string(kRegPortCycles) + " cycles";
    });
    if (resp_ != 0) {  // a failed access fails the run (the wrapper's dut_errors), as a bus error does
      errors_.push_back(std::string("AXI4-Lite ") + (write ? "write" : "read") + " at " + hex(addr) + " answered " +
                        (resp_ == 2 ? "SLVERR" : resp_ == 3 ? "DECERR" : "EXOKAY"));
    }
    return write ? 0 : rdata_;
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::vector<std::string> errors_;
  bool aw_ = false, w_ = false, ar_ = false, write_ = false, dirty_ = true, waiting_ = false, answered_ = false;
  uint32_t addr_ = 0, wdata_ = 0, rdata_ = 0, resp_ = 0;
  uint64_t edges_ = 0;  // rising edges of the port's clock seen
};

}  // namespace cosim::tb::harness
