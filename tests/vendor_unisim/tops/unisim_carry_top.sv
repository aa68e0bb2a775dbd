// Test top for the carry-chain stand-ins (tests/vendor_unisim), each on
// inputs of its own: CARRY8 with the default CARRY_TYPE (index 0) and with
// "DUAL_CY4" (index 1) on slices of the c8_* buses, a CARRY4, and two CARRY4
// cascaded the way a column of 7-series slices is (the second's CI is the
// first's CO[3], its CYINIT 0) read as one 8-bit chain (ch_*).
`timescale 1ps/1ps
module unisim_carry_top (
  input  logic [1:0]  c8_ci, c8_ci_top,
  input  logic [15:0] c8_di, c8_s,
  output logic [15:0] c8_co, c8_o,
  input  logic        c4_ci, c4_cyinit,
  input  logic [3:0]  c4_di, c4_s,
  output logic [3:0]  c4_co, c4_o,
  input  logic        ch_cyinit,
  input  logic [7:0]  ch_di, ch_s,
  output logic [7:0]  ch_co, ch_o
);

  CARRY8 u_single (.CO(c8_co[7:0]), .O(c8_o[7:0]), .CI(c8_ci[0]), .CI_TOP(c8_ci_top[0]),
                   .DI(c8_di[7:0]), .S(c8_s[7:0]));
  CARRY8 #(.CARRY_TYPE("DUAL_CY4")) u_dual (.CO(c8_co[15:8]), .O(c8_o[15:8]), .CI(c8_ci[1]),
                                            .CI_TOP(c8_ci_top[1]), .DI(c8_di[15:8]), .S(c8_s[15:8]));

  CARRY4 u_c4 (.CO(c4_co), .O(c4_o), .CI(c4_ci), .CYINIT(c4_cyinit), .DI(c4_di), .S(c4_s));

  CARRY4 u_lo (.CO(ch_co[3:0]), .O(ch_o[3:0]), .CI(1'b0), .CYINIT(ch_cyinit), .DI(ch_di[3:0]), .S(ch_s[3:0]));
  CARRY4 u_hi (.CO(ch_co[7:4]), .O(ch_o[7:4]), .CI(ch_co[3]), .CYINIT(1'b0), .DI(ch_di[7:4]), .S(ch_s[7:4]));

endmodule
