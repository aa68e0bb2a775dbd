// rtl/common/cosim_reg_slave.sv against its protocol (the header of the .sv
// and DESIGN.md "The DUT contract"): valid/ready request, registered
// valid/ready response one cycle after the request handshake carrying the
// register's value at that edge, at most one response outstanding, one
// access per cycle while the host takes responses; a host breaking the
// request rule trips the assertion.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "Vcosim_reg_slave.h"
#include "verilated.h"

#include "rtl_assert/rtl_assert.hpp"
#include "rtl_common_tb.hpp"

namespace {

// The host side of the slave (the harness's RegBinder drives the same pins
// in a DUT's core) and the register block's read data, set per cycle.
struct SlaveTb : cosim::rtl_common_test::Tb<Vcosim_reg_slave> {
  SlaveTb() : Tb("cosim_reg_slave") {
    reset([](Vcosim_reg_slave& m) {
      m.reg_req_valid_i = 0;
      m.reg_rsp_ready_i = 1;
    });
  }

  // Host request pins for the coming cycle.
  void request(bool write, uint8_t addr, uint32_t wdata) {
    dut.reg_req_valid_i = 1;
    dut.reg_write_i = write;
    dut.reg_addr_i = addr;
    dut.reg_wdata_i = wdata;
  }
  // One rising edge; `rdata` is what the register block returns this cycle.
  void edge(uint32_t rdata) {
    dut.acc_rdata_i = rdata;
    core.cycle();
  }
  // What the register block sees this cycle: an access or none (`valid`), a
  // write or a read; `when` names the cycle in a failure.
  void expect_access(bool valid, bool write, const std::string& when = "") const {
    EXPECT_EQ(dut.acc_valid_o, valid) << when;
    EXPECT_EQ(dut.acc_write_o, write) << when;
  }
};

TEST(CosimRegSlave, IdleAfterResetAcceptsARequest) {
  SlaveTb tb;
  tb.settle();
  EXPECT_EQ(tb.dut.reg_rsp_valid_o, 0);
  EXPECT_EQ(tb.dut.reg_req_ready_o, 1);
  tb.expect_access(false, false);
}

TEST(CosimRegSlave, WriteIsPresentedInItsCycleAndAnsweredTheNext) {
  SlaveTb tb;
  tb.request(true, 0x0c, 0xdeadbeef);
  tb.settle();
  // The register block sees the access in the request's cycle.
  tb.expect_access(true, true);
  EXPECT_EQ(tb.dut.acc_addr_o, 0x0c);
  EXPECT_EQ(tb.dut.acc_wdata_o, 0xdeadbeefu);
  EXPECT_EQ(tb.dut.reg_rsp_valid_o, 0);
  tb.edge(0x11111111);  // the value before the write
  tb.dut.reg_req_valid_i = 0;
  tb.settle();
  EXPECT_EQ(tb.dut.acc_valid_o, 0);
  EXPECT_EQ(tb.dut.reg_rsp_valid_o, 1);
  EXPECT_EQ(tb.dut.reg_rdata_o, 0x11111111u);
  tb.edge(0);  // taken (ready high)
  EXPECT_EQ(tb.dut.reg_rsp_valid_o, 0);
}

TEST(CosimRegSlave, ReadReturnsTheValueAtTheRequestEdge) {
  SlaveTb tb;
  tb.request(false, 0x24, 0);
  tb.settle();
  tb.expect_access(true, false);
  tb.edge(0xcafe0001);
  tb.dut.reg_req_valid_i = 0;
  tb.dut.reg_rsp_ready_i = 0;
  tb.edge(0x0badf00d);  // the register changes later: the response does not
  EXPECT_EQ(tb.dut.reg_rsp_valid_o, 1);
  EXPECT_EQ(tb.dut.reg_rdata_o, 0xcafe0001u);
}

TEST(CosimRegSlave, HeldResponseBlocksTheNextRequestUntilTaken) {
  SlaveTb tb;
  tb.request(false, 0x04, 0);
  tb.dut.reg_rsp_ready_i = 0;
  tb.edge(7);
  // Second request while the first response waits.
  tb.request(true, 0x08, 42);
  for (int i = 0; i < 3; ++i) {
    tb.settle();
    EXPECT_EQ(tb.dut.reg_req_ready_o, 0) << i;
    tb.expect_access(false, false, std::to_string(i));
    tb.edge(100 + i);
    EXPECT_EQ(tb.dut.reg_rsp_valid_o, 1) << i;
    EXPECT_EQ(tb.dut.reg_rdata_o, 7u) << i;
  }
  // The host takes the response: the waiting request goes in the same cycle.
  tb.dut.reg_rsp_ready_i = 1;
  tb.settle();
  EXPECT_EQ(tb.dut.reg_req_ready_o, 1);
  EXPECT_EQ(tb.dut.acc_write_o, 1);
  EXPECT_EQ(tb.dut.acc_wdata_o, 42u);
  tb.edge(9);
  tb.dut.reg_req_valid_i = 0;
  tb.settle();
  EXPECT_EQ(tb.dut.reg_rsp_valid_o, 1);
  EXPECT_EQ(tb.dut.reg_rdata_o, 9u);
}

TEST(CosimRegSlave, BackToBackAccessesOnePerCycleInOrder) {
  SlaveTb tb;
  for (uint32_t i = 0; i < 8; ++i) {
    tb.request(i % 2 == 0, static_cast<uint8_t>(4 * i), i);
    tb.settle();
    EXPECT_EQ(tb.dut.acc_valid_o, 1) << i;
    EXPECT_EQ(tb.dut.acc_addr_o, 4 * i) << i;
    if (i > 0) {
      EXPECT_EQ(tb.dut.reg_rsp_valid_o, 1) << i;  // the previous access's response
      EXPECT_EQ(tb.dut.reg_rdata_o, 0x1000u + i - 1) << i;
    }
    tb.edge(0x1000 + i);
  }
}

// Drives a request stalled behind a held response, then breaks the request
// rule with `violate` before the next edge; the held-request checker
// (rtl/common/cosim_assert_held) must stop the run at that edge.
void expect_stalled_request_rule_trips(const std::function<void(SlaveTb&)>& violate) {
  SlaveTb tb;
  tb.request(false, 0x00, 0);
  tb.dut.reg_rsp_ready_i = 0;
  tb.edge(1);
  tb.request(true, 0x10, 5);  // stalled behind the held response
  tb.edge(2);
  violate(tb);
  testing::internal::CaptureStdout();
  bool tripped = false;
  try {
    tb.edge(3);
  } catch (const cosim::tb::RtlAssertionError& e) {
    tripped = true;
    EXPECT_EQ(e.cycle(), 3u);
    EXPECT_EQ(e.info().name, "a_held") << e.what();
  }
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(tripped);
  EXPECT_NE(out.find("cosim_reg_slave request: valid dropped or payload changed"), std::string::npos) << out;
}

TEST(CosimRegSlave, WithdrawnStalledRequestTripsTheAssertion) {
  expect_stalled_request_rule_trips([](SlaveTb& tb) { tb.dut.reg_req_valid_i = 0; });
}

TEST(CosimRegSlave, StalledRequestWithANewAddressTripsTheAssertion) {
  expect_stalled_request_rule_trips([](SlaveTb& tb) { tb.dut.reg_addr_i = 0x14; });
}

}  // namespace
