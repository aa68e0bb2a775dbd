// UNISIM FDCE stand-in (UG974 behaviour, not vendor code): D flip-flop, clock enable CE,
// asynchronous clear CLR (Q to 0 at once); INIT (default 0), IS_C_INVERTED,
// IS_D_INVERTED, IS_CLR_INVERTED, each 0 or 1. The body is cosim_unisim_ff.
`timescale 1ps/1ps
module FDCE #(parameter INIT = 0, IS_C_INVERTED = 0, IS_D_INVERTED = 0, IS_CLR_INVERTED = 0)
  (output logic Q, input logic C, CE, D, CLR);
  cosim_unisim_ff #(.PRIM("FDCE"), .SR_PIN("CLR"), .ASYNC(1), .SR_VALUE(0), .INIT(INIT),
                    .IS_C_INVERTED(IS_C_INVERTED), .IS_D_INVERTED(IS_D_INVERTED),
                    .IS_SR_INVERTED(IS_CLR_INVERTED)) u_ff (.C, .CE, .D, .SR(CLR), .Q);
endmodule
