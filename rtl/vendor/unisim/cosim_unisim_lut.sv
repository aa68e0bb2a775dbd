// The body of the look-up-table stand-ins LUT1 ... LUT6 and LUT6_2 (UNISIM,
// UG974), written here from the documented truth behaviour; not vendor code.
// A K-input LUT is a 2^K-bit table: O = INIT[I], with I = {I(K-1), ..., I0}
// (I0 the least significant address bit). Every INIT value is valid, so
// there is nothing to check.
`timescale 1ps/1ps
module cosim_unisim_lut #(
  parameter int                   K    = 6,  // 1..6 inputs
  parameter logic [(1 << K)-1:0] INIT = '0
) (
  input  logic [K-1:0] I,
  output logic         O
);

  assign O = INIT[I];

endmodule
