// The parameter checks of the synchroniser stand-ins (xpm_cdc_*), instantiated
// by each with its parameters: a value outside the range UG974 documents
// stops elaboration with one line naming the macro and the parameter. A
// macro without one of the 0/1 parameters leaves it at 0 (SRC_SYNC_FF at
// its default); WIDTH_MIN and WIDTH_MAX are the macro's documented WIDTH
// range (1..1 without WIDTH).
`timescale 1ns/1ps
module cosim_xpm_cdc_check #(
  parameter string MACRO                 = "xpm_cdc_single",
  parameter int    DEST_SYNC_FF          = 4,
  parameter int    SRC_SYNC_FF           = 4,
  parameter int    INIT_SYNC_FF          = 0,
  parameter int    SIM_ASSERT_CHK        = 0,
  parameter int    SRC_INPUT_REG         = 0,
  parameter int    REG_OUTPUT            = 0,
  parameter int    RST_USED              = 0,
  parameter int    SIM_LOSSLESS_GRAY_CHK = 0,
  parameter int    INIT                  = 0,
  parameter int    RST_ACTIVE_HIGH       = 0,
  parameter int    DEST_EXT_HSK          = 0,
  parameter int    WIDTH                 = 1,
  parameter int    WIDTH_MIN             = 1,
  parameter int    WIDTH_MAX             = 1
) ();

  localparam bit StagesOk = DEST_SYNC_FF >= 2 && DEST_SYNC_FF <= 10 && SRC_SYNC_FF >= 2 && SRC_SYNC_FF <= 10;
  localparam bit WidthOk  = WIDTH >= WIDTH_MIN && WIDTH <= WIDTH_MAX;
  localparam bit FlagsOk  = INIT_SYNC_FF inside {0, 1} && SIM_ASSERT_CHK inside {0, 1} &&
                            SRC_INPUT_REG inside {0, 1} && REG_OUTPUT inside {0, 1} &&
                            RST_USED inside {0, 1} && SIM_LOSSLESS_GRAY_CHK inside {0, 1} &&
                            INIT inside {0, 1} && RST_ACTIVE_HIGH inside {0, 1} && DEST_EXT_HSK inside {0, 1};

  if (!(DEST_SYNC_FF >= 2 && DEST_SYNC_FF <= 10)) begin : g_err_stages
    $fatal(1, "%s: DEST_SYNC_FF %0d must be from 2 to 10", MACRO, DEST_SYNC_FF);
  end
  if (!(SRC_SYNC_FF >= 2 && SRC_SYNC_FF <= 10)) begin : g_err_src_stages
    $fatal(1, "%s: SRC_SYNC_FF %0d must be from 2 to 10", MACRO, SRC_SYNC_FF);
  end
  if (!WidthOk) begin : g_err_width
    $fatal(1, "%s: WIDTH %0d must be from %0d to %0d", MACRO, WIDTH, WIDTH_MIN, WIDTH_MAX);
  end
  if (!(INIT_SYNC_FF inside {0, 1})) begin : g_err_init
    $fatal(1, "%s: INIT_SYNC_FF %0d must be 0 or 1", MACRO, INIT_SYNC_FF);
  end
  if (!(SIM_ASSERT_CHK inside {0, 1})) begin : g_err_chk
    $fatal(1, "%s: SIM_ASSERT_CHK %0d must be 0 or 1", MACRO, SIM_ASSERT_CHK);
  end
  if (!(SRC_INPUT_REG inside {0, 1})) begin : g_err_src_reg
    $fatal(1, "%s: SRC_INPUT_REG %0d must be 0 or 1", MACRO, SRC_INPUT_REG);
  end
  if (!(REG_OUTPUT inside {0, 1})) begin : g_err_reg_output
    $fatal(1, "%s: REG_OUTPUT %0d must be 0 or 1", MACRO, REG_OUTPUT);
  end
  if (!(RST_USED inside {0, 1})) begin : g_err_rst_used
    $fatal(1, "%s: RST_USED %0d must be 0 or 1", MACRO, RST_USED);
  end
  if (!(SIM_LOSSLESS_GRAY_CHK inside {0, 1})) begin : g_err_gray_chk
    $fatal(1, "%s: SIM_LOSSLESS_GRAY_CHK %0d must be 0 or 1", MACRO, SIM_LOSSLESS_GRAY_CHK);
  end
  if (!(INIT inside {0, 1})) begin : g_err_init_value
    $fatal(1, "%s: INIT %0d must be 0 or 1", MACRO, INIT);
  end
  if (!(RST_ACTIVE_HIGH inside {0, 1})) begin : g_err_polarity
    $fatal(1, "%s: RST_ACTIVE_HIGH %0d must be 0 or 1", MACRO, RST_ACTIVE_HIGH);
  end
  if (!(DEST_EXT_HSK inside {0, 1})) begin : g_err_ext_hsk
    $fatal(1, "%s: DEST_EXT_HSK %0d must be 0 or 1", MACRO, DEST_EXT_HSK);
  end
  // Verilated with -Wno-fatal, the lines above only warn: stop at time 0.
  if (!(StagesOk && WidthOk && FlagsOk)) begin : g_err_run
    initial $fatal(1, "%s: unsupported configuration (see the elaboration messages)", MACRO);
  end

endmodule
