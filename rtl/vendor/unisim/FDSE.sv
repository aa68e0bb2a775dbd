// UNISIM FDSE stand-in (UG974 behaviour, not vendor code): D flip-flop, clock enable CE,
// synchronous set S (Q to 1 on the clock edge); INIT (default 1), IS_C_INVERTED,
// IS_D_INVERTED, IS_S_INVERTED, each 0 or 1. The body is cosim_unisim_ff.
`timescale 1ps/1ps
module FDSE #(parameter INIT = 1, IS_C_INVERTED = 0, IS_D_INVERTED = 0, IS_S_INVERTED = 0)
  (output logic Q, input logic C, CE, D, S);
  cosim_unisim_ff #(.PRIM("FDSE"), .SR_PIN("S"), .ASYNC(0), .SR_VALUE(1), .INIT(INIT),
                    .IS_C_INVERTED(IS_C_INVERTED), .IS_D_INVERTED(IS_D_INVERTED),
                    .IS_SR_INVERTED(IS_S_INVERTED)) u_ff (.C, .CE, .D, .SR(S), .Q);
endmodule
