// UNISIM FDPE stand-in (UG974 behaviour, not vendor code): D flip-flop, clock enable CE,
// asynchronous preset PRE (Q to 1 at once); INIT (default 1), IS_C_INVERTED,
// IS_D_INVERTED, IS_PRE_INVERTED, each 0 or 1. The body is cosim_unisim_ff.
`timescale 1ps/1ps
module FDPE #(parameter INIT = 1, IS_C_INVERTED = 0, IS_D_INVERTED = 0, IS_PRE_INVERTED = 0)
  (output logic Q, input logic C, CE, D, PRE);
  cosim_unisim_ff #(.PRIM("FDPE"), .SR_PIN("PRE"), .ASYNC(1), .SR_VALUE(1), .INIT(INIT),
                    .IS_C_INVERTED(IS_C_INVERTED), .IS_D_INVERTED(IS_D_INVERTED),
                    .IS_SR_INVERTED(IS_PRE_INVERTED)) u_ff (.C, .CE, .D, .SR(PRE), .Q);
endmodule
