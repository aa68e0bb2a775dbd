// Stand-in for the Xilinx UNISIM primitive LUT6_2, a 6-input look-up table
// with two outputs (UG974): O6 = INIT[{I5, I4, I3, I2, I1, I0}] over the
// 64-bit INIT (default 0), and O5 = INIT[{1'b0, I4, I3, I2, I1, I0}], the
// lower half's bit at the five low inputs (I5 does not reach O5). Not vendor
// code; both lookups are cosim_unisim_lut's.
`timescale 1ps/1ps
module LUT6_2 #(
  parameter logic [63:0] INIT = 64'h0
) (
  output logic O5,
  output logic O6,
  input  logic I0, I1, I2, I3, I4, I5
);

  cosim_unisim_lut #(.K(6), .INIT(INIT)) u_o6 (.I({I5, I4, I3, I2, I1, I0}), .O(O6));
  cosim_unisim_lut #(.K(5), .INIT(INIT[31:0])) u_o5 (.I({I4, I3, I2, I1, I0}), .O(O5));

endmodule
