// Test top for the wide-function multiplexer stand-ins (tests/vendor_unisim):
// a MUXF7, a MUXF8 and a MUXF9 on inputs of their own (index 0, 1, 2 of
// i0, i1, s, o), and the tree the hardware builds them into: four MUXF7,
// two MUXF8 and a MUXF9 selecting one of the eight bits d by sel (sel[0] at
// the MUXF7s, sel[2] at the MUXF9).
`timescale 1ps/1ps
module unisim_muxf_top (
  input  logic [2:0] i0, i1, s,
  output logic [2:0] o,
  input  logic [7:0] d,
  input  logic [2:0] sel,
  output logic       tree_o
);

  MUXF7 u_f7 (.O(o[0]), .I0(i0[0]), .I1(i1[0]), .S(s[0]));
  MUXF8 u_f8 (.O(o[1]), .I0(i0[1]), .I1(i1[1]), .S(s[1]));
  MUXF9 u_f9 (.O(o[2]), .I0(i0[2]), .I1(i1[2]), .S(s[2]));

  logic [3:0] f7;
  logic [1:0] f8;
  for (genvar k = 0; k < 4; k++) begin : g_f7
    MUXF7 u_mux (.O(f7[k]), .I0(d[2*k]), .I1(d[2*k+1]), .S(sel[0]));
  end
  for (genvar k = 0; k < 2; k++) begin : g_f8
    MUXF8 u_mux (.O(f8[k]), .I0(f7[2*k]), .I1(f7[2*k+1]), .S(sel[1]));
  end
  MUXF9 u_f9_tree (.O(tree_o), .I0(f8[0]), .I1(f8[1]), .S(sel[2]));

endmodule
