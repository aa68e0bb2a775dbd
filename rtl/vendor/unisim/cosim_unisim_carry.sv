// The body of the carry-chain stand-ins CARRY4 and CARRY8 (UNISIM, UG953 /
// UG974), written here from the documented behaviour; not vendor code.
// N stages of a ripple chain: stage i's carry-in is CI for i = 0, CI_TOP for
// i = TOP (when TOP > 0: CARRY8's "DUAL_CY4" restarts the chain there), else
// the carry-out of stage i - 1; O[i] = S[i] ^ carry-in (the XOR), CO[i] =
// S[i] ? carry-in : DI[i] (the MUX: S propagates, DI generates).
// Combinational, no delay.
`timescale 1ps/1ps
module cosim_unisim_carry #(
  parameter int N   = 4,
  parameter int TOP = 0  // 0: one chain; else the stage that starts from CI_TOP
) (
  input  logic         CI,
  input  logic         CI_TOP,  // used when TOP > 0
  input  logic [N-1:0] DI,
  input  logic [N-1:0] S,
  output logic [N-1:0] CO,
  output logic [N-1:0] O
);

  // One process with a variable: a chain of continuous assignments through
  // one vector would look circular to Verilator (UNOPTFLAT).
  always_comb begin
    logic c;
    c = CI;
    for (int i = 0; i < N; i++) begin
      if (TOP > 0 && i == TOP) c = CI_TOP;
      O[i]  = S[i] ^ c;
      c     = S[i] ? c : DI[i];
      CO[i] = c;
    end
  end

  if (TOP == 0) begin : g_one_chain
    logic unused_ci_top;
    assign unused_ci_top = CI_TOP;
  end

endmodule
