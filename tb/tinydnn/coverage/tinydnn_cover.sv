// Functional cover points for the tiny-dnn accelerator, bound into
// tinydnn_batch_ctrl in coverage builds only (rtl/CMakeLists.txt,
// COSIM_RTL_COVERAGE): the commands it accepted, by mode and kernel size.
// scripts/coverage_report.py reads the counts back by label. Not part of the
// RTL; binding keeps rtl/tinydnn untouched.
module tinydnn_cover (
  input logic       clk_i,
  input logic       accept_i,  // a command started this cycle
  input logic       reject_i,  // a start with a bad configuration
  input logic [6:0] mode_i,    // tinydnn_pkg::mode_t, bit 0 first
  input logic [7:0] kw_i,
  input logic [7:0] kh_i,
  input logic       batch_i    // more than one sample
);
  logic wr_w, wr_b, run, bias, bwd, dw, last;
  assign {last, dw, bwd, bias, run, wr_b, wr_w} = mode_i;
  cov_wr_weights: cover property (@(posedge clk_i) accept_i && wr_w);
  cov_wr_bias:    cover property (@(posedge clk_i) accept_i && wr_b);
  cov_forward:    cover property (@(posedge clk_i) accept_i && run && !bwd && !dw);
  cov_fwd_bias:   cover property (@(posedge clk_i) accept_i && run && !bwd && !dw && bias);
  cov_backward:   cover property (@(posedge clk_i) accept_i && run && bwd && !dw);
  cov_dw:         cover property (@(posedge clk_i) accept_i && run && dw);
  cov_dw_last:    cover property (@(posedge clk_i) accept_i && run && dw && last);
  cov_k1x1:       cover property (@(posedge clk_i) accept_i && run && kw_i == 8'd1 && kh_i == 8'd1);
  cov_k3x3:       cover property (@(posedge clk_i) accept_i && run && kw_i == 8'd3 && kh_i == 8'd3);
  cov_k5x5:       cover property (@(posedge clk_i) accept_i && run && kw_i == 8'd5 && kh_i == 8'd5);
  cov_k_rect:     cover property (@(posedge clk_i) accept_i && run && kw_i != kh_i);
  cov_batch:      cover property (@(posedge clk_i) accept_i && run && batch_i);
  cov_rejected:   cover property (@(posedge clk_i) reject_i);
endmodule

bind tinydnn_batch_ctrl tinydnn_cover u_cover (
  .clk_i    (clk_i),
  .accept_i (state_q == StIdle && start_i && !cfg_bad),
  .reject_i (state_q == StIdle && start_i && cfg_bad),
  .mode_i   (mode_i),
  .kw_i     (8'(cfg_i.kw)),
  .kh_i     (8'(cfg_i.kh)),
  .batch_i  (cfg_i.samples > 16'd1)
);
