// The status outputs of the FIFO stand-ins (xpm_fifo_sync, xpm_fifo_async)
// as their ports show them, from what each side knows: the write side (on
// wr_clk) how full the memory is and how many words it counts, the read side
// how many words it counts. Each side's counts read 0 while that side is busy
// (in reset); full, almost_full and prog_full show FULL_RST then.
//  - A write is stored (wr_fire) when wr_en is high, the memory has a free
//    place and the write side is not busy; overflow is a write refused for
//    full, wr_ack a stored write, each the cycle after.
//  - almost_full: at most one free place in the memory; prog_full: the write
//    count >= PROG_FULL; almost_empty: the read count <= 1; prog_empty: the
//    read count <= PROG_EMPTY.
//  - A count port narrower than CNT_W bits shows the most significant bits.
//  - A flag whose USE_ADV_FEATURES bit (ADV) is clear is held at 0.
// There is no ECC: sbiterr and dbiterr are 0, and the injection inputs, like
// sleep (no power saving), are in the vendor's port list without effect.
`timescale 1ns/1ps
module cosim_xpm_fifo_flags #(
  parameter int          CNT_W      = 5,     // bits of the counts below
  parameter logic [12:0] ADV        = 13'h0707,
  parameter bit          FULL_RST   = 1'b0,
  parameter int          PROG_FULL  = 10,
  parameter int          PROG_EMPTY = 10,
  parameter int          WR_W       = 1,     // WR_DATA_COUNT_WIDTH
  parameter int          RD_W       = 1      // RD_DATA_COUNT_WIDTH
) (
  input  logic             wr_clk,
  input  logic             rst,              // on wr_clk
  // write side, wr_clk
  input  logic             wr_busy,
  input  logic             wr_en,
  input  logic             mem_full,         // no free place in the memory
  input  logic             mem_almost_full,  // at most one
  input  logic [CNT_W-1:0] wr_count,
  output logic             wr_fire,
  output logic             full,
  output logic             almost_full,
  output logic             prog_full,
  output logic [WR_W-1:0]  wr_data_count,
  output logic             overflow,
  output logic             wr_ack,
  // read side
  input  logic             rd_busy,
  input  logic [CNT_W-1:0] rd_count,
  input  logic             underflow_int,
  input  logic             data_valid_int,
  output logic             almost_empty,
  output logic             prog_empty,
  output logic [RD_W-1:0]  rd_data_count,
  output logic             underflow,
  output logic             data_valid,
  // ECC and power saving: not modelled
  input  logic             sleep,
  input  logic             injectsbiterr,
  input  logic             injectdbiterr,
  output logic             sbiterr,
  output logic             dbiterr
);

  logic [CNT_W-1:0] wr_n, rd_n;  // the counts as the ports show them
  assign wr_n = wr_busy ? '0 : wr_count;
  assign rd_n = rd_busy ? '0 : rd_count;

  assign wr_fire = wr_en & ~mem_full & ~wr_busy;

  logic wr_ack_q, overflow_q;
  always_ff @(posedge wr_clk) begin
    if (rst) begin
      wr_ack_q   <= 1'b0;
      overflow_q <= 1'b0;
    end else begin
      wr_ack_q   <= wr_fire;
      overflow_q <= wr_en & mem_full & ~wr_busy;
    end
  end

  assign full          = wr_busy ? FULL_RST : mem_full;
  assign almost_full   = ADV[3] & (wr_busy ? FULL_RST : mem_almost_full);
  assign prog_full     = ADV[1] & (wr_busy ? FULL_RST : (wr_n >= CNT_W'(PROG_FULL)));
  assign wr_data_count = ADV[2] ? WR_W'(cosim_xpm_pkg::count_port(32'(wr_n), CNT_W, WR_W)) : '0;
  assign overflow      = ADV[0] & overflow_q;
  assign wr_ack        = ADV[4] & wr_ack_q;

  assign almost_empty  = ADV[11] & (rd_n <= CNT_W'(1));
  assign prog_empty    = ADV[9] & (rd_n <= CNT_W'(PROG_EMPTY));
  assign rd_data_count = ADV[10] ? RD_W'(cosim_xpm_pkg::count_port(32'(rd_n), CNT_W, RD_W)) : '0;
  assign underflow     = ADV[8] & underflow_int;
  assign data_valid    = ADV[12] & data_valid_int;

  assign sbiterr = 1'b0;
  assign dbiterr = 1'b0;
  logic unused_inputs;
  assign unused_inputs = ^{sleep, injectsbiterr, injectdbiterr};

endmodule
