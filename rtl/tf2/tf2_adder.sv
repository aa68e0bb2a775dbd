// Adder of one PE: folds the lane sums of a beat into per-column sums (3D
// mode: the KTap taps of each column; 2D mode: one lane per column), adds
// them to the column accumulators (started from the bias on the first beat
// of an output block) and, on the block's last beat, moves the finished
// int32 sums with the channel's alpha/beta into the result slot. All sums
// wrap modulo 2^32 like the golden model.
module tf2_adder
  import tf2_pkg::*;
#(
  parameter int unsigned OCol3D = DefOCol3D,
  parameter int unsigned KTap   = DefKTap,
  parameter int unsigned OCol2D = DefOCol2D,
  localparam int unsigned NLanes = (OCol3D * KTap > OCol2D) ? OCol3D * KTap : OCol2D,
  localparam int unsigned NCol   = (OCol3D > OCol2D) ? OCol3D : OCol2D
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,

  input  logic                        adv_i,
  input  logic                        valid_i,
  input  logic                        first_i,
  input  logic                        last_i,
  input  logic                        mode3d_i,
  input  logic [NLanes-1:0][31:0]     lane_sum_i,
  input  logic [31:0]                 bias_i,
  input  logic [31:0]                 alpha_i,
  input  logic [31:0]                 beta_i,

  output logic [NCol-1:0][31:0]       slot_acc_o,
  output logic [31:0]                 slot_alpha_o,
  output logic [31:0]                 slot_beta_o
);

  logic [NCol-1:0][31:0] acc_q, col_sum, total;

  // The result slot: a finished block's sums with its channel's alpha and
  // beta, written together on the block's last beat.
  typedef struct packed {
    logic [NCol-1:0][31:0] acc;
    logic [31:0]           alpha;
    logic [31:0]           beta;
  } slot_t;
  slot_t slot_q;

  always_comb begin
    for (int unsigned j = 0; j < NCol; j++) begin
      col_sum[j] = '0;
      if (mode3d_i) begin
        if (j < OCol3D) begin
          for (int unsigned t = 0; t < KTap; t++) col_sum[j] = col_sum[j] + lane_sum_i[j * KTap + t];
        end
      end else if (j < OCol2D) begin
        col_sum[j] = lane_sum_i[j];
      end
      total[j] = (first_i ? bias_i : acc_q[j]) + col_sum[j];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q  <= '0;
      slot_q <= '0;
    end else if (adv_i && valid_i) begin
      acc_q <= total;
      if (last_i) slot_q <= '{acc: total, alpha: alpha_i, beta: beta_i};
    end
  end

  assign slot_acc_o   = slot_q.acc;
  assign slot_alpha_o = slot_q.alpha;
  assign slot_beta_o  = slot_q.beta;

endmodule
