// One PE = one output channel: its double-buffered filter cache, the SAC
// lanes (each a CVec-wide shift-accumulate of one feature vector with the
// codes of its tap) registered into lane sums, and the Adder. The lane
// arithmetic sits in a clocked block under its enable so an idle PE costs no
// simulation time. base_o = base_i + ckk daisy-chains each PE's share of the
// group's code stream to the next PE.
`include "tf2_pe_ports.svh"

module tf2_pe
  import tf2_pkg::*;
#(
  `TF2_PE_GEOMETRY_PARAMS
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,

  input  logic [15:0]                       ckk_i,
  input  logic [7:0]                        kk_i,
  input  logic signed [7:0]                 min_exp_i,
  input  logic [31:0]                       base_i,
  output logic [31:0]                       base_o,

  `TF2_FILTER_WRITE_PORTS,

  `TF2_PE_STAGE_PORTS,

  output logic [NCol-1:0][31:0]             slot_acc_o,
  output logic [31:0]                       slot_alpha_o,
  output logic [31:0]                       slot_beta_o
);

  logic [KTap-1:0][CVec-1:0][3:0] codes;
  logic signed [7:0]              qout;
  shift_cfg_t [CVec-1:0]          cfg;   // per input channel of the vector
  logic [31:0]                    bias, alpha, beta;
  logic [NLanes-1:0][31:0]        lane_sum_q;

  assign base_o = base_i + 32'(ckk_i);

  tf2_filter_cache #(.Depth(FilterDepth), .KTap(KTap)) u_cache (
    .clk_i,
    .base_i,
    .ckk_i,
    .kk_i,
    .pw_valid_i,
    `TF2_FILTER_WRITE_CONNECT,
    .rd_bank_i  (s1_bank_i),
    .rd_wbase_i (s1_wbase_i),
    .rd_cmask_i (s1_cmask_i),
    .rd_tmask_i (s1_tmask_i),
    .rd_codes_o (codes),
    .rd_qout_o  (qout),
    .prm_bank_i (s2_bank_i),
    .bias_o     (bias),
    .alpha_o    (alpha),
    .beta_o     (beta)
  );

  // A weight's shift base from its output channel's Q (this PE's) and its
  // input channel's (spec/tf2.md: s = 15 + Q_out - Q_in - n, in 8 bits).
  always_comb begin
    for (int unsigned i = 0; i < CVec; i++) begin
      cfg[i].qbase   = 10'sd15 + 10'(qout) - 10'($signed(s1_qin_i[i]));
      cfg[i].min_exp = min_exp_i;
    end
  end

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
          sum = sum + sac_product(s1_feat_i[l][8*i +: 8], codes[t][i], cfg[i]);
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
