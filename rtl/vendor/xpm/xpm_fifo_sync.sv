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

  localparam logic [12:0] Adv =
      13'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(USE_ADV_FEATURES)));
  localparam logic [W-1:0] DoutRst =
      W'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(DOUT_RESET_VALUE)));

  // Unsupported or out-of-range parameters stop elaboration with one line.
  cosim_xpm_fifo_check #(
    .MACRO("xpm_fifo_sync"), .ECC_MODE(ECC_MODE), .FIFO_MEMORY_TYPE(FIFO_MEMORY_TYPE),
    .FIFO_READ_LATENCY(FIFO_READ_LATENCY), .FIFO_WRITE_DEPTH(Depth), .FULL_RESET_VALUE(FULL_RESET_VALUE),
    .PROG_EMPTY_THRESH(PROG_EMPTY_THRESH), .PROG_FULL_THRESH(PROG_FULL_THRESH),
    .RD_DATA_COUNT_WIDTH(RD_DATA_COUNT_WIDTH), .READ_DATA_WIDTH(READ_DATA_WIDTH), .READ_MODE(READ_MODE),
    .WAKEUP_TIME(WAKEUP_TIME), .WRITE_DATA_WIDTH(W), .WR_DATA_COUNT_WIDTH(WR_DATA_COUNT_WIDTH)
  ) u_check ();

  // The FIFO itself (cosim_xpm_fifo_sync_core, shared with xpm_fifo_axis).
  logic [W-1:0] dout_w;
  cosim_xpm_fifo_sync_core #(
    .MACRO("xpm_fifo_sync"), .W(W), .FIFO_WRITE_DEPTH(Depth), .FWFT(Fwft), .FIFO_READ_LATENCY(FIFO_READ_LATENCY),
    .DOUT_RST(DoutRst), .ADV(Adv), .FULL_RESET_VALUE(FULL_RESET_VALUE), .PROG_FULL_THRESH(PROG_FULL_THRESH),
    .PROG_EMPTY_THRESH(PROG_EMPTY_THRESH), .WR_DATA_COUNT_WIDTH(WR_DATA_COUNT_WIDTH),
    .RD_DATA_COUNT_WIDTH(RD_DATA_COUNT_WIDTH), .SIM_ASSERT_CHK(SIM_ASSERT_CHK), .EN_SIM_ASSERT_ERR(EN_SIM_ASSERT_ERR)
  ) u_core (
    .sleep, .rst, .wr_clk, .wr_en, .din, .full, .almost_full, .prog_full, .wr_data_count, .overflow, .wr_ack,
    .wr_rst_busy, .rd_en, .dout(dout_w), .empty, .almost_empty, .prog_empty, .rd_data_count, .underflow,
    .data_valid, .rd_rst_busy, .injectsbiterr, .injectdbiterr, .sbiterr, .dbiterr);
  assign dout = READ_DATA_WIDTH'(dout_w);

endmodule
