// UNISIM SRL16E stand-in (UG974 behaviour, not vendor code): a 16-bit shift
// register LUT. On the active CLK edge (falling with IS_CLK_INVERTED 1) with
// CE high, D shifts in; Q = the bit at {A3, A2, A1, A0} (0: the bit D entered
// last), combinationally. INIT (16 bits, default 0) is the starting content.
// The body is cosim_unisim_srl.
`timescale 1ps/1ps
module SRL16E #(
  parameter logic [15:0] INIT            = 16'h0000,
  parameter              IS_CLK_INVERTED = 0  // untyped: 1'b1 or 1
) (
  output logic Q,
  input  logic A0, A1, A2, A3, CE, CLK, D
);

  logic unused_q15;  // SRL16E has no cascade output
  cosim_unisim_srl #(.PRIM("SRL16E"), .N(16), .INIT(INIT), .IS_CLK_INVERTED(IS_CLK_INVERTED))
    u_srl (.CLK, .CE, .D, .A({A3, A2, A1, A0}), .Q, .Q_LAST(unused_q15));

endmodule
