// UNISIM LUT6 stand-in (UG974 behaviour, not vendor code): O = INIT[{I5, I4, I3, I2, I1, I0}], INIT 64 bits.
`timescale 1ps/1ps
module LUT6 #(parameter logic [63:0] INIT = 64'h0) (output logic O, input logic I0, I1, I2, I3, I4, I5);
  cosim_unisim_lut #(.K(6), .INIT(INIT)) u_lut (.I({I5, I4, I3, I2, I1, I0}), .O);
endmodule
