// UNISIM BUFG stand-in (UG974 behaviour, not vendor code): the global clock
// buffer, O = I. There is no clock network to model, so it is a wire.
`timescale 1ps/1ps
module BUFG (
  output logic O,
  input  logic I
);

  assign O = I;

endmodule
