// A kernel with block-level control on pins, as HLS makes a top function
// without an AXI4-Lite adapter: ap_start / ap_done / ap_idle / ap_ready
// (and ap_continue when CHAIN), scalar arguments as input ports, a result
// as an output port.
//
// A start is taken when ap_start is high and the kernel idle: ap_ready is
// high in that cycle and the arguments are latched. Then `n` steps, one a
// cycle, of
//     acc = (acc * 33) ^ key[32*(i % 3) +: 32]        (i = 0 .. n-1, acc from 1)
// and ap_done is high for one cycle with result = {runs, acc}, where runs
// counts the calls finished (this one included), mod 2^32. `peek` shows
// acc all along; `peek_vld` is high for the one cycle it holds acc after two
// steps (as an output passed by reference and its ap_vld). With CHAIN,
// ap_done stays high until ap_continue, and only then does the kernel go
// idle. With LATE_READY, ap_ready is high in the ap_done cycle instead, as a
// dataflow kernel raises it once its inputs are read.
module ap_ctrl_top #(
  parameter int unsigned CHAIN = 0,
  parameter int unsigned LATE_READY = 0
) (
  input  logic ap_clk, ap_rst_n,
  input  logic ap_start, output logic ap_done, output logic ap_idle, output logic ap_ready, input logic ap_continue,
  input  logic [15:0] n, input logic [95:0] key,
  output logic [63:0] result, output logic [31:0] peek, output logic peek_vld
);
  typedef enum logic [1:0] {Idle, Busy, Done} state_e;
  state_e state_q;
  logic [15:0] n_q, i_q;
  logic [95:0] key_q;
  logic [31:0] acc_q, runs_q;

  assign ap_idle  = state_q == Idle;
  assign ap_ready = LATE_READY != 0 ? state_q == Done : ap_start && state_q == Idle;
  assign ap_done  = state_q == Done;
  assign result   = {runs_q, acc_q};
  assign peek     = acc_q;
  assign peek_vld = state_q == Busy && i_q == 16'd2;

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      state_q <= Idle;
      runs_q  <= '0;
      acc_q   <= '0;
      i_q     <= '0;
      n_q     <= '0;
      key_q   <= '0;
    end else begin
      unique case (state_q)
        Idle: if (ap_start) begin
          n_q     <= n;
          key_q   <= key;
          acc_q   <= 32'd1;
          i_q     <= '0;
          state_q <= Busy;
        end
        Busy: if (i_q == n_q) begin
          state_q <= Done;
          runs_q  <= runs_q + 32'd1;
        end else begin
          acc_q <= (acc_q * 32'd33) ^ key_q[32 * (i_q % 3) +: 32];
          i_q   <= i_q + 16'd1;
        end
        Done: if (CHAIN == 0 || ap_continue) state_q <= Idle;
        default: state_q <= Idle;
      endcase
    end
  end
endmodule
