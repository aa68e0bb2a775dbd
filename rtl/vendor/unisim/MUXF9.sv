// UNISIM MUXF9 stand-in (UG974 behaviour, not vendor code): a 2-to-1
// multiplexer of two MUXF8 outputs (UltraScale: a 9-input function): O = S ? I1 : I0. The body is cosim_unisim_muxf.
`timescale 1ps/1ps
module MUXF9 (output logic O, input logic I0, I1, S);
  cosim_unisim_muxf u_mux (.I0, .I1, .S, .O);
endmodule
