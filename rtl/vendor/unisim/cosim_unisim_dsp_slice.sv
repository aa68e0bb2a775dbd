// The body of the DSP slice stand-ins DSP48E2, DSP48E1 and DSP58 (UG579,
// UG479, AM004 behaviour, not vendor code): the registers, the pre-adder,
// the multiplier, the W/X/Y/Z multiplexers and the ALU, cycle for cycle,
// with the attribute checks (cosim_unisim_dsp_attrs). The three differ in
// widths only, given as parameters:
//   AW  A/ACIN/ACOUT (30 / 30 / 34)      BW  B/BCIN/BCOUT, the multiplier's B (18 / 18 / 24)
//   MW  D, the pre-adder, the multiplier's A (27 / 25 / 27)
//   PW  C, P, PCIN/PCOUT and the ALU (48 / 48 / 58); A:B is AW + BW = PW bits
//   SHIFT  the Z multiplexer's PCIN / P shift (17 / 17 / 23)
// DSP48E1 passes OPMODE with W = 00 (it has no W multiplexer), AMULTSEL "AD"
// for USE_DPORT "TRUE" and "A" for "FALSE", PREADDINSEL "A", BMULTSEL "B";
// DSP48E1 and DSP48E2 tie NEGATE to 0. The behaviour, per stage:
// - A (or ACIN by A_INPUT) and B (or BCIN) through 0 to 2 registers
//   (cosim_unisim_dsp_ab); C, D by CREG, DREG.
// - The pre-adder (MW bits, wrapping), by INMODE (INMODEREG): the port named
//   by PREADDINSEL (A[MW-1:0], or B sign-extended) is A1/B1 when
//   INMODE[0]/INMODE[4] is 1, else A2/B2, and 0 when INMODE[1] is 1;
//   AD = (INMODE[2] ? D : 0) + that, or minus it when INMODE[3] is 1, by ADREG
//   (CEAD, RSTD).
// - The MW x BW signed multiplier: AMULTSEL "A" takes the A operand above,
//   "AD" the pre-adder; BMULTSEL "B" the B operand, "AD" AD[BW-1:0]. With
//   DSP_MODE "INT8" (DSP58) it is the dot product of three 9-bit by 8-bit
//   signed lanes (A[9k+8:9k] times B[8k+7:8k]). NEGATE (DSP58's NEGATE[0])
//   negates the product; it goes through the INMODE register (this
//   stand-in's choice). M is the product sign-extended to PW bits (MREG, CEM,
//   RSTM); USE_MULT "NONE" makes it 0, "DYNAMIC" behaves as "MULTIPLY".
// - The multiplexers by OPMODE (OPMODEREG; CECTRL, RSTCTRL):
//   X[1:0]: 0, M, P, A:B (A2, B2);  Y[3:2]: 0, M, all ones, C;
//   Z[6:4]: 0, PCIN, P, C, P, PCIN>>>SHIFT, P>>>SHIFT, 0 (111 is reserved);
//   W[8:7]: 0, P, RND, C. M is one partial product on X and 0 on Y (this
//   stand-in's split of the documented pair, which must be selected
//   together); with Z 100 (MACC extension) Y 10 is copies of MULTSIGNIN.
//   P as an operand is the P register: with PREG 0 (documented as not
//   allowed for P feedback) it reads 0.
// - The ALU (cosim_unisim_dsp_alu) by ALUMODE (ALUMODEREG) with the carry-in
//   chosen by CARRYINSEL (CARRYINSELREG): 000 CARRYIN (CARRYINREG,
//   CECARRYIN, RSTALLCARRYIN), 001 not PCIN[PW-1], 010 CARRYCASCIN, 011
//   PCIN[PW-1], 100 the registered CARRYCASCOUT, 101 not P[PW-1], 110 the
//   product's rounding carry (the multiplier operands' sign bits XNORed,
//   through MREG with CEM and RSTALLCARRYIN), 111 P[PW-1].
// - P = PCOUT (PREG, CEP, RSTP), with CARRYOUT3, CARRYCASCOUT and MULTSIGNOUT
//   (the sign of M) in the same stage.
// Every register starts at 0; its synchronous reset wins over its enable.
// IS_*_INVERTED invert the clock, the resets, CARRYIN, ALUMODE, INMODE,
// NEGATE and OPMODE before anything else.
`timescale 1ps/1ps
module cosim_unisim_dsp_slice #(
  parameter string          PRIM               = "DSP48E2",
  parameter int             AW                 = 30,
  parameter int             BW                 = 18,
  parameter int             MW                 = 27,
  parameter int             PW                 = 48,
  parameter int             SHIFT              = 17,
  parameter string          A_INPUT            = "DIRECT",
  parameter string          B_INPUT            = "DIRECT",
  parameter string          AMULTSEL           = "A",
  parameter string          BMULTSEL           = "B",
  parameter string          PREADDINSEL        = "A",
  parameter logic [PW-1:0]  RND                = '0,
  parameter string          USE_MULT           = "MULTIPLY",
  parameter string          USE_SIMD           = "ONE48",
  parameter string          USE_WIDEXOR        = "FALSE",
  parameter string          AUTORESET_PATDET   = "NO_RESET",
  parameter string          USE_PATTERN_DETECT = "NO_PATDET",
  parameter string          USE_DPORT          = "FALSE",
  parameter string          DSP_MODE           = "INT24",
  parameter string          RESET_MODE         = "SYNC",
  parameter logic [3:0]     IS_ALUMODE_INVERTED       = 4'b0000,
  parameter                 IS_ASYNC_RST_INVERTED     = 0,
  parameter                 IS_CARRYIN_INVERTED       = 0,
  parameter                 IS_CLK_INVERTED           = 0,
  parameter logic [4:0]     IS_INMODE_INVERTED        = 5'b00000,
  parameter logic           IS_NEGATE_INVERTED        = 1'b0,
  parameter logic [8:0]     IS_OPMODE_INVERTED        = 9'b000000000,
  parameter                 IS_RSTALLCARRYIN_INVERTED = 0,
  parameter                 IS_RSTALUMODE_INVERTED    = 0,
  parameter                 IS_RSTA_INVERTED          = 0,
  parameter                 IS_RSTB_INVERTED          = 0,
  parameter                 IS_RSTCTRL_INVERTED       = 0,
  parameter                 IS_RSTC_INVERTED          = 0,
  parameter                 IS_RSTD_INVERTED          = 0,
  parameter                 IS_RSTINMODE_INVERTED     = 0,
  parameter                 IS_RSTM_INVERTED          = 0,
  parameter                 IS_RSTP_INVERTED          = 0,
  parameter int             ACASCREG      = 1,
  parameter int             ADREG         = 1,
  parameter int             ALUMODEREG    = 1,
  parameter int             AREG          = 1,
  parameter int             BCASCREG      = 1,
  parameter int             BREG          = 1,
  parameter int             CARRYINREG    = 1,
  parameter int             CARRYINSELREG = 1,
  parameter int             CREG          = 1,
  parameter int             DREG          = 1,
  parameter int             INMODEREG     = 1,
  parameter int             MREG          = 1,
  parameter int             OPMODEREG     = 1,
  parameter int             PREG          = 1
) (
  output logic [AW-1:0] ACOUT,
  output logic [BW-1:0] BCOUT,
  output logic          CARRYCASCOUT,
  output logic          MULTSIGNOUT,
  output logic [PW-1:0] PCOUT,
  output logic          CARRYOUT3,
  output logic [PW-1:0] P,
  input  logic [AW-1:0] ACIN,
  input  logic [BW-1:0] BCIN,
  input  logic          CARRYCASCIN,
  input  logic          MULTSIGNIN,
  input  logic [PW-1:0] PCIN,
  input  logic [3:0]    ALUMODE,
  input  logic [2:0]    CARRYINSEL,
  input  logic          CLK,
  input  logic [4:0]    INMODE,
  input  logic          NEGATE,
  input  logic [8:0]    OPMODE,
  input  logic [AW-1:0] A,
  input  logic [BW-1:0] B,
  input  logic [PW-1:0] C,
  input  logic          CARRYIN,
  input  logic [MW-1:0] D,
  input  logic          CEA1, CEA2, CEAD, CEALUMODE, CEB1, CEB2, CEC, CECARRYIN, CECTRL, CED,
  input  logic          CEINMODE, CEM, CEP,
  input  logic          RSTA, RSTALLCARRYIN, RSTALUMODE, RSTB, RSTC, RSTCTRL, RSTD, RSTINMODE,
  input  logic          RSTM, RSTP
);

  cosim_unisim_dsp_attrs #(
    .PRIM(PRIM), .PW(PW), .A_INPUT(A_INPUT), .B_INPUT(B_INPUT), .AMULTSEL(AMULTSEL), .BMULTSEL(BMULTSEL),
    .PREADDINSEL(PREADDINSEL), .USE_MULT(USE_MULT), .USE_SIMD(USE_SIMD), .USE_WIDEXOR(USE_WIDEXOR),
    .AUTORESET_PATDET(AUTORESET_PATDET), .USE_PATTERN_DETECT(USE_PATTERN_DETECT), .USE_DPORT(USE_DPORT),
    .DSP_MODE(DSP_MODE), .RESET_MODE(RESET_MODE), .IS_ASYNC_RST_INVERTED(IS_ASYNC_RST_INVERTED),
    .IS_CARRYIN_INVERTED(IS_CARRYIN_INVERTED), .IS_CLK_INVERTED(IS_CLK_INVERTED),
    .IS_RSTALLCARRYIN_INVERTED(IS_RSTALLCARRYIN_INVERTED), .IS_RSTALUMODE_INVERTED(IS_RSTALUMODE_INVERTED),
    .IS_RSTA_INVERTED(IS_RSTA_INVERTED), .IS_RSTB_INVERTED(IS_RSTB_INVERTED),
    .IS_RSTCTRL_INVERTED(IS_RSTCTRL_INVERTED), .IS_RSTC_INVERTED(IS_RSTC_INVERTED),
    .IS_RSTD_INVERTED(IS_RSTD_INVERTED), .IS_RSTINMODE_INVERTED(IS_RSTINMODE_INVERTED),
    .IS_RSTM_INVERTED(IS_RSTM_INVERTED), .IS_RSTP_INVERTED(IS_RSTP_INVERTED),
    .ACASCREG(ACASCREG), .ADREG(ADREG), .ALUMODEREG(ALUMODEREG), .AREG(AREG), .BCASCREG(BCASCREG),
    .BREG(BREG), .CARRYINREG(CARRYINREG), .CARRYINSELREG(CARRYINSELREG), .CREG(CREG), .DREG(DREG),
    .INMODEREG(INMODEREG), .MREG(MREG), .OPMODEREG(OPMODEREG), .PREG(PREG)) u_attrs ();

  // The pins as the slice sees them, after the programmable inversions.
  logic clk, rst_a, rst_b, rst_c, rst_d, rst_m, rst_p, rst_inmode, rst_ctrl, rst_alumode, rst_carry;
  assign clk         = CLK ^ IS_CLK_INVERTED[0];
  assign rst_a       = RSTA ^ IS_RSTA_INVERTED[0];
  assign rst_b       = RSTB ^ IS_RSTB_INVERTED[0];
  assign rst_c       = RSTC ^ IS_RSTC_INVERTED[0];
  assign rst_d       = RSTD ^ IS_RSTD_INVERTED[0];
  assign rst_m       = RSTM ^ IS_RSTM_INVERTED[0];
  assign rst_p       = RSTP ^ IS_RSTP_INVERTED[0];
  assign rst_inmode  = RSTINMODE ^ IS_RSTINMODE_INVERTED[0];
  assign rst_ctrl    = RSTCTRL ^ IS_RSTCTRL_INVERTED[0];
  assign rst_alumode = RSTALUMODE ^ IS_RSTALUMODE_INVERTED[0];
  assign rst_carry   = RSTALLCARRYIN ^ IS_RSTALLCARRYIN_INVERTED[0];

  // ---- Control registers ----------------------------------------------------
  logic [4:0] inmode;
  logic       negate;
  logic [8:0] opmode;
  logic [3:0] alumode;
  logic [2:0] carryinsel;
  logic       carryin;
  cosim_unisim_dsp_reg #(.W(6), .STAGES(INMODEREG)) u_inmode
    (.CLK(clk), .CE(CEINMODE), .RST(rst_inmode),
     .D({NEGATE ^ IS_NEGATE_INVERTED, INMODE ^ IS_INMODE_INVERTED}), .Q({negate, inmode}));
  cosim_unisim_dsp_reg #(.W(9), .STAGES(OPMODEREG)) u_opmode
    (.CLK(clk), .CE(CECTRL), .RST(rst_ctrl), .D(OPMODE ^ IS_OPMODE_INVERTED), .Q(opmode));
  cosim_unisim_dsp_reg #(.W(4), .STAGES(ALUMODEREG)) u_alumode
    (.CLK(clk), .CE(CEALUMODE), .RST(rst_alumode), .D(ALUMODE ^ IS_ALUMODE_INVERTED), .Q(alumode));
  cosim_unisim_dsp_reg #(.W(3), .STAGES(CARRYINSELREG)) u_carryinsel
    (.CLK(clk), .CE(CECTRL), .RST(rst_ctrl), .D(CARRYINSEL), .Q(carryinsel));
  cosim_unisim_dsp_reg #(.W(1), .STAGES(CARRYINREG)) u_carryin
    (.CLK(clk), .CE(CECARRYIN), .RST(rst_carry), .D(CARRYIN ^ IS_CARRYIN_INVERTED[0]), .Q(carryin));

  // ---- A, B, C, D and the pre-adder ----------------------------------------
  logic [AW-1:0] a1, a2;
  logic [BW-1:0] b1, b2;
  logic [AW-MW-1:0] unused_a1;  // the multiplier takes A[MW-1:0]
  assign unused_a1 = a1[AW-1:MW];
  cosim_unisim_dsp_ab #(.W(AW), .REG(AREG), .CASCREG(ACASCREG)) u_a
    (.CLK(clk), .CE1(CEA1), .CE2(CEA2), .RST(rst_a), .D(A_INPUT == "CASCADE" ? ACIN : A),
     .Q1(a1), .Q2(a2), .COUT(ACOUT));
  cosim_unisim_dsp_ab #(.W(BW), .REG(BREG), .CASCREG(BCASCREG)) u_b
    (.CLK(clk), .CE1(CEB1), .CE2(CEB2), .RST(rst_b), .D(B_INPUT == "CASCADE" ? BCIN : B),
     .Q1(b1), .Q2(b2), .COUT(BCOUT));

  logic [PW-1:0] c;
  logic [MW-1:0] d, ad_d, ad;
  cosim_unisim_dsp_reg #(.W(PW), .STAGES(CREG)) u_c (.CLK(clk), .CE(CEC), .RST(rst_c), .D(C), .Q(c));
  cosim_unisim_dsp_reg #(.W(MW), .STAGES(DREG)) u_d (.CLK(clk), .CE(CED), .RST(rst_d), .D(D), .Q(d));

  // INMODE[1] zeroes the input the pre-adder takes (PREADDINSEL), on its way
  // to the multiplier too.
  logic [MW-1:0] a_mul;
  logic [BW-1:0] b_mul;
  logic [MW-1:0] pre_in;
  assign a_mul  = (PREADDINSEL == "A" && inmode[1]) ? '0 : (inmode[0] ? a1[MW-1:0] : a2[MW-1:0]);
  assign b_mul  = (PREADDINSEL == "B" && inmode[1]) ? '0 : (inmode[4] ? b1 : b2);
  assign pre_in = (PREADDINSEL == "B") ? {{(MW-BW){b_mul[BW-1]}}, b_mul} : a_mul;
  assign ad_d   = (inmode[2] ? d : '0) + (inmode[3] ? -pre_in : pre_in);
  cosim_unisim_dsp_reg #(.W(MW), .STAGES(ADREG)) u_ad (.CLK(clk), .CE(CEAD), .RST(rst_d), .D(ad_d), .Q(ad));

  // ---- Multiplier -----------------------------------------------------------
  logic [MW-1:0] mul_a;
  logic [BW-1:0] mul_b;
  logic signed [PW-1:0] prod;  // sign-extended operands: the product fits
  logic [PW-1:0] m_d, m;
  logic          rnd_d, rnd;   // CARRYINSEL 110: the product's rounding carry
  assign mul_a = (AMULTSEL == "AD") ? ad : a_mul;
  assign mul_b = (BMULTSEL == "AD") ? ad[BW-1:0] : b_mul;
  if (DSP_MODE == "INT8") begin : g_dot3
    logic signed [PW-1:0] lane[3];
    for (genvar k = 0; k < 3; k++) begin : g_lane
      assign lane[k] = PW'($signed(mul_a[9*k +: 9])) * PW'($signed(mul_b[8*k +: 8]));
    end
    assign prod = lane[0] + lane[1] + lane[2];
  end else begin : g_mul
    assign prod = PW'($signed(mul_a)) * PW'($signed(mul_b));
  end
  assign m_d   = (USE_MULT == "NONE") ? '0 : (negate ? -prod : prod);
  assign rnd_d = ~(mul_a[MW-1] ^ mul_b[BW-1]);
  cosim_unisim_dsp_reg #(.W(PW), .STAGES(MREG)) u_m (.CLK(clk), .CE(CEM), .RST(rst_m), .D(m_d), .Q(m));
  cosim_unisim_dsp_reg #(.W(1), .STAGES(MREG)) u_rnd (.CLK(clk), .CE(CEM), .RST(rst_carry), .D(rnd_d), .Q(rnd));

  // ---- Multiplexers, ALU, P -------------------------------------------------
  logic [PW-1:0] p_fb;       // P as an operand: the P register (0 without one)
  logic          casc_fb;    // CARRYCASCOUT likewise
  logic [PW-1:0] w, x, y, z;
  logic          cin;
  always_comb begin
    unique case (opmode[1:0])
      2'b00: x = '0;
      2'b01: x = m;
      2'b10: x = p_fb;
      default: x = {a2, b2};
    endcase
    unique case (opmode[3:2])
      2'b00, 2'b01: y = '0;
      2'b10: y = (opmode[6:4] == 3'b100) ? {PW{MULTSIGNIN}} : {PW{1'b1}};
      default: y = c;
    endcase
    unique case (opmode[6:4])
      3'b001: z = PCIN;
      3'b010, 3'b100: z = p_fb;
      3'b011: z = c;
      3'b101: z = PW'($signed(PCIN) >>> SHIFT);
      3'b110: z = PW'($signed(p_fb) >>> SHIFT);
      default: z = '0;
    endcase
    unique case (opmode[8:7])
      2'b00: w = '0;
      2'b01: w = p_fb;
      2'b10: w = RND;
      default: w = c;
    endcase
    unique case (carryinsel)
      3'b000: cin = carryin;
      3'b001: cin = ~PCIN[PW-1];
      3'b010: cin = CARRYCASCIN;
      3'b011: cin = PCIN[PW-1];
      3'b100: cin = casc_fb;
      3'b101: cin = ~p_fb[PW-1];
      3'b110: cin = rnd;
      default: cin = p_fb[PW-1];
    endcase
  end

  logic [PW-1:0] alu;
  logic          carry, carryout3;
  cosim_unisim_dsp_alu #(.PW(PW)) u_alu (.W(w), .X(x), .Y(y), .Z(z), .CIN(cin), .ALUMODE(alumode), .R(alu),
                                         .CARRY(carry), .CARRYOUT3(carryout3));

  // P, CARRYOUT3, CARRYCASCOUT and MULTSIGNOUT: one stage.
  logic [PW+2:0] p_out;
  cosim_unisim_dsp_reg #(.W(PW + 3), .STAGES(PREG)) u_p
    (.CLK(clk), .CE(CEP), .RST(rst_p), .D({m[PW-1], carry, carryout3, alu}), .Q(p_out));
  assign P            = p_out[PW-1:0];
  assign PCOUT        = p_out[PW-1:0];
  assign CARRYOUT3    = p_out[PW];
  assign CARRYCASCOUT = p_out[PW+1];
  assign MULTSIGNOUT  = p_out[PW+2];
  assign p_fb         = (PREG == 1) ? p_out[PW-1:0] : '0;
  assign casc_fb      = (PREG == 1) ? p_out[PW+1] : 1'b0;

endmodule
