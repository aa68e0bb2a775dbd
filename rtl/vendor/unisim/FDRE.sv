// UNISIM FDRE stand-in (UG974 behaviour, not vendor code): D flip-flop, clock enable CE,
// synchronous reset R (Q to 0 on the clock edge); INIT (default 0), IS_C_INVERTED,
// IS_D_INVERTED, IS_R_INVERTED, each 0 or 1. The body is cosim_unisim_ff.
`timescale 1ps/1ps
module FDRE #(parameter INIT = 0, IS_C_INVERTED = 0, IS_D_INVERTED = 0, IS_R_INVERTED = 0)
  (output logic Q, input logic C, CE, D, R);
  cosim_unisim_ff #(.PRIM("FDRE"), .SR_PIN("R"), .ASYNC(0), .SR_VALUE(0), .INIT(INIT),
                    .IS_C_INVERTED(IS_C_INVERTED), .IS_D_INVERTED(IS_D_INVERTED),
                    .IS_SR_INVERTED(IS_R_INVERTED)) u_ff (.C, .CE, .D, .SR(R), .Q);
endmodule
