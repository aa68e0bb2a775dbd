// Requantization and ReLU of one accumulator (tf2_pkg::requant):
// t = (acc * alpha) >>> 20, y = (((t + beta) >>> 14) + 1) >>> 1 with t and
// t + beta in 32 bits (unless wide_i), saturate to int8, then max(y, 0) when
// relu_i.
module tf2_requant
  import tf2_pkg::*;
(
  input  logic [31:0] acc_i,
  input  logic [31:0] alpha_i,
  input  logic [31:0] beta_i,
  input  logic        relu_i,
  input  logic        wide_i,
  output logic [7:0]  y_o
);

  assign y_o = requant(acc_i, alpha_i, beta_i, relu_i, wide_i);

endmodule
