// A user's pre-add-multiply-accumulate on a 7-series slice as hand-written
// Vivado designs write it (not house style on purpose): DSP48E1 with every
// attribute and port of the vendor's instantiation template spelled out,
// 1'b0-style inversions, unused outputs left open. The test only checks that
// this compiles unmodified against the stand-ins (CTest
// vendor_unisim_user_dsp48e1).
`timescale 1ns / 1ps
module user_unisim_dsp48e1 (
  input  wire        clk, rst, en,
  input  wire [24:0] a, d,
  input  wire [17:0] b,
  output wire [47:0] p
);
  DSP48E1 #(
    .A_INPUT("DIRECT"), .B_INPUT("DIRECT"), .USE_DPORT("TRUE"), .USE_MULT("MULTIPLY"), .USE_SIMD("ONE48"),
    .AUTORESET_PATDET("NO_RESET"), .MASK(48'h3fffffffffff), .PATTERN(48'h000000000000), .SEL_MASK("MASK"),
    .SEL_PATTERN("PATTERN"), .USE_PATTERN_DETECT("NO_PATDET"), .IS_ALUMODE_INVERTED(4'b0000),
    .IS_CARRYIN_INVERTED(1'b0), .IS_CLK_INVERTED(1'b0), .IS_INMODE_INVERTED(5'b00000),
    .IS_OPMODE_INVERTED(7'b0000000), .ACASCREG(1), .ADREG(1), .ALUMODEREG(1), .AREG(1), .BCASCREG(1),
    .BREG(1), .CARRYINREG(1), .CARRYINSELREG(1), .CREG(1), .DREG(1), .INMODEREG(1), .MREG(1), .OPMODEREG(1),
    .PREG(1)
  ) mac0 (
    .ACOUT(), .BCOUT(), .CARRYCASCOUT(), .MULTSIGNOUT(), .PCOUT(), .OVERFLOW(), .PATTERNBDETECT(),
    .PATTERNDETECT(), .UNDERFLOW(), .CARRYOUT(), .P(p),
    .ACIN(30'd0), .BCIN(18'd0), .CARRYCASCIN(1'b0), .MULTSIGNIN(1'b0), .PCIN(48'd0),
    .ALUMODE(4'b0000), .CARRYINSEL(3'b000), .CLK(clk), .INMODE(5'b00100), .OPMODE(7'b010_01_01),
    .A({{5{a[24]}}, a}), .B(b), .C(48'd0), .CARRYIN(1'b0), .D(d),
    .CEA1(en), .CEA2(en), .CEAD(en), .CEALUMODE(1'b1), .CEB1(en), .CEB2(en), .CEC(1'b0), .CECARRYIN(1'b0),
    .CECTRL(1'b1), .CED(en), .CEINMODE(1'b1), .CEM(en), .CEP(en),
    .RSTA(rst), .RSTALLCARRYIN(rst), .RSTALUMODE(rst), .RSTB(rst), .RSTC(rst), .RSTCTRL(rst), .RSTD(rst),
    .RSTINMODE(rst), .RSTM(rst), .RSTP(rst)
  );
endmodule
