// UNISIM CARRY8 stand-in (UltraScale, UG974 behaviour, not vendor code):
// eight stages of fast carry logic, O[i] = S[i] ^ carry-in, CO[i] = S[i] ?
// carry-in : DI[i]. CARRY_TYPE "SINGLE_CY8" (default): one 8-bit chain from
// CI, CI_TOP unused (documented: tie it to 0). "DUAL_CY4": two 4-bit chains,
// stages 0-3 from CI and stages 4-7 from CI_TOP. Any other CARRY_TYPE stops
// elaboration with one line. The body is cosim_unisim_carry.
`timescale 1ps/1ps
module CARRY8 #(
  parameter string CARRY_TYPE = "SINGLE_CY8"
) (
  output logic [7:0] CO,
  output logic [7:0] O,
  input  logic       CI,
  input  logic       CI_TOP,
  input  logic [7:0] DI,
  input  logic [7:0] S
);

  if (CARRY_TYPE != "SINGLE_CY8" && CARRY_TYPE != "DUAL_CY4") begin : g_err_carry_type
    $fatal(1, "CARRY8 stand-in: CARRY_TYPE \"%s\" is not supported (SINGLE_CY8 or DUAL_CY4)", CARRY_TYPE);
    initial $fatal(1, "CARRY8 stand-in: CARRY_TYPE \"%s\" is not supported (SINGLE_CY8 or DUAL_CY4)", CARRY_TYPE);
  end

  // "SINGLE_CY8": CI_TOP does not reach the chain (documented: tie it to 0).
  cosim_unisim_carry #(.N(8), .TOP(CARRY_TYPE == "DUAL_CY4" ? 4 : 0)) u_chain (.CI, .CI_TOP, .DI, .S, .CO, .O);

endmodule
