// PE array: NPe PEs, one output channel each. Feature vectors and pipeline
// control are broadcast to all PEs; the code stream's per-PE offset (p*ckk)
// is daisy-chained PE to PE; parameter beats go to the addressed PE.
`include "tf2_pe_ports.svh"

module tf2_pe_array
  import tf2_pkg::*;
#(
  parameter int unsigned NPe = DefNPe,
  `TF2_PE_GEOMETRY_PARAMS,
  localparam int unsigned PeW    = (NPe > 1) ? $clog2(NPe) : 1
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,

  input  logic [15:0]                       ckk_i,
  input  logic [7:0]                        kk_i,
  input  logic signed [7:0]                 min_exp_i,

  input  logic [PeW-1:0]                    pw_pe_i,   // the PE a pw_* beat is for
  `TF2_FILTER_WRITE_PORTS,

  `TF2_PE_STAGE_PORTS,

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
      .ckk_i, .kk_i, .min_exp_i,
      .base_i     (base[p]),
      .base_o     (base[p+1]),
      .pw_valid_i (pw_valid_i && (pw_pe_i == PeW'(p))),
      `TF2_FILTER_WRITE_CONNECT,
      `TF2_PE_STAGE_CONNECT,
      .slot_acc_o  (slot_acc_o[p]),
      .slot_alpha_o(slot_alpha_o[p]),
      .slot_beta_o (slot_beta_o[p])
    );
  end

endmodule
