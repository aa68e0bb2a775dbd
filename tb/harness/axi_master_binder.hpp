// The AXI4 master binder: a model's m_axi_* ports (AW, W, B, AR, R; the ID
// ports when the model has them) to and from an Axi4Pins, served by an AXI4
// slave: the cycle-level tb/axi Axi4SlaveModel (bare harnesses) or the TLM
// testbench's TimedAxiSlave, behind the AxiSlavePort interface. The data
// width is the model's (the storage of m_axi_rdata_i).
#pragma once

#include <cstdint>

#include "axi/axi4_slave.hpp"
#include "harness/pins.hpp"
#include "harness/port.hpp"

namespace cosim::tb::harness {

// What a harness puts behind a DUT's AXI4 master.
class AxiSlavePort {
 public:
  virtual ~AxiSlavePort() = default;
  virtual void drive(Axi4Pins& pins) = 0;
  virtual void tick(const Axi4Pins& pins) = 0;
};

// Any slave with drive(Axi4Pins&) / tick(const Axi4Pins&), by reference.
template <class Slave>
class AxiSlaveRef final : public AxiSlavePort {
 public:
  explicit AxiSlaveRef(Slave& s) : s_(s) {}
  void drive(Axi4Pins& pins) override { s_.drive(pins); }
  void tick(const Axi4Pins& pins) override { s_.tick(pins); }

 private:
  Slave& s_;
};

namespace axi_pins {
COSIM_HARNESS_HAS_PIN(m_axi_arid_o);
COSIM_HARNESS_HAS_PIN(m_axi_awid_o);
COSIM_HARNESS_HAS_PIN(m_axi_rid_i);
COSIM_HARNESS_HAS_PIN(m_axi_bid_i);
}  // namespace axi_pins

template <class Model>
class AxiMasterBinder final : public Port<Model> {
 public:
  static constexpr std::size_t kDataBytes = pin_bytes<decltype(std::declval<Model&>().m_axi_rdata_i)>;
  static_assert(kDataBytes <= kAxiMaxDataBytes, "AXI data wider than Axi4Pins holds");

  explicit AxiMasterBinder(AxiSlavePort& slave) : slave_(slave) {}

  // Slave outputs -> master inputs.
  void drive(Model& m) override {
    slave_.drive(p_);
    m.m_axi_arready_i = p_.arready;
    m.m_axi_rvalid_i = p_.rvalid;
    if (p_.rvalid) bytes_to_pin(m.m_axi_rdata_i, p_.rdata.data(), kDataBytes);
    m.m_axi_rresp_i = p_.rresp;
    m.m_axi_rlast_i = p_.rlast;
    if constexpr (axi_pins::has_m_axi_rid_i<Model>::value) m.m_axi_rid_i = p_.rid;
    m.m_axi_awready_i = p_.awready;
    m.m_axi_wready_i = p_.wready;
    m.m_axi_bvalid_i = p_.bvalid;
    m.m_axi_bresp_i = p_.bresp;
    if constexpr (axi_pins::has_m_axi_bid_i<Model>::value) m.m_axi_bid_i = p_.bid;
  }

  // Master outputs -> slave, which sees this cycle's handshakes.
  void sample(const Model& m, uint64_t time) override {
    (void)time;
    p_.arvalid = m.m_axi_arvalid_o;
    p_.araddr = m.m_axi_araddr_o;
    p_.arlen = m.m_axi_arlen_o;
    p_.arsize = m.m_axi_arsize_o;
    p_.arburst = m.m_axi_arburst_o;
    if constexpr (axi_pins::has_m_axi_arid_o<Model>::value) p_.arid = m.m_axi_arid_o;
    p_.rready = m.m_axi_rready_o;
    p_.awvalid = m.m_axi_awvalid_o;
    p_.awaddr = m.m_axi_awaddr_o;
    p_.awlen = m.m_axi_awlen_o;
    p_.awsize = m.m_axi_awsize_o;
    p_.awburst = m.m_axi_awburst_o;
    if constexpr (axi_pins::has_m_axi_awid_o<Model>::value) p_.awid = m.m_axi_awid_o;
    p_.wvalid = m.m_axi_wvalid_o;
    if (p_.wvalid) pin_to_bytes(m.m_axi_wdata_o, p_.wdata.data(), kDataBytes);
    p_.wstrb = m.m_axi_wstrb_o;
    p_.wlast = m.m_axi_wlast_o;
    p_.bready = m.m_axi_bready_o;
    slave_.tick(p_);
  }

 private:
  AxiSlavePort& slave_;
  Axi4Pins p_;
};

}  // namespace cosim::tb::harness
