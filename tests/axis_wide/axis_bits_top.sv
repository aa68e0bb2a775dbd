// An 18-bit AXI-Stream test DUT (tests/axis_wide): TDATA no whole number of
// bytes, so its manifest says data_bits: 18 (three bytes a beat). A beat x
// passes straight through as x + 1 (mod 2^18), except all ones, which comes
// out as 1: a comparison that fails when the bits above 18 of the Verilated
// input are not clear. Valid, ready and TLAST pass through unchanged.
`timescale 1ps/1ps
module axis_bits_top (
  input  logic clk, rst_n,
  input  logic s_axis_tvalid, output logic s_axis_tready, input logic [17:0] s_axis_tdata, input logic s_axis_tlast,
  output logic m_axis_tvalid, input logic m_axis_tready, output logic [17:0] m_axis_tdata, output logic m_axis_tlast
);
  logic unused_clk_rst;
  assign unused_clk_rst = clk ^ rst_n;  // combinational: the clock and reset only time the testbench
  assign m_axis_tvalid = s_axis_tvalid;
  assign s_axis_tready = m_axis_tready;
  assign m_axis_tlast = s_axis_tlast;
  assign m_axis_tdata = s_axis_tdata == 18'h3ffff ? 18'd1 : s_axis_tdata + 18'd1;
endmodule
