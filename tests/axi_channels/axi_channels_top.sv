// A test DUT (tests/axi_channels) with an AXI4 master that only reads (rd_:
// AR and R) and one that only writes (wr_: AW, W and B), as hand-written DMA
// engines often have: after reset it reads 16 64-bit beats from 0x1000 over
// rd_, then writes their complements to 0x2000 over wr_, and raises done_o.
`timescale 1ps/1ps
module axi_channels_top (
  input  logic        clk,
  input  logic        rst_n,
  output logic        rd_arvalid,
  input  logic        rd_arready,
  output logic [31:0] rd_araddr,
  output logic [7:0]  rd_arlen,
  input  logic        rd_rvalid,
  output logic        rd_rready,
  input  logic [63:0] rd_rdata,
  input  logic        rd_rlast,
  output logic        wr_awvalid,
  input  logic        wr_awready,
  output logic [31:0] wr_awaddr,
  output logic [7:0]  wr_awlen,
  output logic        wr_wvalid,
  input  logic        wr_wready,
  output logic [63:0] wr_wdata,
  output logic        wr_wlast,
  input  logic        wr_bvalid,
  output logic        wr_bready,
  output logic        done_o
);
  typedef enum logic [2:0] {StAr, StR, StAw, StW, StB, StDone} state_e;
  state_e state;
  logic [63:0] beats[16];
  logic [3:0] beat;
  assign rd_arvalid = state == StAr;
  assign rd_araddr  = 32'h1000;
  assign rd_arlen   = 8'd15;
  assign rd_rready  = state == StR;
  assign wr_awvalid = state == StAw;
  assign wr_awaddr  = 32'h2000;
  assign wr_awlen   = 8'd15;
  assign wr_wvalid  = state == StW;
  assign wr_wdata   = ~beats[beat];
  assign wr_wlast   = beat == 4'd15;
  assign wr_bready  = state == StB;
  assign done_o     = state == StDone;
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state <= StAr;
      beat  <= '0;
    end else begin
      unique case (state)
        StAr: if (rd_arready) state <= StR;
        StR: if (rd_rvalid) begin
          beats[beat] <= rd_rdata;
          beat <= beat + 4'd1;
          if (rd_rlast) state <= StAw;
        end
        StAw: if (wr_awready) state <= StW;
        StW: if (wr_wready) begin
          beat <= beat + 4'd1;
          if (wr_wlast) state <= StB;
        end
        StB: if (wr_bvalid) state <= StDone;
        default: ;
      endcase
    end
  end
endmodule
