// The body of the wide-function multiplexer stand-ins MUXF7, MUXF8 and MUXF9
// (UNISIM, UG974), written here from the documented truth table; not vendor
// code: O = S ? I1 : I0, combinationally. The three differ only in which
// LUT outputs the hardware lets them combine, which a simulation need not
// model.
`timescale 1ps/1ps
module cosim_unisim_muxf (
  input  logic I0,
  input  logic I1,
  input  logic S,
  output logic O
);

  assign O = S ? I1 : I0;

endmodule
