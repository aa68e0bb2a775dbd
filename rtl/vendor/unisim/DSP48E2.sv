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
  parameter int          ACASCREG      = 1,
  parameter int          ADREG         = 1,
  parameter int          ALUMODEREG    = 1,
  parameter int          AREG          = 1,
  parameter int          BCASCREG      = 1,
  parameter int          BREG          = 1,
  parameter int          CARRYINREG    = 1,
  parameter int          CARRYINSELREG = 1,
  parameter int          CREG          = 1,
  parameter int          DREG          = 1,
  parameter int          INMODEREG     = 1,
  parameter int          MREG          = 1,
  parameter int          OPMODEREG     = 1,
  parameter int          PREG          = 1
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

  cosim_unisim_dsp_attrs #(
    .A_INPUT(A_INPUT), .B_INPUT(B_INPUT), .AMULTSEL(AMULTSEL), .BMULTSEL(BMULTSEL),
    .PREADDINSEL(PREADDINSEL), .USE_MULT(USE_MULT), .USE_SIMD(USE_SIMD), .USE_WIDEXOR(USE_WIDEXOR),
    .AUTORESET_PATDET(AUTORESET_PATDET), .USE_PATTERN_DETECT(USE_PATTERN_DETECT),
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
  logic [8:0] opmode;
  logic [3:0] alumode;
  logic [2:0] carryinsel;
  logic       carryin;
  cosim_unisim_dsp_reg #(.W(5), .STAGES(INMODEREG)) u_inmode
    (.CLK(clk), .CE(CEINMODE), .RST(rst_inmode), .D(INMODE ^ IS_INMODE_INVERTED), .Q(inmode));
  cosim_unisim_dsp_reg #(.W(9), .STAGES(OPMODEREG)) u_opmode
    (.CLK(clk), .CE(CECTRL), .RST(rst_ctrl), .D(OPMODE ^ IS_OPMODE_INVERTED), .Q(opmode));
  cosim_unisim_dsp_reg #(.W(4), .STAGES(ALUMODEREG)) u_alumode
    (.CLK(clk), .CE(CEALUMODE), .RST(rst_alumode), .D(ALUMODE ^ IS_ALUMODE_INVERTED), .Q(alumode));
  cosim_unisim_dsp_reg #(.W(3), .STAGES(CARRYINSELREG)) u_carryinsel
    (.CLK(clk), .CE(CECTRL), .RST(rst_ctrl), .D(CARRYINSEL), .Q(carryinsel));
  cosim_unisim_dsp_reg #(.W(1), .STAGES(CARRYINREG)) u_carryin
    (.CLK(clk), .CE(CECARRYIN), .RST(rst_carry), .D(CARRYIN ^ IS_CARRYIN_INVERTED[0]), .Q(carryin));

  // ---- A, B, C, D and the pre-adder ----------------------------------------
  logic [29:0] a1, a2;
  logic [17:0] b1, b2;
  logic [2:0]  unused_a1;  // the multiplier takes A[26:0]
  assign unused_a1 = a1[29:27];
  cosim_unisim_dsp_ab #(.W(30), .REG(AREG), .CASCREG(ACASCREG)) u_a
    (.CLK(clk), .CE1(CEA1), .CE2(CEA2), .RST(rst_a), .D(A_INPUT == "CASCADE" ? ACIN : A),
     .Q1(a1), .Q2(a2), .COUT(ACOUT));
  cosim_unisim_dsp_ab #(.W(18), .REG(BREG), .CASCREG(BCASCREG)) u_b
    (.CLK(clk), .CE1(CEB1), .CE2(CEB2), .RST(rst_b), .D(B_INPUT == "CASCADE" ? BCIN : B),
     .Q1(b1), .Q2(b2), .COUT(BCOUT));

  logic [47:0] c;
  logic [26:0] d, ad_d, ad;
  cosim_unisim_dsp_reg #(.W(48), .STAGES(CREG)) u_c (.CLK(clk), .CE(CEC), .RST(rst_c), .D(C), .Q(c));
  cosim_unisim_dsp_reg #(.W(27), .STAGES(DREG)) u_d (.CLK(clk), .CE(CED), .RST(rst_d), .D(D), .Q(d));

  // INMODE[1] zeroes the input the pre-adder takes (PREADDINSEL), on its way
  // to the multiplier too.
  logic [26:0] a_mul;
  logic [17:0] b_mul;
  logic [26:0] pre_in;
  assign a_mul  = (PREADDINSEL == "A" && inmode[1]) ? '0 : (inmode[0] ? a1[26:0] : a2[26:0]);
  assign b_mul  = (PREADDINSEL == "B" && inmode[1]) ? '0 : (inmode[4] ? b1 : b2);
  assign pre_in = (PREADDINSEL == "B") ? {{9{b_mul[17]}}, b_mul} : a_mul;
  assign ad_d   = (inmode[2] ? d : '0) + (inmode[3] ? -pre_in : pre_in);
  cosim_unisim_dsp_reg #(.W(27), .STAGES(ADREG)) u_ad (.CLK(clk), .CE(CEAD), .RST(rst_d), .D(ad_d), .Q(ad));

  // ---- Multiplier -----------------------------------------------------------
  logic [26:0] mul_a;
  logic [17:0] mul_b;
  logic signed [47:0] mul_a48, mul_b48;  // sign-extended: the 45-bit product fits
  logic [47:0] m_d, m;
  logic        rnd_d, rnd;  // CARRYINSEL 110: the product's rounding carry
  assign mul_a   = (AMULTSEL == "AD") ? ad : a_mul;
  assign mul_b   = (BMULTSEL == "AD") ? ad[17:0] : b_mul;
  assign mul_a48 = {{21{mul_a[26]}}, mul_a};
  assign mul_b48 = {{30{mul_b[17]}}, mul_b};
  assign m_d     = (USE_MULT == "NONE") ? '0 : mul_a48 * mul_b48;
  assign rnd_d = ~(mul_a[26] ^ mul_b[17]);
  cosim_unisim_dsp_reg #(.W(48), .STAGES(MREG)) u_m (.CLK(clk), .CE(CEM), .RST(rst_m), .D(m_d), .Q(m));
  cosim_unisim_dsp_reg #(.W(1), .STAGES(MREG)) u_rnd (.CLK(clk), .CE(CEM), .RST(rst_carry), .D(rnd_d), .Q(rnd));

  // ---- Multiplexers, ALU, P -------------------------------------------------
  logic [47:0] p_fb;       // P as an operand: the P register (0 without one)
  logic        casc_fb;    // CARRYCASCOUT likewise
  logic [47:0] w, x, y, z;
  logic        cin;
  always_comb begin
    unique case (opmode[1:0])
      2'b00: x = '0;
      2'b01: x = m;
      2'b10: x = p_fb;
      default: x = {a2, b2};
    endcase
    unique case (opmode[3:2])
      2'b00, 2'b01: y = '0;
      2'b10: y = (opmode[6:4] == 3'b100) ? {48{MULTSIGNIN}} : {48{1'b1}};
      default: y = c;
    endcase
    unique case (opmode[6:4])
      3'b001: z = PCIN;
      3'b010, 3'b100: z = p_fb;
      3'b011: z = c;
      3'b101: z = {{17{PCIN[47]}}, PCIN[47:17]};
      3'b110: z = {{17{p_fb[47]}}, p_fb[47:17]};
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
      3'b001: cin = ~PCIN[47];
      3'b010: cin = CARRYCASCIN;
      3'b011: cin = PCIN[47];
      3'b100: cin = casc_fb;
      3'b101: cin = ~p_fb[47];
      3'b110: cin = rnd;
      default: cin = p_fb[47];
    endcase
  end

  logic [47:0] alu;
  logic        carry, carryout3;
  cosim_unisim_dsp_alu u_alu (.W(w), .X(x), .Y(y), .Z(z), .CIN(cin), .ALUMODE(alumode), .R(alu),
                              .CARRY(carry), .CARRYOUT3(carryout3));

  // P, CARRYOUT[3], CARRYCASCOUT and MULTSIGNOUT: one stage.
  logic [50:0] p_out;
  cosim_unisim_dsp_reg #(.W(51), .STAGES(PREG)) u_p
    (.CLK(clk), .CE(CEP), .RST(rst_p), .D({m[47], carry, carryout3, alu}), .Q(p_out));
  assign P            = p_out[47:0];
  assign PCOUT        = p_out[47:0];
  assign CARRYOUT     = {p_out[48], 3'b000};
  assign CARRYCASCOUT = p_out[49];
  assign MULTSIGNOUT  = p_out[50];
  assign p_fb         = (PREG == 1) ? p_out[47:0] : '0;
  assign casc_fb      = (PREG == 1) ? p_out[49] : 1'b0;

  assign PATTERNDETECT  = 1'b0;
  assign PATTERNBDETECT = 1'b0;
  assign OVERFLOW       = 1'b0;
  assign UNDERFLOW      = 1'b0;
  assign XOROUT         = '0;

endmodule
