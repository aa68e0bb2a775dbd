// The attribute checks of the DSP slice stand-ins (DSP48E2, DSP48E1, DSP58;
// PRIM names the one in the messages, PW its P width): each value outside
// its documented set (UG974, UG953, AM004), or one the stand-in does not
// model, stops elaboration with one line naming the attribute
// (cosim_unisim_reject, cosim_unisim_check for the 1-bit inversions).
// DSP48E1 has no AMULTSEL / BMULTSEL / PREADDINSEL (it passes the values its
// USE_DPORT stands for), USE_WIDEXOR or IS_RST*_INVERTED; DSP58 adds
// DSP_MODE, RESET_MODE and IS_ASYNC_RST_INVERTED; the defaults pass.
`timescale 1ps/1ps
module cosim_unisim_dsp_attrs #(
  parameter string PRIM               = "DSP48E2",
  parameter int    PW                 = 48,
  parameter string A_INPUT            = "DIRECT",
  parameter string B_INPUT            = "DIRECT",
  parameter string AMULTSEL           = "A",
  parameter string BMULTSEL           = "B",
  parameter string PREADDINSEL        = "A",
  parameter string USE_MULT           = "MULTIPLY",
  parameter string USE_SIMD           = "ONE48",
  parameter string USE_WIDEXOR        = "FALSE",
  parameter string AUTORESET_PATDET   = "NO_RESET",
  parameter string USE_PATTERN_DETECT = "NO_PATDET",
  parameter string USE_DPORT          = "FALSE",
  parameter string DSP_MODE           = "INT24",
  parameter string RESET_MODE         = "SYNC",
  parameter        IS_ASYNC_RST_INVERTED     = 0,
  parameter        IS_CARRYIN_INVERTED       = 0,
  parameter        IS_CLK_INVERTED           = 0,
  parameter        IS_RSTALLCARRYIN_INVERTED = 0,
  parameter        IS_RSTALUMODE_INVERTED    = 0,
  parameter        IS_RSTA_INVERTED          = 0,
  parameter        IS_RSTB_INVERTED          = 0,
  parameter        IS_RSTCTRL_INVERTED       = 0,
  parameter        IS_RSTC_INVERTED          = 0,
  parameter        IS_RSTD_INVERTED          = 0,
  parameter        IS_RSTINMODE_INVERTED     = 0,
  parameter        IS_RSTM_INVERTED          = 0,
  parameter        IS_RSTP_INVERTED          = 0,
  parameter int    ACASCREG      = 1,
  parameter int    ADREG         = 1,
  parameter int    ALUMODEREG    = 1,
  parameter int    AREG          = 1,
  parameter int    BCASCREG      = 1,
  parameter int    BREG          = 1,
  parameter int    CARRYINREG    = 1,
  parameter int    CARRYINSELREG = 1,
  parameter int    CREG          = 1,
  parameter int    DREG          = 1,
  parameter int    INMODEREG     = 1,
  parameter int    MREG          = 1,
  parameter int    OPMODEREG     = 1,
  parameter int    PREG          = 1
) ();

  // String attributes: the documented choices, and the modes not modelled.
  if (A_INPUT != "DIRECT" && A_INPUT != "CASCADE") begin : g_bad_a_input
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("A_INPUT"), .VALUE(A_INPUT), .ALLOWED("DIRECT or CASCADE")) u ();
  end
  if (B_INPUT != "DIRECT" && B_INPUT != "CASCADE") begin : g_bad_b_input
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("B_INPUT"), .VALUE(B_INPUT), .ALLOWED("DIRECT or CASCADE")) u ();
  end
  if (AMULTSEL != "A" && AMULTSEL != "AD") begin : g_bad_amultsel
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("AMULTSEL"), .VALUE(AMULTSEL), .ALLOWED("A or AD")) u ();
  end
  if (BMULTSEL != "B" && BMULTSEL != "AD") begin : g_bad_bmultsel
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("BMULTSEL"), .VALUE(BMULTSEL), .ALLOWED("B or AD")) u ();
  end
  if (PREADDINSEL != "A" && PREADDINSEL != "B") begin : g_bad_preaddinsel
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("PREADDINSEL"), .VALUE(PREADDINSEL), .ALLOWED("A or B")) u ();
  end
  if (USE_MULT != "MULTIPLY" && USE_MULT != "DYNAMIC" && USE_MULT != "NONE") begin : g_bad_use_mult
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("USE_MULT"), .VALUE(USE_MULT),
                          .ALLOWED("MULTIPLY, DYNAMIC or NONE")) u ();
  end
  localparam string One = PW == 58 ? "ONE58" : "ONE48";
  if (USE_SIMD != One) begin : g_bad_use_simd
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("USE_SIMD"), .VALUE(USE_SIMD), .ALLOWED({One, " only"})) u ();
  end
  if (USE_WIDEXOR != "FALSE") begin : g_bad_use_widexor
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("USE_WIDEXOR"), .VALUE(USE_WIDEXOR), .ALLOWED("FALSE only")) u ();
  end
  if (USE_PATTERN_DETECT != "NO_PATDET") begin : g_bad_use_pattern_detect
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("USE_PATTERN_DETECT"), .VALUE(USE_PATTERN_DETECT),
                          .ALLOWED("NO_PATDET only")) u ();
  end
  if (AUTORESET_PATDET != "NO_RESET") begin : g_bad_autoreset_patdet
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("AUTORESET_PATDET"), .VALUE(AUTORESET_PATDET),
                          .ALLOWED("NO_RESET only")) u ();
  end

  if (USE_DPORT != "FALSE" && USE_DPORT != "TRUE") begin : g_bad_use_dport
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("USE_DPORT"), .VALUE(USE_DPORT), .ALLOWED("TRUE or FALSE")) u ();
  end
  // DSP58: the integer modes; INT8's dot product takes A and B directly.
  if (DSP_MODE != "INT24" && DSP_MODE != "INT8") begin : g_bad_dsp_mode
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("DSP_MODE"), .VALUE(DSP_MODE), .ALLOWED("INT24 or INT8")) u ();
  end
  if (DSP_MODE == "INT8" && AMULTSEL != "A") begin : g_bad_int8_amultsel
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("AMULTSEL"), .VALUE(AMULTSEL), .ALLOWED("A only with INT8")) u ();
  end
  if (DSP_MODE == "INT8" && BMULTSEL != "B") begin : g_bad_int8_bmultsel
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("BMULTSEL"), .VALUE(BMULTSEL), .ALLOWED("B only with INT8")) u ();
  end
  if (RESET_MODE != "SYNC") begin : g_bad_reset_mode
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("RESET_MODE"), .VALUE(RESET_MODE), .ALLOWED("SYNC only")) u ();
  end

  // Register counts.
  localparam int Bits[10] = '{ADREG, ALUMODEREG, CARRYINREG, CARRYINSELREG, CREG, DREG, INMODEREG, MREG,
                              OPMODEREG, PREG};
  localparam string BitNames[10] = '{"ADREG", "ALUMODEREG", "CARRYINREG", "CARRYINSELREG", "CREG", "DREG",
                                     "INMODEREG", "MREG", "OPMODEREG", "PREG"};
  for (genvar i = 0; i < 10; i++) begin : g_bit_reg
    if (!(Bits[i] inside {0, 1})) begin : g_bad
      cosim_unisim_reject #(.PRIM(PRIM), .NAME(BitNames[i]), .NUM(Bits[i]), .ALLOWED("0 or 1")) u ();
    end
  end
  if (!(AREG inside {0, 1, 2})) begin : g_bad_areg
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("AREG"), .NUM(AREG), .ALLOWED("0, 1 or 2")) u ();
  end
  if (!(BREG inside {0, 1, 2})) begin : g_bad_breg
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("BREG"), .NUM(BREG), .ALLOWED("0, 1 or 2")) u ();
  end
  // The cascade output is after AREG registers, or one fewer when AREG is 2
  // (checked once AREG itself is valid, so a bad AREG gives one line).
  if (AREG inside {0, 1, 2} && ACASCREG != AREG && !(AREG == 2 && ACASCREG == 1)) begin : g_bad_acascreg
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("ACASCREG"), .NUM(ACASCREG),
                          .ALLOWED("AREG, or 1 with AREG 2")) u ();
  end
  if (BREG inside {0, 1, 2} && BCASCREG != BREG && !(BREG == 2 && BCASCREG == 1)) begin : g_bad_bcascreg
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("BCASCREG"), .NUM(BCASCREG),
                          .ALLOWED("BREG, or 1 with BREG 2")) u ();
  end

  // The 1-bit inversions.
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_ASYNC_RST_INVERTED"), .VALUE(IS_ASYNC_RST_INVERTED))
    u_inv_async_rst ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_CARRYIN_INVERTED"), .VALUE(IS_CARRYIN_INVERTED)) u_inv_carryin ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_CLK_INVERTED"), .VALUE(IS_CLK_INVERTED)) u_inv_clk ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTALLCARRYIN_INVERTED"), .VALUE(IS_RSTALLCARRYIN_INVERTED))
    u_inv_rstallcarryin ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTALUMODE_INVERTED"), .VALUE(IS_RSTALUMODE_INVERTED))
    u_inv_rstalumode ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTA_INVERTED"), .VALUE(IS_RSTA_INVERTED)) u_inv_rsta ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTB_INVERTED"), .VALUE(IS_RSTB_INVERTED)) u_inv_rstb ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTCTRL_INVERTED"), .VALUE(IS_RSTCTRL_INVERTED)) u_inv_rstctrl ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTC_INVERTED"), .VALUE(IS_RSTC_INVERTED)) u_inv_rstc ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTD_INVERTED"), .VALUE(IS_RSTD_INVERTED)) u_inv_rstd ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTINMODE_INVERTED"), .VALUE(IS_RSTINMODE_INVERTED))
    u_inv_rstinmode ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTM_INVERTED"), .VALUE(IS_RSTM_INVERTED)) u_inv_rstm ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTP_INVERTED"), .VALUE(IS_RSTP_INVERTED)) u_inv_rstp ();

endmodule
