// Stand-in for the Xilinx parameterized macro xpm_cdc_pulse (pulse transfer),
// written here from its documented behaviour (UG974 / UG953 / UG1344), so
// that user RTL instantiating it Verilates unmodified. Not vendor code;
// module, parameter and port names are the vendor's.
//
// Every documented parameter (DEST_SYNC_FF 2..10, INIT_SYNC_FF, REG_OUTPUT,
// RST_USED, SIM_ASSERT_CHK) and port. On src_clk, a rising edge of src_pulse
// (high on an edge, low on the one before) flips a toggle register; the toggle
// passes DEST_SYNC_FF flip-flops on dest_clk, and dest_pulse is high for the
// one dest_clk cycle after the synchronised toggle changes: combinationally
// (REG_OUTPUT 0: from the DEST_SYNC_FF-th dest_clk edge after the src_clk
// edge t that saw the rising edge, one at the same instant as t not counting,
// until the next) or one dest_clk edge later (REG_OUTPUT 1). Pulses closer
// together than the vendor's minimum gap (2 periods of the slower clock) may
// merge, as on hardware. RST_USED 1: src_rst clears the source side on
// src_clk, dest_rst the destination side on dest_clk (the vendor asks for
// both together, for DEST_SYNC_FF + 2 dest_clk plus 2 src_clk periods);
// RST_USED 0: both are ignored. INIT_SYNC_FF 1 starts every flip-flop at 0.
// SIM_ASSERT_CHK is accepted; no misuse messages are given.
`timescale 1ns/1ps
module xpm_cdc_pulse #(
  parameter int DEST_SYNC_FF   = 4,  // 2..10
  parameter int INIT_SYNC_FF   = 0,
  parameter int REG_OUTPUT     = 0,
  parameter int RST_USED       = 1,
  parameter int SIM_ASSERT_CHK = 0
) (
  input  logic src_clk,
  input  logic src_pulse,
  input  logic src_rst,
  input  logic dest_clk,
  input  logic dest_rst,
  output logic dest_pulse
);

  cosim_xpm_cdc_check #(
    .MACRO("xpm_cdc_pulse"), .DEST_SYNC_FF(DEST_SYNC_FF), .INIT_SYNC_FF(INIT_SYNC_FF), .REG_OUTPUT(REG_OUTPUT),
    .RST_USED(RST_USED), .SIM_ASSERT_CHK(SIM_ASSERT_CHK)
  ) u_check ();

  localparam bit Init = INIT_SYNC_FF != 0;
  localparam bit UseRst = RST_USED != 0;

  logic src_rst_int, dest_rst_int;
  assign src_rst_int  = UseRst & src_rst;
  assign dest_rst_int = UseRst & dest_rst;

  // Source side: a rising edge of src_pulse flips the toggle.
  logic src_pulse_q, toggle_q;
  if (Init) begin : g_init_src
    initial {src_pulse_q, toggle_q} = '0;
  end
  always_ff @(posedge src_clk) begin
    if (src_rst_int) begin
      src_pulse_q <= 1'b0;
      toggle_q    <= 1'b0;
    end else begin
      src_pulse_q <= src_pulse;
      toggle_q    <= toggle_q ^ (src_pulse & ~src_pulse_q);
    end
  end

  // Destination side: a change of the synchronised toggle is a pulse.
  logic toggle_d, toggle_prev_q, pulse;
  cosim_xpm_sync #(.STAGES(DEST_SYNC_FF), .WIDTH(1), .INIT(Init)) u_sync (
    .clk(dest_clk), .rst(dest_rst_int), .d(toggle_q), .q(toggle_d));
  if (Init) begin : g_init_dest
    initial toggle_prev_q = 1'b0;
  end
  always_ff @(posedge dest_clk) toggle_prev_q <= dest_rst_int ? 1'b0 : toggle_d;
  assign pulse = toggle_d ^ toggle_prev_q;

  if (REG_OUTPUT != 0) begin : g_reg_output
    logic pulse_q;
    if (Init) begin : g_init
      initial pulse_q = 1'b0;
    end
    always_ff @(posedge dest_clk) pulse_q <= ~dest_rst_int & pulse;
    assign dest_pulse = pulse_q;
  end else begin : g_comb_output
    assign dest_pulse = pulse;
  end

endmodule
