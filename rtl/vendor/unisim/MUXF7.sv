// UNISIM MUXF7 stand-in (UG974 behaviour, not vendor code): a 2-to-1
// multiplexer of two LUT6 outputs (a 7-input function): O = S ? I1 : I0. The body is cosim_unisim_muxf.
`timescale 1ps/1ps
module MUXF7 (output logic O, input logic I0, I1, S);
  cosim_unisim_muxf u_mux (.I0, .I1, .S, .O);
endmodule
