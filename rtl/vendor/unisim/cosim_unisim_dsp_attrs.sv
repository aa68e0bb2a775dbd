// The attribute checks of the DSP48E2 stand-in: each value outside its
// documented set (UG974), or one the stand-in does not model, stops
// elaboration with one line naming the attribute (cosim_unisim_reject,
// cosim_unisim_check for the 1-bit inversions).
`timescale 1ps/1ps
module cosim_unisim_dsp_attrs #(
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
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("A_INPUT"), .VALUE(A_INPUT), .ALLOWED("DIRECT or CASCADE")) u ();
  end
  if (B_INPUT != "DIRECT" && B_INPUT != "CASCADE") begin : g_bad_b_input
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("B_INPUT"), .VALUE(B_INPUT), .ALLOWED("DIRECT or CASCADE")) u ();
  end
  if (AMULTSEL != "A" && AMULTSEL != "AD") begin : g_bad_amultsel
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("AMULTSEL"), .VALUE(AMULTSEL), .ALLOWED("A or AD")) u ();
  end
  if (BMULTSEL != "B" && BMULTSEL != "AD") begin : g_bad_bmultsel
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("BMULTSEL"), .VALUE(BMULTSEL), .ALLOWED("B or AD")) u ();
  end
  if (PREADDINSEL != "A" && PREADDINSEL != "B") begin : g_bad_preaddinsel
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("PREADDINSEL"), .VALUE(PREADDINSEL), .ALLOWED("A or B")) u ();
  end
  if (USE_MULT != "MULTIPLY" && USE_MULT != "DYNAMIC" && USE_MULT != "NONE") begin : g_bad_use_mult
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("USE_MULT"), .VALUE(USE_MULT),
                          .ALLOWED("MULTIPLY, DYNAMIC or NONE")) u ();
  end
  if (USE_SIMD != "ONE48") begin : g_bad_use_simd
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("USE_SIMD"), .VALUE(USE_SIMD), .ALLOWED("ONE48 only")) u ();
  end
  if (USE_WIDEXOR != "FALSE") begin : g_bad_use_widexor
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("USE_WIDEXOR"), .VALUE(USE_WIDEXOR), .ALLOWED("FALSE only")) u ();
  end
  if (USE_PATTERN_DETECT != "NO_PATDET") begin : g_bad_use_pattern_detect
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("USE_PATTERN_DETECT"), .VALUE(USE_PATTERN_DETECT),
                          .ALLOWED("NO_PATDET only")) u ();
  end
  if (AUTORESET_PATDET != "NO_RESET") begin : g_bad_autoreset_patdet
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("AUTORESET_PATDET"), .VALUE(AUTORESET_PATDET),
                          .ALLOWED("NO_RESET only")) u ();
  end

  // Register counts.
  localparam int Bits[10] = '{ADREG, ALUMODEREG, CARRYINREG, CARRYINSELREG, CREG, DREG, INMODEREG, MREG,
                              OPMODEREG, PREG};
  localparam string BitNames[10] = '{"ADREG", "ALUMODEREG", "CARRYINREG", "CARRYINSELREG", "CREG", "DREG",
                                     "INMODEREG", "MREG", "OPMODEREG", "PREG"};
  for (genvar i = 0; i < 10; i++) begin : g_bit_reg
    if (!(Bits[i] inside {0, 1})) begin : g_bad
      cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME(BitNames[i]), .NUM(Bits[i]), .ALLOWED("0 or 1")) u ();
    end
  end
  if (!(AREG inside {0, 1, 2})) begin : g_bad_areg
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("AREG"), .NUM(AREG), .ALLOWED("0, 1 or 2")) u ();
  end
  if (!(BREG inside {0, 1, 2})) begin : g_bad_breg
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("BREG"), .NUM(BREG), .ALLOWED("0, 1 or 2")) u ();
  end
  // The cascade output is after AREG registers, or one fewer when AREG is 2
  // (checked once AREG itself is valid, so a bad AREG gives one line).
  if (AREG inside {0, 1, 2} && ACASCREG != AREG && !(AREG == 2 && ACASCREG == 1)) begin : g_bad_acascreg
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("ACASCREG"), .NUM(ACASCREG),
                          .ALLOWED("AREG, or 1 with AREG 2")) u ();
  end
  if (BREG inside {0, 1, 2} && BCASCREG != BREG && !(BREG == 2 && BCASCREG == 1)) begin : g_bad_bcascreg
    cosim_unisim_reject #(.PRIM("DSP48E2"), .NAME("BCASCREG"), .NUM(BCASCREG),
                          .ALLOWED("BREG, or 1 with BREG 2")) u ();
  end

  // The 1-bit inversions.
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_CARRYIN_INVERTED"), .VALUE(IS_CARRYIN_INVERTED)) u_inv_carryin ();
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_CLK_INVERTED"), .VALUE(IS_CLK_INVERTED)) u_inv_clk ();
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_RSTALLCARRYIN_INVERTED"), .VALUE(IS_RSTALLCARRYIN_INVERTED))
    u_inv_rstallcarryin ();
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_RSTALUMODE_INVERTED"), .VALUE(IS_RSTALUMODE_INVERTED))
    u_inv_rstalumode ();
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_RSTA_INVERTED"), .VALUE(IS_RSTA_INVERTED)) u_inv_rsta ();
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_RSTB_INVERTED"), .VALUE(IS_RSTB_INVERTED)) u_inv_rstb ();
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_RSTCTRL_INVERTED"), .VALUE(IS_RSTCTRL_INVERTED)) u_inv_rstctrl ();
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_RSTC_INVERTED"), .VALUE(IS_RSTC_INVERTED)) u_inv_rstc ();
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_RSTD_INVERTED"), .VALUE(IS_RSTD_INVERTED)) u_inv_rstd ();
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_RSTINMODE_INVERTED"), .VALUE(IS_RSTINMODE_INVERTED))
    u_inv_rstinmode ();
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_RSTM_INVERTED"), .VALUE(IS_RSTM_INVERTED)) u_inv_rstm ();
  cosim_unisim_check #(.PRIM("DSP48E2"), .NAME("IS_RSTP_INVERTED"), .VALUE(IS_RSTP_INVERTED)) u_inv_rstp ();

endmodule
