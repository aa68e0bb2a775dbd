// Synchronous FIFO with valid/ready on both sides, a combinational head
// (data_o is the oldest entry while valid_o) and an occupancy count.
// Storage is an unpacked array written by index, which Verilator models as a
// plain C array: cheap however deep the FIFO is.
`include "cosim_assert.svh"
`timescale 1ps/1ps  // vendor RTL carries timescales and Verilator wants every module to have one; 1ps keeps the default (message and dump times unchanged)
module cosim_fifo_sync #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 4,
  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,    // synchronous flush

  input  logic             valid_i,
  output logic             ready_o,
  input  logic [Width-1:0] data_i,

  output logic             valid_o,
  input  logic             ready_i,
  output logic [Width-1:0] data_o,

  output logic [CntW-1:0]  count_o
);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  wptr_q, rptr_q;
  logic [CntW-1:0]  count_q;

  logic push, pop;
  assign ready_o = (count_q != CntW'(Depth));
  assign valid_o = (count_q != '0);
  assign push    = valid_i & ready_o;
  assign pop     = valid_o & ready_i;
  assign data_o  = mem_q[rptr_q];
  assign count_o = count_q;

  function automatic logic [PtrW-1:0] incr(logic [PtrW-1:0] p);
    return (p == PtrW'(Depth - 1)) ? '0 : p + 1'b1;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
    end else if (clr_i) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
    end else begin
      if (push) wptr_q <= incr(wptr_q);
      if (pop)  rptr_q <= incr(rptr_q);
      if (push != pop) count_q <= push ? count_q + 1'b1 : count_q - 1'b1;
    end
  end

  // Storage needs no reset.
  always_ff @(posedge clk_i) begin
    if (push) mem_q[wptr_q] <= data_i;
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  // Occupancy never exceeds the depth (overflow) and agrees with the pointers:
  // equal pointers mean empty or full, nothing in between (a lost or doubled
  // entry would break this).
  // Immediate assertions in a clocked block: a concurrent one would have the
  // simulator refresh sampled copies of the pointers on every evaluation.
  // Both hold in reset too (everything is zero), so they need no reset gate.
  `COSIM_ASSERT(a_count_le_depth, count_q <= CntW'(Depth),
                ("cosim_fifo_sync: occupancy %0d beyond depth %0d", count_q, Depth), clk_i, 1'b0)
  `COSIM_ASSERT(a_ptrs_agree, (wptr_q == rptr_q) == (count_q == '0 || count_q == CntW'(Depth)),
                ("cosim_fifo_sync: pointers %0d/%0d disagree with occupancy %0d", wptr_q, rptr_q, count_q),
                clk_i, 1'b0)

endmodule
