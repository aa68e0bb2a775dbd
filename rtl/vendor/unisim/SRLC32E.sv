// UNISIM SRLC32E stand-in (UG974 behaviour, not vendor code): a 32-bit shift
// register LUT with cascade output. On the active CLK edge (falling with
// IS_CLK_INVERTED 1) with CE high, D shifts in; Q = the bit at A[4:0] (0: the
// bit D entered last), combinationally; Q31 = the last bit, for D of the next
// SRLC32E in a chain. INIT (32 bits, default 0) is the starting content. The
// body is cosim_unisim_srl.
`timescale 1ps/1ps
module SRLC32E #(
  parameter logic [31:0] INIT            = 32'h00000000,
  parameter              IS_CLK_INVERTED = 0  // untyped: 1'b1 or 1
) (
  output logic       Q,
  output logic       Q31,
  input  logic [4:0] A,
  input  logic       CE, CLK, D
);

  cosim_unisim_srl #(.PRIM("SRLC32E"), .N(32), .INIT(INIT), .IS_CLK_INVERTED(IS_CLK_INVERTED))
    u_srl (.CLK, .CE, .D, .A, .Q, .Q_LAST(Q31));

endmodule
