// A user's module as hand-written Vivado designs with two clocks write them
// (not house style on purpose): an xpm_fifo_axis carries a stream from
// s_clk to m_clk, xpm_cdc_async_rst and xpm_cdc_sync_rst bring the reset
// across, an xpm_cdc_handshake a configuration word, each instantiated the
// way the vendor's templates do it: every parameter named (VERSION and
// EN_SIM_ASSERT_ERR included), outputs left open. The test only checks that
// this compiles unmodified against the stand-ins (CTest vendor_xpm_user_rtl_axis).
`timescale 1ns / 1ps
module user_axis_bridge (
  input  wire        s_clk, s_rst_n, m_clk,
  input  wire        s_tvalid, s_tlast,
  input  wire [31:0] s_tdata,
  output wire        s_tready,
  output wire        m_tvalid, m_tlast,
  output wire [31:0] m_tdata,
  input  wire        m_tready,
  input  wire [15:0] cfg, input wire cfg_send, output wire cfg_rcv,
  output wire [15:0] m_cfg, output wire m_cfg_req,
  output wire        m_rst_n, m_rst_sync
);
  xpm_cdc_async_rst #(
    .DEST_SYNC_FF(4),
    .INIT_SYNC_FF(0),
    .RST_ACTIVE_HIGH(0)
  ) u_arst (
    .dest_arst(m_rst_n),
    .dest_clk(m_clk),
    .src_arst(s_rst_n)
  );

  xpm_cdc_sync_rst #(
    .DEST_SYNC_FF(4),
    .INIT(1),
    .INIT_SYNC_FF(0),
    .SIM_ASSERT_CHK(0)
  ) u_srst (
    .dest_rst(m_rst_sync),
    .dest_clk(m_clk),
    .src_rst(~s_rst_n)
  );

  xpm_cdc_handshake #(
    .DEST_EXT_HSK(0),
    .DEST_SYNC_FF(4),
    .INIT_SYNC_FF(0),
    .SIM_ASSERT_CHK(0),
    .SRC_SYNC_FF(4),
    .WIDTH(16)
  ) u_cfg (
    .dest_out(m_cfg),
    .dest_req(m_cfg_req),
    .src_rcv(cfg_rcv),
    .dest_ack(1'b0),
    .dest_clk(m_clk),
    .src_clk(s_clk),
    .src_in(cfg),
    .src_send(cfg_send)
  );

  xpm_fifo_axis #(
    .CASCADE_HEIGHT(0),
    .CDC_SYNC_STAGES(2),
    .CLOCKING_MODE("independent_clock"),
    .ECC_MODE("no_ecc"),
    .EN_SIM_ASSERT_ERR("warning"),
    .FIFO_DEPTH(512),
    .FIFO_MEMORY_TYPE("auto"),
    .PACKET_FIFO("false"),
    .PROG_EMPTY_THRESH(10),
    .PROG_FULL_THRESH(10),
    .RD_DATA_COUNT_WIDTH(1),
    .RELATED_CLOCKS(0),
    .SIM_ASSERT_CHK(0),
    .TDATA_WIDTH(32),
    .TDEST_WIDTH(1),
    .TID_WIDTH(1),
    .TUSER_WIDTH(1),
    .USE_ADV_FEATURES("1000"),
    .WR_DATA_COUNT_WIDTH(1)
  ) u_fifo (
    .almost_empty_axis(), .almost_full_axis(), .dbiterr_axis(),
    .m_axis_tdata(m_tdata), .m_axis_tdest(), .m_axis_tid(), .m_axis_tkeep(), .m_axis_tlast(m_tlast),
    .m_axis_tstrb(), .m_axis_tuser(), .m_axis_tvalid(m_tvalid),
    .prog_empty_axis(), .prog_full_axis(), .rd_data_count_axis(),
    .s_axis_tready(s_tready), .sbiterr_axis(), .wr_data_count_axis(),
    .injectdbiterr_axis(1'b0), .injectsbiterr_axis(1'b0),
    .m_aclk(m_clk), .m_axis_tready(m_tready), .s_aclk(s_clk), .s_aresetn(s_rst_n),
    .s_axis_tdata(s_tdata), .s_axis_tdest(1'b0), .s_axis_tid(1'b0), .s_axis_tkeep(4'hF),
    .s_axis_tlast(s_tlast), .s_axis_tstrb(4'hF), .s_axis_tuser(1'b0), .s_axis_tvalid(s_tvalid)
  );
endmodule
