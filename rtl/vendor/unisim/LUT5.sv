// UNISIM LUT5 stand-in (UG974 behaviour, not vendor code): O = INIT[{I4, I3, I2, I1, I0}], INIT 32 bits.
`timescale 1ps/1ps
module LUT5 #(parameter logic [31:0] INIT = 32'h0) (output logic O, input logic I0, I1, I2, I3, I4);
  cosim_unisim_lut #(.K(5), .INIT(INIT)) u_lut (.I({I4, I3, I2, I1, I0}), .O);
endmodule
