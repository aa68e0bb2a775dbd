// A test DUT (tests/axi_channels) with an AXI4 master that only reads (rd_:
// AR and R) and one that only writes (wr_: AW, W and B), as hand-written DMA
// engines often have: the copy of tests/support/rtl/copy16.sv, its reads on
// rd_ and its writes on wr_.
`timescale 1ps/1ps
module axi_channels_top (  // a channel a line
  input  logic clk, rst_n,
  output logic rd_arvalid, input logic rd_arready, output logic [31:0] rd_araddr, output logic [7:0] rd_arlen,
  input  logic rd_rvalid, output logic rd_rready, input logic [63:0] rd_rdata, input logic rd_rlast,
  output logic wr_awvalid, input logic wr_awready, output logic [31:0] wr_awaddr, output logic [7:0] wr_awlen,
  output logic wr_wvalid, input logic wr_wready, output logic [63:0] wr_wdata, output logic wr_wlast,
  input  logic wr_bvalid, output logic wr_bready,
  output logic done_o
);
  copy16 u_copy (
    .clk, .rst_n,
    .arvalid (rd_arvalid), .arready (rd_arready), .araddr (rd_araddr), .arlen (rd_arlen),
    .rvalid (rd_rvalid), .rready (rd_rready), .rdata (rd_rdata), .rlast (rd_rlast),
    .awvalid (wr_awvalid), .awready (wr_awready), .awaddr (wr_awaddr), .awlen (wr_awlen),
    .wvalid (wr_wvalid), .wready (wr_wready), .wdata (wr_wdata), .wlast (wr_wlast),
    .bvalid (wr_bvalid), .bready (wr_bready), .done_o
  );
endmodule
