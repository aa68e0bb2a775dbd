// A two-clock streaming kernel for the install test (install_test.sh,
// step 9): the free-running kernel's sums (step 8: each 32-bit lane l of a
// 128-bit beat of s0 plus word l % 2 of the 64-bit beat of s2 plus STEP)
// made in a second clock domain, as a Vitis kernel with ap_clk_2 makes them:
// the joined beats cross to ap_clk_2 through one xpm_fifo_async, the sums
// come back to ap_clk through another. Streams and STEP stay on ap_clk; the
// manifest names ap_clk_2 / ap_rst_n_2 under ports.clocks and selects the
// vendor stand-in (vendor: [xpm_fifo_async]). Both FIFOs in first-word
// fall-through mode; nothing is written while a FIFO says its write side is
// in reset.
`timescale 1ns/1ps
`include "@NAME@_joined_ports.svh"
module @NAME@ (
  input  logic         ap_clk,
  input  logic         ap_rst_n,
  input  logic         ap_clk_2,
  input  logic         ap_rst_n_2,
  `@NAME@_JOINED_STREAM_PORTS
);
  localparam int InWidth = 128 + 64 + 16 + 1;   // s0's data, s2's data, TKEEP, TLAST
  localparam int OutWidth = 128 + 16 + 1;

  // ap_clk -> ap_clk_2: the joined input beats.
  logic in_full, in_wr_busy, in_empty, in_rd_busy, in_rd;
  logic [InWidth-1:0] in_dout;
  logic room_in, take;
  assign room_in   = !in_full && !in_wr_busy;
  assign s0_TREADY = room_in && s2_TVALID;
  assign s2_TREADY = room_in && s0_TVALID;
  assign take      = s0_TVALID && s2_TVALID && room_in;

  xpm_fifo_async #(
    .CDC_SYNC_STAGES(2), .DOUT_RESET_VALUE("0"), .ECC_MODE("no_ecc"), .FIFO_MEMORY_TYPE("auto"),
    .FIFO_READ_LATENCY(0), .FIFO_WRITE_DEPTH(16), .FULL_RESET_VALUE(0), .PROG_EMPTY_THRESH(10),
    .PROG_FULL_THRESH(10), .RD_DATA_COUNT_WIDTH(1), .READ_DATA_WIDTH(InWidth), .READ_MODE("fwft"),
    .RELATED_CLOCKS(0), .SIM_ASSERT_CHK(0), .USE_ADV_FEATURES("0000"), .WAKEUP_TIME(0),
    .WRITE_DATA_WIDTH(InWidth), .WR_DATA_COUNT_WIDTH(1)
  ) u_to_clk2 (
    .sleep(1'b0), .rst(!ap_rst_n), .wr_clk(ap_clk), .wr_en(take),
    .din({s0_TDATA, s2_TDATA, s0_TKEEP, s0_TLAST}), .full(in_full), .prog_full(), .wr_data_count(),
    .overflow(), .wr_rst_busy(in_wr_busy), .almost_full(), .wr_ack(),
    .rd_clk(ap_clk_2), .rd_en(in_rd), .dout(in_dout), .empty(in_empty), .prog_empty(), .rd_data_count(),
    .underflow(), .rd_rst_busy(in_rd_busy), .almost_empty(), .data_valid(),
    .injectsbiterr(1'b0), .injectdbiterr(1'b0), .sbiterr(), .dbiterr()
  );

  // ap_clk_2: the sums, straight into the FIFO back.
  logic out_full, out_wr_busy;
  logic [127:0] a;
  logic [63:0] b;
  logic [15:0] keep;
  logic last;
  logic [127:0] sums;
  assign {a, b, keep, last} = in_dout;
  always_comb begin
    for (int l = 0; l < 4; l++) sums[32*l +: 32] = a[32*l +: 32] + b[32*(l%2) +: 32] + STEP;
  end
  assign in_rd = !in_empty && !in_rd_busy && !out_full && !out_wr_busy;

  // ap_clk_2 -> ap_clk: the sums, shown on s1 while the FIFO is not empty.
  logic out_empty, out_rd_busy;
  logic [OutWidth-1:0] out_dout;
  xpm_fifo_async #(
    .CDC_SYNC_STAGES(3), .DOUT_RESET_VALUE("0"), .ECC_MODE("no_ecc"), .FIFO_MEMORY_TYPE("auto"),
    .FIFO_READ_LATENCY(0), .FIFO_WRITE_DEPTH(16), .FULL_RESET_VALUE(0), .PROG_EMPTY_THRESH(10),
    .PROG_FULL_THRESH(10), .RD_DATA_COUNT_WIDTH(1), .READ_DATA_WIDTH(OutWidth), .READ_MODE("fwft"),
    .RELATED_CLOCKS(0), .SIM_ASSERT_CHK(0), .USE_ADV_FEATURES("0000"), .WAKEUP_TIME(0),
    .WRITE_DATA_WIDTH(OutWidth), .WR_DATA_COUNT_WIDTH(1)
  ) u_to_clk (
    .sleep(1'b0), .rst(!ap_rst_n_2), .wr_clk(ap_clk_2), .wr_en(in_rd),
    .din({sums, keep, last}), .full(out_full), .prog_full(), .wr_data_count(),
    .overflow(), .wr_rst_busy(out_wr_busy), .almost_full(), .wr_ack(),
    .rd_clk(ap_clk), .rd_en(s1_TVALID && s1_TREADY), .dout(out_dout), .empty(out_empty), .prog_empty(),
    .rd_data_count(), .underflow(), .rd_rst_busy(out_rd_busy), .almost_empty(), .data_valid(),
    .injectsbiterr(1'b0), .injectdbiterr(1'b0), .sbiterr(), .dbiterr()
  );
  assign s1_TVALID = !out_empty && !out_rd_busy;
  assign {s1_TDATA, s1_TKEEP, s1_TLAST} = out_dout;
endmodule
