#!/usr/bin/env python3
"""The manifest's `ports` and `control` keys (scripts/dutgen_ports.py): each
key reaches the generated pin binding (include/dut/<dut>_pins.hpp) or the
check against the top's ports, so a generator that ignored a key fails
here; a manifest that disagrees with its top (a missing port, an unclaimed
port, a wrong direction) stops with one line naming both. The top's ports
come from Verilator (--xml-only), as at configure time. Python 3 unittest,
run by CTest."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DUTGEN = os.path.join(REPO, "scripts", "dutgen.py")
VERILATOR = shutil.which("verilator")

# A Vitis-shaped top: upper-case AXI4-Lite slave and AXI4 master without
# suffixes, an active-high reset, an interrupt and one status output.
SV = textwrap.dedent("""\
    module mini (
      input  logic        CLK,
      input  logic        RST,
      input  logic        s_ctl_AWVALID, output logic s_ctl_AWREADY, input logic [5:0] s_ctl_AWADDR,
      input  logic        s_ctl_WVALID, output logic s_ctl_WREADY, input logic [31:0] s_ctl_WDATA,
      input  logic [3:0]  s_ctl_WSTRB,
      output logic        s_ctl_BVALID, input logic s_ctl_BREADY, output logic [1:0] s_ctl_BRESP,
      input  logic        s_ctl_ARVALID, output logic s_ctl_ARREADY, input logic [5:0] s_ctl_ARADDR,
      output logic        s_ctl_RVALID, input logic s_ctl_RREADY, output logic [31:0] s_ctl_RDATA,
      output logic [1:0]  s_ctl_RRESP,
      output logic        m_g_AWVALID, input logic m_g_AWREADY, output logic [63:0] m_g_AWADDR,
      output logic [7:0]  m_g_AWLEN,
      output logic        m_g_WVALID, input logic m_g_WREADY, output logic [31:0] m_g_WDATA,
      output logic        m_g_WLAST,
      input  logic        m_g_BVALID, output logic m_g_BREADY,
      output logic        m_g_ARVALID, input logic m_g_ARREADY, output logic [63:0] m_g_ARADDR,
      output logic [7:0]  m_g_ARLEN,
      input  logic        m_g_RVALID, output logic m_g_RREADY, input logic [31:0] m_g_RDATA,
      input  logic        m_g_RLAST,
      output logic        irq_out,
      output logic [3:0]  state_o
    );
      assign {s_ctl_AWREADY, s_ctl_WREADY, s_ctl_BVALID, s_ctl_BRESP, s_ctl_ARREADY, s_ctl_RVALID, s_ctl_RDATA,
              s_ctl_RRESP} = '0;
      assign {m_g_AWVALID, m_g_AWADDR, m_g_AWLEN, m_g_WVALID, m_g_WDATA, m_g_WLAST, m_g_BREADY, m_g_ARVALID,
              m_g_ARADDR, m_g_ARLEN, m_g_RREADY} = '0;
      assign irq_out = 1'b0;
      assign state_o = 4'd0;
    endmodule
    """)

MANIFEST = textwrap.dedent("""\
    name: mini
    top: mini
    sources: [mini.sv]
    ports:
      clock: CLK
      reset: {port: RST, active: high, cycles: 5}
      interfaces:
        - {name: control, kind: axi4lite, prefix: s_ctl_, case: upper, addr_width: 6}
        - {name: gmem, kind: axi4, prefix: m_g_, case: upper, stall_seed: 7}
        - {name: done, kind: irq, port: irq_out}
      debug: [state_o]
    control: ap_ctrl_chain
    registers:
      - {name: CTRL, offset: 0x00, access: rw}
    variants:
      - {name: mini_rtl}
    """)


def run(folder, *args):
    p = subprocess.run([sys.executable, DUTGEN] + list(args), cwd=folder, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


class Ports(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.path = os.path.join(self.dir, "mini.yaml")
        self.gen = os.path.join(self.dir, "gen")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def configure(self, manifest=MANIFEST, sv=SV, check=True):
        with open(os.path.join(self.dir, "mini.sv"), "w") as f:
            f.write(sv)
        with open(self.path, "w") as f:
            f.write(manifest)
        args = ["configure", self.path, "--outdir", self.gen] + (["--verilator", VERILATOR] if check else [])
        return run(self.dir, *args)

    def expect_configured(self, *args, **kwargs):
        """configure(*args, **kwargs) passes."""
        rc, _, err = self.configure(*args, **kwargs)
        self.assertEqual(rc, 0, err)

    def pins(self, manifest=MANIFEST):
        self.expect_configured(manifest, check=False)
        with open(os.path.join(self.gen, "include", "dut", "mini_pins.hpp")) as f:
            return f.read()

    def expect_error(self, manifest, sv, *words):
        rc, _, err = self.configure(manifest, sv)
        self.assertEqual(rc, 2, err)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertTrue(lines[0].startswith(self.path + ": ports: "), lines[0])
        for w in words:
            self.assertIn(w, lines[0])

    # -- each key reaches the binding -------------------------------------
    def test_clock(self):
        self.assertIn("COSIM_PIN(clock, CLK)", self.pins())
        self.assertIn("COSIM_PIN(clock, ap_clk)", self.pins(MANIFEST.replace("clock: CLK", "clock: ap_clk")))

    def test_reset_port_polarity_cycles(self):
        h = self.pins()
        self.assertIn("COSIM_PIN(reset, RST)", h)
        self.assertIn("kResetActiveLow = false;", h)
        self.assertIn("kResetCycles = 5;", h)
        h = self.pins(MANIFEST.replace("{port: RST, active: high, cycles: 5}", "{port: RST}"))
        self.assertIn("kResetActiveLow = true;", h)  # the default: active low, 2 cycles
        self.assertIn("kResetCycles = 2;", h)

    def test_prefix_and_case(self):
        h = self.pins()
        self.assertIn("COSIM_PIN(awvalid, s_ctl_AWVALID)", h)
        self.assertIn("COSIM_PIN(rdata, m_g_RDATA)", h)
        self.assertIn("COSIM_PIN(wid, m_g_WID)", h)  # AXI3's, in HLS-generated masters
        h = self.pins(MANIFEST.replace("prefix: m_g_, case: upper", "prefix: m_axi_gmem_"))
        self.assertIn("COSIM_PIN(rdata, m_axi_gmem_rdata)", h)

    def test_suffix(self):
        h = self.pins(MANIFEST.replace("prefix: m_g_, case: upper", "prefix: m_axi_, suffix: io"))
        self.assertIn("COSIM_PIN(arvalid, m_axi_arvalid_o)", h)  # DUT output
        self.assertIn("COSIM_PIN(arready, m_axi_arready_i)", h)  # DUT input
        h = self.pins(MANIFEST.replace("case: upper, addr_width: 6", "suffix: io, addr_width: 6"))
        self.assertIn("COSIM_PIN(awvalid, s_ctl_awvalid_i)", h)  # a slave: AWVALID comes in
        self.assertIn("COSIM_PIN(rdata, s_ctl_rdata_o)", h)

    def test_kinds_and_names(self):
        h = self.pins()
        self.assertRegex(h, r"struct Control \{\s*static constexpr const char\* kName = \"control\";\s*"
                            r"static constexpr cosim::tb::harness::BusKind kKind = cosim::tb::harness::BusKind::kAxi4Lite;")
        self.assertIn("BusKind::kAxi4;", h)
        self.assertIn("using AxiMasters = cosim::tb::harness::BusList<cosim::mini::pins::Gmem>;", h)
        self.assertIn("using Irqs = cosim::tb::harness::BusList<cosim::mini::pins::Done>;", h)
        self.assertIn("using Control = cosim::mini::pins::Control;", h)

    def test_irq_port(self):
        self.assertIn("COSIM_PIN(irq, irq_out)", self.pins())

    def test_axis(self):
        m = MANIFEST.replace("    - {name: done, kind: irq, port: irq_out}\n",
                             "    - {name: done, kind: irq, port: irq_out}\n"
                             "    - {name: pix_in, kind: axis_in, prefix: s_axis_}\n"
                             "    - {name: pix_out, kind: axis_out, prefix: m_axis_, suffix: io}\n")
        h = self.pins(m)
        self.assertIn("COSIM_PIN(tready, s_axis_tready)", h)
        self.assertIn("COSIM_PIN(tkeep, m_axis_tkeep_o)", h)
        self.assertIn("COSIM_PIN(tuser, s_axis_tuser)", h)
        self.assertIn("COSIM_PIN(tid, s_axis_tid)", h)
        self.assertIn("COSIM_PIN(tdest, m_axis_tdest_o)", h)
        self.assertIn("using AxisIns = cosim::tb::harness::BusList<cosim::mini::pins::PixIn>;", h)
        self.assertIn("using AxisOuts = cosim::tb::harness::BusList<cosim::mini::pins::PixOut>;", h)

    # A stream's width: whole bytes, and data_bytes when Verilator stores TDATA in more bytes.
    AXIS_SV = textwrap.dedent("""\
        module mini (
          input  logic CLK, input logic RST,
          input  logic s_axis_tvalid, output logic s_axis_tready, input logic [DW-1:0] s_axis_tdata,
          output logic m_axis_tvalid, input logic m_axis_tready, output logic [127:0] m_axis_tdata
        );
          assign s_axis_tready = 1'b1;
          assign {m_axis_tvalid, m_axis_tdata} = '0;
        endmodule
        """)
    AXIS_MANIFEST = textwrap.dedent("""\
        name: mini
        top: mini
        sources: [mini.sv]
        ports:
          clock: CLK
          reset: {port: RST, active: high}
          interfaces:
            - {name: pix_in, kind: axis_in, prefix: s_axis_EXTRA}
            - {name: pix_out, kind: axis_out, prefix: m_axis_}
        control: none
        registers: []
        variants:
          - {name: mini_rtl}
        """)

    def axis(self, bits, extra=""):
        return (self.AXIS_MANIFEST.replace("EXTRA}", "" + ("}" if not extra else ", " + extra + "}")),
                self.AXIS_SV.replace("DW-1", str(bits - 1)))

    def test_axis_data_bytes_reaches_the_binding(self):
        m, _ = self.axis(24, "data_bytes: 3")
        h = self.pins(m)
        self.assertRegex(h, r"struct PixIn \{[^}]*static constexpr unsigned kDataBytes = 3;")
        self.assertNotRegex(h, r"struct PixOut \{[^}]*kDataBytes")

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_axis_width_checked_against_the_top(self):
        for bits in (8, 32, 64, 128, 256, 96):  # stored exactly: no data_bytes needed
            rc, _, err = self.configure(*self.axis(bits))
            self.assertEqual(rc, 0, f"{bits} bits: {err}")
        self.expect_configured(*self.axis(24, "data_bytes: 3"))
        self.expect_configured(*self.axis(72, "data_bytes: 9"))
        self.expect_error(*self.axis(24), "interface pix_in (axis_in)", "s_axis_tdata", "24 bits",
                          "stores in 4 bytes", "add data_bytes: 3")
        self.expect_error(*self.axis(72), "72 bits", "stores in 12 bytes", "add data_bytes: 9")
        self.expect_error(*self.axis(32, "data_bytes: 3"), "has data_bytes: 3", "32 bits (4 bytes)")
        self.expect_error(*self.axis(12), "12 bits, not a whole number of bytes; add data_bits: 12 (each beat then is "
                          "2 bytes)")
        # data_bits: a beat of 12 bits is 2 bytes of the stream's data, the bits above cleared on the way in.
        m, sv = self.axis(12, "data_bits: 12")
        self.expect_configured(m, sv)
        self.expect_error(*self.axis(16, "data_bits: 12"), "has data_bits: 12, but TDATA s_axis_tdata", "is 16 bits")

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_axis_routing_signals_are_claimed(self):
        # TID and TDEST (an HLS side-channel stream has them) belong to the stream.
        m, sv = self.axis(32)
        sv = sv.replace("input logic [31:0] s_axis_tdata,",
                        "input logic [31:0] s_axis_tdata, input logic [1:0] s_axis_tid, input logic [3:0] s_axis_tdest,")
        sv = sv.replace("output logic [127:0] m_axis_tdata", "output logic [127:0] m_axis_tdata, output logic [1:0] m_axis_tid")
        sv = sv.replace("assign {m_axis_tvalid, m_axis_tdata} = '0;", "assign {m_axis_tvalid, m_axis_tdata, m_axis_tid} = '0;")
        self.assertIn("s_axis_tid", sv)
        self.expect_configured(m, sv)

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_a_top_with_delays_is_read(self):
        # HLS-generated RTL sets its FSM in an initial block after `#0`; Verilator 5 reads it only when told how.
        m, sv = self.axis(32)
        sv = sv.replace("endmodule", "  logic st;\n  initial begin\n    #0 st = 1'b1;\n  end\nendmodule")
        self.assertIn("#0 st", sv)
        self.expect_configured(m, sv)

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_a_second_clock_is_named_as_such(self):
        # A Vitis kernel with ap_clk_2 / ap_rst_n_2: one line says what is missing, not "add it to an interface".
        m, sv = self.axis(32)
        sv = sv.replace("input  logic CLK, input logic RST,", "input  logic CLK, input logic RST, input logic ap_clk_2,")
        self.assertIn("ap_clk_2", sv)
        self.expect_error(m, sv, "has port ap_clk_2 that no interface of the manifest claims",
                          "a second clock or its reset?", "ports.clocks", "{ap_clk_2: {ratio: 2}}",
                          "twice as fast as CLK", "ports.tie")

    def clocked(self, clocks):
        """The stream DUT with a second clock and its reset, and a manifest naming them under ports.clocks."""
        m, sv = self.axis(32)
        sv = sv.replace("input  logic CLK, input logic RST,",
                        "input  logic CLK, input logic RST, input logic ap_clk_2, input logic ap_rst_n_2,")
        return m.replace("  reset: {port: RST, active: high}", "  reset: {port: RST, active: high}\n  clocks: " + clocks), sv

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_further_clocks(self):
        # A second clock at a ratio to ports.clock, with its reset: claimed, checked, generated into Top::Clocks.
        m, sv = self.clocked("{ap_clk_2: {ratio: 3/2, reset: ap_rst_n_2}}")
        self.assertIn("ratio: 3/2", m)
        self.expect_configured(m, sv)
        h = self.pins(m)
        self.assertIn("struct Clocks {", h)
        self.assertIn("case 0: m.ap_clk_2 = level; break;", h)
        self.assertIn("m.ap_rst_n_2 = active ? 1 : 0;", h)  # ports.reset's polarity: active high
        # The unit: a primary half cycle of 3 (the ratio's numerator), clk_2's half period 2.
        self.assertIn("kHalfCycle = 3;", h)
        self.assertIn("kHalfPeriod[kCount] = {2};", h)
        self.assertIn("kEarly[kCount] = {false};", h)
        self.assertIn("kEarly[kCount] = {true};", self.pins(self.clocked("{ap_clk_2: {ratio: 2, early: true}}")[0]))
        self.assertNotIn("struct Clocks", self.pins(self.axis(32)[0]))  # none without ports.clocks
        # Its reset unclaimed; a clock the top lacks; an output named as a clock.
        self.expect_error(self.clocked("{ap_clk_2: {ratio: 2}}")[0], sv,
                          "has port ap_rst_n_2 that no interface of the manifest claims", "a second clock or its reset?")
        self.expect_error(self.clocked("{ap_clk_2: {ratio: 2, reset: ap_rst_n_2}, ap_clk_3: {ratio: 1}}")[0], sv,
                          "ports.clocks names port ap_clk_3, which top module mini lacks")
        out = sv.replace("input logic ap_clk_2,", "output logic ap_clk_2,").replace("endmodule",
                                                                                "  assign ap_clk_2 = 1'b0;\nendmodule")
        self.expect_error(m, out, "ports.clocks expects ap_clk_2 to be an input")

    def test_further_clocks_in_the_view(self):
        # The view gets a group with the further clocks and resets its own groups leave out.
        m, _ = self.clocked("{ap_clk_2: {ratio: 2, reset: ap_rst_n_2}}")
        self.expect_configured(m + "wave:\n  groups:\n    - {name: g, signals: [CLK, ap_rst_n_2]}\n", check=False)
        rc, out, err = run(self.dir, "views", self.path)
        self.assertEqual(rc, 0, err)
        self.assertIn('ViewGroup{"Further clocks", {ViewSignal("ap_clk_2", Format::kBin)}, false}', out)
        rc, out, err = run(self.dir, "views", os.path.join(REPO, "tests", "clocks", "clocks.yaml"))
        self.assertEqual(rc, 0, err)
        self.assertNotIn("Further clocks", out)  # no wave section: no view at all

    def test_further_clock_reset_cycles_cover_a_slow_clock(self):
        # A clock at a quarter of ports.clock rises at 0.5, 4.5, ... cycles: two of its edges under reset take 5 cycles.
        h = self.pins(self.clocked("{ap_clk_2: {ratio: 0.25, reset: ap_rst_n_2}}")[0].replace(
            "{port: RST, active: high}", "{port: RST, active: high, cycles: 2}"))
        self.assertIn("kResetCycles = 5;", h.split("struct Clocks")[1])
        self.assertIn("kHalfCycle = 1;", h)
        self.assertIn("kHalfPeriod[kCount] = {4};", h)

    def test_bad_further_clocks(self):
        for clocks, words in (("{ap_clk_2: {ratio: 0}}", "ports.clocks.ap_clk_2.ratio: expected a positive ratio"),
                              ("{ap_clk_2: {ratio: 3/2000}}", "p and q at most 1000"),
                              ("{ap_clk_2: {ratio: fast}}", "a number or p/q such as 3/2, got 'fast'"),
                              ("{ap_clk_2: {}}", "ports.clocks.ap_clk_2.ratio: missing"),
                              ("{ap_clk_2: {ratio: 2, phase: 90}}", "ports.clocks.ap_clk_2.phase: unknown key"),
                              ("[ap_clk_2]", "ports.clocks: expected a mapping of clock port to {ratio, reset, early}"),
                              ("{ap_clk_2: {ratio: 2, early: 1}}", "ports.clocks.ap_clk_2.early: expected true or false"),
                              ("{CLK: {ratio: 2}}", "port CLK named twice")):
            m, _ = self.clocked(clocks)
            rc, _, err = self.configure(m, check=False)
            self.assertEqual(rc, 2, (clocks, err))
            self.assertIn(words, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)

    def on_clock(self, clock):
        """The stream manifest with pix_in on `clock` and two further clocks declared."""
        m, _ = self.axis(32, f"clock: {clock}")
        return m.replace("  reset: {port: RST, active: high}", "  reset: {port: RST, active: high}\n"
                         "  clocks: {ap_clk_2: {ratio: 3/2, reset: ap_rst_n_2}, ap_clk_3: {ratio: 2}}")

    def test_an_interface_on_a_further_clock(self):
        # An interface's `clock` reaches its binding as the index among ports.clocks; the others have none.
        h = self.pins(self.on_clock("ap_clk_2"))
        self.assertRegex(h, r"struct PixIn \{[^}]*static constexpr int kClock = 0;  // on ap_clk_2")
        self.assertNotRegex(h, r"struct PixOut \{[^}]*kClock")
        self.assertRegex(self.pins(self.on_clock("ap_clk_3")), r"struct PixIn \{[^}]*kClock = 1;")
        self.assertNotIn("kClock ", self.pins(self.on_clock("CLK")))  # ports.clock itself: the default
        # What a run's report says of them; nothing with one clock.
        self.assertIn('kClocks = "CLK (the cycles); ap_clk_2 at 3/2: pix_in; ap_clk_3 at 2";', h)
        self.assertIn('kClocks = "";', self.pins(self.axis(32)[0]))

    def test_bad_interface_clocks(self):
        no_clocks, _ = self.axis(32, "clock: ap_clk_2")
        irq = self.on_clock("CLK").replace("  interfaces:\n", "  interfaces:\n    - {name: done, kind: irq, clock: ap_clk_2}\n")
        for m, words in ((self.on_clock("ap_clk_9"), "ports.interfaces[0].clock: expected ports.clock (CLK) or a clock "
                                                     "of ports.clocks (ap_clk_2, ap_clk_3), got 'ap_clk_9'"),
                         (self.on_clock("[ap_clk_2]"), "got ['ap_clk_2']"),
                         (no_clocks, "of ports.clocks (none declared), got 'ap_clk_2'"),
                         (irq, "ports.interfaces[0].clock: unknown key")):
            rc, _, err = self.configure(m, check=False)
            self.assertEqual(rc, 2, (m, err))
            self.assertIn(words, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_the_top_is_read_with_the_builds_parameters(self):
        # A top parameter without a default (FINN's RTL has them), given by -G in verilator_args as the
        # build gives it; the port widths follow it.
        m, sv = self.axis(32)
        sv = sv.replace("module mini (", "module mini #(parameter int unsigned W) (").replace("[31:0] s_axis_tdata",
                                                                                         "[W-1:0] s_axis_tdata")
        self.assertIn("[W-1:0] s_axis_tdata", sv)
        self.expect_error(m, sv, "verilator cannot read the sources of mini", "'W'")
        self.expect_configured(m.replace("sources: [mini.sv]", "sources: [mini.sv]\nverilator_args: [-GW=32]"), sv)
        self.expect_error(m.replace("sources: [mini.sv]", "sources: [mini.sv]\nverilator_args: [-GW=24]"), sv,
                          "24 bits", "add data_bytes: 3")

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_tied_inputs(self):
        # An input the testbench holds at a constant: claimed, generated into Top::tie, checked for direction.
        m, sv = self.axis(32)
        sv = sv.replace("input  logic CLK, input logic RST,", "input  logic CLK, input logic RST, input logic [3:0] MODE,")
        tied = m.replace("  reset: {port: RST, active: high}", "  reset: {port: RST, active: high}\n  tie: {MODE: 5}")
        self.assertIn("tie: {MODE: 5}", tied)
        self.expect_error(m, sv, "has port MODE that no interface of the manifest claims")
        self.expect_configured(tied, sv)
        self.assertIn("cosim::tb::harness::set_pin(m.MODE, 5ULL);", self.pins(tied))
        out = sv.replace("input logic [3:0] MODE,", "output logic [3:0] MODE,").replace("endmodule", "  assign MODE = '0;\nendmodule")
        self.expect_error(tied, out, "ports.tie expects MODE to be an input")
        wide = sv.replace("input logic [3:0] MODE,", "input logic [95:0] MODE,")
        self.expect_error(tied, wide, "ports.tie holds MODE at a value", "96 bits", "at most 64")

    def test_addr_width_and_stall_seed(self):
        h = self.pins()
        self.assertIn("kAddrWidth = 6;", h)
        self.assertIn("kStallSeed = 7;", h)
        h = self.pins(MANIFEST.replace(", stall_seed: 7", ""))
        self.assertIn("kStallSeed = 0;", h)  # the default: the master's index

    def test_control(self):
        self.assertIn("ControlProtocol::kApCtrlChain;", self.pins())
        self.assertIn("ControlProtocol::kApCtrlHs;",
                      self.pins(MANIFEST.replace("control: ap_ctrl_chain", "control: ap_ctrl_hs")))

    def test_debug_claims_a_port(self):
        self.expect_error(MANIFEST.replace("debug: [state_o]", "debug: []"), SV,
                          "top module mini has port state_o that no interface of the manifest claims")

    # -- the top against the manifest ---------------------------------------
    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_matching_top_passes(self):
        self.expect_configured()

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_missing_required_port(self):
        self.expect_error(MANIFEST, SV.replace("  output logic        m_g_WLAST,\n", "").replace(", m_g_WLAST", ""),
                          "interface gmem (axi4) signal wlast names port m_g_WLAST, which top module mini lacks")

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_unclaimed_port_with_prefix(self):
        self.expect_error(MANIFEST, SV.replace("output logic [3:0]  state_o", "output logic [3:0]  state_o,\n"
                                                "  output logic m_g_FOO").replace("assign state_o = 4'd0;",
                                                                                  "assign state_o = 4'd0;\n"
                                                                                  "assign m_g_FOO = 1'b0;"),
                          "port m_g_FOO", "prefix of interface gmem")

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_wrong_prefix_names_both(self):
        self.expect_error(MANIFEST.replace("prefix: m_g_", "prefix: m_axi_"), SV, "m_axi_AWVALID", "lacks")

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_wrong_direction(self):
        self.expect_error(MANIFEST, SV.replace("output logic        irq_out", "input  logic        irq_out")
                          .replace("assign irq_out = 1'b0;", ""),
                          "interface done (irq) signal irq expects irq_out to be an output, top module mini "
                          "declares an input")

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_reset_port_missing(self):
        self.expect_error(MANIFEST.replace("port: RST,", "port: ap_rst_n,"), SV,
                          "ports.reset.port names port ap_rst_n, which top module mini lacks")

    # -- ap_ctrl: block-level control on pins -----------------------------------
    AP_SV = textwrap.dedent("""\
        module mini (
          input  logic CLK, input logic RST,
          input  logic ap_start, output logic ap_done, output logic ap_idle, output logic ap_ready,
          input  logic [95:0] key, input logic [15:0] n, output logic [63:0] result
        );
          assign {ap_done, ap_idle, ap_ready, result} = '0;
        endmodule
        """)
    AP_MANIFEST = AXIS_MANIFEST.replace(
        "    - {name: pix_in, kind: axis_in, prefix: s_axis_EXTRA}\n"
        "    - {name: pix_out, kind: axis_out, prefix: m_axis_}\n"
        "control: none\n"
        "registers: []\n",
        "    - {name: control, kind: ap_ctrl}\n"
        "control: ap_ctrl_hs\n"
        "registers:\n"
        "  - {name: CTRL, offset: 0x00, access: rw}\n"
        "  - {name: KEY_0, offset: 0x10, access: rw, pin: key}\n"
        "  - {name: KEY_1, offset: 0x14, access: rw, pin: key, word: 1}\n"
        "  - {name: KEY_2, offset: 0x18, access: wo, pin: key, word: 2}\n"
        "  - {name: N, offset: 0x1c, access: rw, pin: n}\n"
        "  - {name: RESULT_HI, offset: 0x24, access: ro, pin: result, word: 1}\n")

    def test_ap_ctrl(self):
        h = self.pins(self.AP_MANIFEST)
        self.assertRegex(h, r"struct Control \{[^}]*BusKind::kApCtrl;\s*COSIM_PIN\(start, ap_start\)\s*"
                            r"COSIM_PIN\(done, ap_done\)\s*COSIM_PIN\(idle, ap_idle\)\s*COSIM_PIN\(ready, ap_ready\)\s*"
                            r"COSIM_PIN\(continue_, ap_continue\)\s*static constexpr bool kChain = false;")
        self.assertIn("case 0x14: cosim::tb::harness::set_pin_word(arg_KEY_1(m), 1, v); break;", h)
        self.assertIn("case 0x18: cosim::tb::harness::set_pin_word(arg_KEY_2(m), 2, v); break;", h)
        self.assertIn("case 0x24: v = cosim::tb::harness::pin_word(arg_RESULT_HI(m), 1); return true;", h)
        self.assertNotIn("set_pin_word(arg_RESULT_HI", h)  # read-only: an output pin
        self.assertIn("kControl = cosim::tb::harness::ControlProtocol::kApCtrlHs", h)
        h = self.pins(self.AP_MANIFEST.replace("control: ap_ctrl_hs", "control: ap_ctrl_chain"))
        self.assertIn("static constexpr bool kChain = true;", h)
        if VERILATOR:
            self.expect_configured(self.AP_MANIFEST, self.AP_SV)

    def register_error(self, manifest, *words):
        rc, _, err = self.configure(manifest, check=False)
        self.assertEqual(rc, 2, err)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, err)
        for w in words:
            self.assertIn(w, lines[0])

    def test_bad_ap_ctrl(self):
        m = self.AP_MANIFEST
        self.register_error(m.replace("access: rw, pin: n}", "access: rw}"),
                            "registers[4]: N at 0x1c is an argument of the ap_ctrl port control: name the input port")
        self.register_error(m.replace("offset: 0x10, access: rw, pin: key}", "offset: 0x08, access: rw, pin: key}"),
                            "registers[1].offset: 0x8 is in the control map (CTRL, GIE, IER, ISR)")
        self.register_error(m.replace("access: rw, pin: n}", "access: w1t, pin: n}"),
                            "registers[4].access: expected rw or wo (an input pin) or ro (an output pin), got 'w1t'")
        self.register_error(m.replace("control: ap_ctrl_hs", "control: reg"),
                            "control: reg needs a kind: reg interface (an ap_ctrl port takes ap_ctrl_hs or ap_ctrl_chain)")
        self.register_error(m.replace("access: rw, pin: n}", "access: rw, pin: n, valid: n_vld}"),
                            "registers[4].valid: only an output pin's register (access ro) has a valid strobe")
        self.register_error(m.replace("control: ap_ctrl_hs", "control: none"),
                            "control: an ap_ctrl interface (control) takes control: ap_ctrl_hs or ap_ctrl_chain, got 'none'")
        self.register_error(m.replace("    - {name: control, kind: ap_ctrl}", "    - {name: control, kind: ap_ctrl}\n  tie: {n: 3}"),
                            "registers[4].pin: port n is also claimed under ports")
        self.register_error(MANIFEST.replace("access: rw}", "access: rw}\n  - {name: A, offset: 0x10, access: rw, pin: a}"),
                            "registers[1].pin: only a block-level control port (an interface of kind ap_ctrl) drives pins "
                            "from registers; this manifest's control port control is axi4lite")

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_ap_ctrl_checked_against_the_top(self):
        self.expect_error(self.AP_MANIFEST.replace("word: 2}", "word: 3}"), self.AP_SV,
                          "register KEY_2 is word 3 of key, but key of top module mini is 96 bits")
        self.expect_error(self.AP_MANIFEST.replace("control: ap_ctrl_hs", "control: ap_ctrl_chain"), self.AP_SV,
                          "interface control (ap_ctrl) signal continue names port ap_continue, which top module mini lacks")
        self.expect_error(self.AP_MANIFEST, self.AP_SV.replace("input logic [15:0] n", "output logic [15:0] n"),
                          "register N (pin) expects n to be an input, top module mini declares an output")
        self.expect_error(self.AP_MANIFEST.replace("pin: result, word: 1}", "pin: result, word: 1, valid: result_vld}"),
                          self.AP_SV, "register RESULT_HI (valid) names port result_vld, which top module mini lacks")
        # A hand-written accelerator's own names, by signals: go and finished as start and done.
        own = self.AP_SV.replace("ap_start", "go").replace("ap_done", "finished")
        named = self.AP_MANIFEST.replace("{name: control, kind: ap_ctrl}",
                                         "{name: control, kind: ap_ctrl, signals: {start: go, done: finished}}")
        self.expect_configured(named, own)
        self.assertRegex(self.pins(named), r"COSIM_PIN\(start, go\)\s*COSIM_PIN\(done, finished\)\s*COSIM_PIN\(idle, ap_idle\)")
        self.expect_error(self.AP_MANIFEST, own, "interface control (ap_ctrl) signal start names port ap_start, which "
                          "top module mini lacks")
        # ap_idle and ap_ready are optional (the binder then takes ap_done as the handshake).
        rc, _, err = self.configure(self.AP_MANIFEST, self.AP_SV.replace(" output logic ap_idle, output logic ap_ready,", "")
                                    .replace("ap_done, ap_idle, ap_ready, result", "ap_done, result"))
        self.assertEqual(rc, 0, err)

    # -- sram: a native memory port ------------------------------------------
    SRAM_SV = textwrap.dedent("""\
        module mini (
          input  logic CLK, input logic RST,
          output logic [11:0] addr_r_byte, input logic [31:0] data_r,
          output logic [11:0] addr_w_byte, output logic [31:0] data_w, output logic [3:0] BYTE_WRITE,
          output logic [9:0] m_addr, output logic m_en, output logic m_we, output logic [63:0] m_wdata,
          input  logic [63:0] m_rdata
        );
          assign {addr_r_byte, addr_w_byte, data_w, BYTE_WRITE} = '0;
          assign {m_addr, m_en, m_we, m_wdata} = '0;
        endmodule
        """)
    SRAM_MANIFEST = AXIS_MANIFEST.replace(
        "    - {name: pix_in, kind: axis_in, prefix: s_axis_EXTRA}\n"
        "    - {name: pix_out, kind: axis_out, prefix: m_axis_}\n",
        "    - {name: rd, kind: sram, latency: 2, addressing: byte, signals: {addr: addr_r_byte, rdata: data_r}}\n"
        "    - {name: wr, kind: sram, base: 0x1000, addressing: byte,\n"
        "       signals: {addr: addr_w_byte, wdata: data_w, be: BYTE_WRITE}}\n"
        "    - {name: buf, kind: sram, prefix: m_}\n")

    def test_sram(self):
        h = self.pins(self.SRAM_MANIFEST)
        self.assertRegex(h, r"struct Rd \{[^}]*BusKind::kSram;\s*static constexpr unsigned kLatency = 2;\s*"
                            r"static constexpr uint64_t kBase = 0x0ULL;\s*static constexpr bool kByteAddressing = true;")
        self.assertRegex(h, r"struct Wr \{[^}]*kLatency = 1;\s*static constexpr uint64_t kBase = 0x1000ULL;")
        self.assertRegex(h, r"struct Buf \{[^}]*kLatency = 1;[^}]*kBase = 0x0ULL;[^}]*kByteAddressing = false;")
        # `signals` names the pins of an interface without a prefix, and only those.
        self.assertIn("COSIM_PIN(addr, addr_r_byte)", h)
        self.assertIn("COSIM_PIN(rdata, data_r)", h)
        self.assertIn("COSIM_PIN(be, BYTE_WRITE)", h)
        self.assertRegex(h, r"struct Rd \{[^}]*COSIM_NO_PIN\(we\)")
        self.assertRegex(h, r"struct Wr \{[^}]*COSIM_NO_PIN\(rdata\)")
        # With a prefix, every signal by it (optional ones bound when the top has them).
        self.assertIn("COSIM_PIN(en, m_en)", h)
        self.assertIn("COSIM_PIN(be, m_be)", h)
        self.assertNotRegex(h, r"struct Buf \{[^}]*COSIM_NO_PIN")
        self.assertIn("using Srams = cosim::tb::harness::BusList<cosim::mini::pins::Rd, cosim::mini::pins::Wr, "
                      "cosim::mini::pins::Buf>;", h)
        # And with a prefix, `signals` renames one.
        h = self.pins(self.SRAM_MANIFEST.replace("prefix: m_}", "prefix: m_, signals: {we: BYTE_WRITE2}}"))
        self.assertIn("COSIM_PIN(we, BYTE_WRITE2)", h)
        self.assertIn("COSIM_PIN(wdata, m_wdata)", h)

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_sram_checked_against_the_top(self):
        self.expect_configured(self.SRAM_MANIFEST, self.SRAM_SV)
        sv = self.SRAM_SV
        self.expect_error(self.SRAM_MANIFEST, sv.replace(", output logic [31:0] data_w", "").replace(" data_w,", ""),
                          "interface wr (sram) of top module mini has a write enable (BYTE_WRITE) but no write data "
                          "data_w")
        self.expect_error(self.SRAM_MANIFEST, sv.replace("output logic m_we, ", "").replace(" m_we,", ""),
                          "interface buf (sram)", "has write data m_wdata but no write enable m_we nor byte enable m_be")
        self.expect_error(self.SRAM_MANIFEST.replace("rdata: data_r}", "}"),
                          sv.replace(", input logic [31:0] data_r", ""),
                          "interface rd (sram)", "neither read data (signals: {rdata: ...}) nor write data")
        self.expect_error(self.SRAM_MANIFEST, sv.replace("output logic m_we", "output logic [1:0] m_we"),
                          "write enable m_we is 2 bits, expected 1")
        self.expect_error(self.SRAM_MANIFEST, sv.replace("[3:0] BYTE_WRITE", "[7:0] BYTE_WRITE"),
                          "byte enable BYTE_WRITE is 8 bits, expected one per byte of the 32-bit data (4)")
        self.expect_error(self.SRAM_MANIFEST, sv.replace("input  logic [63:0] m_rdata", "input  logic [31:0] m_rdata"),
                          "read data m_rdata is 32 bits, write data m_wdata 64")
        self.expect_error(self.SRAM_MANIFEST, sv.replace("logic [31:0] data_r", "logic [23:0] data_r"),
                          "interface rd (sram)", "RDATA data_r", "24 bits", "add data_bytes: 3")
        # A word that is no whole number of bytes needs data_bits, which must be its width.
        narrow = sv.replace("logic [31:0] data_r", "logic [17:0] data_r")
        self.expect_error(self.SRAM_MANIFEST, narrow, "interface rd (sram)", "RDATA data_r", "is 18 bits, not a whole "
                          "number of bytes; add data_bits: 18 (each word then takes 3 bytes in the DRAM)")
        with_bits = self.SRAM_MANIFEST.replace("rdata: data_r}}", "rdata: data_r}, data_bits: 18}")
        self.expect_configured(with_bits, narrow)
        self.expect_error(with_bits, sv, "interface rd (sram) has data_bits: 18, but RDATA data_r of top module mini is 32 bits")
        self.expect_error(self.SRAM_MANIFEST, sv.replace("addr_r_byte, input", "addr_rb, input")
                          .replace("{addr_r_byte,", "{addr_rb,"),
                          "interface rd (sram) signal addr names port addr_r_byte, which top module mini lacks")

    def test_a_stream_named_by_signals(self):
        m = self.AXIS_MANIFEST.replace("- {name: pix_out, kind: axis_out, prefix: m_axis_}",
                                       "- {name: pix_out, kind: axis_out, signals: {tdata: out_din, tvalid: out_write, "
                                       "tready: out_full_n}}")
        h = self.pins(m)
        self.assertRegex(h, r"struct PixOut \{[^}]*COSIM_PIN\(tvalid, out_write\)\s*COSIM_PIN\(tready, out_full_n\)\s*"
                            r"COSIM_PIN\(tdata, out_din\)\s*COSIM_NO_PIN\(tlast\)")
        rc, _, err = self.configure(m.replace("out_full_n}}", "out_full_n, tlst: x}}"), check=False)
        self.assertEqual(rc, 2, err)
        self.assertIn("ports.interfaces[1].signals: expected a signal of kind axis_out (tvalid, tready, tdata, tlast,", err)
        rc, _, err = self.configure(m.replace(", tready: out_full_n}}", "}}"), check=False)
        self.assertEqual(rc, 2, err)
        self.assertIn("ports.interfaces[1].signals: expected the ports of tvalid, tready, tdata at least (an axis_out "
                      "interface without a prefix names its pins under signals)", err)

    # A stream whose beat is on several data ports (x and k on one handshake), of packed-array types.
    SPLIT_SV = textwrap.dedent("""\
        module mini (
          input  logic CLK, input logic RST,
          input  logic s_valid, output logic s_ready, input logic [3:0][3:0] s_x, input logic [7:0][7:0] s_k,
          output logic m_valid, input logic m_ready, output logic [3:0][15:0] m_y
        );
          assign s_ready = 1'b1;
          assign {m_valid, m_y} = '0;
        endmodule
        """)

    def split(self, tdata="[s_x, s_k]", extra=""):
        return self.AXIS_MANIFEST.replace(
            "- {name: pix_in, kind: axis_in, prefix: s_axis_EXTRA}",
            "- {name: pix_in, kind: axis_in, signals: {tvalid: s_valid, tready: s_ready, tdata: " + tdata + "}" +
            extra + "}").replace("- {name: pix_out, kind: axis_out, prefix: m_axis_}",
                                 "- {name: pix_out, kind: axis_out, signals: {tvalid: m_valid, tready: m_ready, "
                                 "tdata: m_y}}")

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_a_beat_on_several_ports(self):
        """tdata: [s_x, s_k]: each port a pin of its own, tdata() the two taken as one from their widths
        (packed arrays: 4 x 4 and 8 x 8 bits), ten bytes a beat."""
        self.expect_configured(self.split(), self.SPLIT_SV)
        with open(os.path.join(self.gen, "include", "dut", "mini_pins.hpp")) as f:
            h = f.read()
        self.assertRegex(h, r"struct PixIn \{[^}]*COSIM_PIN\(tdata_part0, s_x\)\s*COSIM_PIN\(tdata_part1, s_k\)")
        self.assertIn("// TDATA: s_x bits 0..15, s_k bits 16..79", h)
        self.assertIn("return cosim::tb::harness::concat_pins<16, 64>(tdata_part0(m), tdata_part1(m));", h)
        self.assertRegex(h, r"struct PixIn \{[^}]*\}[^}]*static constexpr unsigned kDataBytes = 10;")
        # The packed array m_y (4 x 16 bits) is 64 bits, stored exactly: no data_bytes asked.
        self.assertNotRegex(h, r"struct PixOut \{[^}]*kDataBytes")
        # Each port is claimed; a missing one is named.
        self.expect_error(self.split("[s_x, s_q]"), self.SPLIT_SV, "signal tdata names port s_q, which top module mini lacks")
        # Without the ports' widths (no --verilator) there is no layout.
        rc, _, err = self.configure(self.split(), self.SPLIT_SV, check=False)
        self.assertEqual(rc, 2, err)
        self.assertIn("interface pix_in: a TDATA on several ports takes its layout from the ports' widths", err)

    def test_bad_beats_on_several_ports(self):
        for tdata, extra, words in (
                ("[s_x]", "", "signals.tdata: expected two ports or more (one port is its name alone), got 1"),
                ("[s_x, s_x]", "", "signals.tdata: a port named twice"),
                ("[s_x, 3]", "", "signals.tdata[1]: expected a non-empty string, got 3"),
                ("[s_x, s_k]", ", data_bytes: 10", "data_bytes: a beat on several ports has the bytes of their widths")):
            rc, _, err = self.configure(self.split(tdata, extra), self.SPLIT_SV, check=False)
            self.assertEqual(rc, 2, f"{tdata}: {err}")
            self.assertIn("ports.interfaces[0]." + words.split(": ", 1)[0], err)
            self.assertIn(words.split(": ", 1)[1], err)
        sram = self.SRAM_MANIFEST.replace("rdata: data_r}}", "rdata: [data_r, data_q]}}")
        rc, _, err = self.configure(sram, check=False)
        self.assertEqual(rc, 2, err)

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_sources_kept_elsewhere_find_their_includes(self):
        """A source named by a path outside the manifest's folder (RTL in its own repository) has its
        folder on the include path: its `include of a file beside it is found."""
        other = os.path.join(self.dir, "elsewhere")
        os.makedirs(other)
        with open(os.path.join(other, "defs.svh"), "w") as f:
            f.write("`define MINI_W 32\n")
        m, sv = self.axis(32)
        with open(os.path.join(other, "top.sv"), "w") as f:
            f.write('`include "defs.svh"\n' + sv.replace("[31:0] s_axis_tdata", "[`MINI_W-1:0] s_axis_tdata"))
        m = m.replace("sources: [mini.sv]", "sources: [elsewhere/top.sv]")
        with open(self.path, "w") as f:
            f.write(m)
        rc, _, err = run(self.dir, "configure", self.path, "--outdir", self.gen, "--verilator", VERILATOR)
        self.assertEqual(rc, 0, err)
        with open(os.path.join(self.gen, "cmake", "mini.cmake")) as f:
            self.assertIn(f"set(COSIM_DUT_SOURCE_DIRS \"{other}\")", f.read())

    def test_a_master_with_one_side(self):
        """channels: read binds AR and R only (AW, W and B left out: COSIM_NO_PIN), write the other side;
        the port check then asks only for those."""
        read_only = MANIFEST.replace("{name: gmem, kind: axi4, prefix: m_g_, case: upper, stall_seed: 7}",
                                     "{name: gmem, kind: axi4, prefix: m_g_, case: upper, stall_seed: 7, channels: read}")
        h = self.pins(read_only)
        self.assertRegex(h, r"struct Gmem \{[^}]*COSIM_PIN\(arvalid, m_g_ARVALID\)")
        self.assertRegex(h, r"struct Gmem \{[^}]*COSIM_NO_PIN\(awvalid\)[^}]*COSIM_NO_PIN\(bready\)")
        self.assertNotIn("COSIM_PIN(awvalid, m_g_AWVALID)", h)
        rc, _, err = self.configure(read_only.replace("channels: read", "channels: writes"), check=False)
        self.assertEqual(rc, 2, err)
        self.assertIn("ports.interfaces[1].channels: expected both, read (AR and R only) or write (AW, W, B only), "
                      "got 'writes'", err)
        if VERILATOR:  # the top's AW, W and B ports are then claimed by no interface
            rc, _, err = self.configure(read_only)
            self.assertEqual(rc, 2, err)
            self.assertIn("has port m_g_AWVALID that no interface of the manifest claims", err)

    def test_bad_sram_keys(self):
        for old, new, words in (
                ("latency: 2,", "latency: 0,", "ports.interfaces[0].latency: expected an integer in [1, 64], got 0"),
                ("latency: 2,", "latency: two,", "ports.interfaces[0].latency: expected an integer"),
                ("base: 0x1000,", "base: -4,", "ports.interfaces[1].base: expected an integer in [0, "),
                ("base: 0x1000, addressing: byte", "base: 0x1000, addressing: nibble",
                 "ports.interfaces[1].addressing: expected word (the address counts data words) or byte, got 'nibble'"),
                ("rdata: data_r}", "rdata: data_r, rd: x}", "ports.interfaces[0].signals: expected a signal of kind "
                                                           "sram (addr, en, we, be, wdata, rdata), got 'rd'"),
                ("rdata: data_r}", "rdata: 7}", "ports.interfaces[0].signals.rdata: expected"),
                ("signals: {addr: addr_r_byte, rdata: data_r}", "signals: {rdata: data_r}",
                 "ports.interfaces[0].signals: expected the port of addr at least"),
                ("prefix: m_}", "prefix: m_, data_bits: 0}", "ports.interfaces[2].data_bits: expected an integer in [1, "),
                ("prefix: m_}", "prefix: m_, data_bits: 18, data_bytes: 2}",
                 "ports.interfaces[2].data_bytes: 2 bytes cannot hold data_bits: 18"),
                ("prefix: m_}", "prefix: m_, stall_seed: 3}", "ports.interfaces[2].stall_seed: unknown key")):
            m = self.SRAM_MANIFEST.replace(old, new)
            self.assertNotEqual(m, self.SRAM_MANIFEST, old)
            rc, _, err = self.configure(m, self.SRAM_SV, check=False)
            self.assertEqual(rc, 2, (new, err))
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn(words, err)

    # -- vendor stand-ins -------------------------------------------------------
    VENDOR = textwrap.dedent("""\
        name: mini
        top: user_stream_buffer
        sources: [mini.sv]
        vendor: [xpm_fifo_sync]
        ports:
          clock: ap_clk
          reset: {port: ap_rst_n}
          debug: [s_valid, s_ready, s_data, m_valid, m_ready, m_data, level]
        control: none
        registers: []
        variants:
          - {name: mini_rtl}
        """)

    @unittest.skipUnless(VERILATOR, "verilator not installed")
    def test_vendor_primitive_is_compiled_in(self):
        with open(os.path.join(REPO, "tests", "vendor_xpm", "user_rtl", "user_stream_buffer.sv")) as f:
            user = f.read()
        self.expect_configured(self.VENDOR, user)  # elaborates: xpm_fifo_sync comes from rtl/vendor
        with open(os.path.join(self.gen, "cmake", "mini.cmake")) as f:
            self.assertRegex(f.read(), r"COSIM_DUT_VENDOR_SOURCES [^)]*rtl/vendor/xpm/xpm_fifo_sync\.sv")
        rc, _, err = self.configure(self.VENDOR.replace("vendor: [xpm_fifo_sync]", "vendor: []"), user)
        self.assertEqual(rc, 2, err)  # without it the instance has no module
        self.assertIn("xpm_fifo_sync", err)

    def test_unknown_vendor_primitive(self):
        rc, _, err = self.configure(self.VENDOR.replace("xpm_fifo_sync]", "unisim_fifo]"), "module x; endmodule\n",
                                    check=False)
        self.assertEqual(rc, 2)
        self.assertIn("vendor[0]: unknown primitive 'unisim_fifo' (known: ", err)

    # -- validation -----------------------------------------------------------
    def test_bad_values(self):
        for old, new, key in (("kind: axi4,", "kind: axi5,", "ports.interfaces[1].kind"),
                              ("active: high", "active: sideways", "ports.reset.active"),
                              ("case: upper, stall", "case: camel, stall", "ports.interfaces[1].case"),
                              ("control: ap_ctrl_chain", "control: ap_ctrl_none", "control"),
                              ("{name: done, kind: irq", "{name: gmem, kind: irq", "duplicate interface")):
            rc, _, err = self.configure(MANIFEST.replace(old, new), check=False)
            self.assertEqual(rc, 2, (new, err))
            self.assertIn(key, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_reg_control_needs_reg_port(self):
        rc, _, err = self.configure(MANIFEST.replace("control: ap_ctrl_chain", "control: reg"), check=False)
        self.assertEqual(rc, 2)
        self.assertIn("control: reg needs a kind: reg interface", err)

    def test_port_names_of_the_tree(self):
        p = subprocess.run([sys.executable, DUTGEN, "query", "port-names"], stdout=subprocess.PIPE, text=True)
        names = p.stdout.split()
        for n in ("clk_i", "rst_ni", "reg_req_valid_i", "m_axi_arvalid_o", "s_axis_tdata_i", "m_axis_tlast_o"):
            self.assertIn(n, names)


if __name__ == "__main__":
    unittest.main()
