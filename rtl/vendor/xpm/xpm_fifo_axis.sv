// Stand-in for the Xilinx parameterized macro xpm_fifo_axis (an AXI4-Stream
// FIFO), written here from its documented behaviour (UG974 / UG953 / UG1344),
// so that user RTL instantiating it Verilates unmodified. Not vendor code;
// module, parameter and port names are the vendor's.
//
// As documented, the FIFO is xpm_fifo_sync ("common_clock": everything on
// s_aclk, m_aclk unused) or xpm_fifo_async ("independent_clock": the slave
// side on s_aclk, the master side on m_aclk, CDC_SYNC_STAGES flip-flops
// between them) in "fwft" mode, the same bodies (cosim_xpm_fifo_sync_core,
// cosim_xpm_fifo_async_core), holding each beat's tdata, tstrb, tkeep, tlast,
// tid, tdest and tuser together as one word. Hence, with the latencies
// documented in those files and rtl/vendor/README.md:
//  - s_axis_tready = not full and not in reset; a beat enters on an s_aclk
//    edge with s_axis_tvalid and s_axis_tready high.
//  - m_axis_tvalid = not empty: the oldest beat is on m_axis_* (first word
//    fall-through); it leaves on an edge of the master side's clock with
//    m_axis_tvalid and m_axis_tready high. A beat stored on edge t is on
//    m_axis_* after edge t + 1 ("common_clock"), or one m_aclk edge after the
//    CDC_SYNC_STAGES-th m_aclk edge after t ("independent_clock").
//  - Capacity FIFO_DEPTH + 2 beats ("common_clock") or FIFO_DEPTH + 1
//    ("independent_clock"), the fwft depths UG974 documents.
//  - s_aresetn (active low, synchronous to s_aclk) empties the FIFO; with two
//    clocks the reset crosses to the master side as in xpm_fifo_async. While
//    a side is in reset s_axis_tready / m_axis_tvalid are low and its counts
//    0; prog_full_axis and almost_full_axis are 0 (FULL_RESET_VALUE 0).
//  - prog_full_axis, wr_data_count_axis, almost_full_axis (slave side) and
//    prog_empty_axis, rd_data_count_axis, almost_empty_axis (master side) are
//    xpm_fifo_sync / xpm_fifo_async's, under USE_ADV_FEATURES bits 1, 2, 3,
//    9, 10, 11 (default "1000": none); counts include the output registers.
// Not covered: PACKET_FIFO "true" (elaboration stops), ECC (sbiterr_axis and
// dbiterr_axis are 0, the injection inputs ignored). SIM_ASSERT_CHK is
// accepted; the AXI-Stream handshake leaves no request to misuse (the FIFO
// refuses beats with s_axis_tready low). CASCADE_HEIGHT, RELATED_CLOCKS,
// FIFO_MEMORY_TYPE and EN_SIM_ASSERT_ERR are accepted without effect.
`timescale 1ns/1ps
module xpm_fifo_axis #(
  /* verilator lint_off UNUSEDPARAM */  // synthesis directives and messages with nothing to model
  parameter int    CASCADE_HEIGHT      = 0,
  parameter string EN_SIM_ASSERT_ERR   = "warning",
  parameter int    SIM_ASSERT_CHK      = 0,
  /* verilator lint_on UNUSEDPARAM */
  parameter int    CDC_SYNC_STAGES     = 2,              // "independent_clock": 2..8
  parameter string CLOCKING_MODE       = "common_clock", // or "independent_clock"
  parameter string ECC_MODE            = "no_ecc",
  parameter int    FIFO_DEPTH          = 2048,           // a power of two, 16..4194304
  parameter string FIFO_MEMORY_TYPE    = "auto",
  parameter string PACKET_FIFO         = "false",        // "false" only here
  parameter int    PROG_EMPTY_THRESH   = 10,
  parameter int    PROG_FULL_THRESH    = 10,
  parameter int    RD_DATA_COUNT_WIDTH = 1,
  parameter int    RELATED_CLOCKS      = 0,
  parameter int    TDATA_WIDTH         = 32,             // 8..2048, a multiple of 8
  parameter int    TDEST_WIDTH         = 1,              // 1..32
  parameter int    TID_WIDTH           = 1,              // 1..32
  parameter int    TUSER_WIDTH         = 1,              // 1..4086
  parameter        USE_ADV_FEATURES    = "1000",         // a hex string, or a number
  parameter int    WR_DATA_COUNT_WIDTH = 1
) (
  input  logic                           s_aclk,
  input  logic                           m_aclk,
  input  logic                           s_aresetn,

  input  logic                           s_axis_tvalid,
  output logic                           s_axis_tready,
  input  logic [TDATA_WIDTH-1:0]         s_axis_tdata,
  input  logic [TDATA_WIDTH/8-1:0]       s_axis_tstrb,
  input  logic [TDATA_WIDTH/8-1:0]       s_axis_tkeep,
  input  logic                           s_axis_tlast,
  input  logic [TID_WIDTH-1:0]           s_axis_tid,
  input  logic [TDEST_WIDTH-1:0]         s_axis_tdest,
  input  logic [TUSER_WIDTH-1:0]         s_axis_tuser,

  output logic                           m_axis_tvalid,
  input  logic                           m_axis_tready,
  output logic [TDATA_WIDTH-1:0]         m_axis_tdata,
  output logic [TDATA_WIDTH/8-1:0]       m_axis_tstrb,
  output logic [TDATA_WIDTH/8-1:0]       m_axis_tkeep,
  output logic                           m_axis_tlast,
  output logic [TID_WIDTH-1:0]           m_axis_tid,
  output logic [TDEST_WIDTH-1:0]         m_axis_tdest,
  output logic [TUSER_WIDTH-1:0]         m_axis_tuser,

  output logic                           prog_full_axis,
  output logic [WR_DATA_COUNT_WIDTH-1:0] wr_data_count_axis,
  output logic                           almost_full_axis,
  output logic                           prog_empty_axis,
  output logic [RD_DATA_COUNT_WIDTH-1:0] rd_data_count_axis,
  output logic                           almost_empty_axis,

  input  logic                           injectsbiterr_axis,
  input  logic                           injectdbiterr_axis,
  output logic                           sbiterr_axis,
  output logic                           dbiterr_axis
);

  localparam bit Async = CLOCKING_MODE == "independent_clock";
  localparam int KeepW = (TDATA_WIDTH / 8 < 1) ? 1 : TDATA_WIDTH / 8;
  // One FIFO word per beat: {tlast, tuser, tdest, tid, tkeep, tstrb, tdata}.
  localparam int W = TDATA_WIDTH + 2 * KeepW + TID_WIDTH + TDEST_WIDTH + TUSER_WIDTH + 1;
  // The flags the ports have (the others have no port and stay off).
  localparam logic [12:0] Adv =
      13'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(USE_ADV_FEATURES))) & 13'h0E0E;

  // ---- Parameter checks: the FIFO's, then the stream's ----------------------
  // The widths are checked below, so the FIFO check sees a valid one.
  cosim_xpm_fifo_check #(
    .MACRO("xpm_fifo_axis"), .ASYNC(Async), .DEPTH_NAME("FIFO_DEPTH"), .SYNC_STAGES(CDC_SYNC_STAGES),
    .RELATED_CLOCKS(RELATED_CLOCKS), .FIFO_MEMORY_TYPE(FIFO_MEMORY_TYPE), .FIFO_WRITE_DEPTH(FIFO_DEPTH),
    .WRITE_DATA_WIDTH(8), .READ_DATA_WIDTH(8), .ECC_MODE(ECC_MODE), .PROG_FULL_THRESH(PROG_FULL_THRESH),
    .WR_DATA_COUNT_WIDTH(WR_DATA_COUNT_WIDTH), .READ_MODE("fwft"), .FIFO_READ_LATENCY(0),
    .PROG_EMPTY_THRESH(PROG_EMPTY_THRESH), .RD_DATA_COUNT_WIDTH(RD_DATA_COUNT_WIDTH)
  ) u_check ();

  localparam bit ModeOk = Async || CLOCKING_MODE == "common_clock";
  localparam bit TdataOk = TDATA_WIDTH >= 8 && TDATA_WIDTH <= 2048 && TDATA_WIDTH % 8 == 0;
  localparam bit SideOk = TID_WIDTH >= 1 && TID_WIDTH <= 32 && TDEST_WIDTH >= 1 && TDEST_WIDTH <= 32 &&
                          TUSER_WIDTH >= 1 && TUSER_WIDTH <= 4086;
  if (!ModeOk) begin : g_err_mode
    $fatal(1, "xpm_fifo_axis: CLOCKING_MODE \"%s\" must be common_clock or independent_clock", CLOCKING_MODE);
  end
  if (PACKET_FIFO != "false") begin : g_err_packet
    $fatal(1, "xpm_fifo_axis stand-in: PACKET_FIFO \"%s\" is not supported (\"false\" only)", PACKET_FIFO);
  end
  if (!TdataOk) begin : g_err_tdata
    $fatal(1, "xpm_fifo_axis: TDATA_WIDTH %0d must be a multiple of 8 from 8 to 2048", TDATA_WIDTH);
  end
  if (!(TID_WIDTH >= 1 && TID_WIDTH <= 32)) begin : g_err_tid
    $fatal(1, "xpm_fifo_axis: TID_WIDTH %0d must be from 1 to 32", TID_WIDTH);
  end
  if (!(TDEST_WIDTH >= 1 && TDEST_WIDTH <= 32)) begin : g_err_tdest
    $fatal(1, "xpm_fifo_axis: TDEST_WIDTH %0d must be from 1 to 32", TDEST_WIDTH);
  end
  if (!(TUSER_WIDTH >= 1 && TUSER_WIDTH <= 4086)) begin : g_err_tuser
    $fatal(1, "xpm_fifo_axis: TUSER_WIDTH %0d must be from 1 to 4086", TUSER_WIDTH);
  end
  // Verilated with -Wno-fatal, the lines above only warn: stop at time 0.
  if (!(ModeOk && PACKET_FIFO == "false" && TdataOk && SideOk)) begin : g_err_run
    initial $fatal(1, "xpm_fifo_axis: unsupported configuration (see the elaboration messages)");
  end

  // ---- The FIFO ---------------------------------------------------------------
  logic [W-1:0] din, dout;
  logic         wr_en, rd_en, full, empty, wr_rst_busy, rd_rst_busy;
  /* verilator lint_off UNUSEDSIGNAL */  // no ports: overflow, wr_ack, underflow, data_valid
  logic         overflow, wr_ack, underflow, data_valid;
  /* verilator lint_on UNUSEDSIGNAL */

  assign din = {s_axis_tlast, s_axis_tuser, s_axis_tdest, s_axis_tid, s_axis_tkeep, s_axis_tstrb, s_axis_tdata};
  assign {m_axis_tlast, m_axis_tuser, m_axis_tdest, m_axis_tid, m_axis_tkeep, m_axis_tstrb, m_axis_tdata} = dout;
  assign s_axis_tready = ~full & ~wr_rst_busy;
  assign m_axis_tvalid = ~empty;
  assign wr_en = s_axis_tvalid & s_axis_tready;
  assign rd_en = m_axis_tready & m_axis_tvalid;

  if (Async) begin : g_two_clocks
    cosim_xpm_fifo_async_core #(
      .MACRO("xpm_fifo_axis"), .W(W), .FIFO_WRITE_DEPTH(FIFO_DEPTH), .STAGES(CDC_SYNC_STAGES), .FWFT(1'b1),
      .FIFO_READ_LATENCY(0), .ADV(Adv), .PROG_FULL_THRESH(PROG_FULL_THRESH),
      .PROG_EMPTY_THRESH(PROG_EMPTY_THRESH), .WR_DATA_COUNT_WIDTH(WR_DATA_COUNT_WIDTH),
      .RD_DATA_COUNT_WIDTH(RD_DATA_COUNT_WIDTH)
    ) u_fifo (
      .sleep(1'b0), .rst(~s_aresetn), .wr_clk(s_aclk), .wr_en, .din, .wr_rst_busy, .full,
      .almost_full(almost_full_axis), .prog_full(prog_full_axis), .overflow, .wr_ack,
      .wr_data_count(wr_data_count_axis), .rd_clk(m_aclk), .rd_en, .dout, .rd_rst_busy, .empty,
      .almost_empty(almost_empty_axis), .prog_empty(prog_empty_axis), .data_valid, .underflow,
      .rd_data_count(rd_data_count_axis), .injectsbiterr(injectsbiterr_axis),
      .injectdbiterr(injectdbiterr_axis), .sbiterr(sbiterr_axis), .dbiterr(dbiterr_axis));
  end else begin : g_one_clock
    cosim_xpm_fifo_sync_core #(
      .MACRO("xpm_fifo_axis"), .W(W), .FIFO_WRITE_DEPTH(FIFO_DEPTH), .FWFT(1'b1), .FIFO_READ_LATENCY(0),
      .ADV(Adv), .PROG_FULL_THRESH(PROG_FULL_THRESH), .PROG_EMPTY_THRESH(PROG_EMPTY_THRESH),
      .WR_DATA_COUNT_WIDTH(WR_DATA_COUNT_WIDTH), .RD_DATA_COUNT_WIDTH(RD_DATA_COUNT_WIDTH)
    ) u_fifo (
      .sleep(1'b0), .rst(~s_aresetn), .wr_clk(s_aclk), .wr_en, .din, .full, .almost_full(almost_full_axis),
      .prog_full(prog_full_axis), .wr_data_count(wr_data_count_axis), .overflow, .wr_ack, .wr_rst_busy,
      .rd_en, .dout, .empty, .almost_empty(almost_empty_axis), .prog_empty(prog_empty_axis),
      .rd_data_count(rd_data_count_axis), .underflow, .data_valid, .rd_rst_busy,
      .injectsbiterr(injectsbiterr_axis), .injectdbiterr(injectdbiterr_axis), .sbiterr(sbiterr_axis),
      .dbiterr(dbiterr_axis));
  end
  // m_aclk: unused with one clock; rd_rst_busy: empty is high then anyway.
  logic unused;
  assign unused = ^{m_aclk, rd_rst_busy};

endmodule
