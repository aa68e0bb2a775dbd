// UNISIM DSP58 stand-in (Versal DSP engine; AM004 / UG1353 behaviour, not
// vendor code): every attribute and port of the instantiation template, and
// the subset RTL uses for arithmetic, cycle for cycle, on the body DSP48E2
// uses (cosim_unisim_dsp_slice) at Versal widths:
// - A (34 bits) or ACIN, B (24) or BCIN through 0 to 2 registers, C (58),
//   D (27); A:B is 58 bits.
// - The 27-bit pre-adder, INMODE, PREADDINSEL (B sign-extended from 24
//   bits), AMULTSEL, BMULTSEL (AD[23:0]) as DSP48E2.
// - DSP_MODE "INT24": the 27 x 24 signed multiplier; "INT8": the dot product
//   of the three 9-bit lanes of A[26:0] and the three 8-bit lanes of B, all
//   signed (the multiplier's operands directly: AMULTSEL "A", BMULTSEL "B").
//   NEGATE[0] negates the product (-M); it is registered with INMODE
//   (INMODEREG, CEINMODE, RSTINMODE: this stand-in's choice). M is
//   sign-extended to 58 bits (MREG).
// - OPMODE W/X/Y/Z as DSP48E2, 58 bits wide; the Z shifts (101, 110) by 23
//   (the multiplier's 23 unsigned B bits, as 17 for the 18-bit B of
//   DSP48E2). ALUMODE, CARRYINSEL (110: A[26] XNOR B[23] of the multiplier's
//   operands, whatever NEGATE), P = PCOUT, CARRYOUT[3] (the carry out of bit
//   57), CARRYCASCOUT, MULTSIGNOUT as DSP48E2.
// - RESET_MODE "SYNC": every reset is synchronous; ASYNC_RST, which the
//   vendor documents for "ASYNC", has no effect.
// Not covered, stopping elaboration with one line: DSP_MODE other than
// "INT24" / "INT8" (the floating-point and complex modes are the DSPFP32 and
// DSPCPLX primitives' own), RESET_MODE "ASYNC", USE_SIMD other than
// "ONE58", USE_WIDEXOR "TRUE", USE_PATTERN_DETECT "PATDET", AUTORESET_PATDET
// other than "NO_RESET". PATTERNDETECT, PATTERNBDETECT, OVERFLOW, UNDERFLOW,
// XOROUT and CARRYOUT[2:0] are 0; NEGATE[2:1] (used by the other modes),
// MASK, PATTERN, SEL_MASK, SEL_PATTERN, AUTORESET_PRIORITY and XORSIMD have
// no effect.
`timescale 1ps/1ps
module DSP58 #(
  parameter string       AMULTSEL           = "A",
  parameter string       A_INPUT            = "DIRECT",
  parameter string       BMULTSEL           = "B",
  parameter string       B_INPUT            = "DIRECT",
  parameter string       DSP_MODE           = "INT24",
  parameter string       PREADDINSEL        = "A",
  parameter logic [57:0] RND                = 58'h000000000000000,
  parameter string       USE_MULT           = "MULTIPLY",
  parameter string       USE_SIMD           = "ONE58",
  parameter string       USE_WIDEXOR        = "FALSE",
  parameter string       AUTORESET_PATDET   = "NO_RESET",
  parameter string       USE_PATTERN_DETECT = "NO_PATDET",
  parameter string       RESET_MODE         = "SYNC",
  /* verilator lint_off UNUSEDPARAM */  // pattern detect and wide XOR: not modelled
  parameter string       XORSIMD            = "XOR24_34_58_116",
  parameter string       AUTORESET_PRIORITY = "RESET",
  parameter logic [57:0] MASK               = 58'h0FFFFFFFFFFFFFF,
  parameter logic [57:0] PATTERN            = 58'h000000000000000,
  parameter string       SEL_MASK           = "MASK",
  parameter string       SEL_PATTERN        = "PATTERN",
  /* verilator lint_on UNUSEDPARAM */
  parameter logic [3:0]  IS_ALUMODE_INVERTED       = 4'b0000,
  parameter              IS_ASYNC_RST_INVERTED     = 0,  // untyped: 1'b1 or 1
  parameter              IS_CARRYIN_INVERTED       = 0,
  parameter              IS_CLK_INVERTED           = 0,
  parameter logic [4:0]  IS_INMODE_INVERTED        = 5'b00000,
  parameter logic [2:0]  IS_NEGATE_INVERTED        = 3'b000,
  parameter logic [8:0]  IS_OPMODE_INVERTED        = 9'b000000000,
  parameter              IS_RSTALLCARRYIN_INVERTED = 0,
  parameter              IS_RSTALUMODE_INVERTED    = 0,
  parameter              IS_RSTA_INVERTED          = 0,
  parameter              IS_RSTB_INVERTED          = 0,
  parameter              IS_RSTCTRL_INVERTED       = 0,
  parameter              IS_RSTC_INVERTED          = 0,
  parameter              IS_RSTD_INVERTED          = 0,
  parameter              IS_RSTINMODE_INVERTED     = 0,
  parameter              IS_RSTM_INVERTED          = 0,
  parameter              IS_RSTP_INVERTED          = 0,
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
  output logic [33:0] ACOUT,
  output logic [23:0] BCOUT,
  output logic        CARRYCASCOUT,
  output logic        MULTSIGNOUT,
  output logic [57:0] PCOUT,
  output logic        OVERFLOW,
  output logic        PATTERNBDETECT,
  output logic        PATTERNDETECT,
  output logic        UNDERFLOW,
  output logic [3:0]  CARRYOUT,
  output logic [57:0] P,
  output logic [7:0]  XOROUT,
  input  logic [33:0] ACIN,
  input  logic [23:0] BCIN,
  input  logic        CARRYCASCIN,
  input  logic        MULTSIGNIN,
  input  logic [57:0] PCIN,
  input  logic [3:0]  ALUMODE,
  input  logic        ASYNC_RST,
  input  logic [2:0]  CARRYINSEL,
  input  logic        CLK,
  input  logic [4:0]  INMODE,
  input  logic [2:0]  NEGATE,
  input  logic [8:0]  OPMODE,
  input  logic [33:0] A,
  input  logic [23:0] B,
  input  logic [57:0] C,
  input  logic        CARRYIN,
  input  logic [26:0] D,
  input  logic        CEA1, CEA2, CEAD, CEALUMODE, CEB1, CEB2, CEC, CECARRYIN, CECTRL, CED,
  input  logic        CEINMODE, CEM, CEP,
  input  logic        RSTA, RSTALLCARRYIN, RSTALUMODE, RSTB, RSTC, RSTCTRL, RSTD, RSTINMODE,
  input  logic        RSTM, RSTP
);

  logic [2:0] unused_async;  // SYNC reset mode; NEGATE[2:1] belong to other modes
  assign unused_async = {ASYNC_RST, NEGATE[2:1]};

  // The slice at Versal widths.
  logic carryout3;
  cosim_unisim_dsp_slice #(
    .PRIM("DSP58"), .AW(34), .BW(24), .MW(27), .PW(58), .SHIFT(23), .A_INPUT(A_INPUT), .B_INPUT(B_INPUT),
    .AMULTSEL(AMULTSEL), .BMULTSEL(BMULTSEL), .PREADDINSEL(PREADDINSEL), .RND(RND), .USE_MULT(USE_MULT),
    .USE_SIMD(USE_SIMD), .USE_WIDEXOR(USE_WIDEXOR), .AUTORESET_PATDET(AUTORESET_PATDET),
    .USE_PATTERN_DETECT(USE_PATTERN_DETECT), .DSP_MODE(DSP_MODE), .RESET_MODE(RESET_MODE),
    .IS_ALUMODE_INVERTED(IS_ALUMODE_INVERTED), .IS_ASYNC_RST_INVERTED(IS_ASYNC_RST_INVERTED),
    .IS_CARRYIN_INVERTED(IS_CARRYIN_INVERTED), .IS_CLK_INVERTED(IS_CLK_INVERTED),
    .IS_INMODE_INVERTED(IS_INMODE_INVERTED), .IS_NEGATE_INVERTED(IS_NEGATE_INVERTED[0]),
    .IS_OPMODE_INVERTED(IS_OPMODE_INVERTED),
    .IS_RSTALLCARRYIN_INVERTED(IS_RSTALLCARRYIN_INVERTED), .IS_RSTALUMODE_INVERTED(IS_RSTALUMODE_INVERTED),
    .IS_RSTA_INVERTED(IS_RSTA_INVERTED), .IS_RSTB_INVERTED(IS_RSTB_INVERTED),
    .IS_RSTCTRL_INVERTED(IS_RSTCTRL_INVERTED), .IS_RSTC_INVERTED(IS_RSTC_INVERTED),
    .IS_RSTD_INVERTED(IS_RSTD_INVERTED), .IS_RSTINMODE_INVERTED(IS_RSTINMODE_INVERTED),
    .IS_RSTM_INVERTED(IS_RSTM_INVERTED), .IS_RSTP_INVERTED(IS_RSTP_INVERTED),
    .ACASCREG(int'(ACASCREG)), .ADREG(int'(ADREG)), .ALUMODEREG(int'(ALUMODEREG)), .AREG(int'(AREG)), .BCASCREG(int'(BCASCREG)),
    .BREG(int'(BREG)), .CARRYINREG(int'(CARRYINREG)), .CARRYINSELREG(int'(CARRYINSELREG)), .CREG(int'(CREG)), .DREG(int'(DREG)),
    .INMODEREG(int'(INMODEREG)), .MREG(int'(MREG)), .OPMODEREG(int'(OPMODEREG)), .PREG(int'(PREG)))
    u_slice (.CARRYOUT3(carryout3), .NEGATE(NEGATE[0]), .*);
  assign CARRYOUT = {carryout3, 3'b000};

  assign PATTERNDETECT  = 1'b0;
  assign PATTERNBDETECT = 1'b0;
  assign OVERFLOW       = 1'b0;
  assign UNDERFLOW      = 1'b0;
  assign XOROUT         = '0;

endmodule
