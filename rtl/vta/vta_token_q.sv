// Dependency token queue between two engines: a counter. Tokens carry no
// data, so a FIFO of them is just its occupancy. Push and pop may happen in
// the same cycle; a push at the (unreachable in practice) maximum count is held
// off by saturating, documented in vta_pkg (TokenCountWidth).
`include "cosim_assert.svh"
module vta_token_q import vta_pkg::*; (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       clr_i,
  input  logic                       push_i,
  input  logic                       pop_i,    // only while avail_o
  output logic                       avail_o,
  output logic [TokenCountWidth-1:0] count_o
);

  logic [TokenCountWidth-1:0] count_q;
  logic inc, dec;
  assign inc = push_i && (count_q != '1);
  assign dec = pop_i && (count_q != '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else if (clr_i) begin
      count_q <= '0;
    end else if (inc != dec) begin
      count_q <= inc ? count_q + 1'b1 : count_q - 1'b1;
    end
  end

  assign avail_o = (count_q != '0);
  assign count_o = count_q;

  // ---- Assertions (Verilated with --assert) --------------------------------
  // A push at the saturated count would lose a token (overflow); a pop of an
  // empty queue would invent one (underflow): both are engine bugs.
  `COSIM_ASSERT_IF(a_no_overflow, count_q != '1, push_i,
                   ("vta_token_q: token pushed at the saturated count %0d", count_q), clk_i, !rst_ni || clr_i)
  `COSIM_ASSERT_IF(a_no_underflow, count_q != '0, pop_i,
                   ("vta_token_q: token popped from an empty queue"), clk_i, !rst_ni || clr_i)

endmodule
