// Stand-in for the Xilinx parameterized macro xpm_cdc_array_single (an array
// of single-bit synchronisers), written here from its documented behaviour
// (UG974 / UG953 / UG1344), so that user RTL instantiating it Verilates
// unmodified. Not vendor code; module, parameter and port names are the
// vendor's.
//
// Every documented parameter (DEST_SYNC_FF 2..10, INIT_SYNC_FF, SIM_ASSERT_CHK,
// SRC_INPUT_REG, WIDTH 1..1024) and port. Each bit as in xpm_cdc_single: src_in
// registered on src_clk when SRC_INPUT_REG is 1, then DEST_SYNC_FF flip-flops on
// dest_clk; a value registered on src_clk edge t shows on dest_out after the
// DEST_SYNC_FF-th dest_clk edge after t (cosim_xpm_cdc_bits). The vendor
// treats the bits as unrelated (on hardware a changing value may arrive a bit
// at a time; here it arrives whole): a value whose bits belong together
// crosses with xpm_cdc_gray or a handshake. SIM_ASSERT_CHK is accepted; no
// misuse messages are given.
`timescale 1ns/1ps
module xpm_cdc_array_single #(
  parameter int DEST_SYNC_FF   = 4,  // 2..10
  parameter int INIT_SYNC_FF   = 0,
  parameter int SIM_ASSERT_CHK = 0,
  parameter int SRC_INPUT_REG  = 1,
  parameter int WIDTH          = 2   // 1..1024
) (
  input  logic             src_clk,
  input  logic [WIDTH-1:0] src_in,
  input  logic             dest_clk,
  output logic [WIDTH-1:0] dest_out
);

  cosim_xpm_cdc_bits #(
    .MACRO("xpm_cdc_array_single"), .WIDTH(WIDTH), .WIDTH_MAX(1024), .DEST_SYNC_FF(DEST_SYNC_FF),
    .INIT_SYNC_FF(INIT_SYNC_FF), .SIM_ASSERT_CHK(SIM_ASSERT_CHK), .SRC_INPUT_REG(SRC_INPUT_REG)
  ) u_bits (.src_clk, .src_in, .dest_clk, .dest_out);

endmodule
