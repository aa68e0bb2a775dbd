// The harness core and the control binders against a model written here in
// plain C++ (the shape of a Verilated class: pins as members, eval(), a
// (context, name) constructor), so what the core does with each key of a
// generated pin binding is observable cycle by cycle:
//   - reset: the manifest's reset port, polarity and cycles (two bindings);
//   - the AXI4-Lite control port: AW and W accepted in different cycles,
//     read-back, an error response recorded;
//   - the Vitis control protocols: run_to_done() polls CTRL for ap_done
//     (cleared on read), ap_ctrl_chain then writes ap_continue;
//   - a model without a control port on the same clock loop;
//   - the interrupt pin: run_until_irq within and past its budget.
// Expected behaviour comes from the AXI4-Lite handshake rules and the Vitis
// control map (harness/ap_ctrl.hpp), not from the binders' code.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "harness/control.hpp"
#include "harness/core.hpp"

namespace cosim::tb::harness {
namespace {

// A Vitis-shaped kernel model: an AXI4-Lite slave with CTRL (0x00) and one
// argument register (0x10), an interrupt pin, a reset of either polarity.
class FakeKernel {
 public:
  FakeKernel(VerilatedContext*, const char*) {}
  void final() {}

  // Pins (what a Verilated top exposes), upper-case without suffixes.
  uint8_t CLK = 0, RST = 0, RSTN = 1, IRQ = 0;
  uint8_t S_AWVALID = 0, S_AWREADY = 0, S_WVALID = 0, S_WREADY = 0, S_BVALID = 0, S_BREADY = 0, S_BRESP = 0;
  uint8_t S_ARVALID = 0, S_ARREADY = 0, S_RVALID = 0, S_RREADY = 0, S_RRESP = 0;
  uint8_t S_AWADDR = 0, S_ARADDR = 0, S_WSTRB = 0;
  uint32_t S_WDATA = 0, S_RDATA = 0;

  // Test knobs and observations.
  int high_edges = 0;           // rising edges seen with RST high
  int low_edges = 0;            // rising edges seen with RSTN low
  int w_delay = 2;              // cycles W waits after AW was taken
  int done_after = 0;           // CTRL.ap_done this many cycles after ap_start (0: never)
  int irq_after = 0;            // IRQ this many cycles after reset (0: never)
  std::vector<uint32_t> ctrl_writes;
  uint32_t arg = 0;

  void eval() {
    const bool rising = CLK && !last_clk_;
    last_clk_ = CLK;
    if (rising) edge();
    // Outputs from state (Moore), as the RTL would present them.
    S_AWREADY = !aw_ && !b_;
    S_WREADY = aw_ && !w_ && !b_ && wait_ == 0;
    S_BVALID = b_;
    S_BRESP = bresp_;
    S_ARREADY = !r_;
    S_RVALID = r_;
    S_RDATA = rdata_;
    S_RRESP = 0;
    IRQ = irq_after > 0 && cycles_ >= irq_after;
  }

 private:
  void edge() {
    high_edges += RST != 0;
    low_edges += RSTN == 0;
    if (RST != 0 || RSTN == 0) {
      aw_ = w_ = b_ = r_ = false;
      cycles_ = 0;
      return;
    }
    ++cycles_;
    if (running_ && done_after > 0 && cycles_ - started_ >= done_after) {
      running_ = false;
      done_ = true;
    }
    if (S_AWVALID && S_AWREADY) {
      aw_ = true;
      waddr_ = S_AWADDR;
      wait_ = w_delay;
    } else if (wait_ > 0) {
      --wait_;
    }
    if (S_WVALID && S_WREADY) {
      w_ = true;
      wdata_ = S_WDATA;
    }
    if (aw_ && w_ && !b_) {
      b_ = true;
      bresp_ = waddr_ == 0x10 || waddr_ == 0x00 ? 0 : 2;  // SLVERR outside the map
      if (waddr_ == 0x10) arg = wdata_;
      if (waddr_ == 0x00) {
        ctrl_writes.push_back(wdata_);
        if (wdata_ & 1) {
          running_ = true;
          started_ = cycles_;
        }
      }
    } else if (b_ && S_BREADY) {
      b_ = aw_ = w_ = false;
    }
    if (S_ARVALID && S_ARREADY) {
      r_ = true;
      if (S_ARADDR == 0x10) {
        rdata_ = arg;
      } else {
        rdata_ = (done_ ? 2u : 0u) | (running_ ? 0u : 4u);
        done_ = false;  // ap_done clears on read
      }
    } else if (r_ && S_RREADY) {
      r_ = false;
    }
  }

  uint8_t last_clk_ = 0;
  bool aw_ = false, w_ = false, b_ = false, r_ = false, running_ = false, done_ = false;
  int wait_ = 0, cycles_ = 0, started_ = 0;
  uint8_t waddr_ = 0, bresp_ = 0;
  uint32_t wdata_ = 0, rdata_ = 0;
};

// Bindings as scripts/dutgen_ports.py writes them.
struct Control {
  static constexpr BusKind kKind = BusKind::kAxi4Lite;
  COSIM_PIN(awvalid, S_AWVALID)
  COSIM_PIN(awready, S_AWREADY)
  COSIM_PIN(awaddr, S_AWADDR)
  COSIM_PIN(awprot, S_AWPROT)
  COSIM_PIN(wvalid, S_WVALID)
  COSIM_PIN(wready, S_WREADY)
  COSIM_PIN(wdata, S_WDATA)
  COSIM_PIN(wstrb, S_WSTRB)
  COSIM_PIN(bvalid, S_BVALID)
  COSIM_PIN(bready, S_BREADY)
  COSIM_PIN(bresp, S_BRESP)
  COSIM_PIN(arvalid, S_ARVALID)
  COSIM_PIN(arready, S_ARREADY)
  COSIM_PIN(araddr, S_ARADDR)
  COSIM_PIN(arprot, S_ARPROT)
  COSIM_PIN(rvalid, S_RVALID)
  COSIM_PIN(rready, S_RREADY)
  COSIM_PIN(rdata, S_RDATA)
  COSIM_PIN(rresp, S_RRESP)
};
struct Irq {
  COSIM_PIN(irq, IRQ)
};
template <bool ActiveLow, int Cycles, ControlProtocol Protocol>
struct Top {
  COSIM_PIN(clock, CLK)
  template <class M>
  static auto& reset(M& m) {
    if constexpr (ActiveLow) {
      return m.RSTN;
    } else {
      return m.RST;
    }
  }
  static constexpr bool kResetActiveLow = ActiveLow;
  static constexpr int kResetCycles = Cycles;
  static constexpr ControlProtocol kControl = Protocol;
  using Control = harness::Control;
  using AxiMasters = BusList<>;
  using AxisIns = BusList<>;
  using AxisOuts = BusList<>;
  using Irqs = BusList<Irq>;
};
struct NoStatus : NoErrorPin {
  static bool done(const FakeKernel&) { return false; }
  static std::string diagnosis(const FakeKernel&) { return "fake"; }
};

// The core with the binding's control binder added from reset on, as a DUT's
// core holds them.
template <class Pins>
struct FakeCore {
  explicit FakeCore(const char* dut) : core(dut, nullptr, {&ctrl}) {}
  FakeKernel& model() { return core.model(); }
  uint64_t cycles() const { return core.cycles(); }
  uint64_t time() const { return core.time(); }
  void reg_write(uint32_t a, uint32_t v) { ctrl.write(core, a, v); }
  uint32_t reg_read(uint32_t a) { return ctrl.read(core, a); }
  bool run(uint64_t max_cycles) { return run_to_done(core, ctrl, max_cycles); }
  ControlBinder<FakeKernel, Pins> ctrl;
  Core<FakeKernel, NoStatus, Pins> core;
};

TEST(HarnessBindings, ResetHighForItsCycles) {
  // Binding: RST, active high, 5 cycles. RSTN is not the reset: left alone.
  FakeCore<Top<false, 5, ControlProtocol::kApCtrlHs>> core("fake");
  EXPECT_EQ(core.model().high_edges, 5);
  EXPECT_EQ(core.model().low_edges, 0);
  EXPECT_EQ(core.model().RST, 0) << "released after reset";
}

TEST(HarnessBindings, ResetLowForItsCycles) {
  // Binding: RSTN, active low, 3 cycles.
  FakeCore<Top<true, 3, ControlProtocol::kApCtrlHs>> core("fake");
  EXPECT_EQ(core.model().low_edges, 3);
  EXPECT_EQ(core.model().high_edges, 0);
  EXPECT_EQ(core.model().RSTN, 1) << "released after reset";
}

TEST(HarnessBindings, AxiLiteWriteWithLateWThenReadBack) {
  FakeCore<Top<false, 2, ControlProtocol::kApCtrlHs>> core("fake");
  core.model().w_delay = 3;  // W taken 3 cycles after AW
  const uint64_t t0 = core.cycles();
  core.reg_write(0x10, 0xdeadbeef);
  EXPECT_GE(core.cycles() - t0, 4u) << "the write waited for W's handshake and the B response";
  EXPECT_EQ(core.model().arg, 0xdeadbeefu);
  EXPECT_EQ(core.reg_read(0x10), 0xdeadbeefu);
  EXPECT_TRUE(core.ctrl.errors().empty());
}

TEST(HarnessBindings, AxiLiteErrorResponseIsRecorded) {
  FakeCore<Top<false, 2, ControlProtocol::kApCtrlHs>> core("fake");
  core.reg_write(0x24, 1);  // outside the fake's map: SLVERR
  ASSERT_EQ(core.ctrl.errors().size(), 1u);
  EXPECT_NE(core.ctrl.errors()[0].find("SLVERR"), std::string::npos) << core.ctrl.errors()[0];
  EXPECT_NE(core.ctrl.errors()[0].find("0x24"), std::string::npos) << core.ctrl.errors()[0];
}

TEST(HarnessBindings, ApCtrlHsRunPollsCtrlUntilDone) {
  FakeCore<Top<false, 2, ControlProtocol::kApCtrlHs>> core("fake");
  core.model().done_after = 40;
  core.core.start_timeline();
  core.reg_write(ap_ctrl::kCtrl, ap_ctrl::kApStart);
  const uint64_t t0 = core.time();
  ASSERT_TRUE(core.run(1000));
  EXPECT_GE(core.time() - t0, 40u);
  EXPECT_LE(core.time() - t0, 40u + 8u) << "polled back to back";
  EXPECT_EQ(core.reg_read(ap_ctrl::kCtrl) & ap_ctrl::kApDone, 0u) << "ap_done cleared by the read that saw it";
  EXPECT_EQ(core.model().ctrl_writes, (std::vector<uint32_t>{ap_ctrl::kApStart})) << "hs writes no ap_continue";
}

TEST(HarnessBindings, ApCtrlRunStopsAtItsBudget) {
  FakeCore<Top<false, 2, ControlProtocol::kApCtrlHs>> core("fake");
  core.model().done_after = 0;  // never done
  const uint64_t t0 = core.cycles();
  EXPECT_FALSE(core.run(200));
  EXPECT_LE(core.cycles() - t0, 200u + 8u) << "bounded by the budget (one read past it at most)";
}

TEST(HarnessBindings, ApCtrlChainWritesContinue) {
  FakeCore<Top<false, 2, ControlProtocol::kApCtrlChain>> core("fake");
  core.model().done_after = 10;
  core.reg_write(ap_ctrl::kCtrl, ap_ctrl::kApStart);
  ASSERT_TRUE(core.run(1000));
  EXPECT_EQ(core.model().ctrl_writes, (std::vector<uint32_t>{ap_ctrl::kApStart, ap_ctrl::kApContinue}));
}

TEST(HarnessBindings, RunUntilIrq) {
  FakeCore<Top<false, 2, ControlProtocol::kApCtrlHs>> core("fake");
  core.model().irq_after = 30;
  EXPECT_FALSE(core.core.run_until_irq(10));
  EXPECT_FALSE(core.core.irq());
  EXPECT_TRUE(core.core.run_until_irq(100));
  EXPECT_TRUE(core.core.irq());
  EXPECT_GE(core.cycles(), 30u);
}

// No control port: the binding's Control is NoBus; the clock loop, reset and
// status need no binder, and a register access through the binding's
// control binder is bad input naming the DUT.
template <bool ActiveLow>
struct NoControlTop : Top<ActiveLow, 4, ControlProtocol::kNone> {
  using Control = NoBus;
};

TEST(HarnessBindings, ModelWithoutControlPortUsesTheSameLoop) {
  Core<FakeKernel, NoStatus, NoControlTop<true>> core("bare");
  EXPECT_EQ(core.model().low_edges, 4);
  core.model().irq_after = 12;
  EXPECT_TRUE(core.run_until_irq(100));
  EXPECT_EQ(core.model().S_AWVALID, 0) << "no binder drove the control pins";
  ControlBinder<FakeKernel, NoControlTop<true>> ctrl;
  static_assert(std::is_same_v<decltype(ctrl), NoControl<FakeKernel>>);
  try {
    ctrl.read(core, 0x10);
    FAIL() << "a register access without a control port";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bare: register access at 0x10"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cosim::tb::harness
