// PE array: NPe PEs, one output channel each. Feature vectors and pipeline
// control are broadcast to all PEs; the code stream's per-PE offset (p*ckk)
// is daisy-chained PE to PE; parameter beats go to the addressed PE.
module tf2_pe_array
  import tf2_pkg::*;
#(
  parameter int unsigned NPe         = DefNPe,
  parameter int unsigned OCol3D      = DefOCol3D,
  parameter int unsigned KTap        = DefKTap,
  parameter int unsigned OCol2D      = DefOCol2D,
  parameter int unsigned FilterDepth = DefFilterDepth,
  localparam int unsigned NLanes = (OCol3D * KTap > OCol2D) ? OCol3D * KTap : OCol2D,
  localparam int unsigned NCol   = (OCol3D > OCol2D) ? OCol3D : OCol2D,
  localparam int unsigned PeW    = (NPe > 1) ? $clog2(NPe) : 1
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,

  input  logic [15:0]                       ckk_i,
  input  logic [7:0]                        kk_i,
  input  shift_cfg_t                        sbase_i,

  input  logic                              pw_valid_i,
  input  logic                              pw_bank_i,
  input  logic [PeW-1:0]                    pw_pe_i,
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

  output logic [NPe-1:0][NCol-1:0][31:0]    slot_acc_o,
  output logic [NPe-1:0][31:0]              slot_alpha_o,
  output logic [NPe-1:0][31:0]              slot_beta_o
);

  /* verilator lint_off UNUSEDSIGNAL */  // the chain's end feeds nothing
  logic [NPe:0][31:0] base;
  /* verilator lint_on UNUSEDSIGNAL */
  assign base[0] = '0;

  for (genvar p = 0; p < NPe; p++) begin : g_pe
    tf2_pe #(
      .OCol3D(OCol3D), .KTap(KTap), .OCol2D(OCol2D), .FilterDepth(FilterDepth)
    ) u_pe (
      .clk_i, .rst_ni,
      .ckk_i, .kk_i, .sbase_i,
      .base_i     (base[p]),
      .base_o     (base[p+1]),
      .pw_valid_i (pw_valid_i && (pw_pe_i == PeW'(p))),
      .pw_bank_i, .pw_bias_i, .pw_alpha_i, .pw_beta_i,
      .cw_valid_i, .cw_bank_i, .cw_pos_i, .cw_codes_i,
      .adv_i,
      .s1_valid_i, .s1_mode3d_i, .s1_bank_i, .s1_wbase_i, .s1_cmask_i, .s1_tmask_i, .s1_feat_i,
      .s2_valid_i, .s2_first_i, .s2_last_i, .s2_mode3d_i, .s2_bank_i,
      .slot_acc_o  (slot_acc_o[p]),
      .slot_alpha_o(slot_alpha_o[p]),
      .slot_beta_o (slot_beta_o[p])
    );
  end

endmodule
