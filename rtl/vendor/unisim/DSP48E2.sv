// UNISIM DSP48E2 stand-in (UltraScale DSP slice; UG579 / UG974 behaviour, not
// vendor code): every attribute and port of the instantiation template, and
// the subset RTL uses for arithmetic, cycle for cycle:
// - A (30 bits) or ACIN by A_INPUT, B (18) or BCIN by B_INPUT, through 0 to 2
//   registers (AREG/BREG, CEA1/CEA2, CEB1/CEB2, RSTA/RSTB; the cascade
//   outputs after ACASCREG/BCASCREG of them, see cosim_unisim_dsp_ab).
// - The 27-bit pre-adder, by INMODE (registered by INMODEREG): the port
//   named by PREADDINSEL (A[26:0], or B sign-extended) is A1/B1 when
//   INMODE[0]/INMODE[4] is 1, else A2/B2, and 0 when INMODE[1] is 1;
//   AD = (INMODE[2] ? D : 0) + that, or minus it when INMODE[3] is 1
//   (27 bits, wrapping), registered by ADREG (CEAD, RSTD). D by DREG.
// - The 27 x 18 signed multiplier: AMULTSEL "A" takes the A operand above,
//   "AD" the pre-adder; BMULTSEL "B" the B operand, "AD" AD[17:0]. The
//   product, sign-extended to 48 bits, is M (MREG, CEM, RSTM); USE_MULT
//   "NONE" makes it 0, "DYNAMIC" is "MULTIPLY".
// - The multiplexers by OPMODE (OPMODEREG; CECTRL, RSTCTRL):
//   X[1:0]: 0, M, P, A:B (A2, B2);  Y[3:2]: 0, M, all ones, C;
//   Z[6:4]: 0, PCIN, P, C, P, PCIN>>>17, P>>>17, 0 (111 is reserved);
//   W[8:7]: 0, P, RND, C. M is one 48-bit partial product on X and 0 on Y
//   (this stand-in's split of the documented pair, which must be selected
//   together); with Z 100 (MACC extension) Y 10 is 48 copies of MULTSIGNIN.
//   P as an operand is the P register: with PREG 0 (documented as not
//   allowed for P feedback) it reads 0.
// - The ALU by ALUMODE (ALUMODEREG) on W, X, Y, Z and the carry-in chosen by
//   CARRYINSEL (CARRYINSELREG): 000 CARRYIN (CARRYINREG, CECARRYIN,
//   RSTALLCARRYIN), 001 not PCIN[47], 010 CARRYCASCIN, 011 PCIN[47], 100 the
//   registered CARRYCASCOUT, 101 not P[47], 110 the product's rounding carry
//   (the multiplier operands' sign bits XNORed, through MREG with CEM and
//   RSTALLCARRYIN), 111 P[47]. See cosim_unisim_dsp_alu for the modes and
//   the carries.
// - P = PCOUT (PREG, CEP, RSTP), with CARRYOUT[3], CARRYCASCOUT and
//   MULTSIGNOUT (the sign of M) in the same stage; CARRYOUT[2:0] (not valid
//   with ONE48) are 0.
// The body is cosim_unisim_dsp_slice, shared with DSP48E1 and DSP58.
// Every register starts at 0; its synchronous reset wins over its enable.
// IS_*_INVERTED invert the clock, the resets, CARRYIN, ALUMODE, INMODE and
// OPMODE before anything else.
// Not covered, stopping elaboration with one line: USE_SIMD other than
// "ONE48", USE_WIDEXOR "TRUE", USE_PATTERN_DETECT "PATDET", AUTORESET_PATDET
// other than "NO_RESET". PATTERNDETECT, PATTERNBDETECT, OVERFLOW, UNDERFLOW
// and XOROUT are 0; MASK, PATTERN, SEL_MASK, SEL_PATTERN, AUTORESET_PRIORITY
// and XORSIMD are accepted and have no effect.
`timescale 1ps/1ps
module DSP48E2 #(
  parameter string       A_INPUT            = "DIRECT",
  parameter string       B_INPUT            = "DIRECT",
  parameter string       AMULTSEL           = "A",
  parameter string       BMULTSEL           = "B",
  parameter string       PREADDINSEL        = "A",
  parameter logic [47:0] RND                = 48'h000000000000,
  parameter string       USE_MULT           = "MULTIPLY",
  parameter string       USE_SIMD           = "ONE48",
  parameter string       USE_WIDEXOR        = "FALSE",
  parameter string       AUTORESET_PATDET   = "NO_RESET",
  parameter string       USE_PATTERN_DETECT = "NO_PATDET",
  /* verilator lint_off UNUSEDPARAM */  // pattern detect and wide XOR: not modelled
  parameter string       XORSIMD            = "XOR24_48_96",
  parameter string       AUTORESET_PRIORITY = "RESET",
  parameter logic [47:0] MASK               = 48'h3FFFFFFFFFFF,
  parameter logic [47:0] PATTERN            = 48'h000000000000,
  parameter string       SEL_MASK           = "MASK",
  parameter string       SEL_PATTERN        = "PATTERN",
  /* verilator lint_on UNUSEDPARAM */
  parameter logic [3:0]  IS_ALUMODE_INVERTED       = 4'b0000,
  parameter              IS_CARRYIN_INVERTED       = 0,  // untyped: 1'b1 or 1
  parameter              IS_CLK_INVERTED           = 0,
  parameter logic [4:0]  IS_INMODE_INVERTED        = 5'b00000,
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
  output logic [7:0]  XOROUT,
  input  logic [29:0] ACIN,
  input  logic [17:0] BCIN,
  input  logic        CARRYCASCIN,
  input  logic        MULTSIGNIN,
  input  logic [47:0] PCIN,
  input  logic [3:0]  ALUMODE,
  input  logic [2:0]  CARRYINSEL,
  input  logic        CLK,
  input  logic [4:0]  INMODE,
  input  logic [8:0]  OPMODE,
  input  logic [29:0] A,
  input  logic [17:0] B,
  input  logic [47:0] C,
  input  logic        CARRYIN,
  input  logic [26:0] D,
  input  logic        CEA1, CEA2, CEAD, CEALUMODE, CEB1, CEB2, CEC, CECARRYIN, CECTRL, CED,
  input  logic        CEINMODE, CEM, CEP,
  input  logic        RSTA, RSTALLCARRYIN, RSTALUMODE, RSTB, RSTC, RSTCTRL, RSTD, RSTINMODE,
  input  logic        RSTM, RSTP
);

  // The slice (cosim_unisim_dsp_slice), at this primitive's widths.
  logic carryout3;
  cosim_unisim_dsp_slice #(
    .PRIM("DSP48E2"), .AW(30), .BW(18), .MW(27), .PW(48), .SHIFT(17), .A_INPUT(A_INPUT), .B_INPUT(B_INPUT),
    .AMULTSEL(AMULTSEL), .BMULTSEL(BMULTSEL), .PREADDINSEL(PREADDINSEL), .RND(RND), .USE_MULT(USE_MULT),
    .USE_SIMD(USE_SIMD), .USE_WIDEXOR(USE_WIDEXOR), .AUTORESET_PATDET(AUTORESET_PATDET),
    .USE_PATTERN_DETECT(USE_PATTERN_DETECT), .IS_ALUMODE_INVERTED(IS_ALUMODE_INVERTED),
    .IS_CARRYIN_INVERTED(IS_CARRYIN_INVERTED), .IS_CLK_INVERTED(IS_CLK_INVERTED),
    .IS_INMODE_INVERTED(IS_INMODE_INVERTED), .IS_OPMODE_INVERTED(IS_OPMODE_INVERTED),
    .IS_RSTALLCARRYIN_INVERTED(IS_RSTALLCARRYIN_INVERTED), .IS_RSTALUMODE_INVERTED(IS_RSTALUMODE_INVERTED),
    .IS_RSTA_INVERTED(IS_RSTA_INVERTED), .IS_RSTB_INVERTED(IS_RSTB_INVERTED),
    .IS_RSTCTRL_INVERTED(IS_RSTCTRL_INVERTED), .IS_RSTC_INVERTED(IS_RSTC_INVERTED),
    .IS_RSTD_INVERTED(IS_RSTD_INVERTED), .IS_RSTINMODE_INVERTED(IS_RSTINMODE_INVERTED),
    .IS_RSTM_INVERTED(IS_RSTM_INVERTED), .IS_RSTP_INVERTED(IS_RSTP_INVERTED),
    .ACASCREG(int'(ACASCREG)), .ADREG(int'(ADREG)), .ALUMODEREG(int'(ALUMODEREG)), .AREG(int'(AREG)), .BCASCREG(int'(BCASCREG)),
    .BREG(int'(BREG)), .CARRYINREG(int'(CARRYINREG)), .CARRYINSELREG(int'(CARRYINSELREG)), .CREG(int'(CREG)), .DREG(int'(DREG)),
    .INMODEREG(int'(INMODEREG)), .MREG(int'(MREG)), .OPMODEREG(int'(OPMODEREG)), .PREG(int'(PREG)))
    u_slice (.CARRYOUT3(carryout3), .NEGATE(1'b0), .*);
  assign CARRYOUT = {carryout3, 3'b000};

  assign PATTERNDETECT  = 1'b0;
  assign PATTERNBDETECT = 1'b0;
  assign OVERFLOW       = 1'b0;
  assign UNDERFLOW      = 1'b0;
  assign XOROUT         = '0;

endmodule
