// A user's multiply-add on a Versal DSP engine as hand-written Vivado designs
// write it (not house style on purpose): DSP58 with every attribute and port
// of the vendor's instantiation template spelled out, 1'b0-style inversions,
// unused outputs left open. The test only checks that this compiles
// unmodified against the stand-ins (CTest vendor_unisim_user_dsp58).
`timescale 1ns / 1ps
module user_unisim_dsp58 (
  input  wire        clk, rst, en,
  input  wire [26:0] a,
  input  wire [23:0] b,
  input  wire [57:0] c,
  output wire [57:0] p
);
  DSP58 #(
    .AMULTSEL("A"), .A_INPUT("DIRECT"), .BMULTSEL("B"), .B_INPUT("DIRECT"), .DSP_MODE("INT24"),
    .PREADDINSEL("A"), .RND(58'h000000000000000), .USE_MULT("MULTIPLY"), .USE_SIMD("ONE58"),
    .USE_WIDEXOR("FALSE"), .XORSIMD("XOR24_34_58_116"), .AUTORESET_PATDET("NO_RESET"),
    .AUTORESET_PRIORITY("RESET"), .MASK(58'h0ffffffffffffff), .PATTERN(58'h000000000000000),
    .SEL_MASK("MASK"), .SEL_PATTERN("PATTERN"), .USE_PATTERN_DETECT("NO_PATDET"),
    .IS_ALUMODE_INVERTED(4'b0000), .IS_ASYNC_RST_INVERTED(1'b0), .IS_CARRYIN_INVERTED(1'b0),
    .IS_CLK_INVERTED(1'b0), .IS_INMODE_INVERTED(5'b00000), .IS_NEGATE_INVERTED(3'b000),
    .IS_OPMODE_INVERTED(9'b000000000), .IS_RSTALLCARRYIN_INVERTED(1'b0), .IS_RSTALUMODE_INVERTED(1'b0),
    .IS_RSTA_INVERTED(1'b0), .IS_RSTB_INVERTED(1'b0), .IS_RSTCTRL_INVERTED(1'b0), .IS_RSTC_INVERTED(1'b0),
    .IS_RSTD_INVERTED(1'b0), .IS_RSTINMODE_INVERTED(1'b0), .IS_RSTM_INVERTED(1'b0), .IS_RSTP_INVERTED(1'b0),
    .ACASCREG(1), .ADREG(1), .ALUMODEREG(1), .AREG(1), .BCASCREG(1), .BREG(1), .CARRYINREG(1),
    .CARRYINSELREG(1), .CREG(1), .DREG(1), .INMODEREG(1), .MREG(1), .OPMODEREG(1), .PREG(1),
    .RESET_MODE("SYNC")
  ) mac0 (
    .ACOUT(), .BCOUT(), .CARRYCASCOUT(), .MULTSIGNOUT(), .PCOUT(), .OVERFLOW(), .PATTERNBDETECT(),
    .PATTERNDETECT(), .UNDERFLOW(), .CARRYOUT(), .P(p), .XOROUT(),
    .ACIN(34'd0), .BCIN(24'd0), .CARRYCASCIN(1'b0), .MULTSIGNIN(1'b0), .PCIN(58'd0),
    .ALUMODE(4'b0000), .ASYNC_RST(1'b0), .CARRYINSEL(3'b000), .CLK(clk), .INMODE(5'b00000),
    .NEGATE(3'b000), .OPMODE(9'b00_011_01_01),
    .A({{7{a[26]}}, a}), .B(b), .C(c), .CARRYIN(1'b0), .D(27'd0),
    .CEA1(en), .CEA2(en), .CEAD(1'b0), .CEALUMODE(1'b1), .CEB1(en), .CEB2(en), .CEC(en), .CECARRYIN(1'b0),
    .CECTRL(1'b1), .CED(1'b0), .CEINMODE(1'b1), .CEM(en), .CEP(en),
    .RSTA(rst), .RSTALLCARRYIN(rst), .RSTALUMODE(rst), .RSTB(rst), .RSTC(rst), .RSTCTRL(rst), .RSTD(rst),
    .RSTINMODE(rst), .RSTM(rst), .RSTP(rst)
  );
endmodule
