// Stand-in for the Xilinx parameterized macro xpm_cdc_gray (a binary value
// crossing in Gray code), written here from its documented behaviour (UG974 /
// UG953 / UG1344), so that user RTL instantiating it Verilates unmodified. Not
// vendor code; module, parameter and port names are the vendor's.
//
// Every documented parameter (DEST_SYNC_FF 2..10, INIT_SYNC_FF, REG_OUTPUT,
// SIM_ASSERT_CHK, SIM_LOSSLESS_GRAY_CHK, WIDTH 2..32) and port. As documented,
// src_in_bin is converted to Gray code and registered on src_clk, passes
// DEST_SYNC_FF flip-flops on dest_clk and is converted back to binary;
// REG_OUTPUT 1 registers the result once more on dest_clk. Latency: a value
// registered on src_clk edge t shows on dest_out_bin after the DEST_SYNC_FF-th
// dest_clk edge after t (one at the same instant as t does not count), or the
// (DEST_SYNC_FF + 1)-th with REG_OUTPUT 1. Every value held across a dest_clk
// edge arrives whole (no metastability in simulation); the vendor asks that
// successive values differ by one, and SIM_LOSSLESS_GRAY_CHK 1 makes a larger
// step an error (a failed check in this environment), from the second src_clk
// edge on. INIT_SYNC_FF 1 starts the flip-flops at 0. SIM_ASSERT_CHK is
// accepted; no other misuse messages are given.
`timescale 1ns/1ps
module xpm_cdc_gray #(
  parameter int DEST_SYNC_FF          = 4,  // 2..10
  parameter int INIT_SYNC_FF          = 0,
  parameter int REG_OUTPUT            = 0,
  parameter int SIM_ASSERT_CHK        = 0,
  parameter int SIM_LOSSLESS_GRAY_CHK = 0,
  parameter int WIDTH                 = 2   // 2..32
) (
  input  logic             src_clk,
  input  logic [WIDTH-1:0] src_in_bin,
  input  logic             dest_clk,
  output logic [WIDTH-1:0] dest_out_bin
);

  cosim_xpm_cdc_check #(
    .MACRO("xpm_cdc_gray"), .DEST_SYNC_FF(DEST_SYNC_FF), .INIT_SYNC_FF(INIT_SYNC_FF), .REG_OUTPUT(REG_OUTPUT),
    .SIM_ASSERT_CHK(SIM_ASSERT_CHK), .SIM_LOSSLESS_GRAY_CHK(SIM_LOSSLESS_GRAY_CHK), .WIDTH(WIDTH),
    .WIDTH_MIN(2), .WIDTH_MAX(32)
  ) u_check ();

  localparam bit Init = INIT_SYNC_FF != 0;

  logic [WIDTH-1:0] src_gray_q, dest_gray, dest_bin;

  if (Init) begin : g_init
    initial src_gray_q = '0;
  end
  always_ff @(posedge src_clk) src_gray_q <= WIDTH'(cosim_xpm_pkg::bin2gray(32'(src_in_bin)));

  cosim_xpm_sync #(.STAGES(DEST_SYNC_FF), .WIDTH(WIDTH), .INIT(Init)) u_sync (
    .clk(dest_clk), .rst(1'b0), .d(src_gray_q), .q(dest_gray));
  assign dest_bin = WIDTH'(cosim_xpm_pkg::gray2bin(32'(dest_gray)));

  if (REG_OUTPUT != 0) begin : g_reg_output
    logic [WIDTH-1:0] out_q;
    if (Init) begin : g_init
      initial out_q = '0;
    end
    always_ff @(posedge dest_clk) out_q <= dest_bin;
    assign dest_out_bin = out_q;
  end else begin : g_comb_output
    assign dest_out_bin = dest_bin;
  end

  // SIM_LOSSLESS_GRAY_CHK: successive values registered on src_clk differ by
  // at most one (wrapping around).
  if (SIM_LOSSLESS_GRAY_CHK == 1) begin : g_gray_chk
    logic [WIDTH-1:0] prev_q;
    logic             started_q;
    initial started_q = 1'b0;
    always_ff @(posedge src_clk) begin
      prev_q    <= src_in_bin;
      started_q <= 1'b1;
      if (started_q && src_in_bin != prev_q && src_in_bin != prev_q + 1'b1 && src_in_bin != prev_q - 1'b1) begin
        $error("xpm_cdc_gray: src_in_bin went from %0d to %0d; Gray-coded crossing needs steps of one",
               prev_q, src_in_bin);
      end
    end
  end

endmodule
