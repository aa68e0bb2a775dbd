// A user's module as Vitis RTL kernels write them (not house style on
// purpose): an xpm_fifo_sync instantiated the way the vendor's template
// does it, every parameter named (including ones only newer tool versions
// have), USE_ADV_FEATURES as a number, a memory type forwarded from an
// untyped parameter, outputs left open. The test only checks that this
// compiles unmodified against the stand-in (CTest vendor_xpm_user_rtl).
`timescale 1ns / 1ps
module user_stream_buffer #(
  parameter DATA_WIDTH = 64,
  parameter DEPTH      = 512,
  parameter MEM_TYPE   = "block"
) (
  input  wire                  ap_clk,
  input  wire                  ap_rst_n,
  input  wire                  s_valid,
  output wire                  s_ready,
  input  wire [DATA_WIDTH-1:0] s_data,
  output wire                  m_valid,
  input  wire                  m_ready,
  output wire [DATA_WIDTH-1:0] m_data,
  output wire [9:0]            level
);
  wire full, empty, wr_rst_busy, rd_rst_busy;

  xpm_fifo_sync #(
    .CASCADE_HEIGHT(0),
    .DOUT_RESET_VALUE("0"),
    .ECC_MODE("no_ecc"),
    .EN_SIM_ASSERT_ERR("warning"),
    .FIFO_MEMORY_TYPE(MEM_TYPE),
    .FIFO_READ_LATENCY(0),
    .FIFO_WRITE_DEPTH(DEPTH),
    .FULL_RESET_VALUE(1),
    .PROG_EMPTY_THRESH(10),
    .PROG_FULL_THRESH(DEPTH - 10),
    .RD_DATA_COUNT_WIDTH(10),
    .READ_DATA_WIDTH(DATA_WIDTH),
    .READ_MODE("fwft"),
    .SIM_ASSERT_CHK(0),
    .USE_ADV_FEATURES(13'b0_0100_0000_0000),
    .WAKEUP_TIME(0),
    .WRITE_DATA_WIDTH(DATA_WIDTH),
    .WR_DATA_COUNT_WIDTH(10)
  ) u_fifo (
    .almost_empty(),
    .almost_full(),
    .data_valid(),
    .dbiterr(),
    .dout(m_data),
    .empty(empty),
    .full(full),
    .overflow(),
    .prog_empty(),
    .prog_full(),
    .rd_data_count(level),
    .rd_rst_busy(rd_rst_busy),
    .sbiterr(),
    .underflow(),
    .wr_ack(),
    .wr_data_count(),
    .wr_rst_busy(wr_rst_busy),
    .din(s_data),
    .injectdbiterr(1'b0),
    .injectsbiterr(1'b0),
    .rd_en(m_valid & m_ready),
    .rst(~ap_rst_n),
    .sleep(1'b0),
    .wr_clk(ap_clk),
    .wr_en(s_valid & s_ready)
  );

  assign s_ready = ~full & ~wr_rst_busy;
  assign m_valid = ~empty & ~rd_rst_busy;
endmodule
