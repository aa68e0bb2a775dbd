// The pin mapping between a Verilated tf2_top (any parameter variant: the
// class is always Vtf2_top) and the cycle-level AXI4 slave's Axi4Pins,
// shared by the bare harness and the TLM wrapper (tb/tf2). One clock cycle:
//   slave.drive(p); to_dut(m, p); clk 0, eval; from_dut(m, p); slave.tick(p); clk 1, eval.
#pragma once

#include <cstring>

#include "axi/axi4_slave.hpp"

namespace cosim::tb::tf2_pins {

constexpr std::size_t kBeatBytes = 16;  // tf2_pkg::AxiDataWidth / 8

// Slave outputs -> DUT inputs.
template <typename Model>
void to_dut(Model& m, const Axi4Pins& p) {
  m.m_axi_arready_i = p.arready;
  m.m_axi_rvalid_i = p.rvalid;
  std::memcpy(m.m_axi_rdata_i.data(), p.rdata.data(), kBeatBytes);
  m.m_axi_rresp_i = p.rresp;
  m.m_axi_rlast_i = p.rlast;
  m.m_axi_rid_i = p.rid & 3;
  m.m_axi_awready_i = p.awready;
  m.m_axi_wready_i = p.wready;
  m.m_axi_bvalid_i = p.bvalid;
  m.m_axi_bresp_i = p.bresp;
  m.m_axi_bid_i = p.bid & 3;
}

// DUT outputs -> slave inputs.
template <typename Model>
void from_dut(const Model& m, Axi4Pins& p) {
  p.arvalid = m.m_axi_arvalid_o;
  p.araddr = m.m_axi_araddr_o;
  p.arlen = m.m_axi_arlen_o;
  p.arsize = m.m_axi_arsize_o;
  p.arburst = m.m_axi_arburst_o;
  p.arid = m.m_axi_arid_o;
  p.rready = m.m_axi_rready_o;
  p.awvalid = m.m_axi_awvalid_o;
  p.awaddr = m.m_axi_awaddr_o;
  p.awlen = m.m_axi_awlen_o;
  p.awsize = m.m_axi_awsize_o;
  p.awburst = m.m_axi_awburst_o;
  p.awid = m.m_axi_awid_o;
  p.wvalid = m.m_axi_wvalid_o;
  std::memcpy(p.wdata.data(), m.m_axi_wdata_o.data(), kBeatBytes);
  p.wstrb = m.m_axi_wstrb_o;
  p.wlast = m.m_axi_wlast_o;
  p.bready = m.m_axi_bready_o;
}

}  // namespace cosim::tb::tf2_pins
