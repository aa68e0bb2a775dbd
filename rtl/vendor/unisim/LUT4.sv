// UNISIM LUT4 stand-in (UG974 behaviour, not vendor code): O = INIT[{I3, I2, I1, I0}], INIT 16 bits.
`timescale 1ps/1ps
module LUT4 #(parameter logic [15:0] INIT = 16'h0) (output logic O, input logic I0, I1, I2, I3);
  cosim_unisim_lut #(.K(4), .INIT(INIT)) u_lut (.I({I3, I2, I1, I0}), .O);
endmodule
