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
  // What the rising edge takes: the handshakes of this cycle.
  void sample(const Model& m, uint64_t) override {
    aw_fired_ = aw_ && Bus::awready(m);
    w_fired_ = w_ && Bus::wready(m);
    ar_fired_ = ar_ && Bus::arready(m);
    b_fired_ = Bus::bvalid(m);
    r_fired_ = Bus::rvalid(m);
    if (r_fired_) {
      rdata_ = static_cast<uint32_t>(Bus::rdata(m));
      if constexpr (COSIM_HAS(Bus, rresp, Model)) resp_ = static_cast<uint32_t>(Bus::rresp(m));
    }
    if (b_fired_) {
      if constexpr (COSIM_HAS(Bus, bresp, Model)) resp_ = static_cast<uint32_t>(Bus::bresp(m));
    }
  }

  // One 32-bit access on the clock loop `core` this binder is added to (its
  // cycle() and dut()). Returns the read data (writes: 0). A response other
  // than OKAY is recorded in errors().
  template <class Clock>
  uint32_t access(Clock& core, bool write, uint32_t addr, uint32_t wdata) {
    const std::string& dut = core.dut();
    addr_ = addr;
    wdata_ = wdata;
    aw_ = w_ = write;
    ar_ = !write;
    dirty_ = true;
    resp_ = 0;
    int n = 0;
    // Address (and data): each valid drops after its handshake.
    while (aw_ || w_ || ar_) {
      if (n++ == kRegPortCycles) {
        aw_ = w_ = ar_ = false;
        dirty_ = true;
        throw TimeoutError(dut + ": AXI4-Lite control port did not take the " + (write ? "write" : "read") +
                           " at " + hex(addr) + " within " + std::to_string(kRegPortCycles) + " cycles");
      }
      core.cycle();
      if (aw_fired_ || w_fired_ || ar_fired_) {
        aw_ = aw_ && !aw_fired_;
        w_ = w_ && !w_fired_;
        ar_ = ar_ && !ar_fired_;
        dirty_ = true;
      }
    }
    // Response.
    for (n = 0; !(write ? b_fired_ : r_fired_); ++n) {
      if (n == kRegPortCycles) {
        throw TimeoutError(dut + ": AXI4-Lite control port gave no " + (write ? "B" : "R") + " response at " +
                           hex(addr) + " within " + std::to_string(kRegPortCycles) + " cycles");
      }
      core.cycle();
    }
    if (resp_ != 0) {  // a failed access fails the run (the wrapper's dut_errors), as a bus error does
      errors_.push_back(std::string("AXI4-Lite ") + (write ? "write" : "read") + " at " + hex(addr) + " answered " +
                        (resp_ == 2 ? "SLVERR" : resp_ == 3 ? "DECERR" : "EXOKAY"));
    }
    return write ? 0 : rdata_;
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::vector<std::string> errors_;
  bool aw_ = false, w_ = false, ar_ = false, dirty_ = true;
  bool aw_fired_ = false, w_fired_ = false, ar_fired_ = false, b_fired_ = false, r_fired_ = false;
  uint32_t addr_ = 0, wdata_ = 0, rdata_ = 0, resp_ = 0;
};

}  // namespace cosim::tb::harness
