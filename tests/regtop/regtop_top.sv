// The generated register block of regtop.yaml with its hardware side on
// plain pins, so that a test drives and watches every field.
`include "cosim_ports.svh"

module regtop_top import regtop_reg_pkg::*; (
  input  logic        clk_i,
  input  logic        rst_ni,
  `COSIM_REG_SLAVE_PORTS(8),
  input  logic [31:0] val_i,
  input  logic        c_set_i, r_set_i, k_set_i, k_clr_i, p_clr_i, unlock_i,
  output logic [31:0] rw_o,
  output logic        c_o, r_o, t_o, s_o,
  output logic [3:0]  o_o,
  output logic        o_qe_o, k_o, p_o,
  output logic [7:0]  locked_o
);
  `COSIM_REG_TOP(regtop, .unlock_i);
  assign hw2reg = '{
    val:         val_i,
    flags_c_set: c_set_i,
    flags_r_set: r_set_i,
    flags_k_set: k_set_i,
    flags_k_clr: k_clr_i,
    flags_p_clr: p_clr_i,
    default:     '0
  };
  assign rw_o     = reg2hw.rw;
  assign c_o      = reg2hw.flags_c;
  assign r_o      = reg2hw.flags_r;
  assign t_o      = reg2hw.flags_t;
  assign s_o      = reg2hw.flags_s;
  assign o_o      = reg2hw.flags_o;
  assign o_qe_o   = reg2hw.flags_o_qe;
  assign k_o      = reg2hw.flags_k;
  assign p_o      = reg2hw.flags_p;
  assign locked_o = reg2hw.locked;
endmodule
