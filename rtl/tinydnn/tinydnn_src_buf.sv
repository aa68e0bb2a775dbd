// Source buffer: two banks of bf16 (the next sample streams into one while
// the cores read the other). One write port, one synchronous read port
// shared by all cores (stage 1).
module tinydnn_src_buf
  import tinydnn_pkg::*;
(
  input  logic                clk_i,
  input  logic                we_i,
  input  logic [SrcAddrW-1:0] waddr_i,
  input  logic [15:0]         wdata_i,
  input  logic [SrcAddrW-1:0] raddr_i,
  output logic [15:0]         rdata_o
);

  logic [15:0] mem_q [2 * SrcBankDepth];
  logic [15:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    rdata_q <= mem_q[raddr_i];
  end

  assign rdata_o = rdata_q;

endmodule
