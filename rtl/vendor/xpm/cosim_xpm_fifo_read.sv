// The read port of the FIFO stand-ins (xpm_fifo_sync on its one clock,
// xpm_fifo_async on rd_clk): what sits between the memory array and dout.
// The FIFO tells it whether the memory holds a word this side may take and
// which word is at the read pointer; it says when that word leaves the memory
// (mem_rd: advance the read pointer) and when the user's read takes a word
// (pop).
//  - "std" (FWFT 0): rd_en with a word in the memory takes it; it reaches
//    dout LATENCY edges later (after edge t + LATENCY - 1 for a read on edge
//    t), with data_valid high for that one cycle; dout holds otherwise.
//  - "fwft": two output registers in front of the memory, the first one dout.
//    The memory refills them one word an edge, on the edge a place becomes
//    free; empty is low and data_valid high while dout holds a word, and
//    rd_en takes it.
// rst (synchronous) empties the registers and sets dout to DOUT_RST; while
// busy (the FIFO's reset in progress on this side) requests are ignored and
// empty is high. underflow is a read refused for empty, the cycle after.
`timescale 1ns/1ps
module cosim_xpm_fifo_read #(
  parameter int           W        = 32,
  parameter bit           FWFT     = 1'b0,
  parameter int           LATENCY  = 1,   // FIFO_READ_LATENCY, "std" only
  parameter logic [W-1:0] DOUT_RST = '0
) (
  input  logic         clk,
  input  logic         rst,
  input  logic         busy,
  input  logic         rd_en,
  input  logic         mem_empty,  // no word in the memory for this side
  input  logic [W-1:0] mem_word,   // the word at the read pointer
  output logic         mem_rd,     // that word leaves the memory on this edge
  output logic         pop,        // the user's read takes a word on this edge
  output logic [W-1:0] dout,
  output logic         empty,
  output logic         data_valid,
  output logic         underflow,  // before USE_ADV_FEATURES
  output logic [1:0]   held        // words in the output registers ("fwft"; 0 in "std")
);

  logic rd_ok;  // a read request would be taken

  if (FWFT) begin : g_fwft
    logic [W-1:0] ob_q [2];  // ob_q[0] is dout
    logic [1:0]   ob_cnt_q;
    logic [1:0]   keep;      // output words left after this edge's read

    assign rd_ok  = (ob_cnt_q != 2'd0) & ~busy;
    assign pop    = rd_en & rd_ok;
    assign keep   = ob_cnt_q - {1'b0, pop};
    assign mem_rd = ~mem_empty & ~busy & (keep != 2'd2);

    always_ff @(posedge clk) begin
      if (rst) begin
        ob_cnt_q <= '0;
        ob_q[0]  <= DOUT_RST;
        ob_q[1]  <= DOUT_RST;
      end else begin
        if (pop && ob_cnt_q == 2'd2) ob_q[0] <= ob_q[1];
        if (mem_rd) begin
          if (keep == 2'd0) ob_q[0] <= mem_word;
          else              ob_q[1] <= mem_word;
        end
        ob_cnt_q <= keep + {1'b0, mem_rd};
      end
    end

    assign dout       = ob_q[0];
    assign data_valid = rd_ok;
    assign held       = ob_cnt_q;
  end else begin : g_std
    // LATENCY registers after the memory; a valid bit travels with each word.
    localparam int Stages = (LATENCY < 1) ? 1 : LATENCY;  // 0 has stopped elaboration
    logic [W-1:0]      pipe_q [Stages];
    logic [Stages-1:0] pipe_vld_q;

    assign rd_ok  = ~mem_empty & ~busy;
    assign pop    = rd_en & rd_ok;
    assign mem_rd = pop;

    always_ff @(posedge clk) begin
      if (rst) begin
        pipe_vld_q <= '0;
        for (int k = 0; k < Stages; k++) pipe_q[k] <= DOUT_RST;
      end else begin
        pipe_vld_q[0] <= mem_rd;
        if (mem_rd) pipe_q[0] <= mem_word;
        for (int k = 1; k < Stages; k++) begin
          pipe_vld_q[k] <= pipe_vld_q[k-1];
          if (pipe_vld_q[k-1]) pipe_q[k] <= pipe_q[k-1];
        end
      end
    end

    assign dout       = pipe_q[Stages-1];
    assign data_valid = pipe_vld_q[Stages-1];
    assign held       = 2'd0;
  end

  assign empty = ~rd_ok;

  logic underflow_q;
  always_ff @(posedge clk) begin
    if (rst) underflow_q <= 1'b0;
    else     underflow_q <= rd_en & ~rd_ok & ~busy;
  end
  assign underflow = underflow_q;

endmodule
