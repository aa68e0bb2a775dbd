// An 18-bit AXI-Stream test DUT (tests/axis_wide): TDATA no whole number of
// bytes, so its manifest says data_bits: 18 (three bytes a beat). Each beat x
// passes through a one-beat buffer as x + 1 (mod 2^18), except all ones,
// which comes out as 1: a comparison that fails when the bits above 18 of the
// Verilated input are not clear.
`timescale 1ps/1ps
module axis_bits_top (
  input  logic        clk,
  input  logic        rst_n,

  input  logic        s_axis_tvalid,
  output logic        s_axis_tready,
  input  logic [17:0] s_axis_tdata,
  input  logic        s_axis_tlast,

  output logic        m_axis_tvalid,
  input  logic        m_axis_tready,
  output logic [17:0] m_axis_tdata,
  output logic        m_axis_tlast
);
  logic        have_q;
  logic [17:0] data_q;
  logic        last_q;

  assign s_axis_tready = !have_q || m_axis_tready;
  assign m_axis_tvalid = have_q;
  assign m_axis_tlast  = last_q;
  assign m_axis_tdata  = data_q;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      have_q <= 1'b0;
      data_q <= '0;
      last_q <= 1'b0;
    end else if (s_axis_tvalid && s_axis_tready) begin
      have_q <= 1'b1;
      data_q <= s_axis_tdata == 18'h3ffff ? 18'd1 : s_axis_tdata + 18'd1;
      last_q <= s_axis_tlast;
    end else if (m_axis_tready) begin
      have_q <= 1'b0;
    end
  end
endmodule
