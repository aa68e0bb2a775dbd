// Protocol checker for a valid/ready handshake: once valid is up and ready is
// not, valid stays up and the payload stays the same until ready (AXI
// AxVALID, the register bus, the arbiter's output). The primitives use it
// instead of a concurrent `|=> $stable` property: Verilator keeps a sampled
// copy of every signal a concurrent assertion names and refreshes it on every
// evaluation, which cost the VTA core about 4 % of its simulation speed per
// primitive; this immediate assertion only copies the payload while stalled.
// Active only in builds with --assert, like every assertion.
`timescale 1ps/1ps  // vendor RTL carries timescales and Verilator wants every module to have one; 1ps keeps the default (message and dump times unchanged)
module cosim_assert_held #(
  parameter int unsigned Width = 1,
  parameter string       Name  = "cosim_assert_held"
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,     // synchronous flush: forget the stall
  input  logic             valid_i,
  input  logic             ready_i,
  input  logic [Width-1:0] payload_i
);

  logic             stalled_q;
  logic [Width-1:0] payload_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stalled_q <= 1'b0;
      payload_q <= '0;
    end else if (clr_i) begin
      stalled_q <= 1'b0;
    end else begin
      if (stalled_q) begin
        a_held: assert (valid_i && payload_i == payload_q)
          else $error("%s: valid dropped or payload changed before ready", Name);
      end
      stalled_q <= valid_i && !ready_i;
      if (valid_i && !ready_i) payload_q <= payload_i;
    end
  end

endmodule
