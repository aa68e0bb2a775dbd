// An AXI-Stream test DUT (tests/axis_wide) whose beats are on two data ports
// each way, of widths that are no whole bytes: in, a [11:0] and b [19:0],
// the beat v = {b, a} (its manifest: tdata: [s_a, s_b]); out, lo [4:0] and
// hi [26:0], the beat u = {hi, lo} = v * 3 + 1 (mod 2^32). Valid, ready and
// TLAST pass straight through.
`timescale 1ps/1ps
module axis_split_top (  // a stream a line
  input  logic clk, rst_n,
  input  logic s_valid, output logic s_ready, input logic [11:0] s_a, input logic [19:0] s_b, input logic s_last,
  output logic m_valid, input logic m_ready, output logic [4:0] m_lo, output logic [26:0] m_hi, output logic m_last
);
  logic unused_clk_rst;
  logic [31:0] u;
  assign unused_clk_rst = clk ^ rst_n;  // combinational: the clock and reset only time the testbench
  assign u = {s_b, s_a} * 32'd3 + 32'd1;
  assign {m_hi, m_lo} = u;
  assign m_valid = s_valid;
  assign s_ready = m_ready;
  assign m_last = s_last;
endmodule
