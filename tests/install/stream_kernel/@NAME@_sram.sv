// The install test's kernel with native memory ports (install_test.sh, step
// 12): C[i] = A[i] + B[i] over int32 (wrapping), its arguments in the
// template's control map (A, B, C byte addresses, LENGTH in bytes) and its
// data through three `sram` interfaces of the manifest instead of AXI4
// masters: a_* and b_* read (a word the cycle after its address, as a block
// RAM gives it), c_* writes under byte enables. Addresses are DRAM byte
// addresses (the manifest's `addressing: byte`).
//
// One word a cycle: in each cycle of the run the next A and B words are
// addressed, and the pair addressed in the cycle before is summed into C.
`include "@NAME@_ports.svh"
`timescale 1ns/1ps
module @NAME@ #(
  `@NAME@_CONTROL_PARAMS
) (
  input  logic ap_clk, ap_rst_n,
  `@NAME@_S_AXI_LITE_PORTS(s_axi_control_, C_S_AXI_CONTROL_ADDR_WIDTH, C_S_AXI_CONTROL_DATA_WIDTH),
  output logic interrupt,
  output logic [31:0] a_addr, output logic a_en, input logic [31:0] a_rdata,
  output logic [31:0] b_addr, output logic b_en, input logic [31:0] b_rdata,
  output logic [31:0] c_addr, output logic [3:0] c_be, output logic [31:0] c_wdata
);

  `@NAME@_CONTROL;

  logic        run_q;       // a call in progress
  logic [29:0] issue_q;     // words addressed so far
  logic [29:0] words_q;     // words of the call
  logic        pend_q;      // a pair addressed in the cycle before: its data is on rdata now
  logic [29:0] pend_idx_q;  // its index

  assign ap_idle  = !run_q;
  assign ap_ready = !run_q && ap_start;

  logic issue;
  assign issue  = run_q && issue_q != words_q;
  assign a_en   = issue;
  assign b_en   = issue;
  assign a_addr = 32'(arg_a) + {issue_q, 2'b00};
  assign b_addr = 32'(arg_b) + {issue_q, 2'b00};
  assign c_be   = pend_q ? 4'hf : 4'h0;
  assign c_addr = 32'(arg_c) + {pend_idx_q, 2'b00};
  assign c_wdata = a_rdata + b_rdata;

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      run_q      <= 1'b0;
      issue_q    <= '0;
      words_q    <= '0;
      pend_q     <= 1'b0;
      pend_idx_q <= '0;
      ap_done    <= 1'b0;
    end else begin
      ap_done <= 1'b0;
      pend_q  <= issue;
      if (issue) begin
        pend_idx_q <= issue_q;
        issue_q    <= issue_q + 1'b1;
      end
      if (!run_q && ap_start) begin
        run_q   <= 1'b1;
        issue_q <= '0;
        words_q <= arg_length[31:2];
      end else if (run_q && !issue && !pend_q) begin
        run_q   <= 1'b0;
        ap_done <= 1'b1;
      end
    end
  end

  logic unused;
  assign unused = ^{arg_a[63:32], arg_b[63:32], arg_c[63:32], arg_length[1:0]};

endmodule
