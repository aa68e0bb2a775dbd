// UNISIM LUT3 stand-in (UG974 behaviour, not vendor code): O = INIT[{I2, I1, I0}], INIT 8 bits.
`timescale 1ps/1ps
module LUT3 #(parameter logic [7:0] INIT = 8'h0) (output logic O, input logic I0, I1, I2);
  cosim_unisim_lut #(.K(3), .INIT(INIT)) u_lut (.I({I2, I1, I0}), .O);
endmodule
