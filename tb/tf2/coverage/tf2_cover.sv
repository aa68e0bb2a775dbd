// Functional cover points for the TF2 engine, bound into tf2_controller in
// coverage builds only (rtl/CMakeLists.txt, COSIM_RTL_COVERAGE): what the
// accepted layer descriptors contained. scripts/coverage_report.py reads the
// counts back by label. Not part of the RTL; binding keeps rtl/tf2 untouched.
module tf2_cover (
  input logic       clk_i,
  input logic       accept_i,   // a descriptor passed the checks this cycle
  input logic       reject_i,   // a descriptor failed them (error path)
  input logic [7:0] k_i,
  input logic [7:0] stride_i,
  input logic [7:0] pad_i,
  input logic       relu_i,
  input logic       residual_i,
  input logic       c_in_partial_i  // c_in not a multiple of 16 channels
);
  cov_layer:      cover property (@(posedge clk_i) accept_i);
  cov_k1:         cover property (@(posedge clk_i) accept_i && k_i == 8'd1);
  cov_k3:         cover property (@(posedge clk_i) accept_i && k_i == 8'd3);
  cov_k5:         cover property (@(posedge clk_i) accept_i && k_i == 8'd5);
  cov_k_other:    cover property (@(posedge clk_i) accept_i && !(k_i inside {8'd1, 8'd3, 8'd5}));
  cov_stride1:    cover property (@(posedge clk_i) accept_i && stride_i == 8'd1);
  cov_stride2:    cover property (@(posedge clk_i) accept_i && stride_i == 8'd2);
  cov_stride_gt2: cover property (@(posedge clk_i) accept_i && stride_i > 8'd2);
  cov_pad0:       cover property (@(posedge clk_i) accept_i && pad_i == 8'd0);
  cov_pad:        cover property (@(posedge clk_i) accept_i && pad_i != 8'd0);
  cov_relu:       cover property (@(posedge clk_i) accept_i && relu_i);
  cov_residual:   cover property (@(posedge clk_i) accept_i && residual_i);
  cov_c_partial:  cover property (@(posedge clk_i) accept_i && c_in_partial_i);
  cov_rejected:   cover property (@(posedge clk_i) reject_i);
endmodule

bind tf2_controller tf2_cover u_cover (
  .clk_i          (clk_i),
  .accept_i       (state_q == StCheck && !bad),
  .reject_i       (state_q == StCheck && bad),
  .k_i            (dec.k),
  .stride_i       (dec.stride),
  .pad_i          (dec.pad),
  .relu_i         (dec.relu),
  .residual_i     (dec.residual),
  .c_in_partial_i (dec.c_in[3:0] != 4'd0)
);
