// Stand-in for the Xilinx parameterized macro xpm_fifo_sync (synchronous FIFO),
// written here from its documented behaviour (UG974 / UG953 / UG1344), so that
// user RTL instantiating it Verilates unmodified. Not vendor code. Module,
// parameter and port names are the vendor's, hence the upper-case parameters
// and the ports without _i/_o suffixes.
//
// Covered: every parameter and port of the vendor's instantiation template is
// accepted; READ_MODE "std" (FIFO_READ_LATENCY 1..100) and "fwft"; all
// USE_ADV_FEATURES flags; FULL_RESET_VALUE; DOUT_RESET_VALUE; data counts of
// any width. Not covered (elaboration error): ECC ("en_ecc"), a read width
// different from the write width, "std" with FIFO_READ_LATENCY 0. sleep and
// the ECC injection inputs are accepted and ignored; sbiterr/dbiterr are 0.
//
// Behaviour, all on wr_clk (one clock; the vendor's rd_clk does not exist here):
//  - A write is stored when wr_en is high and full is low on the same edge; a
//    read is accepted when rd_en is high and empty is low. Rejected requests
//    change nothing and raise overflow / underflow for the next cycle; wr_ack
//    marks the next cycle after a stored write.
//  - rst (active high, synchronous) empties the FIFO. wr_rst_busy and
//    rd_rst_busy follow rst one edge later, so they stay high for one cycle
//    after rst falls; requests are ignored while they are high, and full,
//    almost_full and prog_full show FULL_RESET_VALUE.
//  - "std": empty, full and the counts change on the edge that stores or
//    reads a word. A read accepted on edge t puts its word on dout after edge
//    t + FIFO_READ_LATENCY - 1, with data_valid high for that one cycle; dout
//    holds its value otherwise. Capacity FIFO_WRITE_DEPTH.
//  - "fwft": dout shows the oldest word while empty is low (data_valid =
//    ~empty) and rd_en takes it. A word written on edge t is on dout after edge
//    t + 1. Capacity FIFO_WRITE_DEPTH + 2 (the memory plus two output
//    registers, as documented); full means the memory part is full.
//  - wr_data_count = rd_data_count = the words held (in "fwft" including the
//    output registers); a count narrower than log2(FIFO_WRITE_DEPTH)+1 shows
//    the most significant bits. prog_full: count >= PROG_FULL_THRESH;
//    prog_empty: count <= PROG_EMPTY_THRESH; almost_full: at most one free
//    place; almost_empty: at most one word. A flag whose USE_ADV_FEATURES bit
//    is clear is held at 0.
// These latencies are this stand-in's; the vendor documents that a flag "might
// take more than one cycle" to follow a write or read, so RTL that is correct
// on hardware waits on the flags rather than counting cycles.
`timescale 1ns/1ps
module xpm_fifo_sync #(
  /* verilator lint_off UNUSEDPARAM */  // a synthesis directive: no behaviour to model
  parameter int    CASCADE_HEIGHT      = 0,
  /* verilator lint_on UNUSEDPARAM */
  parameter        DOUT_RESET_VALUE    = "0",     // hex string, like the vendor's
  parameter string ECC_MODE            = "no_ecc",
  parameter string EN_SIM_ASSERT_ERR   = "warning",
  parameter string FIFO_MEMORY_TYPE    = "auto",
  parameter int    FIFO_READ_LATENCY   = 1,
  parameter int    FIFO_WRITE_DEPTH    = 2048,
  parameter int    FULL_RESET_VALUE    = 0,
  parameter int    PROG_EMPTY_THRESH   = 10,
  parameter int    PROG_FULL_THRESH    = 10,
  parameter int    RD_DATA_COUNT_WIDTH = 1,
  parameter int    READ_DATA_WIDTH     = 32,
  parameter string READ_MODE           = "std",
  parameter int    SIM_ASSERT_CHK      = 0,
  parameter        USE_ADV_FEATURES    = "0707",  // hex string or a number
  parameter int    WAKEUP_TIME         = 0,
  parameter int    WRITE_DATA_WIDTH    = 32,
  parameter int    WR_DATA_COUNT_WIDTH = 1
) (
  input  logic                           sleep,
  input  logic                           rst,
  input  logic                           wr_clk,

  input  logic                           wr_en,
  input  logic [WRITE_DATA_WIDTH-1:0]    din,
  output logic                           full,
  output logic                           almost_full,
  output logic                           prog_full,
  output logic [WR_DATA_COUNT_WIDTH-1:0] wr_data_count,
  output logic                           overflow,
  output logic                           wr_ack,
  output logic                           wr_rst_busy,

  input  logic                           rd_en,
  output logic [READ_DATA_WIDTH-1:0]     dout,
  output logic                           empty,
  output logic                           almost_empty,
  output logic                           prog_empty,
  output logic [RD_DATA_COUNT_WIDTH-1:0] rd_data_count,
  output logic                           underflow,
  output logic                           data_valid,
  output logic                           rd_rst_busy,

  input  logic                           injectsbiterr,
  input  logic                           injectdbiterr,
  output logic                           sbiterr,
  output logic                           dbiterr
);

  // ---- Configuration ------------------------------------------------------
  localparam int  Depth = FIFO_WRITE_DEPTH;
  localparam int  W     = WRITE_DATA_WIDTH;
  localparam bit  Fwft  = (READ_MODE == "fwft");
  localparam int  Lat   = Fwft ? 0 : FIFO_READ_LATENCY;
  localparam int  PtrW  = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int  CntW  = PtrW + 1;  // up to Depth + 2 words (fwft)
  localparam int  Fwft2 = Fwft ? 2 : 0;

  localparam logic [12:0] Adv =
      13'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(USE_ADV_FEATURES)));
  localparam logic [W-1:0] DoutRst =
      W'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(DOUT_RESET_VALUE)));
  localparam logic FullRst = (FULL_RESET_VALUE != 0);

  // Unsupported or out-of-range parameters stop elaboration with one line.
  localparam bit MemTypeOk = FIFO_MEMORY_TYPE == "auto" || FIFO_MEMORY_TYPE == "block" ||
                             FIFO_MEMORY_TYPE == "distributed" || FIFO_MEMORY_TYPE == "ultra";
  localparam bit DepthOk = Depth >= 16 && Depth <= 4194304 && (Depth & (Depth - 1)) == 0;
  localparam bit LatOk = Fwft || (FIFO_READ_LATENCY >= 1 && FIFO_READ_LATENCY <= 100);
  localparam bit ThreshOk = PROG_EMPTY_THRESH >= 3 + Fwft2 && PROG_EMPTY_THRESH <= Depth - 3 - Fwft2 &&
                            PROG_FULL_THRESH >= 3 + Fwft2 && PROG_FULL_THRESH <= Depth - 3 - Fwft2;
  localparam bit CountOk = WR_DATA_COUNT_WIDTH >= 1 && WR_DATA_COUNT_WIDTH <= 23 &&
                           RD_DATA_COUNT_WIDTH >= 1 && RD_DATA_COUNT_WIDTH <= 23;
  localparam bit ConfigOk = ECC_MODE == "no_ecc" && (READ_MODE == "std" || Fwft) && MemTypeOk &&
                            DepthOk && LatOk && ThreshOk && CountOk && W >= 1 && W <= 4096 &&
                            READ_DATA_WIDTH == W && FULL_RESET_VALUE inside {0, 1} &&
                            WAKEUP_TIME inside {0, 2};

  if (ECC_MODE != "no_ecc") begin : g_err_ecc
    $fatal(1, "xpm_fifo_sync stand-in: ECC_MODE \"%s\" is not supported (no_ecc only)", ECC_MODE);
  end
  if (READ_MODE != "std" && !Fwft) begin : g_err_mode
    $fatal(1, "xpm_fifo_sync: READ_MODE \"%s\" must be \"std\" or \"fwft\"", READ_MODE);
  end
  if (!MemTypeOk) begin : g_err_mem
    $fatal(1, "xpm_fifo_sync: FIFO_MEMORY_TYPE \"%s\" must be auto, block, distributed or ultra",
           FIFO_MEMORY_TYPE);
  end
  if (!DepthOk) begin : g_err_depth
    $fatal(1, "xpm_fifo_sync: FIFO_WRITE_DEPTH %0d must be a power of two from 16 to 4194304", Depth);
  end
  if (READ_DATA_WIDTH != W) begin : g_err_asym
    $fatal(1, "xpm_fifo_sync stand-in: READ_DATA_WIDTH %0d != WRITE_DATA_WIDTH %0d is not supported",
           READ_DATA_WIDTH, W);
  end
  if (W < 1 || W > 4096) begin : g_err_width
    $fatal(1, "xpm_fifo_sync: WRITE_DATA_WIDTH %0d must be from 1 to 4096", W);
  end
  if (!LatOk) begin : g_err_lat
    $fatal(1, "xpm_fifo_sync stand-in: READ_MODE \"std\" needs FIFO_READ_LATENCY 1..100, not %0d",
           FIFO_READ_LATENCY);
  end
  if (!ThreshOk) begin : g_err_thresh
    $fatal(1, "xpm_fifo_sync: PROG_EMPTY_THRESH %0d and PROG_FULL_THRESH %0d must be from %0d to %0d",
           PROG_EMPTY_THRESH, PROG_FULL_THRESH, 3 + Fwft2, Depth - 3 - Fwft2);
  end
  if (!CountOk) begin : g_err_count
    $fatal(1, "xpm_fifo_sync: WR_DATA_COUNT_WIDTH %0d and RD_DATA_COUNT_WIDTH %0d must be from 1 to 23",
           WR_DATA_COUNT_WIDTH, RD_DATA_COUNT_WIDTH);
  end
  if (!(FULL_RESET_VALUE inside {0, 1})) begin : g_err_full_rst
    $fatal(1, "xpm_fifo_sync: FULL_RESET_VALUE %0d must be 0 or 1", FULL_RESET_VALUE);
  end
  if (!(WAKEUP_TIME inside {0, 2})) begin : g_err_wakeup
    $fatal(1, "xpm_fifo_sync: WAKEUP_TIME %0d must be 0 or 2", WAKEUP_TIME);
  end
  // Verilated with -Wno-fatal, the lines above only warn: stop at time 0.
  if (!ConfigOk) begin : g_err_run
    initial $fatal(1, "xpm_fifo_sync: unsupported configuration (see the elaboration messages)");
  end

  // ---- Storage --------------------------------------------------------------
  logic [W-1:0]    mem_q [Depth];
  logic [PtrW-1:0] wptr_q, rptr_q;
  logic [CntW-1:0] mem_cnt_q;  // words in the memory array
  logic            busy_q;     // reset in progress

  logic mem_full, mem_empty;
  logic wr_fire, mem_rd;       // a word enters / leaves the memory array
  logic rd_ok;                 // empty is low: a read request is accepted
  logic [CntW-1:0] count;      // words held, as the counts and flags show it
  logic            data_valid_int;

  assign mem_full  = (mem_cnt_q == CntW'(Depth));
  assign mem_empty = (mem_cnt_q == '0);
  assign wr_fire   = wr_en & ~mem_full & ~busy_q;

  always_ff @(posedge wr_clk) begin
    if (rst) begin
      wptr_q    <= '0;
      rptr_q    <= '0;
      mem_cnt_q <= '0;
    end else begin
      if (wr_fire) wptr_q <= wptr_q + 1'b1;
      if (mem_rd)  rptr_q <= rptr_q + 1'b1;
      if (wr_fire != mem_rd) mem_cnt_q <= wr_fire ? mem_cnt_q + 1'b1 : mem_cnt_q - 1'b1;
    end
  end

  // Contents need no reset.
  always_ff @(posedge wr_clk) begin
    if (wr_fire) mem_q[wptr_q] <= din;
  end

  // ---- Read side ------------------------------------------------------------
  if (Fwft) begin : g_fwft
    // Two output registers in front of the memory: ob_q[0] is dout. The memory
    // refills them on the edge a place becomes free.
    logic [W-1:0] ob_q [2];
    logic [1:0]   ob_cnt_q;
    logic [1:0]   keep;        // output words left after this cycle's read
    logic         pop;

    assign rd_ok  = (ob_cnt_q != 2'd0);
    assign pop    = rd_en & rd_ok & ~busy_q;
    assign keep   = ob_cnt_q - {1'b0, pop};
    assign mem_rd = ~mem_empty & ~busy_q & (keep != 2'd2);

    always_ff @(posedge wr_clk) begin
      if (rst) begin
        ob_cnt_q <= '0;
        ob_q[0]  <= DoutRst;
        ob_q[1]  <= DoutRst;
      end else begin
        if (pop && ob_cnt_q == 2'd2) ob_q[0] <= ob_q[1];
        if (mem_rd) begin
          if (keep == 2'd0) ob_q[0] <= mem_q[rptr_q];
          else              ob_q[1] <= mem_q[rptr_q];
        end
        ob_cnt_q <= keep + {1'b0, mem_rd};
      end
    end

    assign dout           = READ_DATA_WIDTH'(ob_q[0]);
    assign empty          = ~rd_ok;
    assign data_valid_int = rd_ok;
    assign count          = mem_cnt_q + CntW'(ob_cnt_q);
  end else begin : g_std
    // Lat registers after the memory; a valid bit travels with each word.
    localparam int Stages = (Lat < 1) ? 1 : Lat;  // Lat 0 has stopped elaboration
    logic [W-1:0]      pipe_q [Stages];
    logic [Stages-1:0] pipe_vld_q;

    assign rd_ok  = ~mem_empty;
    assign mem_rd = rd_en & rd_ok & ~busy_q;

    always_ff @(posedge wr_clk) begin
      if (rst) begin
        pipe_vld_q <= '0;
        for (int k = 0; k < Stages; k++) pipe_q[k] <= DoutRst;
      end else begin
        pipe_vld_q[0] <= mem_rd;
        if (mem_rd) pipe_q[0] <= mem_q[rptr_q];
        for (int k = 1; k < Stages; k++) begin
          pipe_vld_q[k] <= pipe_vld_q[k-1];
          if (pipe_vld_q[k-1]) pipe_q[k] <= pipe_q[k-1];
        end
      end
    end

    assign dout           = READ_DATA_WIDTH'(pipe_q[Stages-1]);
    assign empty          = mem_empty;
    assign data_valid_int = pipe_vld_q[Stages-1];
    assign count          = mem_cnt_q;
  end

  // ---- Flags ----------------------------------------------------------------
  logic wr_ack_q, overflow_q, underflow_q;

  always_ff @(posedge wr_clk) begin
    if (rst) begin
      busy_q      <= 1'b1;
      wr_ack_q    <= 1'b0;
      overflow_q  <= 1'b0;
      underflow_q <= 1'b0;
    end else begin
      busy_q      <= 1'b0;
      wr_ack_q    <= wr_fire;
      overflow_q  <= wr_en & mem_full & ~busy_q;
      underflow_q <= rd_en & ~rd_ok & ~busy_q;
    end
  end

  assign full         = busy_q ? FullRst : mem_full;
  assign almost_full  = Adv[3] & (busy_q ? FullRst : (mem_cnt_q >= CntW'(Depth - 1)));
  assign prog_full    = Adv[1] & (busy_q ? FullRst : (count >= CntW'(PROG_FULL_THRESH)));
  assign overflow     = Adv[0] & overflow_q;
  assign wr_ack       = Adv[4] & wr_ack_q;
  assign wr_rst_busy  = busy_q;

  assign almost_empty = Adv[11] & (count <= CntW'(1));
  assign prog_empty   = Adv[9] & (count <= CntW'(PROG_EMPTY_THRESH));
  assign underflow    = Adv[8] & underflow_q;
  assign data_valid   = Adv[12] & data_valid_int;
  assign rd_rst_busy  = busy_q;

  // A count narrower than CntW shows the most significant bits.
  if (WR_DATA_COUNT_WIDTH >= CntW) begin : g_wr_count_wide
    assign wr_data_count = Adv[2] ? WR_DATA_COUNT_WIDTH'(count) : '0;
  end else begin : g_wr_count_narrow
    assign wr_data_count = Adv[2] ? count[CntW-1 -: WR_DATA_COUNT_WIDTH] : '0;
  end
  if (RD_DATA_COUNT_WIDTH >= CntW) begin : g_rd_count_wide
    assign rd_data_count = Adv[10] ? RD_DATA_COUNT_WIDTH'(count) : '0;
  end else begin : g_rd_count_narrow
    assign rd_data_count = Adv[10] ? count[CntW-1 -: RD_DATA_COUNT_WIDTH] : '0;
  end

  // ---- Misuse messages (SIM_ASSERT_CHK = 1) ---------------------------------
  // The vendor asks that wr_en and rd_en stay low while rst, wr_rst_busy or
  // rd_rst_busy is high; EN_SIM_ASSERT_ERR "error" makes a request then an
  // error (a failed check in this environment), anything else a warning.
  if (SIM_ASSERT_CHK == 1) begin : g_sim_chk
    always_ff @(posedge wr_clk) begin
      if ((rst || busy_q) && (wr_en || rd_en)) begin
        if (EN_SIM_ASSERT_ERR == "error") begin
          $error("xpm_fifo_sync: wr_en=%0b rd_en=%0b while in reset (rst or *_rst_busy)", wr_en, rd_en);
        end else begin
          $warning("xpm_fifo_sync: wr_en=%0b rd_en=%0b while in reset (rst or *_rst_busy)", wr_en, rd_en);
        end
      end
    end
  end

  // No ECC here: the error outputs are constant and the injection inputs, like
  // sleep (no power saving), are in the vendor's port list but have no effect.
  assign sbiterr = 1'b0;
  assign dbiterr = 1'b0;
  logic unused_inputs;
  assign unused_inputs = ^{sleep, injectsbiterr, injectdbiterr};

endmodule
