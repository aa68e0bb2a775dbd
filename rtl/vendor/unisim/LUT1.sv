// UNISIM LUT1 stand-in (UG974 behaviour, not vendor code): O = INIT[I0], INIT 2 bits.
// (FINN's double-pumped MVU passes a clock through LUT1 #(.INIT(2'b10)): O = I0.)
`timescale 1ps/1ps
module LUT1 #(parameter logic [1:0] INIT = 2'h0) (output logic O, input logic I0);
  cosim_unisim_lut #(.K(1), .INIT(INIT)) u_lut (.I(I0), .O);
endmodule
