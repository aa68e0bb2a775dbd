#!/usr/bin/env python3
"""scripts/rtl_import.py, the manifest of hand-written RTL read from its top's
ports (`cosim new-dut NAME --out DIR --from-rtl FILE...`): the ports sorted
into interfaces by the names such RTL commonly gives them, what is left tied
or kept as debug pins, and one line for what it cannot import. The sorting is
checked on port lists written here; a whole import (Verilator reading a top
kept in another folder) is checked by dutgen's own validator and port check.
Python 3 unittest, run by CTest."""

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import rtl_import as ri  # noqa: E402

VERILATOR = shutil.which("verilator")


def ports(*decls):
    """{port: (direction, bits)} from 'in name bits' / 'out name bits' words, in order."""
    out = {}
    for d in decls:
        direction, name, bits = d.split()
        out[name] = ("input" if direction == "in" else "output", int(bits))
    return out


# A systolic array's ports: valid / ready handshakes, the input beat on two data ports, _i / _o.
ARRAY = ports("in clk_i 1", "in rst_ni 1", "in s_valid_i 1", "in s_last_i 1", "in m_ready_i 1", "out s_ready_o 1",
              "out m_valid_o 1", "out m_last_o 1", "in sx_data_i 16", "in sk_data_i 64", "out m_data_o 64")

# A Vitis-shaped RTL kernel: AXI4-Lite control, an AXI4 master, two AXI-Streams, the interrupt, a
# mode input and a status output that are no interface.
VITIS = ports("in ap_clk 1", "in ap_rst_n 1",
              *[f"in s_axi_control_{s} {w}" for s, w in (("AWVALID", 1), ("AWADDR", 7), ("WVALID", 1), ("WDATA", 32),
                                                         ("WSTRB", 4), ("BREADY", 1), ("ARVALID", 1), ("ARADDR", 7),
                                                         ("RREADY", 1))],
              *[f"out s_axi_control_{s} {w}" for s, w in (("AWREADY", 1), ("WREADY", 1), ("BVALID", 1), ("BRESP", 2),
                                                          ("ARREADY", 1), ("RVALID", 1), ("RDATA", 32), ("RRESP", 2))],
              *[f"out m_axi_gmem_{s} {w}" for s, w in (("AWVALID", 1), ("AWADDR", 64), ("AWLEN", 8), ("WVALID", 1),
                                                       ("WDATA", 512), ("WLAST", 1), ("BREADY", 1), ("ARVALID", 1),
                                                       ("ARADDR", 64), ("ARLEN", 8), ("RREADY", 1))],
              *[f"in m_axi_gmem_{s} {w}" for s, w in (("AWREADY", 1), ("WREADY", 1), ("BVALID", 1), ("ARREADY", 1),
                                                      ("RVALID", 1), ("RDATA", 512), ("RLAST", 1))],
              "in p0_TVALID 1", "out p0_TREADY 1", "in p0_TDATA 24", "in p0_TLAST 1",
              "out p1_TVALID 1", "in p1_TREADY 1", "out p1_TDATA 18",
              "out interrupt 1", "in mode 2", "out state_o 4")

# Block-level control on hand-named pins and scalar ports.
BLOCK = ports("in clk 1", "in reset 1", "in go 1", "out finished 1", "out idle 1", "in key 96", "in n 16",
              "out result 64")


class Classify(unittest.TestCase):
    def test_a_beat_on_several_data_ports(self):
        p = ri.classify(ARRAY)
        self.assertEqual((p["clock"], p["reset"]), ("clk_i", ("rst_ni", "low")))
        self.assertEqual(p["interfaces"], [
            {"name": "s", "kind": "axis_in", "signals": {"tvalid": "s_valid_i", "tready": "s_ready_o",
                                                         "tdata": ["sx_data_i", "sk_data_i"], "tlast": "s_last_i"}},
            {"name": "m", "kind": "axis_out", "signals": {"tvalid": "m_valid_o", "tready": "m_ready_i",
                                                          "tdata": "m_data_o", "tlast": "m_last_o"}}])
        self.assertEqual((p["control"], p["tie"], p["debug"]), (None, {}, []))

    def test_vitis_shaped_ports_by_prefix(self):
        p = ri.classify(VITIS)
        self.assertEqual((p["clock"], p["reset"]), ("ap_clk", ("ap_rst_n", "low")))
        self.assertEqual(p["interfaces"], [
            {"name": "control", "kind": "axi4lite", "prefix": "s_axi_control_", "case": "upper", "addr_width": 7},
            {"name": "gmem", "kind": "axi4", "prefix": "m_axi_gmem_", "case": "upper"},
            {"name": "p0", "kind": "axis_in", "prefix": "p0_", "case": "upper", "data_bytes": 3},
            {"name": "p1", "kind": "axis_out", "prefix": "p1_", "case": "upper", "data_bits": 18},
            {"name": "interrupt", "kind": "irq", "port": "interrupt"}])
        self.assertEqual(p["tie"], {"mode": 0})
        self.assertEqual(p["debug"], ["state_o"])
        self.assertEqual(p["control"], "vitis")  # Vitis's control map on s_axi_control

    def test_an_interfaces_own_clock_and_reset(self):
        """A design whose only clock and reset are its AXI4-Lite slave's (s_axi_aclk, s_axi_aresetn)."""
        p = ri.classify(ports("in s_axi_aclk 1", "in s_axi_aresetn 1", "in s_axi_awaddr 6", "in s_axi_awvalid 1",
                              "out s_axi_awready 1", "in s_axi_araddr 6", "out s_axi_rdata 32", "in s_axi_arvalid 1"))
        self.assertEqual((p["clock"], p["reset"]), ("s_axi_aclk", ("s_axi_aresetn", "low")))
        self.assertEqual(p["interfaces"], [{"name": "s_axi", "kind": "axi4lite", "prefix": "s_axi_", "case": "lower",
                                            "addr_width": 6}])
        self.assertEqual(p["control"], None)

    def test_masters_with_one_side(self):
        """A DMA engine's read-only and write-only masters: channels read and write."""
        p = ri.classify(ports("in clk 1", "in rst_n 1",
                              "out m_axi_rd_arvalid 1", "in m_axi_rd_arready 1", "out m_axi_rd_araddr 64",
                              "out m_axi_rd_arlen 8", "in m_axi_rd_rvalid 1", "out m_axi_rd_rready 1",
                              "in m_axi_rd_rdata 512", "in m_axi_rd_rlast 1",
                              "out m_axi_wr_awvalid 1", "in m_axi_wr_awready 1", "out m_axi_wr_awaddr 64",
                              "out m_axi_wr_awlen 8", "out m_axi_wr_wvalid 1", "in m_axi_wr_wready 1",
                              "out m_axi_wr_wdata 512", "out m_axi_wr_wlast 1", "in m_axi_wr_bvalid 1",
                              "out m_axi_wr_bready 1"))
        self.assertEqual(p["interfaces"], [
            {"name": "rd", "kind": "axi4", "prefix": "m_axi_rd_", "case": "lower", "channels": "read"},
            {"name": "wr", "kind": "axi4", "prefix": "m_axi_wr_", "case": "lower", "channels": "write"}])
        self.assertEqual((p["tie"], p["debug"]), ({}, []))

    def test_block_level_control_and_its_arguments(self):
        p = ri.classify(BLOCK)
        self.assertEqual(p["reset"], ("reset", "high"))
        self.assertEqual(p["interfaces"], [
            {"name": "control", "kind": "ap_ctrl", "signals": {"start": "go", "done": "finished", "idle": "idle"}}])
        self.assertEqual((p["control"], p["arguments"], p["results"]), ("ap_ctrl", ["key", "n"], ["result"]))

    def test_what_it_cannot_import_is_one_line(self):
        with self.assertRaisesRegex(ri.ImportError_, r"^no clock input \(clk, clk_i, aclk, ap_clk, clock\)"):
            ri.classify(ports("in sysclk 1", "in rst 1"))
        with self.assertRaisesRegex(ri.ImportError_, r"^no reset input"):
            ri.classify(ports("in clk 1", "in data 8"))


@unittest.skipUnless(VERILATOR, "verilator not installed")
class Import(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def configure(self, rtl, name, text):
        """The manifest `text` written as rtl/NAME.yaml and passed through dutgen's validation and
        port check (its generated files under gen/); the folder they are in."""
        path = os.path.join(rtl, name + ".yaml")
        with open(path, "w") as f:
            f.write(text)
        gen = os.path.join(self.dir, "gen")
        p = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "dutgen.py"), "configure", path, "--outdir",
                            gen, "--verilator", VERILATOR], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        return gen

    def write(self, rel, text):
        path = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def test_rtl_kept_elsewhere_imports_and_passes_dutgen(self):
        """The top in another folder (its `include beside it, packed-array ports): the manifest names
        it by a relative path and passes dutgen's validation and port check, the beat's two data
        ports a list."""
        self.write("lib/rtl/widths.svh", "`define XW 4\n")
        top = self.write("lib/rtl/arr.sv", """\
            `include "widths.svh"
            module arr #(parameter int R = 4) (
              input  logic clk_i, input logic rst_ni,
              input  logic s_valid_i, output logic s_ready_o, input logic s_last_i,
              input  logic [R-1:0][`XW-1:0] sx_data_i, input logic [7:0][7:0] sk_data_i,
              output logic m_valid_o, input logic m_ready_i, output logic [R-1:0][15:0] m_data_o,
              input  logic [1:0] mode_i, output logic busy_o
            );
              assign s_ready_o = m_ready_i;
              assign m_valid_o = s_valid_i;
              assign busy_o = s_last_i ^ mode_i[0] ^ clk_i ^ rst_ni;
              assign m_data_o = {4{sx_data_i[0], sk_data_i[0], 4'd0}};
            endmodule
            """)
        rtl = os.path.join(self.dir, "proj", "rtl", "arr")
        os.makedirs(rtl)
        text, summary = ri.manifest("arr", [top], rtl, verilator=VERILATOR)
        self.assertIn("  - ../../../lib/rtl/arr.sv", text)
        self.assertIn("tdata: [sx_data_i, sk_data_i]", text)
        self.assertIn("  tie: {mode_i: 0}", text)
        self.assertIn("  debug: [busy_o]", text)
        self.assertIn("interfaces: s (axis_in: s_valid_i / s_ready_o, one beat on sx_data_i + sk_data_i), "
                      "m (axis_out: m_valid_o / m_ready_i / m_data_o)", summary)
        self.assertIn("tied at 0 (check): mode_i", summary)
        gen = self.configure(rtl, "arr", text)
        with open(os.path.join(gen, "include", "dut", "arr_pins.hpp")) as f:
            self.assertIn("concat_pins<16, 64>(tdata_part0(m), tdata_part1(m))", f.read())  # 4 x 4 bits, 8 x 8

    def test_the_vitis_templates_kernel_imports_as_a_vitis_kernel(self):
        """The Vitis template's own RTL (two files and the header they include), imported as
        hand-written RTL: the control map on s_axi_control (ap_ctrl_hs), its two AXI4 masters and
        the interrupt; the manifest passes dutgen's validation and port check."""
        folder = os.path.join(REPO, "templates", "vitis", "rtl", "@NAME@")
        files = []
        for f in ("@NAME@_control_s_axi.sv", "@NAME@.sv", "@NAME@_ports.svh"):
            with open(os.path.join(folder, f)) as fh:
                path = self.write("krepo/" + f.replace("@NAME@", "vk"), fh.read().replace("@NAME@", "vk"))
            if path.endswith(".sv"):
                files.append(path)
        rtl = os.path.join(self.dir, "proj", "rtl", "vk")
        os.makedirs(rtl)
        text, summary = ri.manifest("vk", files, rtl, verilator=VERILATOR)
        self.assertIn("interfaces: gmem0 (axi4, prefix m_axi_gmem0_), gmem1 (axi4, prefix m_axi_gmem1_), "
                      "control (axi4lite, prefix s_axi_control_), interrupt (irq: interrupt)", summary)
        self.assertIn("control: ap_ctrl_hs", text)
        self.configure(rtl, "vk", text)

    def test_what_verilator_stops_on_is_named(self):
        """An error the build would stop on (a variable assigned blocking and non-blocking, which
        Verilator 5.006 does not support) is named in the summary with its waiver."""
        top = self.write("d.sv", """\
            module d (input logic clk, input logic rst_n, input logic [7:0] x, output logic [7:0] y);
              logic [1:0][7:0] q;
              assign q[0] = x;
              always_ff @(posedge clk) if (!rst_n) q[1] <= '0; else q[1] <= q[0];
              assign y = q[1];
            endmodule
            """)
        _, summary = ri.manifest("d", [top], self.dir, verilator=VERILATOR)
        self.assertTrue(any(s.startswith("Verilator stops on BLKANDNBLK (") and s.endswith("add -Wno-BLKANDNBLK to "
                                                                                          "verilator_args")
                            for s in summary), summary)

    def test_a_folder_names_its_sources(self):
        """--from-rtl DIR: its .sv and .v files, packages first, not its subfolders' (a testbench's)."""
        for f in ("top.sv", "a_pkg.sv", "core.v", "defs.svh", "tbs/tb_top.sv", "notes.txt"):
            self.write("rtl/" + f, "// " + f + "\n")
        rtl = os.path.join(self.dir, "rtl")
        self.assertEqual(ri.source_files([rtl]), [os.path.join(rtl, f) for f in ("a_pkg.sv", "core.v", "top.sv")])
        self.assertEqual(ri.source_files([os.path.join(rtl, "top.sv"), os.path.join(rtl, "tbs")]),
                         [os.path.join(rtl, "top.sv"), os.path.join(rtl, "tbs", "tb_top.sv")])
        with self.assertRaisesRegex(ri.ImportError_, "a folder with no .sv or .v file"):
            ri.source_files([os.path.join(self.dir, "rtl", "tbs", "..", "..")])

    def test_two_tops_need_top(self):
        a = self.write("a.sv", "module a (input logic clk, input logic rst); endmodule\n")
        b = self.write("b.sv", "module b (input logic clk, input logic rst); endmodule\n")
        with self.assertRaisesRegex(ri.ImportError_, r"^2 top modules \(a, b\): name the accelerator's with --top"):
            ri.manifest("x", [a, b], self.dir, verilator=VERILATOR)
        text, _ = ri.manifest("x", [a, b], self.dir, top="b", verilator=VERILATOR)
        self.assertIn("top: b", text)
        with self.assertRaisesRegex(ri.ImportError_, "nope.sv: no such file"):
            ri.manifest("x", [os.path.join(self.dir, "nope.sv")], self.dir, verilator=VERILATOR)


if __name__ == "__main__":
    unittest.main()
