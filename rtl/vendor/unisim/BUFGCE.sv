// UNISIM BUFGCE stand-in (UG974 behaviour, not vendor code): a global clock
// buffer with clock enable, O = I while CE is high, 0 while it is low.
// CE_TYPE "SYNC" (the default) gates without glitches: CE is latched while
// I is low, so O gives only whole high phases of I (CE falling while I is
// high ends O at I's falling edge; CE rising while I is high starts O at
// I's next rising edge). "ASYNC": O = I & CE at once. IS_CE_INVERTED and
// IS_I_INVERTED (0 or 1) invert the pins first. SIM_DEVICE is accepted and
// has no effect. Not covered: "HARDSYNC" (Versal's hardened synchroniser,
// whose latency is not documented), which stops elaboration with its line.
`timescale 1ps/1ps
module BUFGCE #(
  parameter string CE_TYPE        = "SYNC",
  parameter        IS_CE_INVERTED = 0,  // untyped: 1'b1 or 1
  parameter        IS_I_INVERTED  = 0,
  /* verilator lint_off UNUSEDPARAM */  // the device the vendor's model imitates: no behaviour here
  parameter string SIM_DEVICE     = "ULTRASCALE"
  /* verilator lint_on UNUSEDPARAM */
) (
  output logic O,
  input  logic CE,
  input  logic I
);

  cosim_unisim_check #(.PRIM("BUFGCE"), .NAME("IS_CE_INVERTED"), .VALUE(IS_CE_INVERTED)) u_check_ce ();
  cosim_unisim_check #(.PRIM("BUFGCE"), .NAME("IS_I_INVERTED"), .VALUE(IS_I_INVERTED)) u_check_i ();
  if (CE_TYPE != "SYNC" && CE_TYPE != "ASYNC") begin : g_err_ce_type
    $fatal(1, "BUFGCE stand-in: CE_TYPE \"%s\" is not supported (SYNC or ASYNC)", CE_TYPE);
    initial $fatal(1, "BUFGCE stand-in: CE_TYPE \"%s\" is not supported (SYNC or ASYNC)", CE_TYPE);
  end

  logic ce_i, i_i;
  assign ce_i = CE ^ IS_CE_INVERTED[0];
  assign i_i  = I ^ IS_I_INVERTED[0];

  if (CE_TYPE == "ASYNC") begin : g_async
    assign O = i_i & ce_i;
  end else begin : g_sync
    logic ce_l;  // CE as it was when I last was low
    always_latch begin
      if (!i_i) ce_l = ce_i;
    end
    assign O = i_i & ce_l;
  end

endmodule
