// Port lists shared by the PE array, each PE and its filter cache: the
// geometry parameters, the filter-write stream from the filter loader and
// the two pipeline stages from the scheduler. Macros, like
// rtl/common/cosim_ports.svh, so the signals keep the names the waveform
// view and the mutants use.
`ifndef TF2_PE_PORTS_SVH_
`define TF2_PE_PORTS_SVH_

// The array geometry (tf2_pkg defaults) and the lane and column counts it
// implies: a lane per (column, tap) in 3D mode or per column in 2D mode.
`define TF2_PE_GEOMETRY_PARAMS \
  parameter int unsigned OCol3D      = DefOCol3D, \
  parameter int unsigned KTap        = DefKTap, \
  parameter int unsigned OCol2D      = DefOCol2D, \
  parameter int unsigned FilterDepth = DefFilterDepth, \
  localparam int unsigned NLanes = (OCol3D * KTap > OCol2D) ? OCol3D * KTap : OCol2D, \
  localparam int unsigned NCol   = (OCol3D > OCol2D) ? OCol3D : OCol2D

// Filter writes: a {bias, alpha, beta, Q_out} beat (pw_*) or 32 codes at a
// group-relative position (cw_*), each into a bank (0..3, tf2_filter_cache).
`define TF2_FILTER_WRITE_PORTS \
  input  logic                    pw_valid_i, \
  input  logic [1:0]              pw_bank_i, \
  input  logic [31:0]             pw_bias_i, \
  input  logic [31:0]             pw_alpha_i, \
  input  logic [31:0]             pw_beta_i, \
  input  logic signed [7:0]       pw_qout_i, \
  input  logic                    cw_valid_i, \
  input  logic [1:0]              cw_bank_i, \
  input  logic signed [31:0]      cw_pos_i, \
  input  logic [AxiDataWidth-1:0] cw_codes_i

// The same passed on by name, all but pw_valid_i (the array addresses it).
`define TF2_FILTER_WRITE_CONNECT \
  .pw_bank_i, .pw_bias_i, .pw_alpha_i, .pw_beta_i, .pw_qout_i, .cw_valid_i, .cw_bank_i, .cw_pos_i, .cw_codes_i

// The pipeline: stage 1 reads codes and computes the lane sums of the
// feature vectors (s1_qin_i: the Q of each of the vector's 16 input
// channels), stage 2 adds them into the output slots; adv_i moves both.
`define TF2_PE_STAGE_PORTS \
  input  logic                          adv_i, \
  input  logic                          s1_valid_i, \
  input  logic                          s1_mode3d_i, \
  input  logic [1:0]                    s1_bank_i, \
  input  logic [31:0]                   s1_wbase_i, \
  input  logic [CVec-1:0]               s1_cmask_i, \
  input  logic [KTap-1:0]               s1_tmask_i, \
  input  logic [NLanes-1:0][CVec*8-1:0] s1_feat_i, \
  input  logic [CVec-1:0][7:0]          s1_qin_i, \
  input  logic                          s2_valid_i, \
  input  logic                          s2_first_i, \
  input  logic                          s2_last_i, \
  input  logic                          s2_mode3d_i, \
  input  logic [1:0]                    s2_bank_i

`define TF2_PE_STAGE_CONNECT \
  .adv_i, \
  .s1_valid_i, .s1_mode3d_i, .s1_bank_i, .s1_wbase_i, .s1_cmask_i, .s1_tmask_i, .s1_feat_i, .s1_qin_i, \
  .s2_valid_i, .s2_first_i, .s2_last_i, .s2_mode3d_i, .s2_bank_i

`endif  // TF2_PE_PORTS_SVH_
