// UNISIM LUT2 stand-in (UG974 behaviour, not vendor code): O = INIT[{I1, I0}], INIT 4 bits.
`timescale 1ps/1ps
module LUT2 #(parameter logic [3:0] INIT = 4'h0) (output logic O, input logic I0, I1);
  cosim_unisim_lut #(.K(2), .INIT(INIT)) u_lut (.I({I1, I0}), .O);
endmodule
