// UNISIM DSP48E1 stand-in (7-series DSP slice; UG479 / UG953 behaviour, not
// vendor code): every attribute and port of the instantiation template, and
// the subset RTL uses for arithmetic, cycle for cycle, on the body DSP48E2
// uses (cosim_unisim_dsp_slice) at 7-series widths:
// - A (30 bits) or ACIN, B (18) or BCIN through 0 to 2 registers, C (48),
//   D (25), as DSP48E2.
// - The 25-bit pre-adder on A only, by INMODE (INMODEREG): A1 (INMODE[0] 1)
//   or A2, 0 when INMODE[1] is 1; AD = (INMODE[2] ? D : 0) plus it, or minus
//   it with INMODE[3] (25 bits, wrapping; ADREG, CEAD, RSTD). USE_DPORT
//   "TRUE": the multiplier takes AD; "FALSE": it takes the A operand
//   (A[24:0], or 0 with INMODE[1]) and INMODE[3:2] have no effect (the
//   documented table lists them as 00 there; this stand-in ignores them).
//   INMODE[4] picks B1 or B2.
// - The 25 x 18 signed multiplier, M sign-extended to 48 bits (MREG).
// - OPMODE is 7 bits: X[1:0], Y[3:2], Z[6:4] as DSP48E2 (no W multiplexer),
//   shifts by 17; ALUMODE, CARRYINSEL (110: A[24] XNOR B[17] of the
//   multiplier's operands), P, CARRYOUT[3], CARRYCASCOUT, MULTSIGNOUT as
//   DSP48E2.
// There is no IS_RST*_INVERTED on this slice; IS_CLK_INVERTED,
// IS_CARRYIN_INVERTED, IS_ALUMODE_INVERTED, IS_INMODE_INVERTED and
// IS_OPMODE_INVERTED invert those pins first.
// Not covered, stopping elaboration with one line: USE_SIMD other than
// "ONE48", USE_PATTERN_DETECT "PATDET", AUTORESET_PATDET other than
// "NO_RESET". PATTERNDETECT, PATTERNBDETECT, OVERFLOW and UNDERFLOW are 0;
// CARRYOUT[2:0] are 0; MASK, PATTERN, SEL_MASK, SEL_PATTERN have no effect.
`timescale 1ps/1ps
module DSP48E1 #(
  parameter string       A_INPUT            = "DIRECT",
  parameter string       B_INPUT            = "DIRECT",
  parameter string       USE_DPORT          = "FALSE",
  parameter string       USE_MULT           = "MULTIPLY",
  parameter string       USE_SIMD           = "ONE48",
  parameter string       AUTORESET_PATDET   = "NO_RESET",
  parameter string       USE_PATTERN_DETECT = "NO_PATDET",
  /* verilator lint_off UNUSEDPARAM */  // pattern detect: not modelled
  parameter logic [47:0] MASK               = 48'h3FFFFFFFFFFF,
  parameter logic [47:0] PATTERN            = 48'h000000000000,
  parameter string       SEL_MASK           = "MASK",
  parameter string       SEL_PATTERN        = "PATTERN",
  /* verilator lint_on UNUSEDPARAM */
  parameter logic [3:0]  IS_ALUMODE_INVERTED = 4'b0000,
  parameter              IS_CARRYIN_INVERTED = 0,  // untyped: 1'b1 or 1
  parameter              IS_CLK_INVERTED     = 0,
  parameter logic [4:0]  IS_INMODE_INVERTED  = 5'b00000,
  parameter logic [6:0]  IS_OPMODE_INVERTED  = 7'b0000000,
  parameter              ACASCREG      = 1,  // untyped: 1'b1 or 1
  parameter              ADREG         = 1,
  parameter              ALUMODEREG    = 1,
  parameter              AREG          = 1,
  parameter              BCASCREG      = 1,
  parameter              BREG          = 1,
  parameter              CARRYINREG    = 1,
  parameter              CARRYINSELREG = 1,
  parameter              CREG          = 1,
  parameter              DREG          = 1,
  parameter              INMODEREG     = 1,
  parameter              MREG          = 1,
  parameter              OPMODEREG     = 1,
  parameter              PREG          = 1
) (
  output logic [29:0] ACOUT,
  output logic [17:0] BCOUT,
  output logic        CARRYCASCOUT,
  output logic        MULTSIGNOUT,
  output logic [47:0] PCOUT,
  output logic        OVERFLOW,
  output logic        PATTERNBDETECT,
  output logic        PATTERNDETECT,
  output logic        UNDERFLOW,
  output logic [3:0]  CARRYOUT,
  output logic [47:0] P,
  input  logic [29:0] ACIN,
  input  logic [17:0] BCIN,
  input  logic        CARRYCASCIN,
  input  logic        MULTSIGNIN,
  input  logic [47:0] PCIN,
  input  logic [3:0]  ALUMODE,
  input  logic [2:0]  CARRYINSEL,
  input  logic        CLK,
  input  logic [4:0]  INMODE,
  input  logic [6:0]  OPMODE,
  input  logic [29:0] A,
  input  logic [17:0] B,
  input  logic [47:0] C,
  input  logic        CARRYIN,
  input  logic [24:0] D,
  input  logic        CEA1, CEA2, CEAD, CEALUMODE, CEB1, CEB2, CEC, CECARRYIN, CECTRL, CED,
  input  logic        CEINMODE, CEM, CEP,
  input  logic        RSTA, RSTALLCARRYIN, RSTALUMODE, RSTB, RSTC, RSTCTRL, RSTD, RSTINMODE,
  input  logic        RSTM, RSTP
);

  // The slice at 7-series widths; USE_DPORT is the choice of the multiplier's
  // A input, W is 0.
  logic carryout3;
  cosim_unisim_dsp_slice #(
    .PRIM("DSP48E1"), .AW(30), .BW(18), .MW(25), .PW(48), .SHIFT(17), .A_INPUT(A_INPUT), .B_INPUT(B_INPUT),
    .AMULTSEL(USE_DPORT == "TRUE" ? "AD" : "A"), .USE_DPORT(USE_DPORT), .USE_MULT(USE_MULT),
    .USE_SIMD(USE_SIMD), .AUTORESET_PATDET(AUTORESET_PATDET), .USE_PATTERN_DETECT(USE_PATTERN_DETECT),
    .IS_ALUMODE_INVERTED(IS_ALUMODE_INVERTED), .IS_CARRYIN_INVERTED(IS_CARRYIN_INVERTED),
    .IS_CLK_INVERTED(IS_CLK_INVERTED), .IS_INMODE_INVERTED(IS_INMODE_INVERTED),
    .IS_OPMODE_INVERTED({2'b00, IS_OPMODE_INVERTED}),
    .ACASCREG(int'(ACASCREG)), .ADREG(int'(ADREG)), .ALUMODEREG(int'(ALUMODEREG)), .AREG(int'(AREG)), .BCASCREG(int'(BCASCREG)),
    .BREG(int'(BREG)), .CARRYINREG(int'(CARRYINREG)), .CARRYINSELREG(int'(CARRYINSELREG)), .CREG(int'(CREG)), .DREG(int'(DREG)),
    .INMODEREG(int'(INMODEREG)), .MREG(int'(MREG)), .OPMODEREG(int'(OPMODEREG)), .PREG(int'(PREG)))
    u_slice (.CARRYOUT3(carryout3), .NEGATE(1'b0), .OPMODE({2'b00, OPMODE}), .*);
  assign CARRYOUT = {carryout3, 3'b000};

  assign PATTERNDETECT  = 1'b0;
  assign PATTERNBDETECT = 1'b0;
  assign OVERFLOW       = 1'b0;
  assign UNDERFLOW      = 1'b0;

endmodule
