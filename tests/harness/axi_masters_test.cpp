// harness::AxiMasterBinders against a model with two AXI4 masters of
// different widths, written here in plain C++ (pins as members, as a
// Verilated top has them): the list the manifest gives is served in its
// order, each master by its own slave, each at its own width; a wrong number
// of slaves is refused. Expected values are the pins set here.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "harness/axi_masters.hpp"

namespace cosim::tb::harness {
namespace {

struct TwoMasters {
  // Master a: 32-bit data.
  uint8_t A_ARVALID = 0, A_ARREADY = 0, A_ARLEN = 0, A_RVALID = 0, A_RREADY = 0, A_RLAST = 0;
  uint8_t A_AWVALID = 0, A_AWREADY = 0, A_AWLEN = 0, A_WVALID = 0, A_WREADY = 0, A_WLAST = 0;
  uint8_t A_BVALID = 0, A_BREADY = 0;
  uint64_t A_ARADDR = 0, A_AWADDR = 0;
  uint32_t A_RDATA = 0, A_WDATA = 0;
  // Master b: 64-bit data.
  uint8_t B_ARVALID = 0, B_ARREADY = 0, B_ARLEN = 0, B_RVALID = 0, B_RREADY = 0, B_RLAST = 0;
  uint8_t B_AWVALID = 0, B_AWREADY = 0, B_AWLEN = 0, B_WVALID = 0, B_WREADY = 0, B_WLAST = 0;
  uint8_t B_BVALID = 0, B_BREADY = 0;
  uint64_t B_ARADDR = 0, B_AWADDR = 0;
  uint64_t B_RDATA = 0, B_WDATA = 0;
};

// The shape of a generated binding (scripts/dutgen_ports.py) for each master.
#define AXI_MASTER_PINS(P)                                                                                     \
  COSIM_PIN(arvalid, P##_ARVALID)                                                                              \
  COSIM_PIN(arready, P##_ARREADY)                                                                              \
  COSIM_PIN(araddr, P##_ARADDR)                                                                                \
  COSIM_PIN(arlen, P##_ARLEN)                                                                                  \
  COSIM_PIN(rvalid, P##_RVALID)                                                                                \
  COSIM_PIN(rready, P##_RREADY)                                                                                \
  COSIM_PIN(rdata, P##_RDATA)                                                                                  \
  COSIM_PIN(rlast, P##_RLAST)                                                                                  \
  COSIM_PIN(awvalid, P##_AWVALID)                                                                              \
  COSIM_PIN(awready, P##_AWREADY)                                                                              \
  COSIM_PIN(awaddr, P##_AWADDR)                                                                                \
  COSIM_PIN(awlen, P##_AWLEN)                                                                                  \
  COSIM_PIN(wvalid, P##_WVALID)                                                                                \
  COSIM_PIN(wready, P##_WREADY)                                                                                \
  COSIM_PIN(wdata, P##_WDATA)                                                                                  \
  COSIM_PIN(wlast, P##_WLAST)                                                                                  \
  COSIM_PIN(bvalid, P##_BVALID)                                                                                \
  COSIM_PIN(bready, P##_BREADY)                                                                                \
  /* listed by the binding, absent from this model: the binder's AXI defaults */                              \
  COSIM_PIN(arsize, P##_ARSIZE)                                                                                \
  COSIM_PIN(arburst, P##_ARBURST)                                                                              \
  COSIM_PIN(arid, P##_ARID)                                                                                    \
  COSIM_PIN(rresp, P##_RRESP)                                                                                  \
  COSIM_PIN(rid, P##_RID)                                                                                      \
  COSIM_PIN(awsize, P##_AWSIZE)                                                                                \
  COSIM_PIN(awburst, P##_AWBURST)                                                                              \
  COSIM_PIN(awid, P##_AWID)                                                                                    \
  COSIM_PIN(wstrb, P##_WSTRB)                                                                                  \
  COSIM_PIN(bresp, P##_BRESP)                                                                                  \
  COSIM_PIN(bid, P##_BID)

struct BusA {
  static constexpr const char* kName = "a";
  static constexpr uint64_t kStallSeed = 0;
  AXI_MASTER_PINS(A)
};
struct BusB {
  static constexpr const char* kName = "b";
  static constexpr uint64_t kStallSeed = 7;
  AXI_MASTER_PINS(B)
};
#undef AXI_MASTER_PINS

using Masters = AxiMasterBinders<TwoMasters, BusList<BusA, BusB>>;

// A slave that answers with its own ARREADY and records the read address it saw.
class RecordingSlave final : public AxiSlavePort {
 public:
  explicit RecordingSlave(bool arready) : arready_(arready) {}
  void drive(Axi4Pins& pins) override { pins.arready = arready_; }
  void tick(const Axi4Pins& pins) override { seen_araddr.push_back(pins.araddr); }
  std::vector<uint64_t> seen_araddr;

 private:
  bool arready_;
};

// What Core::add_port is asked for, in order.
struct PortList {
  std::vector<Port<TwoMasters>*> ports;
  void add_port(Port<TwoMasters>& p) { ports.push_back(&p); }
};

TEST(AxiMasterBinders, SpecsFollowTheManifestsOrderAndEachModelWidth) {
  const std::vector<AxiMasterSpec> s = Masters::specs();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].name, "a");
  EXPECT_EQ(s[0].data_bytes, 4u);
  EXPECT_EQ(s[0].stall_seed, 0u);
  EXPECT_EQ(s[1].name, "b");
  EXPECT_EQ(s[1].data_bytes, 8u);
  EXPECT_EQ(s[1].stall_seed, 7u);
  EXPECT_EQ(Masters::kCount, 2u);
  EXPECT_EQ((AxiMasterBinders<TwoMasters, BusList<>>::specs().size()), 0u);
}

TEST(AxiMasterBinders, EachMasterIsServedByItsOwnSlave) {
  RecordingSlave sa(true), sb(false);
  Masters masters({&sa, &sb});
  PortList core;
  masters.add_to(core);
  ASSERT_EQ(core.ports.size(), 2u);

  TwoMasters m;
  m.A_ARADDR = 0x1000;
  m.B_ARADDR = 0x2000;
  for (Port<TwoMasters>* p : core.ports) p->drive(m);
  EXPECT_EQ(m.A_ARREADY, 1);
  EXPECT_EQ(m.B_ARREADY, 0);
  for (Port<TwoMasters>* p : core.ports) p->sample(m, 0);
  EXPECT_EQ(sa.seen_araddr, std::vector<uint64_t>{0x1000});
  EXPECT_EQ(sb.seen_araddr, std::vector<uint64_t>{0x2000});
}

TEST(AxiMasterBinders, AWrongNumberOfSlavesIsRefused) {
  RecordingSlave s(true);
  EXPECT_THROW(Masters({&s}), std::logic_error);
  EXPECT_THROW(Masters({&s, &s, &s}), std::logic_error);
}

}  // namespace
}  // namespace cosim::tb::harness
