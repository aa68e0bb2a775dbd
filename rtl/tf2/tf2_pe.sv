// One PE = one output channel: its double-buffered filter cache, the SAC
// lanes (each a CVec-wide shift-accumulate of one feature vector with the
// codes of its tap) registered into lane sums, and the Adder. The lane
// arithmetic sits in a clocked block under its enable so an idle PE costs no
// simulation time. base_o = base_i + ckk daisy-chains each PE's share of the
// group's code stream to the next PE.
module tf2_pe
  import tf2_pkg::*;
#(
  parameter int unsigned OCol3D      = DefOCol3D,
  parameter int unsigned KTap        = DefKTap,
  parameter int unsigned OCol2D      = DefOCol2D,
  parameter int unsigned FilterDepth = DefFilterDepth,
  localparam int unsigned NLanes = (OCol3D * KTap > OCol2D) ? OCol3D * KTap : OCol2D,
  localparam int unsigned NCol   = (OCol3D > OCol2D) ? OCol3D : OCol2D
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,

  input  logic [15:0]                       ckk_i,
  input  logic [7:0]                        kk_i,
  input  shift_cfg_t                        sbase_i,   // 15 + q_out - q_in, min_exp
  input  logic [31:0]                       base_i,
  output logic [31:0]                       base_o,

  input  logic                              pw_valid_i,
  input  logic                              pw_bank_i,
  input  logic [31:0]                       pw_bias_i,
  input  logic [31:0]                       pw_alpha_i,
  input  logic [31:0]                       pw_beta_i,
  input  logic                              cw_valid_i,
  input  logic                              cw_bank_i,
  input  logic signed [31:0]                cw_pos_i,
  input  logic [AxiDataWidth-1:0]           cw_codes_i,

  input  logic                              adv_i,
  input  logic                              s1_valid_i,
  input  logic                              s1_mode3d_i,
  input  logic                              s1_bank_i,
  input  logic [31:0]                       s1_wbase_i,
  input  logic [CVec-1:0]                   s1_cmask_i,
  input  logic [KTap-1:0]                   s1_tmask_i,
  input  logic [NLanes-1:0][CVec*8-1:0]     s1_feat_i,
  input  logic                              s2_valid_i,
  input  logic                              s2_first_i,
  input  logic                              s2_last_i,
  input  logic                              s2_mode3d_i,
  input  logic                              s2_bank_i,

  output logic [NCol-1:0][31:0]             slot_acc_o,
  output logic [31:0]                       slot_alpha_o,
  output logic [31:0]                       slot_beta_o
);

  logic [KTap-1:0][CVec-1:0][3:0] codes;
  logic [31:0]                    bias, alpha, beta;
  logic [NLanes-1:0][31:0]        lane_sum_q;

  assign base_o = base_i + 32'(ckk_i);

  tf2_filter_cache #(.Depth(FilterDepth), .KTap(KTap)) u_cache (
    .clk_i,
    .base_i,
    .ckk_i,
    .kk_i,
    .pw_valid_i, .pw_bank_i, .pw_bias_i, .pw_alpha_i, .pw_beta_i,
    .cw_valid_i, .cw_bank_i, .cw_pos_i, .cw_codes_i,
    .rd_bank_i  (s1_bank_i),
    .rd_wbase_i (s1_wbase_i),
    .rd_cmask_i (s1_cmask_i),
    .rd_tmask_i (s1_tmask_i),
    .rd_codes_o (codes),
    .prm_bank_i (s2_bank_i),
    .bias_o     (bias),
    .alpha_o    (alpha),
    .beta_o     (beta)
  );

  // SAC lanes: lane l uses tap l % KTap in 3D mode and tap 0 in 2D mode.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lane_sum_q <= '0;
    end else if (adv_i && s1_valid_i) begin
      for (int unsigned l = 0; l < NLanes; l++) begin
        logic [31:0] sum;
        int unsigned t;
        t   = s1_mode3d_i ? (l % KTap) : 0;
        sum = '0;
        for (int unsigned i = 0; i < CVec; i++) begin
          sum = sum + sac_product(s1_feat_i[l][8*i +: 8], codes[t][i], sbase_i);
        end
        lane_sum_q[l] <= sum;
      end
    end
  end

  tf2_adder #(.OCol3D(OCol3D), .KTap(KTap), .OCol2D(OCol2D)) u_adder (
    .clk_i, .rst_ni,
    .adv_i,
    .valid_i   (s2_valid_i),
    .first_i   (s2_first_i),
    .last_i    (s2_last_i),
    .mode3d_i  (s2_mode3d_i),
    .lane_sum_i(lane_sum_q),
    .bias_i    (bias),
    .alpha_i   (alpha),
    .beta_i    (beta),
    .slot_acc_o,
    .slot_alpha_o,
    .slot_beta_o
  );

endmodule
