// The body of the one-clock FIFO stand-ins (xpm_fifo_sync; xpm_fifo_axis
// with CLOCKING_MODE "common_clock"), everything on wr_clk: the memory and its
// pointers, the read port (cosim_xpm_fifo_read), the flags
// (cosim_xpm_fifo_flags) and the misuse messages (cosim_xpm_fifo_misuse). The
// behaviour is documented in xpm_fifo_sync.sv; the macro has checked the
// parameters (cosim_xpm_fifo_check) and turned the hex strings into ADV and
// DOUT_RST. MACRO names the macro in the misuse messages.
`timescale 1ns/1ps
module cosim_xpm_fifo_sync_core #(
  parameter string          MACRO               = "xpm_fifo_sync",
  parameter int             W                   = 32,  // WRITE_DATA_WIDTH = READ_DATA_WIDTH
  parameter int             FIFO_WRITE_DEPTH    = 2048,
  parameter bit             FWFT                = 1'b0,
  parameter int             FIFO_READ_LATENCY   = 1,
  parameter logic [W-1:0]   DOUT_RST            = '0,
  parameter logic [12:0]    ADV                 = 13'h0707,
  parameter int             FULL_RESET_VALUE    = 0,
  parameter int             PROG_FULL_THRESH    = 10,
  parameter int             PROG_EMPTY_THRESH   = 10,
  parameter int             WR_DATA_COUNT_WIDTH = 1,
  parameter int             RD_DATA_COUNT_WIDTH = 1,
  parameter int             SIM_ASSERT_CHK      = 0,
  parameter string          EN_SIM_ASSERT_ERR   = "warning"
) (
  input  logic                           sleep,
  input  logic                           rst,
  input  logic                           wr_clk,

  input  logic                           wr_en,
  input  logic [W-1:0]                   din,
  output logic                           full,
  output logic                           almost_full,
  output logic                           prog_full,
  output logic [WR_DATA_COUNT_WIDTH-1:0] wr_data_count,
  output logic                           overflow,
  output logic                           wr_ack,
  output logic                           wr_rst_busy,

  input  logic                           rd_en,
  output logic [W-1:0]                   dout,
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

  localparam int           Depth   = FIFO_WRITE_DEPTH;
  localparam bit           Fwft    = FWFT;
  localparam int           PtrW    = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int           CntW    = PtrW + 1;  // up to Depth + 2 words (fwft)
  localparam logic [12:0]  Adv     = ADV;
  localparam logic [W-1:0] DoutRst = DOUT_RST;

  // ---- Storage --------------------------------------------------------------
  logic [W-1:0]    mem_q [Depth];
  logic [PtrW-1:0] wptr_q, rptr_q;
  logic [CntW-1:0] mem_cnt_q;  // words in the memory array
  logic            busy_q;     // reset in progress

  logic            wr_fire, mem_rd;  // a word enters / leaves the memory array
  logic [1:0]      held;             // fwft: words in the output registers
  logic [CntW-1:0] count;            // words held, as the counts and flags show it

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

  // Both sides are busy the cycle after each rst edge.
  always_ff @(posedge wr_clk) busy_q <= rst;

  // ---- Read side, flags -----------------------------------------------------
  logic [W-1:0] dout_w;
  logic         underflow_int, data_valid_int;
  /* verilator lint_off UNUSEDSIGNAL */
  logic         pop;  // one clock: the counts come from mem_cnt_q and held
  /* verilator lint_on UNUSEDSIGNAL */

  cosim_xpm_fifo_read #(.W(W), .FWFT(Fwft), .LATENCY(FIFO_READ_LATENCY), .DOUT_RST(DoutRst)) u_read (
    .clk(wr_clk), .rst(rst), .busy(busy_q), .rd_en(rd_en), .mem_empty(mem_cnt_q == '0),
    .mem_word(mem_q[rptr_q]), .mem_rd(mem_rd), .pop(pop), .dout(dout_w), .empty(empty),
    .data_valid(data_valid_int), .underflow(underflow_int), .held(held));
  assign dout  = dout_w;
  assign count = mem_cnt_q + CntW'(held);

  cosim_xpm_fifo_flags #(
    .CNT_W(CntW), .ADV(Adv), .FULL_RST(FULL_RESET_VALUE != 0), .PROG_FULL(PROG_FULL_THRESH),
    .PROG_EMPTY(PROG_EMPTY_THRESH), .WR_W(WR_DATA_COUNT_WIDTH), .RD_W(RD_DATA_COUNT_WIDTH)
  ) u_flags (
    .wr_clk, .rst, .wr_busy(busy_q), .wr_en, .mem_full(mem_cnt_q == CntW'(Depth)),
    .mem_almost_full(mem_cnt_q >= CntW'(Depth - 1)), .wr_count(count), .wr_fire, .full, .almost_full,
    .prog_full, .wr_data_count, .overflow, .wr_ack, .rd_busy(busy_q), .rd_count(count), .underflow_int,
    .data_valid_int, .almost_empty, .prog_empty, .rd_data_count, .underflow, .data_valid, .sleep,
    .injectsbiterr, .injectdbiterr, .sbiterr, .dbiterr);

  assign wr_rst_busy = busy_q;
  assign rd_rst_busy = busy_q;

  // ---- Misuse messages (SIM_ASSERT_CHK = 1) ---------------------------------
  cosim_xpm_fifo_misuse #(.MACRO(MACRO), .SIM_ASSERT_CHK(SIM_ASSERT_CHK),
                          .EN_SIM_ASSERT_ERR(EN_SIM_ASSERT_ERR), .REQUEST("wr_en"))
    u_wr_misuse (.clk(wr_clk), .in_reset(rst | busy_q), .request(wr_en));
  cosim_xpm_fifo_misuse #(.MACRO(MACRO), .SIM_ASSERT_CHK(SIM_ASSERT_CHK),
                          .EN_SIM_ASSERT_ERR(EN_SIM_ASSERT_ERR), .REQUEST("rd_en"))
    u_rd_misuse (.clk(wr_clk), .in_reset(rst | busy_q), .request(rd_en));

endmodule
