// A user's module as Vitis RTL kernels with a second clock write them (not
// house style on purpose): an xpm_fifo_async carries a stream from ap_clk to
// ap_clk_2, an xpm_cdc_single the start flag, an xpm_cdc_pulse the done
// pulse back, each instantiated the way the vendor's templates do it: every
// parameter named (including ones only newer tool versions have), strings
// where strings are documented, outputs left open. The test only checks that
// this compiles unmodified against the stand-ins (CTest vendor_xpm_user_rtl_cdc).
`timescale 1ns / 1ps
module user_cdc_buffer #(
  parameter DATA_WIDTH = 32,
  parameter DEPTH      = 512
) (
  // ap_clk domain: the kernel's clock, the input stream, start and done
  input  wire                  ap_clk, ap_rst_n, ap_start, s_axis_tvalid,
  input  wire [DATA_WIDTH-1:0] s_axis_tdata,
  output wire                  s_axis_tready, ap_done,
  // ap_clk_2 domain: the second clock, the output stream
  input  wire                  ap_clk_2, ap_rst_n_2, done_2, m_axis_tready,
  output wire                  start_2, m_axis_tvalid,
  output wire [DATA_WIDTH-1:0] m_axis_tdata,
  output wire [9:0]            level_2
);
  wire full, empty, wr_rst_busy, rd_rst_busy;

  xpm_fifo_async #(
    .CASCADE_HEIGHT(0),
    .CDC_SYNC_STAGES(3),
    .DOUT_RESET_VALUE("00"),
    .ECC_MODE("no_ecc"),
    .EN_SIM_ASSERT_ERR("warning"),
    .FIFO_MEMORY_TYPE("block"),
    .FIFO_READ_LATENCY(0),
    .FIFO_WRITE_DEPTH(DEPTH),
    .FULL_RESET_VALUE(0),
    .PROG_EMPTY_THRESH(8),
    .PROG_FULL_THRESH(DEPTH - 16),
    .RD_DATA_COUNT_WIDTH(10),
    .READ_DATA_WIDTH(DATA_WIDTH),
    .READ_MODE("fwft"),
    .RELATED_CLOCKS(0),
    .SIM_ASSERT_CHK(1),
    .USE_ADV_FEATURES("1404"),
    .WAKEUP_TIME(0),
    .WRITE_DATA_WIDTH(DATA_WIDTH),
    .WR_DATA_COUNT_WIDTH(10)
  ) u_fifo (
    // ap_clk side
    .rst(~ap_rst_n),
    .wr_clk(ap_clk),
    .wr_en(s_axis_tvalid & s_axis_tready),
    .din(s_axis_tdata),
    .full(full),
    .wr_rst_busy(wr_rst_busy),
    .almost_full(), .prog_full(), .wr_data_count(), .overflow(), .wr_ack(),
    // ap_clk_2 side
    .rd_clk(ap_clk_2),
    .rd_en(m_axis_tvalid & m_axis_tready),
    .dout(m_axis_tdata),
    .empty(empty),
    .rd_rst_busy(rd_rst_busy),
    .rd_data_count(level_2),
    .almost_empty(), .prog_empty(), .underflow(), .data_valid(),
    // not used
    .sleep(1'b0), .injectsbiterr(1'b0), .injectdbiterr(1'b0), .sbiterr(), .dbiterr()
  );

  assign s_axis_tready = ~full & ~wr_rst_busy;
  assign m_axis_tvalid = ~empty & ~rd_rst_busy;

  xpm_cdc_single #(
    .DEST_SYNC_FF(4),
    .INIT_SYNC_FF(0),
    .SIM_ASSERT_CHK(0),
    .SRC_INPUT_REG(1)
  ) u_start (
    .dest_out(start_2),
    .dest_clk(ap_clk_2),
    .src_clk(ap_clk),
    .src_in(ap_start)
  );

  xpm_cdc_pulse #(
    .DEST_SYNC_FF(4),
    .INIT_SYNC_FF(0),
    .REG_OUTPUT(0),
    .RST_USED(1),
    .SIM_ASSERT_CHK(0)
  ) u_done (
    .dest_pulse(ap_done),
    .dest_clk(ap_clk),
    .dest_rst(~ap_rst_n),
    .src_clk(ap_clk_2),
    .src_pulse(done_2),
    .src_rst(~ap_rst_n_2)
  );
endmodule
