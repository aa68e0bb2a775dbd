// The body of the two-clock FIFO stand-ins (xpm_fifo_async; xpm_fifo_axis
// with CLOCKING_MODE "independent_clock"): the write side on wr_clk, the read
// side on rd_clk, the memory between them, the Gray pointers and the reset
// handshake crossing through STAGES flip-flops (cosim_xpm_sync), the read port
// (cosim_xpm_fifo_read), the flags (cosim_xpm_fifo_flags) and the misuse
// messages (cosim_xpm_fifo_misuse). The behaviour is documented in
// xpm_fifo_async.sv; the macro has checked the parameters
// (cosim_xpm_fifo_check) and turned the hex strings into ADV and DOUT_RST.
// MACRO names the macro in the misuse messages.
`timescale 1ns/1ps
module cosim_xpm_fifo_async_core #(
  parameter string          MACRO               = "xpm_fifo_async",
  parameter int             W                   = 32,  // WRITE_DATA_WIDTH = READ_DATA_WIDTH
  parameter int             FIFO_WRITE_DEPTH    = 2048,
  parameter int             STAGES              = 2,   // CDC_SYNC_STAGES
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
  input  logic                           rst,            // synchronous to wr_clk

  input  logic                           wr_clk,
  input  logic                           wr_en,
  input  logic [W-1:0]                   din,
  output logic                           wr_rst_busy,
  output logic                           full,
  output logic                           almost_full,
  output logic                           prog_full,
  output logic                           overflow,
  output logic                           wr_ack,
  output logic [WR_DATA_COUNT_WIDTH-1:0] wr_data_count,

  input  logic                           rd_clk,
  input  logic                           rd_en,
  output logic [W-1:0]                   dout,
  output logic                           rd_rst_busy,
  output logic                           empty,
  output logic                           almost_empty,
  output logic                           prog_empty,
  output logic                           data_valid,
  output logic                           underflow,
  output logic [RD_DATA_COUNT_WIDTH-1:0] rd_data_count,

  input  logic                           injectsbiterr,
  input  logic                           injectdbiterr,
  output logic                           sbiterr,
  output logic                           dbiterr
);

  localparam int           Depth   = FIFO_WRITE_DEPTH;
  localparam bit           Fwft    = FWFT;
  localparam int           AddrW   = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int           PW      = AddrW + 1;  // pointers and counts: up to Depth + 1 words (fwft)
  localparam int           N       = (STAGES < 2) ? 2 : STAGES;  // others have stopped elaboration
  localparam logic [12:0]  Adv     = ADV;
  localparam logic [W-1:0] DoutRst = DOUT_RST;

  function automatic logic [PW-1:0] gray(logic [PW-1:0] b);
    return PW'(cosim_xpm_pkg::bin2gray(32'(b)));
  endfunction
  function automatic logic [PW-1:0] binary(logic [PW-1:0] g);
    return PW'(cosim_xpm_pkg::gray2bin(32'(g)));
  endfunction

  logic [W-1:0] mem_q [Depth];  // written on wr_clk, read on rd_clk; no reset

  // ---- Write side: wr_clk ---------------------------------------------------
  logic [PW-1:0] wbin_q, wgray_q;   // words stored since reset
  logic [PW-1:0] rgray_w, rpopg_w;  // the read side's pointers, as this side sees them
  logic [PW-1:0] mem_used_w;        // words in the memory, as this side sees it
  logic          wr_fire;
  logic          req_q;             // reset request to the read side
  logic          again_q;           // rst came while the last handshake was closing
  logic          ack_w;             // the read side's reset, as this side sees it
  logic          wr_busy;

  always_ff @(posedge wr_clk) begin
    if (rst) begin
      wbin_q  <= '0;
      wgray_q <= '0;
    end else if (wr_fire) begin
      wbin_q  <= wbin_q + 1'b1;
      wgray_q <= gray(wbin_q + 1'b1);
    end
  end

  always_ff @(posedge wr_clk) begin
    if (wr_fire) mem_q[wbin_q[AddrW-1:0]] <= din;
  end

  // The reset handshake: raise the request with rst; withdraw it once the
  // read side has acknowledged and rst is low; busy until the acknowledgement
  // has fallen. A rst while it falls starts the next handshake after it.
  always_ff @(posedge wr_clk) begin
    if (req_q)       req_q <= rst | ~ack_w;
    else if (!ack_w) req_q <= rst | again_q;
    again_q <= ~req_q & ack_w & (again_q | rst);
  end
  assign wr_busy     = req_q | ack_w | again_q;
  assign wr_rst_busy = wr_busy;
  assign mem_used_w  = wbin_q - binary(rgray_w);

  // ---- Crossings ------------------------------------------------------------
  // The reset request travels with the write pointer (one synchroniser), so
  // the read side sees the pointer return to 0 on the edge the request
  // arrives; the acknowledgement travels with the read pointers.
  logic          rd_rst;            // the request, on rd_clk: the read side resets
  logic [PW-1:0] wgray_r;           // the write pointer, as the read side sees it
  logic [PW-1:0] rbin_q, rgray_q;   // words taken from the memory
  logic [PW-1:0] rpop_q, rpopg_q;   // words taken by reads ("fwft": from the output registers)

  cosim_xpm_sync #(.STAGES(N), .WIDTH(1 + PW)) u_to_rd (
    .clk(rd_clk), .rst(1'b0), .d({req_q, wgray_q}), .q({rd_rst, wgray_r}));
  cosim_xpm_sync #(.STAGES(N), .WIDTH(1 + 2 * PW)) u_to_wr (
    .clk(wr_clk), .rst(1'b0), .d({rd_rst, rgray_q, rpopg_q}), .q({ack_w, rgray_w, rpopg_w}));

  // ---- Read side: rd_clk ----------------------------------------------------
  logic          rd_busy_q, rd_busy;
  logic          mem_rd, pop;
  logic [W-1:0]  dout_w;
  logic [1:0]    held;
  logic          underflow_int, data_valid_int;

  always_ff @(posedge rd_clk) rd_busy_q <= rd_rst;
  assign rd_busy     = rd_rst | rd_busy_q;
  assign rd_rst_busy = rd_busy;

  always_ff @(posedge rd_clk) begin
    if (rd_rst) begin
      rbin_q  <= '0;
      rgray_q <= '0;
      rpop_q  <= '0;
      rpopg_q <= '0;
    end else begin
      if (mem_rd) begin
        rbin_q  <= rbin_q + 1'b1;
        rgray_q <= gray(rbin_q + 1'b1);
      end
      if (pop) begin
        rpop_q  <= rpop_q + 1'b1;
        rpopg_q <= gray(rpop_q + 1'b1);
      end
    end
  end

  cosim_xpm_fifo_read #(.W(W), .FWFT(Fwft), .LATENCY(FIFO_READ_LATENCY), .DOUT_RST(DoutRst)) u_read (
    .clk(rd_clk), .rst(rd_rst), .busy(rd_busy), .rd_en(rd_en), .mem_empty(rbin_q == binary(wgray_r)),
    .mem_word(mem_q[rbin_q[AddrW-1:0]]), .mem_rd(mem_rd), .pop(pop), .dout(dout_w), .empty(empty),
    .data_valid(data_valid_int), .underflow(underflow_int), .held(held));
  assign dout = dout_w;

  // rpop_q + held = rbin_q: the output registers' words still count.
  logic unused_held;
  assign unused_held = ^held;

  // ---- Flags ----------------------------------------------------------------
  cosim_xpm_fifo_flags #(
    .CNT_W(PW), .ADV(Adv), .FULL_RST(FULL_RESET_VALUE != 0), .PROG_FULL(PROG_FULL_THRESH),
    .PROG_EMPTY(PROG_EMPTY_THRESH), .WR_W(WR_DATA_COUNT_WIDTH), .RD_W(RD_DATA_COUNT_WIDTH)
  ) u_flags (
    .wr_clk, .rst, .wr_busy, .wr_en, .wr_fire, .mem_full(mem_used_w >= PW'(Depth - 1)),
    .mem_almost_full(mem_used_w >= PW'(Depth - 2)), .wr_count(wbin_q - binary(rpopg_w)), .full,
    .almost_full, .prog_full, .wr_data_count, .overflow, .wr_ack,
    .rd_busy, .rd_count(binary(wgray_r) - rpop_q), .underflow_int, .data_valid_int, .almost_empty,
    .prog_empty, .rd_data_count, .underflow, .data_valid,
    .sleep, .injectsbiterr, .injectdbiterr, .sbiterr, .dbiterr);

  // ---- Misuse messages (SIM_ASSERT_CHK = 1) ---------------------------------
  cosim_xpm_fifo_misuse #(.MACRO(MACRO), .SIM_ASSERT_CHK(SIM_ASSERT_CHK),
                          .EN_SIM_ASSERT_ERR(EN_SIM_ASSERT_ERR), .REQUEST("wr_en"),
                          .RESET("rst or wr_rst_busy"))
    u_wr_misuse (.clk(wr_clk), .in_reset(rst | wr_busy), .request(wr_en));
  cosim_xpm_fifo_misuse #(.MACRO(MACRO), .SIM_ASSERT_CHK(SIM_ASSERT_CHK),
                          .EN_SIM_ASSERT_ERR(EN_SIM_ASSERT_ERR), .REQUEST("rd_en"),
                          .RESET("rd_rst_busy"))
    u_rd_misuse (.clk(rd_clk), .in_reset(rd_busy), .request(rd_en));

endmodule
