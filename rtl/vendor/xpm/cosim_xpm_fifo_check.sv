// The parameter checks of the FIFO stand-ins (xpm_fifo_sync, xpm_fifo_async),
// instantiated by both with their parameters: a value the stand-in does not
// support, or one outside the range UG974 documents, stops elaboration with
// one line naming the macro and the parameter. MACRO names the macro in the
// messages; ASYNC is set by xpm_fifo_async, whose CDC_SYNC_STAGES arrives as
// SYNC_STAGES and also raises the least PROG_FULL_THRESH, as documented.
// xpm_fifo_axis calls its depth FIFO_DEPTH (DEPTH_NAME) and checks its
// widths itself.
`timescale 1ns/1ps
module cosim_xpm_fifo_check #(
  parameter string MACRO               = "xpm_fifo_sync",
  parameter bit    ASYNC               = 1'b0,
  parameter string DEPTH_NAME          = "FIFO_WRITE_DEPTH",
  parameter int    SYNC_STAGES         = 2,
  parameter string ECC_MODE            = "no_ecc",
  parameter string FIFO_MEMORY_TYPE    = "auto",
  parameter int    FIFO_READ_LATENCY   = 1,
  parameter int    FIFO_WRITE_DEPTH    = 2048,
  parameter int    FULL_RESET_VALUE    = 0,
  parameter int    PROG_EMPTY_THRESH   = 10,
  parameter int    PROG_FULL_THRESH    = 10,
  parameter int    RD_DATA_COUNT_WIDTH = 1,
  parameter int    READ_DATA_WIDTH     = 32,
  parameter string READ_MODE           = "std",
  parameter int    RELATED_CLOCKS      = 0,
  parameter int    WAKEUP_TIME         = 0,
  parameter int    WRITE_DATA_WIDTH    = 32,
  parameter int    WR_DATA_COUNT_WIDTH = 1
) ();

  localparam int Depth = FIFO_WRITE_DEPTH;
  localparam bit Async = ASYNC;
  // Flip-flops a pointer crosses (within 2..8, so that a wrong CDC_SYNC_STAGES
  // gives its own line only).
  localparam int Sync  = !Async ? 0 : (SYNC_STAGES < 2) ? 2 : (SYNC_STAGES > 8) ? 8 : SYNC_STAGES;
  localparam bit Fwft  = READ_MODE == "fwft";
  localparam int Fwft2 = Fwft ? 2 : 0;  // the two output registers of "fwft"

  // Block RAM, distributed RAM, or (one clock only) UltraRAM.
  localparam bit MemTypeOk = FIFO_MEMORY_TYPE == "auto" || FIFO_MEMORY_TYPE == "block" ||
                             FIFO_MEMORY_TYPE == "distributed" || (!Async && FIFO_MEMORY_TYPE == "ultra");
  localparam bit DepthOk = Depth >= 16 && Depth <= 4194304 && (Depth & (Depth - 1)) == 0;
  localparam bit LatOk = Fwft || (FIFO_READ_LATENCY >= 1 && FIFO_READ_LATENCY <= 100);
  localparam int ThreshMax = Depth - 3 - Fwft2;
  localparam bit EmptyThreshOk = PROG_EMPTY_THRESH >= 3 + Fwft2 && PROG_EMPTY_THRESH <= ThreshMax;
  localparam bit FullThreshOk = PROG_FULL_THRESH >= 3 + Fwft2 + Sync && PROG_FULL_THRESH <= ThreshMax;
  localparam bit CountOk = WR_DATA_COUNT_WIDTH >= 1 && WR_DATA_COUNT_WIDTH <= 23 &&
                           RD_DATA_COUNT_WIDTH >= 1 && RD_DATA_COUNT_WIDTH <= 23;
  localparam bit WidthOk = WRITE_DATA_WIDTH >= 1 && WRITE_DATA_WIDTH <= 4096;
  localparam bit StagesOk = !Async || (SYNC_STAGES >= 2 && SYNC_STAGES <= 8);
  localparam bit ConfigOk = ECC_MODE == "no_ecc" && (READ_MODE == "std" || Fwft) && MemTypeOk &&
                            DepthOk && LatOk && EmptyThreshOk && FullThreshOk && CountOk && WidthOk &&
                            READ_DATA_WIDTH == WRITE_DATA_WIDTH && FULL_RESET_VALUE inside {0, 1} &&
                            WAKEUP_TIME inside {0, 2} && RELATED_CLOCKS inside {0, 1} && StagesOk;

  if (ECC_MODE != "no_ecc") begin : g_err_ecc
    $fatal(1, "%s stand-in: ECC_MODE \"%s\" is not supported (no_ecc only)", MACRO, ECC_MODE);
  end
  if (READ_MODE != "std" && !Fwft) begin : g_err_mode
    $fatal(1, "%s: READ_MODE \"%s\" must be \"std\" or \"fwft\"", MACRO, READ_MODE);
  end
  if (!MemTypeOk && Async) begin : g_err_mem_async
    $fatal(1, "%s: FIFO_MEMORY_TYPE \"%s\" must be auto, block or distributed", MACRO, FIFO_MEMORY_TYPE);
  end
  if (!MemTypeOk && !Async) begin : g_err_mem
    $fatal(1, "%s: FIFO_MEMORY_TYPE \"%s\" must be auto, block, distributed or ultra", MACRO,
           FIFO_MEMORY_TYPE);
  end
  if (!DepthOk) begin : g_err_depth
    $fatal(1, "%s: %s %0d must be a power of two from 16 to 4194304", MACRO, DEPTH_NAME, Depth);
  end
  if (READ_DATA_WIDTH != WRITE_DATA_WIDTH) begin : g_err_asym
    $fatal(1, "%s stand-in: READ_DATA_WIDTH %0d != WRITE_DATA_WIDTH %0d is not supported", MACRO,
           READ_DATA_WIDTH, WRITE_DATA_WIDTH);
  end
  if (!WidthOk) begin : g_err_width
    $fatal(1, "%s: WRITE_DATA_WIDTH %0d must be from 1 to 4096", MACRO, WRITE_DATA_WIDTH);
  end
  if (!LatOk) begin : g_err_lat
    $fatal(1, "%s stand-in: READ_MODE \"std\" needs FIFO_READ_LATENCY 1..100, not %0d", MACRO,
           FIFO_READ_LATENCY);
  end
  if (!EmptyThreshOk) begin : g_err_empty_thresh
    $fatal(1, "%s: PROG_EMPTY_THRESH %0d must be from %0d to %0d", MACRO, PROG_EMPTY_THRESH, 3 + Fwft2,
           ThreshMax);
  end
  if (!FullThreshOk) begin : g_err_full_thresh
    $fatal(1, "%s: PROG_FULL_THRESH %0d must be from %0d to %0d", MACRO, PROG_FULL_THRESH,
           3 + Fwft2 + Sync, ThreshMax);
  end
  if (!CountOk) begin : g_err_count
    $fatal(1, "%s: WR_DATA_COUNT_WIDTH %0d and RD_DATA_COUNT_WIDTH %0d must be from 1 to 23", MACRO,
           WR_DATA_COUNT_WIDTH, RD_DATA_COUNT_WIDTH);
  end
  if (!(FULL_RESET_VALUE inside {0, 1})) begin : g_err_full_rst
    $fatal(1, "%s: FULL_RESET_VALUE %0d must be 0 or 1", MACRO, FULL_RESET_VALUE);
  end
  if (!(WAKEUP_TIME inside {0, 2})) begin : g_err_wakeup
    $fatal(1, "%s: WAKEUP_TIME %0d must be 0 or 2", MACRO, WAKEUP_TIME);
  end
  if (!(RELATED_CLOCKS inside {0, 1})) begin : g_err_related
    $fatal(1, "%s: RELATED_CLOCKS %0d must be 0 or 1", MACRO, RELATED_CLOCKS);
  end
  if (!StagesOk) begin : g_err_stages
    $fatal(1, "%s: CDC_SYNC_STAGES %0d must be from 2 to 8", MACRO, SYNC_STAGES);
  end
  // Verilated with -Wno-fatal, the lines above only warn: stop at time 0.
  if (!ConfigOk) begin : g_err_run
    initial $fatal(1, "%s: unsupported configuration (see the elaboration messages)", MACRO);
  end

endmodule
