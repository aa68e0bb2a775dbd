// Destination buffer: two banks of float32, stored as 64-bit words so the
// stream sender reads one whole output beat (2 x float32) per cycle.
// Ports: one float32 write (stage 5), one synchronous float32 read (stage 3,
// the dW accumulator) and one combinational 64-bit read (stream sender).
module tinydnn_dst_buf
  import tinydnn_pkg::*;
(
  input  logic                clk_i,
  input  logic                we_i,
  input  logic [DstAddrW-1:0] waddr_i,
  input  logic [31:0]         wdata_i,
  input  logic [DstAddrW-1:0] raddr_i,
  output logic [31:0]         rdata_o,
  input  logic [DstAddrW-2:0] tx_addr_i,
  output logic [63:0]         tx_data_o
);

  logic [63:0] mem_q [DstBankDepth];  // 2 banks x DstBankDepth/2 words
  logic [31:0] rdata_q;
  logic [63:0] rword;

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      if (waddr_i[0]) mem_q[waddr_i[DstAddrW-1:1]][63:32] <= wdata_i;
      else            mem_q[waddr_i[DstAddrW-1:1]][31:0]  <= wdata_i;
    end
    rdata_q <= raddr_i[0] ? rword[63:32] : rword[31:0];
  end

  assign rword     = mem_q[raddr_i[DstAddrW-1:1]];
  assign rdata_o   = rdata_q;
  assign tx_data_o = mem_q[tx_addr_i];

endmodule
