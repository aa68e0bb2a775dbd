// Test top for the DSP48E1 and DSP58 stand-ins (tests/vendor_unisim): NUM =
// 11 slices, each with inputs of their own, its fields as wide as DSP58's
// (a DSP48E1 takes the low bits of each and drives its missing outputs' bits
// with 0). Slice n's pins are the fields of in[n*InW +: InW] and
// out[n*OutW +: OutW] (lowest bits first):
//   in:  A 34, B 24, C 58, D 27, ACIN 34, BCIN 24, PCIN 58, CARRYIN,
//        CARRYCASCIN, MULTSIGNIN, ALUMODE 4, CARRYINSEL 3, INMODE 5, OPMODE 9,
//        NEGATE 3, CE 13 (CEA1, CEA2, CEB1, CEB2, CEC, CED, CEAD, CEM, CEP,
//        CEINMODE, CECTRL, CEALUMODE, CECARRYIN), RST 10 (RSTA, RSTB, RSTC,
//        RSTD, RSTM, RSTP, RSTINMODE, RSTCTRL, RSTALUMODE, RSTALLCARRYIN)
//   out: P 58, ACOUT 34, BCOUT 24, PCOUT 58, CARRYOUT 4, CARRYCASCOUT,
//        MULTSIGNOUT, XOROUT 8, PATTERNDETECT, PATTERNBDETECT, OVERFLOW,
//        UNDERFLOW
// The configurations (unisim_dsp_e1_58_test.cpp holds the same table):
//   0 DSP48E1 combinational: every register 0, USE_DPORT "TRUE"
//   1 DSP48E1 fully pipelined (AREG 2 / ACASCREG 1, BREG 2 / BCASCREG 2),
//     USE_DPORT "TRUE", every IS_*_INVERTED set (CLK gets ~clk)
//   2 DSP48E1 USE_DPORT "FALSE", USE_MULT "DYNAMIC", mixed registers
//   3 DSP48E1 USE_MULT "NONE", the A:B path (add/subtract of A:B and C)
//   4, 5 a DSP48E1 cascade: 5 takes ACIN, BCIN, PCIN, CARRYCASCIN,
//     MULTSIGNIN from 4 (its own fields for them are unused)
//   6 DSP58 combinational, the pre-adder on B (PREADDINSEL "B", BMULTSEL "AD")
//   7 DSP58 fully pipelined, AMULTSEL "AD", every IS_*_INVERTED set
//   8 DSP58 DSP_MODE "INT8" (the dot product), A_INPUT "CASCADE" from its
//     own ACIN field
//   9, 10 a DSP58 cascade, as 4, 5
`timescale 1ps/1ps
module unisim_dsp_e1_58_top #(
  parameter int NUM  = 11,
  parameter int InW  = 309,
  parameter int OutW = 192
) (
  input  logic                clk,
  input  logic [NUM*InW-1:0]  in,
  output logic [NUM*OutW-1:0] out
);

  localparam int AW = 34, BW = 24, PW = 58, DW = 27;
`include "unisim_dsp_fields.svh"

  // A DSP48E1 slice n: the low bits of each field; its outputs' missing bits
  // (and XOROUT) are 0, its unused inputs' bits go to a sink.
`define E1_PINS(n, ACIN_, BCIN_, PCIN_, CCIN_, MSIN_, CLK_) \
    .ACOUT(acout[n][29:0]), .BCOUT(bcout[n][17:0]), .CARRYCASCOUT(carrycascout[n]), \
    .MULTSIGNOUT(multsignout[n]), .PCOUT(pcout[n][47:0]), .OVERFLOW(overflow[n]), \
    .PATTERNBDETECT(patbdet[n]), .PATTERNDETECT(patdet[n]), .UNDERFLOW(underflow[n]), \
    .CARRYOUT(carryout[n]), .P(p[n][47:0]), \
    .ACIN(ACIN_), .BCIN(BCIN_), .CARRYCASCIN(CCIN_), .MULTSIGNIN(MSIN_), .PCIN(PCIN_), \
    .ALUMODE(alumode[n]), .CARRYINSEL(carryinsel[n]), .CLK(CLK_), .INMODE(inmode[n]), \
    .OPMODE(opmode[n][6:0]), .A(a[n][29:0]), .B(b[n][17:0]), .C(c[n][47:0]), .CARRYIN(carryin[n]), \
    .D(d[n][24:0]), `DSP_CTRL(n)
`define E1_OWN(n) `E1_PINS(n, acin[n][29:0], bcin[n][17:0], pcin[n][47:0], carrycascin[n], multsignin[n], clk)
`define DSP58_PINS(n, ACIN_, BCIN_, PCIN_, CCIN_, MSIN_) \
    .ACOUT(acout[n]), .BCOUT(bcout[n]), .CARRYCASCOUT(carrycascout[n]), .MULTSIGNOUT(multsignout[n]), \
    .PCOUT(pcout[n]), .OVERFLOW(overflow[n]), .PATTERNBDETECT(patbdet[n]), .PATTERNDETECT(patdet[n]), \
    .UNDERFLOW(underflow[n]), .CARRYOUT(carryout[n]), .P(p[n]), .XOROUT(xorout[n]), \
    .ACIN(ACIN_), .BCIN(BCIN_), .CARRYCASCIN(CCIN_), .MULTSIGNIN(MSIN_), .PCIN(PCIN_), \
    .ALUMODE(alumode[n]), .ASYNC_RST(1'b0), .CARRYINSEL(carryinsel[n]), .CLK(clk), .INMODE(inmode[n]), \
    .NEGATE(negate[n]), .OPMODE(opmode[n]), .A(a[n]), .B(b[n]), .C(c[n]), .CARRYIN(carryin[n]), .D(d[n]), \
    `DSP_CTRL(n)
`define DSP58_OWN(n) `DSP58_PINS(n, acin[n], bcin[n], pcin[n], carrycascin[n], multsignin[n])

  // The DSP48E1 slices' bits above their widths.
  localparam int E1[6] = '{0, 1, 2, 3, 4, 5};
  logic [NUM-1:0] unused_bits;
  for (genvar k = 0; k < 6; k++) begin : g_e1
    localparam int N = E1[k];
    assign acout[N][33:30] = '0;
    assign bcout[N][23:18] = '0;
    assign pcout[N][57:48] = '0;
    assign p[N][57:48]     = '0;
    assign xorout[N]       = '0;
    assign unused_bits[N]  = ^{a[N][33:30], b[N][23:18], c[N][57:48], d[N][26:25], acin[N][33:30],
                               bcin[N][23:18], pcin[N][57:48], opmode[N][8:7], negate[N]};
  end
  // Each tail's cascade inputs come from its head; its own fields are unused.
  for (genvar n = 6; n < NUM; n++) begin : g_58
    if (n == 10) begin : g_tail
      assign unused_bits[n] = ^{acin[n], bcin[n], pcin[n], carrycascin[n], multsignin[n]};
    end else begin : g_own
      assign unused_bits[n] = 1'b0;
    end
  end
  logic unused_e1_tail;
  assign unused_e1_tail = ^{acin[5], bcin[5], pcin[5], carrycascin[5], multsignin[5], unused_bits};

  DSP48E1 #(.USE_DPORT("TRUE"), .AREG(0), .ACASCREG(0), .BREG(0), .BCASCREG(0), .CREG(0), .DREG(0), .ADREG(0),
            .MREG(0), .PREG(0), .INMODEREG(0), .OPMODEREG(0), .ALUMODEREG(0), .CARRYINREG(0), .CARRYINSELREG(0))
    u_e1_comb (`E1_OWN(0));

  DSP48E1 #(.USE_DPORT("TRUE"), .AREG(2), .ACASCREG(1), .BREG(2), .BCASCREG(2), .IS_CLK_INVERTED(1'b1),
            .IS_CARRYIN_INVERTED(1'b1), .IS_ALUMODE_INVERTED(4'b0101), .IS_INMODE_INVERTED(5'b01010),
            .IS_OPMODE_INVERTED(7'b0110101))
    u_e1_pipe (`E1_PINS(1, acin[1][29:0], bcin[1][17:0], pcin[1][47:0], carrycascin[1], multsignin[1], ~clk));

  DSP48E1 #(.USE_DPORT("FALSE"), .USE_MULT("DYNAMIC"), .AREG(1), .ACASCREG(1), .BREG(1), .BCASCREG(1),
            .CREG(0), .DREG(0), .ADREG(0), .MREG(1), .PREG(1), .INMODEREG(0), .OPMODEREG(1), .ALUMODEREG(0),
            .CARRYINREG(1), .CARRYINSELREG(0))
    u_e1_nod (`E1_OWN(2));

  DSP48E1 #(.USE_MULT("NONE"), .AREG(1), .BREG(1), .CREG(1), .PREG(1), .MREG(0), .OPMODEREG(1),
            .ALUMODEREG(0), .CARRYINREG(1), .CARRYINSELREG(0), .ADREG(0))
    u_e1_addsub (`E1_OWN(3));

  DSP48E1 #(.USE_DPORT("TRUE"), .AREG(1), .ACASCREG(1), .BREG(2), .BCASCREG(2), .MREG(1), .PREG(1))
    u_e1_casc0 (`E1_OWN(4));

  DSP48E1 #(.A_INPUT("CASCADE"), .B_INPUT("CASCADE"), .AREG(2), .ACASCREG(1), .BREG(1), .BCASCREG(1),
            .MREG(1), .PREG(1))
    u_e1_casc1 (`E1_PINS(5, acout[4][29:0], bcout[4][17:0], pcout[4][47:0], carrycascout[4], multsignout[4], clk));

  DSP58 #(.PREADDINSEL("B"), .BMULTSEL("AD"), .AREG(0), .ACASCREG(0), .BREG(0), .BCASCREG(0), .CREG(0), .DREG(0),
          .ADREG(0), .MREG(0), .PREG(0), .INMODEREG(0), .OPMODEREG(0), .ALUMODEREG(0), .CARRYINREG(0),
          .CARRYINSELREG(0), .RND(58'h0000_0001_FFFF_FFF))
    u_58_comb (`DSP58_OWN(6));

  DSP58 #(.AMULTSEL("AD"), .AREG(2), .ACASCREG(2), .BREG(2), .BCASCREG(1), .RND(58'h200_0000_0000_0000),
          .IS_CLK_INVERTED(1'b0), .IS_CARRYIN_INVERTED(1'b1), .IS_ALUMODE_INVERTED(4'b0010),
          .IS_INMODE_INVERTED(5'b10101), .IS_NEGATE_INVERTED(3'b101), .IS_OPMODE_INVERTED(9'h0A5),
          .IS_RSTA_INVERTED(1'b1), .IS_RSTB_INVERTED(1'b1), .IS_RSTC_INVERTED(1'b1), .IS_RSTD_INVERTED(1'b1),
          .IS_RSTM_INVERTED(1'b1), .IS_RSTP_INVERTED(1'b1), .IS_RSTINMODE_INVERTED(1'b1),
          .IS_RSTCTRL_INVERTED(1'b1), .IS_RSTALUMODE_INVERTED(1'b1), .IS_RSTALLCARRYIN_INVERTED(1'b1))
    u_58_pipe (`DSP58_OWN(7));

  DSP58 #(.DSP_MODE("INT8"), .A_INPUT("CASCADE"), .AREG(1), .ACASCREG(1), .BREG(1), .BCASCREG(1), .CREG(0),
          .DREG(0), .ADREG(0), .MREG(1), .PREG(1), .INMODEREG(1), .OPMODEREG(1), .ALUMODEREG(0),
          .CARRYINREG(1), .CARRYINSELREG(0))
    u_58_int8 (`DSP58_OWN(8));

  DSP58 #(.AREG(1), .ACASCREG(1), .BREG(2), .BCASCREG(2), .MREG(1), .PREG(1))
    u_58_casc0 (`DSP58_OWN(9));

  DSP58 #(.A_INPUT("CASCADE"), .B_INPUT("CASCADE"), .AREG(2), .ACASCREG(1), .BREG(1), .BCASCREG(1),
          .MREG(1), .PREG(1))
    u_58_casc1 (`DSP58_PINS(10, acout[9], bcout[9], pcout[9], carrycascout[9], multsignout[9]));

`undef DSP58_OWN
`undef DSP58_PINS
`undef E1_OWN
`undef DSP_CTRL
`undef E1_PINS

endmodule
