// A pipelined kernel with block-level control on pins, as HLS makes a top
// function pipelined at II=1: a start is taken in every cycle ap_start is high
// (ap_ready is ap_start), its argument x read in that cycle, and DEPTH cycles
// later ap_done is high for one cycle with y = x * 3 + 1 (32-bit, wrapping).
// Calls overlap: the next is taken while earlier ones are still in the
// pipeline. Idle when ap_start is low and the pipeline empty.
module ap_pipe_top #(
  parameter int unsigned DEPTH = 4
) (
  input  logic ap_clk, ap_rst_n,
  input  logic ap_start, output logic ap_done, output logic ap_idle, output logic ap_ready,
  input  logic [31:0] x,
  output logic [31:0] y
);
  logic [DEPTH-1:0] valid_q;
  logic [31:0] data_q[DEPTH];

  assign ap_ready = ap_start;
  assign ap_done  = valid_q[DEPTH-1];
  assign ap_idle  = !ap_start && valid_q == '0;
  assign y        = data_q[DEPTH-1];

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) valid_q <= '0;
    else valid_q <= {valid_q[DEPTH-2:0], ap_start};
  end

  always_ff @(posedge ap_clk) begin
    data_q[0] <= x * 32'd3 + 32'd1;
    for (int unsigned i = 1; i < DEPTH; ++i) data_q[i] <= data_q[i-1];
  end
endmodule
