// Stand-in for the Xilinx parameterized macro xpm_cdc_single (single-bit
// synchroniser), written here from its documented behaviour (UG974 / UG953 /
// UG1344), so that user RTL instantiating it Verilates unmodified. Not vendor
// code; module, parameter and port names are the vendor's.
//
// Every documented parameter (DEST_SYNC_FF 2..10, INIT_SYNC_FF, SIM_ASSERT_CHK,
// SRC_INPUT_REG) and port. src_in is registered on src_clk when SRC_INPUT_REG
// is 1 (src_clk is unused otherwise), then passes DEST_SYNC_FF flip-flops on
// dest_clk; dest_out is the last one. Latency: a value registered on src_clk
// edge t shows on dest_out after the DEST_SYNC_FF-th dest_clk edge after t
// (cosim_xpm_cdc_bits). INIT_SYNC_FF 1 starts the flip-flops at 0.
// SIM_ASSERT_CHK is accepted; no misuse messages are given.
`timescale 1ns/1ps
module xpm_cdc_single #(
  parameter int DEST_SYNC_FF   = 4,  // 2..10
  parameter int INIT_SYNC_FF   = 0,
  parameter int SIM_ASSERT_CHK = 0,
  parameter int SRC_INPUT_REG  = 1
) (
  input  logic src_clk,
  input  logic src_in,
  input  logic dest_clk,
  output logic dest_out
);

  cosim_xpm_cdc_bits #(.MACRO("xpm_cdc_single"), .DEST_SYNC_FF(DEST_SYNC_FF), .INIT_SYNC_FF(INIT_SYNC_FF),
                       .SIM_ASSERT_CHK(SIM_ASSERT_CHK), .SRC_INPUT_REG(SRC_INPUT_REG), .WIDTH(1))
    u_bits (.src_clk, .src_in, .dest_clk, .dest_out);

endmodule
