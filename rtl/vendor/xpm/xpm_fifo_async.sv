// Stand-in for the Xilinx parameterized macro xpm_fifo_async (a FIFO between
// two clock domains), written here from its documented behaviour (UG974 /
// UG953 / UG1344), so that user RTL instantiating it (a Vitis RTL kernel with
// a second clock, ap_clk_2) Verilates unmodified. Not vendor code. Module,
// parameter and port names are the vendor's.
//
// Covered: every parameter and port of the vendor's instantiation template is
// accepted; READ_MODE "std" (FIFO_READ_LATENCY 1..100) and "fwft"; all
// USE_ADV_FEATURES flags; FULL_RESET_VALUE; DOUT_RESET_VALUE; data counts of
// any width; CDC_SYNC_STAGES 2..8. Not covered (elaboration error): ECC, a
// read width different from the write width, "std" with FIFO_READ_LATENCY 0.
// sleep and the ECC injection inputs are accepted and ignored; sbiterr and
// dbiterr are 0; RELATED_CLOCKS changes nothing.
//
// A two-clock design: the write side runs on wr_clk only, the read side on
// rd_clk only, and the memory between them is written on wr_clk and read on
// rd_clk. Each side keeps a binary pointer and its Gray code; a Gray pointer
// crosses to the other side through CDC_SYNC_STAGES flip-flops
// (cosim_xpm_sync). Each side therefore sees the other a few of its own
// edges late: full and wr_data_count may count words already read
// (conservative: never fewer than the FIFO holds), empty and rd_data_count
// may miss words just written (never more than it holds). Latencies, with
// N = CDC_SYNC_STAGES ("the k-th edge after t": an edge at the same instant
// as t does not count):
//  - A write is stored when wr_en is high and full and wr_rst_busy are low on
//    the same wr_clk edge; a read is taken when rd_en is high and empty and
//    rd_rst_busy are low on the same rd_clk edge. Rejected requests change
//    nothing and raise overflow / underflow the next cycle of their clock;
//    wr_ack follows a stored write the next wr_clk cycle.
//  - The memory holds FIFO_WRITE_DEPTH - 1 words, so the FIFO holds
//    FIFO_WRITE_DEPTH - 1 words in "std" and FIFO_WRITE_DEPTH + 1 in "fwft"
//    (two output registers), the effective depths UG974 documents.
//  - A word stored on wr_clk edge t counts on the read side after the N-th
//    rd_clk edge after t: in "std" empty falls and rd_data_count rises then;
//    in "fwft" the word reaches dout (empty low, data_valid high) one rd_clk
//    edge later, when it is the oldest.
//  - "std": a read taken on rd_clk edge r puts its word on dout after edge
//    r + FIFO_READ_LATENCY - 1, with data_valid high for that one cycle; dout
//    holds otherwise.
//  - A word leaving the memory on rd_clk edge r frees its place for the write
//    side (full falls) after the N-th wr_clk edge after r; a read taken on
//    edge r lowers wr_data_count at the same time.
//  - Counts: wr_data_count = words stored minus the reads the write side has
//    seen; rd_data_count = the stored words the read side has seen minus the
//    words read (in "fwft" both include the output registers). A count
//    narrower than log2(FIFO_WRITE_DEPTH)+1 bits shows the top bits.
//    prog_full: wr_data_count >= PROG_FULL_THRESH; almost_full: at most one
//    free place in the memory; prog_empty: rd_data_count <= PROG_EMPTY_THRESH;
//    almost_empty: rd_data_count <= 1. A flag whose USE_ADV_FEATURES bit is
//    clear is held at 0.
//  - Reset: rst (active high, synchronous to wr_clk) empties the write side on
//    the edge that samples it, and starts a handshake with the read side: a
//    request crosses to the read side and an acknowledgement comes back, each
//    through N flip-flops. wr_rst_busy is high from the wr_clk edge after rst
//    until the acknowledgement has come, the request has been withdrawn (rst
//    low) and the acknowledgement has gone again. rd_rst_busy rises after the
//    N-th rd_clk edge after the wr_clk edge that sampled rst (the read side
//    empties on the next rd_clk edge) and falls one rd_clk edge after the
//    withdrawal arrives. With rst high for one edge, wr_rst_busy lasts about
//    2N + 1 wr_clk plus 2N rd_clk cycles, rd_rst_busy about N + 1 wr_clk plus
//    N + 1 rd_clk cycles (with equal clocks and N = 2: 9 and 6 cycles). A rst
//    during the handshake resets the read side again (a further handshake
//    once this one is through; wr_rst_busy stays high throughout). While a
//    side is busy its requests are ignored and its counts read 0; full,
//    almost_full and prog_full show FULL_RESET_VALUE, empty is high. Until
//    the request arrives the read side still serves the words stored before
//    rst: reset with both sides idle, as the vendor asks.
// These latencies are this stand-in's; the vendor documents that the flags
// may take several cycles to follow a write or read across the clocks, so RTL
// that is correct on hardware waits on the flags and on *_rst_busy.
`timescale 1ns/1ps
module xpm_fifo_async #(
  // Memory
  parameter string FIFO_MEMORY_TYPE    = "auto",    // auto, block or distributed
  parameter int    FIFO_WRITE_DEPTH    = 2048,      // a power of two, 16..4194304
  parameter int    WRITE_DATA_WIDTH    = 32,
  parameter int    READ_DATA_WIDTH     = 32,        // must equal WRITE_DATA_WIDTH here
  parameter string ECC_MODE            = "no_ecc",  // no_ecc only here
  /* verilator lint_off UNUSEDPARAM */  // a synthesis directive: no behaviour to model
  parameter int    CASCADE_HEIGHT      = 0,
  /* verilator lint_on UNUSEDPARAM */
  // Clock crossing
  parameter int    CDC_SYNC_STAGES     = 2,         // flip-flops a pointer crosses, 2..8
  parameter int    RELATED_CLOCKS      = 0,         // 0 or 1, no effect
  // Write side (wr_clk)
  parameter int    FULL_RESET_VALUE    = 0,
  parameter int    PROG_FULL_THRESH    = 10,
  parameter int    WR_DATA_COUNT_WIDTH = 1,
  // Read side (rd_clk)
  parameter string READ_MODE           = "std",     // "std" or "fwft"
  parameter int    FIFO_READ_LATENCY   = 1,         // "std": 1..100
  parameter        DOUT_RESET_VALUE    = "0",       // a hex string, or a number
  parameter int    PROG_EMPTY_THRESH   = 10,
  parameter int    RD_DATA_COUNT_WIDTH = 1,
  // Both
  parameter        USE_ADV_FEATURES    = "0707",    // a hex string, or a number
  parameter int    SIM_ASSERT_CHK      = 0,
  parameter string EN_SIM_ASSERT_ERR   = "warning",
  parameter int    WAKEUP_TIME         = 0
) (
  input  logic                           sleep,
  input  logic                           rst,            // synchronous to wr_clk

  // Write side
  input  logic                           wr_clk,
  input  logic                           wr_en,
  input  logic [WRITE_DATA_WIDTH-1:0]    din,
  output logic                           wr_rst_busy,
  output logic                           full,
  output logic                           almost_full,
  output logic                           prog_full,
  output logic                           overflow,
  output logic                           wr_ack,
  output logic [WR_DATA_COUNT_WIDTH-1:0] wr_data_count,

  // Read side
  input  logic                           rd_clk,
  input  logic                           rd_en,
  output logic [READ_DATA_WIDTH-1:0]     dout,
  output logic                           rd_rst_busy,
  output logic                           empty,
  output logic                           almost_empty,
  output logic                           prog_empty,
  output logic                           data_valid,
  output logic                           underflow,
  output logic [RD_DATA_COUNT_WIDTH-1:0] rd_data_count,

  // ECC
  input  logic                           injectsbiterr,
  input  logic                           injectdbiterr,
  output logic                           sbiterr,
  output logic                           dbiterr
);

  // ---- Configuration ------------------------------------------------------
  localparam int Depth = FIFO_WRITE_DEPTH;
  localparam int W     = WRITE_DATA_WIDTH;
  localparam bit Fwft  = (READ_MODE == "fwft");

  localparam logic [12:0] Adv =
      13'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(USE_ADV_FEATURES)));
  localparam logic [W-1:0] DoutRst =
      W'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(DOUT_RESET_VALUE)));

  cosim_xpm_fifo_check #(
    .MACRO("xpm_fifo_async"), .ASYNC(1'b1), .SYNC_STAGES(CDC_SYNC_STAGES), .RELATED_CLOCKS(RELATED_CLOCKS),
    .FIFO_MEMORY_TYPE(FIFO_MEMORY_TYPE), .FIFO_WRITE_DEPTH(Depth), .WRITE_DATA_WIDTH(W),
    .READ_DATA_WIDTH(READ_DATA_WIDTH), .ECC_MODE(ECC_MODE), .FULL_RESET_VALUE(FULL_RESET_VALUE),
    .PROG_FULL_THRESH(PROG_FULL_THRESH), .WR_DATA_COUNT_WIDTH(WR_DATA_COUNT_WIDTH), .READ_MODE(READ_MODE),
    .FIFO_READ_LATENCY(FIFO_READ_LATENCY), .PROG_EMPTY_THRESH(PROG_EMPTY_THRESH),
    .RD_DATA_COUNT_WIDTH(RD_DATA_COUNT_WIDTH), .WAKEUP_TIME(WAKEUP_TIME)
  ) u_check ();

  // The FIFO itself (cosim_xpm_fifo_async_core, shared with xpm_fifo_axis).
  logic [W-1:0] dout_w;
  cosim_xpm_fifo_async_core #(
    .MACRO("xpm_fifo_async"), .W(W), .FIFO_WRITE_DEPTH(Depth), .STAGES(CDC_SYNC_STAGES), .FWFT(Fwft),
    .FIFO_READ_LATENCY(FIFO_READ_LATENCY), .DOUT_RST(DoutRst), .ADV(Adv), .FULL_RESET_VALUE(FULL_RESET_VALUE),
    .PROG_FULL_THRESH(PROG_FULL_THRESH), .PROG_EMPTY_THRESH(PROG_EMPTY_THRESH),
    .WR_DATA_COUNT_WIDTH(WR_DATA_COUNT_WIDTH), .RD_DATA_COUNT_WIDTH(RD_DATA_COUNT_WIDTH),
    .SIM_ASSERT_CHK(SIM_ASSERT_CHK), .EN_SIM_ASSERT_ERR(EN_SIM_ASSERT_ERR)
  ) u_core (
    .sleep, .rst, .wr_clk, .wr_en, .din, .wr_rst_busy, .full, .almost_full, .prog_full, .overflow, .wr_ack,
    .wr_data_count, .rd_clk, .rd_en, .dout(dout_w), .rd_rst_busy, .empty, .almost_empty, .prog_empty,
    .data_valid, .underflow, .rd_data_count, .injectsbiterr, .injectdbiterr, .sbiterr, .dbiterr);
  assign dout = READ_DATA_WIDTH'(dout_w);

endmodule
