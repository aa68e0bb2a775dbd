#!/usr/bin/env python3
"""scripts/hls_import.py, the manifest of an HLS-generated kernel read from
its Verilog: the top found, ports sorted into interfaces by HLS's naming,
the control port's registers from its Address Info table, and one line for
what it cannot import. The kernels here are written for the test in the
layout HLS uses (non-ANSI ports, one per line; the Address Info comment);
`manifest()`'s output is checked by dutgen's own validator. Python 3
unittest, run by CTest."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import dutgen  # noqa: E402
import hls_import as hi  # noqa: E402

TOP = textwrap.dedent("""\
    `timescale 1 ns / 1 ps
    (* CORE_GENERATION_INFO="k" *)
    module krnl (
            ap_clk,
            ap_rst_n,
            m_axi_gmem_AWVALID,
            m_axi_gmem_AWADDR,
            m_axi_gmem_ARADDR,
            m_axi_wts_ARADDR,
            in_r_TDATA,
            in_r_TVALID,
            in_r_TREADY,
            in_r_TLAST,
            out_r_TDATA,
            out_r_TVALID,
            out_r_TREADY,
            s_axi_control_AWADDR,
            s_axi_control_WDATA,
            interrupt,
            ap_local_block,
            mode_dbg
    );
    parameter    C_S_AXI_CONTROL_ADDR_WIDTH = 7;
    input   ap_clk;
    input   ap_rst_n;
    output   m_axi_gmem_AWVALID;
    output  [63:0] m_axi_gmem_AWADDR;
    output  [63:0] m_axi_gmem_ARADDR;
    output  [63:0] m_axi_wts_ARADDR;
    input  [31:0] in_r_TDATA;
    input   in_r_TVALID;
    output   in_r_TREADY;
    input  [0:0] in_r_TLAST;
    output  [31:0] out_r_TDATA;
    output   out_r_TVALID;
    input   out_r_TREADY;
    input  [C_S_AXI_CONTROL_ADDR_WIDTH - 1:0] s_axi_control_AWADDR;
    input  [31:0] s_axi_control_WDATA;
    output   interrupt;
    input   ap_local_block;
    output  [3:0] mode_dbg;
    krnl_control_s_axi #(.C_S_AXI_ADDR_WIDTH(7)) control_s_axi_U (.ACLK(ap_clk));
    krnl_fifo fifo_U (.clk(ap_clk));
    endmodule
    """)

CONTROL = textwrap.dedent("""\
    `timescale 1ns/1ps
    module krnl_control_s_axi
    #(parameter C_S_AXI_ADDR_WIDTH = 7)
    (
        input  wire ACLK
    );
    //------------------------Address Info-------------------
    // 0x00 : Control signals
    //        bit 0  - ap_start (Read/Write/COH)
    //        bit 1  - ap_done (Read/COR)
    //        others - reserved
    // 0x04 : Global Interrupt Enable Register
    //        bit 0  - Global Interrupt Enable (Read/Write)
    // 0x08 : IP Interrupt Enable Register (Read/Write)
    // 0x0c : IP Interrupt Status Register (Read/TOW)
    // 0x10 : Data signal of size
    //        bit 31~0 - size[31:0] (Read/Write)
    // 0x14 : reserved
    // 0x18 : Data signal of src
    //        bit 31~0 - src[31:0] (Read/Write)
    // 0x1c : Data signal of src
    //        bit 31~0 - src[63:32] (Read/Write)
    // 0x20 : reserved
    // 0x24 : Data signal of sum
    //        bit 31~0 - sum[31:0] (Read)
    // 0x28 : Control signal of sum
    //        bit 0  - sum_ap_vld (Read/COR)
    //        others - reserved
    // 0x40 ~
    // 0x7f : Memory 'coeffs' (16 * 32b)
    //        Word n : bit [31:0] - coeffs[n]
    // (SC = Self Clear, COR = Clear on Read, TOW = Toggle on Write, COH = Clear on Handshake)
    //------------------------Parameter----------------------
    localparam ADDR_AP_CTRL = 7'h00;
    endmodule
    """)

FIFO = "module krnl_fifo (input clk);\nendmodule\n"

# A request queue shaped like those of HLS's AXI adapters: a shift register of
# delayed assignments in a for loop, deeper than Verilator unrolls by default,
# read at any stage.
SHIFT_QUEUE = textwrap.dedent("""\
    module krnl_req_queue #(parameter W = 16, parameter DEPTH = 100) (
        input  wire clk, input wire push, input wire [W-1:0] din,
        input  wire [6:0] at, output wire [W-1:0] dout);
        reg [W-1:0] stage[0:DEPTH-1];
        integer k;
        always @(posedge clk) if (push) begin
            for (k = 0; k < DEPTH - 1; k = k + 1) stage[k+1] <= stage[k];
            stage[0] <= din;
        end
        assign dout = stage[at];
    endmodule
    """)

# Pushes 1..100 and prints what each stage holds (stage k: 100 - k when it shifts).
SHIFT_QUEUE_MAIN = textwrap.dedent("""\
    #include "Vkrnl_req_queue.h"
    #include <cstdio>
    int main() {
        Vkrnl_req_queue q;
        for (int v = 1; v <= 100; ++v) {
            q.push = 1; q.din = v; q.clk = 0; q.eval(); q.clk = 1; q.eval();
        }
        for (int k = 0; k < 100; ++k) { q.at = k; q.eval(); std::printf("%d\\n", int(q.dout)); }
    }
    """)


def import_folder(name, files):
    """(the manifest as dutgen loads it, its text, the summary) of the kernel `name` whose Verilog
    files ({file: text}) are written to a folder and imported."""
    with tempfile.TemporaryDirectory() as d:
        for f, verilog in files.items():
            with open(os.path.join(d, f), "w") as fh:
                fh.write(verilog)
        text, summary = hi.manifest(name, d, hi.read_sources(d))
        path = os.path.join(d, f"{name}.yaml")
        with open(path, "w") as fh:
            fh.write(text)
        with open(os.path.join(d, f"{name}.vlt"), "w") as fh:
            fh.write(hi.waivers(name))
        return dutgen.load(path), text, summary


class Import(unittest.TestCase):
    def files(self, **extra):
        f = {"krnl.v": TOP, "krnl_control_s_axi.v": CONTROL, "krnl_fifo.v": FIFO}
        f.update(extra)
        return f

    def imported(self, **extra):
        """(the manifest as dutgen loads it, its text, the summary) of the kernel written to a folder."""
        return import_folder("krnl", self.files(**extra))

    def test_top_is_the_module_no_other_instantiates(self):
        mods = hi.modules(self.files())
        self.assertEqual(hi.find_top(mods), "krnl")
        self.assertEqual(hi.find_top(mods, "krnl_fifo"), "krnl_fifo")
        with self.assertRaisesRegex(hi.ImportError_, r"no module 'nope' in the folder \(modules: krnl, "):
            hi.find_top(mods, "nope")
        two = hi.modules(self.files(other_v="module other (ap_clk);\ninput ap_clk;\nendmodule\n"))
        with self.assertRaisesRegex(hi.ImportError_, "candidates krnl, other; pass --top NAME"):
            hi.find_top(two)
        # Of several, the one HLS marked (CORE_GENERATION_INFO): an unused regslice variant has ap_clk too.
        files = self.files(other_v="module other (ap_clk);\ninput ap_clk;\nendmodule\n")
        self.assertEqual(hi.marked_tops(files), {"krnl"})
        self.assertEqual(hi.find_top(two, marked=hi.marked_tops(files)), "krnl")

    def test_ports_sort_into_interfaces_by_their_names(self):
        mods = hi.modules(self.files())
        body = mods["krnl"][1]
        p = hi.interfaces(hi.ports(body), body)
        self.assertEqual(p["reset"], ("ap_rst_n", "low"))
        kinds = [(i["name"], i["kind"], i.get("prefix")) for i in p["interfaces"]]
        self.assertEqual(kinds, [("control", "axi4lite", "s_axi_control_"), ("gmem", "axi4", "m_axi_gmem_"),
                                 ("wts", "axi4", "m_axi_wts_"), ("in_r", "axis_in", "in_r_"),
                                 ("out_r", "axis_out", "out_r_"), ("interrupt", "irq", None)])
        self.assertEqual(p["interfaces"][0]["addr_width"], 7)  # C_S_AXI_CONTROL_ADDR_WIDTH
        self.assertEqual(p["tie"], {"ap_local_block": 0})
        self.assertEqual(p["debug"], ["mode_dbg"])

    def test_ap_memory_ports_become_sram_interfaces(self):
        text = ("module k (ap_clk, ap_rst_n, W_address0, W_ce0, W_q0, o_address0, o_ce0, o_we0, o_d0, o_address1,\n"
                "  o_ce1, o_q1);\ninput ap_clk;\ninput ap_rst_n;\noutput [9:0] W_address0;\noutput W_ce0;\n"
                "input [23:0] W_q0;\noutput [5:0] o_address0;\noutput o_ce0;\noutput o_we0;\noutput [31:0] o_d0;\n"
                "output [5:0] o_address1;\noutput o_ce1;\ninput [31:0] o_q1;\nendmodule\n")
        body = hi.modules({"k.v": text})["k"][1]
        p = hi.interfaces(hi.ports(body), body)
        # Names lower-cased; W's 1024 24-bit words from 0 (three bytes each: data_bytes), o's two ports at the
        # next 4 KiB boundary.
        self.assertEqual(p["interfaces"], [
            {"name": "w", "kind": "sram", "base": "0x0", "data_bytes": 3,
             "signals": {"addr": "W_address0", "en": "W_ce0", "rdata": "W_q0"}},
            {"name": "o0", "kind": "sram", "base": "0x1000",
             "signals": {"addr": "o_address0", "en": "o_ce0", "we": "o_we0", "wdata": "o_d0"}},
            {"name": "o1", "kind": "sram", "base": "0x1000",
             "signals": {"addr": "o_address1", "en": "o_ce1", "rdata": "o_q1"}}])
        self.assertEqual((p["tie"], p["debug"]), ({}, []))
        m, manifest, _ = import_folder("k", {"k.v": text})
        self.assertIn("    - {name: w, kind: sram, base: 0x0, data_bytes: 3, signals: {addr: W_address0, en: W_ce0, "
                      "rdata: W_q0}}", manifest)
        self.assertEqual([i["kind"] for i in m["ports"]["interfaces"]], ["sram"] * 3)
        # A word that is no whole number of bytes: data_bits (three bytes an element).
        narrow = hi.modules({"k.v": text.replace("input [23:0] W_q0;", "input [17:0] W_q0;")})["k"][1]
        w = hi.interfaces(hi.ports(narrow), narrow)["interfaces"][0]
        self.assertEqual((w["data_bits"], "data_bytes" in w), (18, False))

    def test_ansi_ports_and_an_active_high_reset(self):
        body = hi.modules({"a.v": "module a (input wire ap_clk, input ap_rst,\n"
                                  "  input [7:0] s_TDATA, input s_TVALID, output s_TREADY);\nendmodule\n"})["a"][1]
        self.assertEqual(hi.ports(body), [("ap_clk", "input"), ("ap_rst", "input"), ("s_TDATA", "input"),
                                          ("s_TVALID", "input"), ("s_TREADY", "output")])
        p = hi.interfaces(hi.ports(body), body)
        self.assertEqual(p["reset"], ("ap_rst", "high"))
        self.assertEqual(p["control"], None)

    def test_registers_come_from_the_address_info_table(self):
        regs, skipped = hi.address_map(CONTROL)
        self.assertEqual(regs, [(0x10, "SIZE", "rw", "size"), (0x18, "SRC_LO", "rw", "src, word 0"),
                                (0x1c, "SRC_HI", "rw", "src, word 1"), (0x24, "SUM", "rw", "sum"),
                                (0x28, "SUM_CTRL", "rc", "sum's handshake (ap_vld)")])
        self.assertEqual(skipped, ["0x40 to 0x7f: Memory 'coeffs' (16 * 32b)"])

    def test_the_manifest_passes_dutgens_validation(self):
        m, text, summary = self.imported()
        self.assertEqual(m["top"], "krnl")
        self.assertEqual(m["sources"][-1], "krnl.v")  # the top last
        self.assertEqual([r["name"] for r in m["registers"]],
                         ["CTRL", "GIE", "IER", "ISR", "SIZE", "SRC_LO", "SRC_HI", "SUM", "SUM_CTRL"])
        self.assertIn("  # not a register here (a memory in the control port): 0x40 to 0x7f: Memory 'coeffs' "
                      "(16 * 32b)", text)
        self.assertEqual(summary[0], "top krnl (krnl.v), 3 files")
        self.assertIn("control: ap_ctrl_hs", summary)
        self.assertIn("tied: ap_local_block=0", summary)

    def test_ap_continue_makes_the_kernel_ap_ctrl_chain(self):
        chain = CONTROL.replace("//        bit 1  - ap_done (Read/COR)\n",
                                "//        bit 1  - ap_done (Read/COR)\n//        bit 4  - ap_continue (Read/Write/SC)\n")
        self.assertFalse(hi.chained(CONTROL))
        self.assertTrue(hi.chained(chain))
        m, _, summary = self.imported(**{"krnl_control_s_axi.v": chain})
        self.assertEqual(m["control"], "ap_ctrl_chain")
        self.assertEqual(m["registers"][3]["access"], "w1t")  # ISR toggles on write (Read/TOW)
        cor = CONTROL.replace("IP Interrupt Status Register (Read/TOW)", "IP Interrupt Status Register (Read/COR)")
        self.assertTrue(hi.isr_clears_on_read(cor))
        self.assertFalse(hi.isr_clears_on_read(CONTROL))
        self.assertIn("  - {name: ISR, offset: 0x0c, access: rc}", hi.manifest("krnl", ".", self.files(
            **{"krnl_control_s_axi.v": cor}))[0])
        self.assertIn("ap_continue", [f["name"] for f in m["registers"][0]["fields"]])
        self.assertIn("control: ap_ctrl_chain", summary)

    def test_what_it_cannot_import_is_one_line(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaisesRegex(hi.ImportError_, "no .v or .sv file"):
                hi.read_sources(d)
        with self.assertRaisesRegex(hi.ImportError_, "not a folder"):
            hi.read_sources("/nonexistent/hls")
        no_clk = hi.modules({"a.v": "module a (input clk);\nendmodule\n"})["a"][1]
        with self.assertRaisesRegex(hi.ImportError_, "no ap_clk: not a kernel HLS generated"):
            hi.interfaces(hi.ports(no_clk), no_clk)
        two = TOP.replace("s_axi_control_WDATA,", "s_axi_control_WDATA,\n        s_axi_other_AWADDR,").replace(
            "input  [31:0] s_axi_control_WDATA;", "input  [31:0] s_axi_control_WDATA;\ninput [5:0] s_axi_other_AWADDR;")
        body = hi.modules({"k.v": two})["krnl"][1]
        with self.assertRaisesRegex(hi.ImportError_, r"2 AXI4-Lite slaves \(control, other\)"):
            hi.interfaces(hi.ports(body), body)
        both = TOP.replace("ap_rst_n,", "ap_rst_n,\n        ap_start,").replace(
            "input   ap_rst_n;", "input   ap_rst_n;\ninput   ap_start;")
        body = hi.modules({"k.v": both})["krnl"][1]
        with self.assertRaisesRegex(hi.ImportError_, "takes ap_start on a port and has an AXI4-Lite control port too"):
            hi.interfaces(hi.ports(body), body)
        with self.assertRaisesRegex(hi.ImportError_, "no 'Address Info' table"):
            hi.address_map("module x; endmodule")
        with self.assertRaisesRegex(hi.ImportError_, "krnl instantiates modules no file of the folder defines: "
                                    r"krnl_control_s_axi \(a vendor primitive without a stand-in, or a file left out\)"):
            hi.manifest("krnl", ".", {"krnl.v": TOP, "krnl_fifo.v": FIFO})
        uninstantiated = TOP.replace("krnl_control_s_axi #(.C_S_AXI_ADDR_WIDTH(7)) control_s_axi_U (.ACLK(ap_clk));\n", "")
        with self.assertRaisesRegex(hi.ImportError_, "no module krnl_control_s_axi"):
            hi.manifest("krnl", ".", {"krnl.v": uninstantiated, "krnl_fifo.v": FIFO})
        fp = FIFO.replace("endmodule", "  krnl_fadd_32ns_32ns_32_5_full_dsp_1_ip u_ip (.aclk(clk));\nendmodule")
        with self.assertRaisesRegex(hi.ImportError_, r"krnl_fadd_32ns_32ns_32_5_full_dsp_1_ip \(Xilinx IP such as "
                                    r"HLS's floating-point cores, which has no source to simulate\)"):
            hi.manifest("krnl", ".", self.files(**{"krnl_fifo.v": fp}))

    def test_block_level_control_becomes_an_ap_ctrl_port(self):
        """A top without an AXI4-Lite port (HLS's default): ap_start ... on pins,
        each scalar input an argument register a word of its pin at a time."""
        block = textwrap.dedent("""\
            module blk (ap_clk, ap_rst, ap_start, ap_done, ap_idle, ap_ready, ap_ce, key, n, n_ap_vld, base,
                        in_r_TDATA, in_r_TVALID, in_r_TREADY, ap_return, sum, sum_ap_vld);
            input   ap_clk;
            input   ap_rst;
            input   ap_start;
            output   ap_done;
            output   ap_idle;
            output   ap_ready;
            input   ap_ce;
            input  [127:0] key;
            input  [15:0] n;
            input   n_ap_vld;
            input  [63:0] base;
            input  [31:0] in_r_TDATA;
            input   in_r_TVALID;
            output   in_r_TREADY;
            output  [31:0] ap_return;
            output  [15:0] sum;
            output   sum_ap_vld;
            endmodule
            """)
        m, text, summary = import_folder("blk", {"blk.v": block})
        self.assertEqual(m["control"], "ap_ctrl_hs")
        self.assertEqual([(i["name"], i["kind"]) for i in m["interfaces"]], [("control", "ap_ctrl"), ("in_r", "axis_in")])
        args = [(r["name"], r["offset"], r["access"], r["pin"], r["word"]) for r in m["argument_pins"]]
        self.assertEqual(args, [("KEY_0", 0x10, "rw", "key", 0), ("KEY_1", 0x14, "rw", "key", 1),
                                ("KEY_2", 0x18, "rw", "key", 2), ("KEY_3", 0x1c, "rw", "key", 3),
                                ("N", 0x20, "rw", "n", 0), ("BASE_LO", 0x24, "rw", "base", 0),
                                ("BASE_HI", 0x28, "rw", "base", 1), ("AP_RETURN", 0x2c, "ro", "ap_return", 0),
                                ("SUM", 0x30, "ro", "sum", 0)])
        self.assertEqual(m["ports"]["tie"], {"n_ap_vld": 1, "ap_ce": 1})  # an argument's ap_vld held high
        self.assertEqual(m["ports"]["debug"], [])  # sum_ap_vld is SUM's valid
        self.assertEqual({r["name"]: r.get("valid") for r in m["argument_pins"] if r["access"] == "ro"},
                         {"AP_RETURN": None, "SUM": "sum_ap_vld"})
        self.assertIn("control: ap_ctrl_hs on pins", "\n".join(summary))
        # The ports as the op call names them, with their widths (the first six, then a count).
        self.assertIn("ports (the op call's args and results by these names; a batch: per_call files): in KEY "
                      "(128 bits), in N (16 bits), in BASE (64 bits), out AP_RETURN (32 bits), out SUM (16 bits, "
                      "as of its ap_vld)", summary)
        body = hi.modules({"blk.v": block})["blk"][1]
        self.assertEqual(hi.port_summary(hi.interfaces(hi.ports(body), body), hi.port_widths(body), most=2),
                         "in KEY (128 bits), in N (16 bits), ... 3 more")
        # ap_continue: ap_ctrl_chain, its pin in the control port.
        chain = block.replace("ap_ready,", "ap_ready, ap_continue,").replace(
            "output   ap_ready;", "output   ap_ready;\ninput   ap_continue;")
        text, _ = hi.manifest("blk", ".", {"c.v": chain})
        self.assertIn("control: ap_ctrl_chain", text)
        self.assertNotIn("AP_CONTINUE", text)

    def test_ap_fifo_ports_become_streams_by_signals(self):
        """An hls::stream without an axis pragma (ap_fifo): _dout / _empty_n / _read an input stream,
        _din / _full_n / _write an output one, named by `signals`; Vitis HLS's occupancy inputs tied."""
        text = ("module k (ap_clk, ap_rst, ap_start, ap_done, ap_idle, ap_ready, in_r_dout, in_r_empty_n, in_r_read,\n"
                "  in_r_num_data_valid, in_r_fifo_cap, out_r_din, out_r_full_n, out_r_write);\ninput ap_clk;\n"
                "input ap_rst;\ninput ap_start;\noutput ap_done;\noutput ap_idle;\noutput ap_ready;\n"
                "input [31:0] in_r_dout;\ninput in_r_empty_n;\noutput in_r_read;\ninput [2:0] in_r_num_data_valid;\n"
                "input [2:0] in_r_fifo_cap;\noutput [15:0] out_r_din;\ninput out_r_full_n;\noutput out_r_write;\n"
                "endmodule\n")
        m, _, _ = import_folder("k", {"k.v": text})
        streams = {i["name"]: (i["kind"], {s: p[0] for s, p in i["pins"].items()})
                   for i in m["interfaces"] if i["kind"].startswith("axis")}
        self.assertEqual(streams, {
            "in_r": ("axis_in", {"tdata": "in_r_dout", "tvalid": "in_r_empty_n", "tready": "in_r_read"}),
            "out_r": ("axis_out", {"tdata": "out_r_din", "tvalid": "out_r_write", "tready": "out_r_full_n"})})
        self.assertEqual(m["ports"]["tie"], {"in_r_num_data_valid": 0, "in_r_fifo_cap": 0})

    def test_a_stream_of_whole_bytes_verilator_stores_in_more_takes_data_bytes(self):
        """An 80-bit TDATA (ten 8-bit elements of an hls4ml nnet::array) is ten bytes a beat, not the
        twelve Verilator stores it in; a 48-bit ap_fifo six; 64 bits need nothing; a 54-bit ap_fifo
        (three 18-bit elements) is data_bits."""
        text = ("module k (ap_clk, ap_rst, ap_start, ap_done, ap_idle, ap_ready, x_TDATA, x_TVALID, x_TREADY,\n"
                "  y_TDATA, y_TVALID, y_TREADY, f_din, f_full_n, f_write);\ninput ap_clk;\ninput ap_rst;\n"
                "input ap_start;\noutput ap_done;\noutput ap_idle;\noutput ap_ready;\ninput [63:0] x_TDATA;\n"
                "input x_TVALID;\noutput x_TREADY;\noutput [79:0] y_TDATA;\noutput y_TVALID;\ninput y_TREADY;\n"
                "output [47:0] f_din;\ninput f_full_n;\noutput f_write;\ninput [53:0] g_dout;\ninput g_empty_n;\n"
                "output g_read;\nendmodule\n").replace("f_write);", "f_write, g_dout, g_empty_n, g_read);")
        m, _, _ = import_folder("k", {"k.v": text})
        self.assertEqual({i["name"]: (i.get("data_bytes"), i.get("data_bits"))
                          for i in m["interfaces"] if i["kind"].startswith("axis")},
                         {"x": (None, None), "y": (10, None), "f": (6, None), "g": (7, 54)})

    def test_streams_of_an_arrays_elements_get_lower_case_names(self):
        """Vivado HLS 2020 and older split an hls4ml nnet::array into a stream an element,
        input_1_V_data_0_V: the interface's name is lower case (as dutgen requires), its prefix the
        ports' spelling."""
        text = ("module k (ap_clk, ap_rst_n, ap_start, ap_done, ap_idle, ap_ready, input_1_V_data_0_V_TDATA,\n"
                "  input_1_V_data_0_V_TVALID, input_1_V_data_0_V_TREADY, out_V_data_1_V_TDATA, out_V_data_1_V_TVALID,\n"
                "  out_V_data_1_V_TREADY);\ninput ap_clk;\ninput ap_rst_n;\ninput ap_start;\noutput ap_done;\n"
                "output ap_idle;\noutput ap_ready;\ninput [15:0] input_1_V_data_0_V_TDATA;\n"
                "input input_1_V_data_0_V_TVALID;\noutput input_1_V_data_0_V_TREADY;\n"
                "output [15:0] out_V_data_1_V_TDATA;\noutput out_V_data_1_V_TVALID;\ninput out_V_data_1_V_TREADY;\n"
                "endmodule\n")
        m, _, _ = import_folder("k", {"k.v": text})
        self.assertEqual([(i["name"], i["kind"], i["prefix"]) for i in m["interfaces"] if i["kind"].startswith("axis")],
                         [("input_1_v_data_0_v", "axis_in", "input_1_V_data_0_V_"),
                          ("out_v_data_1_v", "axis_out", "out_V_data_1_V_")])

    def test_rom_images_are_found_and_relocated(self):
        rom = ("module krnl_w_rom (input clk);\nreg [7:0] ram[0:15];\ninitial begin\n"
               '    $readmemh("./krnl_w_rom.dat", ram);\nend\nendmodule\n')
        self.assertEqual(hi.rom_files(self.files(**{"krnl_w_rom.v": rom})), {"./krnl_w_rom.dat": "krnl_w_rom.v"})
        moved = hi.relocate_roms(rom, {"./krnl_w_rom.dat": "/p/rtl/k/krnl_w_rom.dat"})
        self.assertIn('$readmemh("/p/rtl/k/krnl_w_rom.dat", ram);', moved)
        self.assertEqual(moved.replace("/p/rtl/k/", "./"), rom)

    def test_vendor_primitives_it_instantiates_select_their_stand_ins(self):
        fifo = FIFO.replace("endmodule", "  xpm_fifo_sync #(.FIFO_WRITE_DEPTH(16)) u_fifo (.wr_clk(clk));\n"
                                         "  RAMB36E1 #(.DOA_REG(0)) ram_reg (.CLKARDCLK(clk));\n"
                                         "  if (clk) begin end\n  unique case (clk)\n  default: ;\n  endcase\n"
                                         "endmodule")
        mods = hi.modules(self.files(**{"krnl_fifo.v": fifo}))
        self.assertEqual(hi.external_modules(mods, "krnl"), (["unisim_ramb", "xpm_fifo_sync"], []))
        text, summary = hi.manifest("krnl", ".", self.files(**{"krnl_fifo.v": fifo}))
        self.assertIn("vendor: [unisim_ramb, xpm_fifo_sync]", text)
        self.assertIn("vendor stand-ins: unisim_ramb, xpm_fifo_sync", summary)

    def test_a_queue_shifted_in_a_loop_simulates_every_stage(self):
        """Built with the verilator_args the import writes, each of the 100
        stages holds what was pushed that many pushes ago."""
        m, text, _ = self.imported(**{"krnl_req_queue.v": SHIFT_QUEUE})
        self.assertIn("--unroll-count", m["verilator_args"])
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "main.cpp"), "w") as fh:
                fh.write(SHIFT_QUEUE_MAIN)
            with open(os.path.join(d, "krnl_req_queue.v"), "w") as fh:
                fh.write(SHIFT_QUEUE)
            build = subprocess.run(["verilator", "--cc", "--exe", "--build", "-j", "2", "-Mdir", os.path.join(d, "obj"),
                                    "--top-module", "krnl_req_queue", *m["verilator_args"], "krnl_req_queue.v", "main.cpp"],
                                   cwd=d, capture_output=True, text=True)
            self.assertEqual(build.returncode, 0, build.stdout + build.stderr)
            run = subprocess.run([os.path.join(d, "obj", "Vkrnl_req_queue")], capture_output=True, text=True, check=True)
        self.assertEqual([int(v) for v in run.stdout.split()], [100 - k for k in range(100)])


if __name__ == "__main__":
    unittest.main()
