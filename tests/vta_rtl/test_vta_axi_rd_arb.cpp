// The AR arbiter alone (vta_axi_rd_arb): clients that keep requesting are
// granted in turn (round robin, client i gets ARID i with its own address and
// length), and a client that stops requesting is skipped. Kills the mutation
// vta_arb_no_rr of scripts/mutate (a pointer that never moves starves the
// other clients, which the end-to-end tests cannot see).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vvta_axi_rd_arb.h"
#include "verilated.h"
#pragma GCC diagnostic pop

namespace {

struct ArbTb {
  VerilatedContext ctx;
  Vvta_axi_rd_arb dut{&ctx};
  ArbTb() {
    dut.rst_ni = 0;
    dut.ar_valid_i = 0;
    dut.m_arready_i = 0;
    dut.m_rvalid_i = 0;
    dut.r_ready_i = 0;
    dut.m_rid_i = 0;
    for (int c = 0; c < 3; ++c) {
      // ar_addr_i is 3 x 64 bits, client c in bits 64c+63..64c.
      dut.ar_addr_i[2 * c] = 0x1000u * (c + 1);
      dut.ar_addr_i[2 * c + 1] = 0;
    }
    dut.ar_len_i = 0x030201;  // client c asks for len c + 1
    step();
    dut.rst_ni = 1;
  }
  ~ArbTb() { Verilated::threadContextp(&ctx); }
  void step() {
    dut.clk_i = 0;
    dut.eval();
    dut.clk_i = 1;
    dut.eval();
  }
  // Clocks `cycles` cycles with AR always ready; returns the ARIDs accepted.
  std::vector<int> grants(uint32_t valid_mask, int cycles) {
    std::vector<int> ids;
    dut.ar_valid_i = valid_mask;
    dut.m_arready_i = 1;
    for (int i = 0; i < cycles; ++i) {
      dut.clk_i = 0;
      dut.eval();
      if (dut.m_arvalid_o) {
        const int id = dut.m_arid_o;
        ids.push_back(id);
        EXPECT_EQ(dut.m_araddr_o, 0x1000u * (id + 1)) << "ARADDR of client " << id;
        EXPECT_EQ(dut.m_arlen_o, static_cast<uint32_t>(id + 1)) << "ARLEN of client " << id;
      }
      dut.clk_i = 1;
      dut.eval();
    }
    return ids;
  }
};

TEST(VtaAxiRdArb, BusyClientsAreGrantedInTurn) {
  ArbTb tb;
  const std::vector<int> ids = tb.grants(0b111, 31);
  ASSERT_GE(ids.size(), 27u);
  for (std::size_t i = 0; i + 3 <= ids.size(); ++i) {
    const std::set<int> window(ids.begin() + i, ids.begin() + i + 3);
    EXPECT_EQ(window.size(), 3u) << "grants " << i << ".." << i + 2 << " are not one per client";
  }
}

TEST(VtaAxiRdArb, IdleClientIsSkipped) {
  ArbTb tb;
  const std::vector<int> ids = tb.grants(0b101, 21);  // clients 0 and 2 only
  ASSERT_GE(ids.size(), 18u);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_NE(ids[i], 1) << "grant " << i << " went to the idle client";
    if (i > 0) {
      EXPECT_NE(ids[i], ids[i - 1]) << "grant " << i << " repeats client " << ids[i];
    }
  }
}

}  // namespace
