// Synchronous RAM: one write port with a write mask of Width / ChunkWidth
// chunks (ChunkWidth = Width: whole words only), NumRd read ports.
//
//   ReadLatency 1: registered reads (block RAM). rdata_o[p] takes the entry
//                  at raddr_i[p] on a clock edge with re_i[p] and holds it
//                  otherwise; a read and a write of the same entry in one
//                  cycle return the old contents.
//   ReadLatency 0: combinational reads (register file); re_i is ignored.
//
// Storage is an unpacked array written by index (a plain C array once
// Verilated) and has no reset.
`include "cosim_assert.svh"
`timescale 1ps/1ps  // vendor RTL carries timescales and Verilator wants every module to have one; 1ps keeps the default (message and dump times unchanged)
module cosim_ram #(
  parameter int unsigned Width       = 32,
  parameter int unsigned Depth       = 1024,
  parameter int unsigned ChunkWidth  = Width,
  parameter int unsigned NumRd       = 1,
  parameter int unsigned ReadLatency = 1,
  localparam int unsigned AddrWidth  = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned NumChunk   = Width / ChunkWidth
) (
  input  logic                            clk_i,

  input  logic                            we_i,
  input  logic [AddrWidth-1:0]            waddr_i,
  input  logic [NumChunk-1:0]             wmask_i,
  input  logic [Width-1:0]                wdata_i,

  /* verilator lint_off UNUSEDSIGNAL */  // ReadLatency 0 has no read enable
  input  logic [NumRd-1:0]                re_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [NumRd-1:0][AddrWidth-1:0] raddr_i,
  output logic [NumRd-1:0][Width-1:0]     rdata_o
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
    if (ReadLatency == 0) begin : g_comb
      assign rdata_o[p] = mem_q[raddr_i[p]];
    end else begin : g_reg
      always_ff @(posedge clk_i) begin
        if (re_i[p]) rdata_o[p] <= mem_q[raddr_i[p]];
      end
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  // The configuration is one the RAM implements.
  if (NumChunk * ChunkWidth != Width || ReadLatency > 1) begin : g_param_err
    $error("cosim_ram: Width %0d must be a multiple of ChunkWidth %0d, ReadLatency 0 or 1",
           Width, ChunkWidth);
  end
  // Accesses stay inside the array when Depth is not a power of two (an
  // address beyond it would lose a write or read garbage).
  if (Depth < (1 << AddrWidth)) begin : g_range_asrt
    `COSIM_ASSERT_IF(a_waddr_in_range, 32'(waddr_i) < Depth, we_i,
                     ("cosim_ram: write address %0d beyond depth %0d", waddr_i, Depth), clk_i, 1'b0)
    for (genvar p = 0; p < NumRd; p++) begin : g_rd
      if (ReadLatency == 1) begin : g_reg
        `COSIM_ASSERT_IF(a_raddr_in_range, 32'(raddr_i[p]) < Depth, re_i[p],
                         ("cosim_ram: read port %0d address %0d beyond depth %0d", p, raddr_i[p], Depth),
                         clk_i, 1'b0)
      end
    end
  end

endmodule
