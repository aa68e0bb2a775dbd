// One MAC core = one output channel: its own weight memory (two banks of
// WBankDepth bf16), its bias, the running sum (stage 2) and a hold register
// that parks a finished sum until the shared normaliser drains it.
module tinydnn_core
  import tinydnn_pkg::*;
(
  input  logic              clk_i,
  input  logic              rst_ni,
  // Weight / delta and bias writes from the stream receiver.
  input  logic              w_we_i,
  input  logic [WAddrW-1:0] w_waddr_i,
  input  logic [15:0]       w_wdata_i,
  input  logic              bias_we_i,
  input  logic [15:0]       bias_wdata_i,
  // Stage 1: weight read address (synchronous read).
  input  logic [WAddrW-1:0] w_raddr_i,
  // Stage 2: the step issued last cycle.
  input  logic              step_valid_i,  // a real MAC step (skipped taps: 0)
  input  logic              step_first_i,  // restart from the zero sum
  input  logic              step_last_i,   // copy the result into the hold register
  input  logic              step_bias_i,   // the bias step: w = bias
  input  logic [15:0]       d_i,
  output sum_t              hold_o
);

  logic [15:0] w_rdata;
  logic [15:0] bias_q;
  sum_t        sum_q, sum_base, sum_mac, sum_d, hold_q;

  cosim_ram #(.Width(16), .Depth(2 * WBankDepth)) u_wmem (
    .clk_i, .we_i (w_we_i), .waddr_i (w_waddr_i), .wmask_i (1'b1), .wdata_i (w_wdata_i),
    .re_i (1'b1), .raddr_i (w_raddr_i), .rdata_o (w_rdata)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bias_q <= '0;
      sum_q  <= '0;
      hold_q <= '0;
    end else begin
      if (bias_we_i) bias_q <= bias_wdata_i;
      sum_q <= sum_d;
      if (step_last_i) hold_q <= sum_d;
    end
  end

  tinydnn_mac u_mac (
    .sum_i (sum_base),
    .w_i   (step_bias_i ? bias_q : w_rdata),
    .d_i   (d_i),
    .sum_o (sum_mac)
  );

  assign sum_base = step_first_i ? '0 : sum_q;
  assign sum_d    = step_valid_i ? sum_mac : sum_base;

  assign hold_o = hold_q;

endmodule
