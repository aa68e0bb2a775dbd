// Stand-in for the Xilinx parameterized macro xpm_cdc_async_rst (asynchronous
// reset synchroniser), written here from its documented behaviour (UG974 /
// UG953 / UG1344), so that user RTL instantiating it Verilates unmodified.
// Not vendor code; module, parameter and port names are the vendor's.
//
// Every documented parameter (DEST_SYNC_FF 2..10, INIT_SYNC_FF,
// RST_ACTIVE_HIGH, SIM_ASSERT_CHK, VERSION) and port. src_arst and dest_arst
// are active high with RST_ACTIVE_HIGH 1, active low with 0 (the default).
// DEST_SYNC_FF flip-flops on dest_clk, each set asynchronously while src_arst
// is active: dest_arst becomes active at once, without a dest_clk edge (in
// the same evaluation as src_arst). Once src_arst is inactive, the inactive
// level shifts in on dest_clk: dest_arst becomes inactive after the
// DEST_SYNC_FF-th dest_clk edge after src_arst's release (an edge while it is
// still active does not count), so an assertion lasts at least DEST_SYNC_FF
// dest_clk periods, as documented. INIT_SYNC_FF 1 starts the flip-flops
// inactive (dest_arst inactive until src_arst is asserted); INIT_SYNC_FF 0
// leaves the simulator's initial value. SIM_ASSERT_CHK is accepted; no misuse
// messages are given. VERSION is accepted and has no effect.
`timescale 1ns/1ps
module xpm_cdc_async_rst #(
  parameter int DEST_SYNC_FF    = 4,  // 2..10
  parameter int INIT_SYNC_FF    = 0,
  parameter int RST_ACTIVE_HIGH = 0,
  parameter int SIM_ASSERT_CHK  = 0,
  /* verilator lint_off UNUSEDPARAM */  // the vendor's internal revision: nothing to model
  parameter int VERSION         = 0
  /* verilator lint_on UNUSEDPARAM */
) (
  input  logic src_arst,
  input  logic dest_clk,
  output logic dest_arst
);

  cosim_xpm_cdc_check #(.MACRO("xpm_cdc_async_rst"), .DEST_SYNC_FF(DEST_SYNC_FF), .INIT_SYNC_FF(INIT_SYNC_FF),
                        .SIM_ASSERT_CHK(SIM_ASSERT_CHK), .RST_ACTIVE_HIGH(RST_ACTIVE_HIGH)) u_check ();

  // Inside, 1 is "in reset" whatever the ports' polarity.
  localparam bit ActiveLow = RST_ACTIVE_HIGH == 0;
  logic arst, rst_q;
  assign arst = src_arst ^ ActiveLow;

  cosim_xpm_sync #(.STAGES(DEST_SYNC_FF), .WIDTH(1), .INIT(INIT_SYNC_FF != 0), .INIT_VALUE(1'b0),
                   .RST_VALUE(1'b1), .ASYNC_RST(1'b1)) u_sync (
    .clk(dest_clk), .rst(arst), .d(1'b0), .q(rst_q));
  assign dest_arst = rst_q ^ ActiveLow;

endmodule
