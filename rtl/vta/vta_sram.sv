// On-chip buffer: one write port with a per-chunk write mask, NumRd read ports
// with registered (one cycle) read data. A read and a write of the same entry
// in the same cycle return the old contents; the COMPUTE pipeline forwards
// around that. rdata_o holds its value while re_i is low.
module vta_sram #(
  parameter int unsigned Depth      = 1024,
  parameter int unsigned Width      = 128,
  parameter int unsigned ChunkWidth = 128,
  parameter int unsigned NumRd      = 1,
  localparam int unsigned AddrW     = $clog2(Depth),
  localparam int unsigned NumChunk  = Width / ChunkWidth
) (
  input  logic                        clk_i,

  input  logic                        we_i,
  input  logic [AddrW-1:0]            waddr_i,
  input  logic [NumChunk-1:0]         wmask_i,
  input  logic [Width-1:0]            wdata_i,

  input  logic [NumRd-1:0]            re_i,
  input  logic [NumRd-1:0][AddrW-1:0] raddr_i,
  output logic [NumRd-1:0][Width-1:0] rdata_o
);

  logic [Width-1:0] mem_q [Depth];

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      if (&wmask_i) begin
        mem_q[waddr_i] <= wdata_i;
      end else begin
        for (int unsigned c = 0; c < NumChunk; c++) begin
          if (wmask_i[c]) mem_q[waddr_i][c*ChunkWidth +: ChunkWidth] <= wdata_i[c*ChunkWidth +: ChunkWidth];
        end
      end
    end
  end

  for (genvar p = 0; p < NumRd; p++) begin : g_rd
    always_ff @(posedge clk_i) begin
      if (re_i[p]) rdata_o[p] <= mem_q[raddr_i[p]];
    end
  end

endmodule
