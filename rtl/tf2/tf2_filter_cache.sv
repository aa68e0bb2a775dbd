// Filter cache of one PE: banks (one loads while others compute), each
// holding the c_in*k*k 4-bit codes of the PE's output channel (index
// (c*k + ky)*k + kx) and its {bias, alpha, beta}. Two memories of Depth
// codes; bank b lives in memory b[0] from code b[1]*ckk, so banks 2 and 3
// exist only for layers with 2*ckk <= Depth (the controller uses them then). A code beat carries 32
// nibbles at group-relative position pos; this PE keeps positions
// [base, base + ckk). The read side returns CVec x KTap codes for the
// address wbase + i*kk + t, masked to the zero code 0111.
`include "tf2_pe_ports.svh"

module tf2_filter_cache
  import tf2_pkg::*;
#(
  parameter int unsigned Depth = DefFilterDepth,
  parameter int unsigned KTap  = DefKTap,
  localparam int unsigned AW = $clog2(Depth)
) (
  input  logic                         clk_i,

  input  logic [31:0]                  base_i,   // this PE's first code in the group
  input  logic [15:0]                  ckk_i,
  input  logic [7:0]                   kk_i,

  `TF2_FILTER_WRITE_PORTS,  // pw_valid_i: addressed to this PE

  input  logic [1:0]                   rd_bank_i,
  input  logic [31:0]                  rd_wbase_i,
  input  logic [CVec-1:0]              rd_cmask_i,
  input  logic [KTap-1:0]              rd_tmask_i,
  output logic [KTap-1:0][CVec-1:0][3:0] rd_codes_o,
  output logic signed [7:0]            rd_qout_o,   // the channel's output Q (read bank)

  input  logic [1:0]                   prm_bank_i,
  output logic [31:0]                  bias_o,
  output logic [31:0]                  alpha_o,
  output logic [31:0]                  beta_o
);

  localparam int unsigned Nibbles = AxiDataWidth / 4;

  logic [3:0]  code_q [2][Depth];
  logic [31:0] bias_q [4];
  logic [31:0] alpha_q [4];
  logic [31:0] beta_q [4];
  logic signed [7:0] qout_q [4];

  // First code of a bank in its memory.
  logic [31:0] wr_off, rd_off;
  assign wr_off = cw_bank_i[1] ? 32'(ckk_i) : '0;
  assign rd_off = rd_bank_i[1] ? 32'(ckk_i) : '0;

  always_ff @(posedge clk_i) begin
    if (pw_valid_i) begin
      bias_q[pw_bank_i]  <= pw_bias_i;
      alpha_q[pw_bank_i] <= pw_alpha_i;
      beta_q[pw_bank_i]  <= pw_beta_i;
      qout_q[pw_bank_i]  <= pw_qout_i;
    end
    if (cw_valid_i) begin
      for (int unsigned j = 0; j < Nibbles; j++) begin
        logic signed [31:0] local_idx;
        local_idx = cw_pos_i + $signed(32'(j)) - $signed(base_i);
        if (local_idx >= 0 && local_idx < $signed({16'd0, ckk_i})) begin
          code_q[cw_bank_i[0]][AW'(32'(local_idx) + wr_off)] <= cw_codes_i[4*j +: 4];
        end
      end
    end
  end

  always_comb begin
    for (int unsigned t = 0; t < KTap; t++) begin
      for (int unsigned i = 0; i < CVec; i++) begin
        if (rd_cmask_i[i] && rd_tmask_i[t]) begin
          rd_codes_o[t][i] = code_q[rd_bank_i[0]][AW'(rd_off + rd_wbase_i + 32'(i) * 32'(kk_i) + 32'(t))];
        end else begin
          rd_codes_o[t][i] = 4'd7;
        end
      end
    end
  end

  assign rd_qout_o = qout_q[rd_bank_i];
  assign bias_o  = bias_q[prm_bank_i];
  assign alpha_o = alpha_q[prm_bank_i];
  assign beta_o  = beta_q[prm_bank_i];

endmodule
