// UNISIM CARRY4 stand-in (7 series, UG953 behaviour, not vendor code): four
// stages of fast carry logic, O[i] = S[i] ^ carry-in, CO[i] = S[i] ? carry-in
// : DI[i]. The first carry-in is CI (the cascade from the CARRY4 below) or
// CYINIT (the chain's start value); one of the two is tied to 0 by
// convention, and this stand-in takes CI | CYINIT (its choice when both are
// driven). The body is cosim_unisim_carry.
`timescale 1ps/1ps
module CARRY4 (
  output logic [3:0] CO,
  output logic [3:0] O,
  input  logic       CI,
  input  logic       CYINIT,
  input  logic [3:0] DI,
  input  logic [3:0] S
);

  cosim_unisim_carry #(.N(4)) u_chain (.CI(CI | CYINIT), .CI_TOP(1'b0), .DI, .S, .CO, .O);

endmodule
