// The register-port binder: drives a model's reg_* ports, the common
// register bus of every DUT (rtl/common/cosim_reg_slave.sv):
//   reg_req_valid_i / reg_req_ready_o, reg_write_i, reg_addr_i (byte
//   address), reg_wdata_i; reg_rsp_valid_o / reg_rsp_ready_i, reg_rdata_o.
// The host is always ready for a response (reg_rsp_ready_i = 1), so the
// response of one access is taken at the clock edge that starts the next
// cycle, and back-to-back accesses cost one cycle each. Core::reg_read /
// reg_write run the handshake; Core clocks this binder itself (it is not in
// the list of added binders), and its pins are written only when they change.
#pragma once

#include <cstdint>


namespace cosim::tb::harness {

template <class Model>
class RegBinder {
 public:
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
  // The request was taken at the last clock edge.
  bool fired() const { return fired_; }

  void drive(Model& m) {
    if (!dirty_) return;
    dirty_ = false;
    m.reg_req_valid_i = valid_;
    m.reg_write_i = write_;
    m.reg_addr_i = addr_;
    m.reg_wdata_i = wdata_;
    m.reg_rsp_ready_i = 1;
  }
  void sample(const Model& m) { fired_ = valid_ && m.reg_req_ready_o; }

 private:
  bool valid_ = false, write_ = false, fired_ = false, dirty_ = true;
  uint32_t addr_ = 0, wdata_ = 0;
};

}  // namespace cosim::tb::harness
