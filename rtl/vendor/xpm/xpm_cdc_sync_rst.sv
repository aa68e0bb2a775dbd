// Stand-in for the Xilinx parameterized macro xpm_cdc_sync_rst (synchronous
// reset synchroniser), written here from its documented behaviour (UG974 /
// UG953 / UG1344), so that user RTL instantiating it Verilates unmodified.
// Not vendor code; module, parameter and port names are the vendor's.
//
// Every documented parameter (DEST_SYNC_FF 2..10, INIT, INIT_SYNC_FF,
// SIM_ASSERT_CHK, VERSION) and port. src_rst (either polarity: the level
// crosses as it is) passes DEST_SYNC_FF flip-flops on dest_clk; dest_rst is
// the last one, so both assertion and deassertion show after the
// DEST_SYNC_FF-th dest_clk edge after src_rst changes (a value src_rst holds
// across a dest_clk edge arrives DEST_SYNC_FF - 1 edges after that one).
// INIT_SYNC_FF 1 starts every flip-flop at INIT (the value the vendor
// documents after configuration, 1 by default: in reset); INIT_SYNC_FF 0
// leaves the simulator's initial value, as for the other xpm_cdc_* stand-ins.
// SIM_ASSERT_CHK is accepted; no misuse messages are given. VERSION is
// accepted and has no effect.
`timescale 1ns/1ps
module xpm_cdc_sync_rst #(
  parameter int DEST_SYNC_FF   = 4,  // 2..10
  parameter int INIT           = 1,
  parameter int INIT_SYNC_FF   = 0,
  parameter int SIM_ASSERT_CHK = 0,
  /* verilator lint_off UNUSEDPARAM */  // the vendor's internal revision: nothing to model
  parameter int VERSION        = 0
  /* verilator lint_on UNUSEDPARAM */
) (
  input  logic src_rst,
  input  logic dest_clk,
  output logic dest_rst
);

  cosim_xpm_cdc_check #(.MACRO("xpm_cdc_sync_rst"), .DEST_SYNC_FF(DEST_SYNC_FF), .INIT_SYNC_FF(INIT_SYNC_FF),
                        .SIM_ASSERT_CHK(SIM_ASSERT_CHK), .INIT(INIT)) u_check ();

  cosim_xpm_sync #(.STAGES(DEST_SYNC_FF), .WIDTH(1), .INIT(INIT_SYNC_FF != 0), .INIT_VALUE(INIT != 0)) u_sync (
    .clk(dest_clk), .rst(1'b0), .d(src_rst), .q(dest_rst));

endmodule
