// Test top for the DSP48E2 stand-in (tests/vendor_unisim): NUM = 7 slices,
// each with inputs of its own. Slice n's pins are the fields of
// in[n*InW +: InW] and out[n*OutW +: OutW] (lowest bits first):
//   in:  A 30, B 18, C 48, D 27, ACIN 30, BCIN 18, PCIN 48, CARRYIN,
//        CARRYCASCIN, MULTSIGNIN, ALUMODE 4, CARRYINSEL 3, INMODE 5, OPMODE 9,
//        NEGATE 3 (unused: DSP48E2 has none), CE 13 (CEA1, CEA2, CEB1, CEB2, CEC, CED, CEAD, CEM, CEP, CEINMODE,
//        CECTRL, CEALUMODE, CECARRYIN), RST 10 (RSTA, RSTB, RSTC, RSTD, RSTM,
//        RSTP, RSTINMODE, RSTCTRL, RSTALUMODE, RSTALLCARRYIN)
//   out: P 48, ACOUT 30, BCOUT 18, PCOUT 48, CARRYOUT 4, CARRYCASCOUT,
//        MULTSIGNOUT, XOROUT 8, PATTERNDETECT, PATTERNBDETECT, OVERFLOW,
//        UNDERFLOW
// The configurations (unisim_dsp_test.cpp holds the same table):
//   0 combinational: every register 0
//   1 fully pipelined: AREG 2 / ACASCREG 2, BREG 2 / BCASCREG 1, the rest 1;
//     the pre-adder on A feeding the multiplier (AMULTSEL "AD")
//   2 pre-adder on B (PREADDINSEL "B", BMULTSEL "AD"), mixed registers, every
//     IS_*_INVERTED set (its CLK pin gets ~clk, so it runs on clk's rising edge)
//   3 USE_MULT "NONE", the A:B path (the test drives add/subtract of A:B and C)
//   4, 5 a two-slice cascade: 5 takes ACIN, BCIN, PCIN, CARRYCASCIN and
//     MULTSIGNIN from 4 (A_INPUT / B_INPUT "CASCADE"), its own fields for them
//     are unused; the test drives M on 4 and PCIN + M on 5
//   6 USE_MULT "DYNAMIC", A_INPUT "CASCADE" from its own ACIN field, both
//     multiplier inputs from the pre-adder
`timescale 1ps/1ps
module unisim_dsp_top #(
  parameter int NUM  = 7,
  parameter int InW  = 269,
  parameter int OutW = 162
) (
  input  logic                clk,
  input  logic [NUM*InW-1:0]  in,
  output logic [NUM*OutW-1:0] out
);

  localparam int AW = 30, BW = 18, PW = 48, DW = 27;
`include "unisim_dsp_fields.svh"

  // Slice 5's cascade inputs come from slice 4; its own fields are not used.
  logic [29:0] unused_acin5;
  logic [17:0] unused_bcin5;
  logic [47:0] unused_pcin5;
  logic [1:0]  unused_casc5;
  assign unused_acin5 = acin[5];
  assign unused_bcin5 = bcin[5];
  assign unused_pcin5 = pcin[5];
  assign unused_casc5 = {carrycascin[5], multsignin[5]};
  logic [NUM-1:0] unused_negate;
  for (genvar n = 0; n < NUM; n++) begin : g_no_negate
    assign unused_negate[n] = ^negate[n];
  end

`define DSP_PINS(n, ACIN_, BCIN_, PCIN_, CCIN_, MSIN_, CLK_) \
    .ACOUT(acout[n]), .BCOUT(bcout[n]), .CARRYCASCOUT(carrycascout[n]), .MULTSIGNOUT(multsignout[n]), \
    .PCOUT(pcout[n]), .OVERFLOW(overflow[n]), .PATTERNBDETECT(patbdet[n]), .PATTERNDETECT(patdet[n]), \
    .UNDERFLOW(underflow[n]), .CARRYOUT(carryout[n]), .P(p[n]), .XOROUT(xorout[n]), \
    .ACIN(ACIN_), .BCIN(BCIN_), .CARRYCASCIN(CCIN_), .MULTSIGNIN(MSIN_), .PCIN(PCIN_), \
    .ALUMODE(alumode[n]), .CARRYINSEL(carryinsel[n]), .CLK(CLK_), .INMODE(inmode[n]), .OPMODE(opmode[n]), \
    .A(a[n]), .B(b[n]), .C(c[n]), .CARRYIN(carryin[n]), .D(d[n]), `DSP_CTRL(n)
`define DSP_OWN(n) `DSP_PINS(n, acin[n], bcin[n], pcin[n], carrycascin[n], multsignin[n], clk)

  DSP48E2 #(.AREG(0), .ACASCREG(0), .BREG(0), .BCASCREG(0), .CREG(0), .DREG(0), .ADREG(0), .MREG(0),
            .PREG(0), .INMODEREG(0), .OPMODEREG(0), .ALUMODEREG(0), .CARRYINREG(0), .CARRYINSELREG(0),
            .RND(48'h0000_0001_FFFF))
    u_comb (`DSP_OWN(0));

  DSP48E2 #(.AREG(2), .ACASCREG(2), .BREG(2), .BCASCREG(1), .AMULTSEL("AD"), .RND(48'h8000_0000_0000))
    u_pipe (`DSP_OWN(1));

  DSP48E2 #(.PREADDINSEL("B"), .BMULTSEL("AD"), .AREG(1), .ACASCREG(1), .BREG(1), .BCASCREG(1),
            .CREG(0), .DREG(0), .ADREG(1), .MREG(0), .PREG(1), .INMODEREG(0), .OPMODEREG(0),
            .ALUMODEREG(1), .CARRYINREG(0), .CARRYINSELREG(1), .RND(48'h1234_5678_9ABC),
            .IS_CLK_INVERTED(1'b1), .IS_CARRYIN_INVERTED(1'b1), .IS_ALUMODE_INVERTED(4'b0010),
            .IS_INMODE_INVERTED(5'b10101), .IS_OPMODE_INVERTED(9'h0A5), .IS_RSTA_INVERTED(1'b1),
            .IS_RSTB_INVERTED(1'b1), .IS_RSTC_INVERTED(1'b1), .IS_RSTD_INVERTED(1'b1), .IS_RSTM_INVERTED(1'b1),
            .IS_RSTP_INVERTED(1'b1), .IS_RSTINMODE_INVERTED(1'b1), .IS_RSTCTRL_INVERTED(1'b1),
            .IS_RSTALUMODE_INVERTED(1'b1), .IS_RSTALLCARRYIN_INVERTED(1'b1))
    u_preb (`DSP_PINS(2, acin[2], bcin[2], pcin[2], carrycascin[2], multsignin[2], ~clk));

  DSP48E2 #(.USE_MULT("NONE"), .AREG(1), .BREG(1), .CREG(1), .PREG(1), .MREG(0), .OPMODEREG(1),
            .ALUMODEREG(0), .CARRYINREG(1), .CARRYINSELREG(0), .ADREG(0))
    u_addsub (`DSP_OWN(3));

  DSP48E2 #(.AREG(1), .ACASCREG(1), .BREG(2), .BCASCREG(2), .MREG(1), .PREG(1))
    u_casc0 (`DSP_OWN(4));

  DSP48E2 #(.A_INPUT("CASCADE"), .B_INPUT("CASCADE"), .AREG(2), .ACASCREG(1), .BREG(1), .BCASCREG(1),
            .MREG(1), .PREG(1))
    u_casc1 (`DSP_PINS(5, acout[4], bcout[4], pcout[4], carrycascout[4], multsignout[4], clk));

  DSP48E2 #(.USE_MULT("DYNAMIC"), .A_INPUT("CASCADE"), .AMULTSEL("AD"), .BMULTSEL("AD"), .AREG(1),
            .ACASCREG(1), .BREG(2), .BCASCREG(2), .CREG(0), .DREG(1), .ADREG(0), .MREG(1), .PREG(1),
            .INMODEREG(1), .OPMODEREG(1), .ALUMODEREG(0), .CARRYINREG(1), .CARRYINSELREG(0),
            .RND(48'hFFFF_FFFF_0000))
    u_dyn (`DSP_OWN(6));

`undef DSP_OWN
`undef DSP_PINS

endmodule
