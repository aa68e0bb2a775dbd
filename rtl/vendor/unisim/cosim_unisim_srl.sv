// The body of the shift-register-LUT stand-ins SRL16E and SRLC32E (UNISIM,
// UG974), written here from the documented behaviour; not vendor code.
// N bits starting at INIT; on the active edge of CLK (rising, falling with
// IS_CLK_INVERTED 1) with CE high, D shifts in at bit 0 and every bit moves
// up one. Q is the bit at address A, at once (A changes it without a clock);
// Q_LAST the top bit (SRLC32E's Q31, the cascade output).
`timescale 1ps/1ps
module cosim_unisim_srl #(
  parameter string          PRIM            = "SRL16E",
  parameter int             N               = 16,  // 16 or 32
  parameter logic [N-1:0]   INIT            = '0,
  parameter                 IS_CLK_INVERTED = 0  // untyped: 1'b1 or 1
) (
  input  logic                 CLK,
  input  logic                 CE,
  input  logic                 D,
  input  logic [$clog2(N)-1:0] A,
  output logic                 Q,
  output logic                 Q_LAST
);

  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_CLK_INVERTED"), .VALUE(IS_CLK_INVERTED)) u_check_clk ();

  logic clk_i;
  assign clk_i = CLK ^ IS_CLK_INVERTED[0];

  logic [N-1:0] bits_r = INIT;
  always_ff @(posedge clk_i) begin
    if (CE) bits_r <= {bits_r[N-2:0], D};
  end
  assign Q      = bits_r[A];
  assign Q_LAST = bits_r[N-1];

endmodule
