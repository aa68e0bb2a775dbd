// Drains the cores' hold registers, one core per cycle, through the dW
// accumulator (stage 3) and the one shared normaliser (stages 4 and 5) into
// the destination buffer. Output (core k, position p) lands at float32 word
// bank * DstBankDepth + k * out_per_core + p.
`include "cosim_assert.svh"
module tinydnn_post
  import tinydnn_pkg::*;
(
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                load_i,        // cores copy their sums to hold this edge
  input  logic [CntW-1:0]     pos_i,
  input  sum_t                hold_i [NumCores],
  input  logic [DimW-1:0]     od_i,
  input  logic [CntW-1:0]     out_per_core_i,
  input  logic                dst_bank_i,
  input  logic                dw_acc_i,      // accumulate onto the stored value
  output logic [DstAddrW-1:0] dst_raddr_o,
  input  logic [31:0]         dst_rdata_i,
  output logic                dst_we_o,
  output logic [DstAddrW-1:0] dst_waddr_o,
  output logic [31:0]         dst_wdata_o,
  output logic                busy_o,        // hold registers still in use
  output logic                idle_o         // nothing left in flight
);

  logic             busy_q;
  logic [CoreW-1:0] idx_q;
  logic [CntW-1:0]  pos_q;
  // Wide products for the address math; only the low bits address memory.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0]      off;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [DstAddrW-1:0] addr;

  logic                r3_valid_q, r4_valid_q;
  sum_t                r3_sum_q, r4_sum_q, acc_sum;
  logic [DstAddrW-1:0] r3_addr_q, r4_addr_q;

  always_comb begin
    off  = {28'd0, idx_q} * {19'd0, out_per_core_i} + {19'd0, pos_q};
    addr = {dst_bank_i, off[DstAddrW-2:0]};
  end
  assign dst_raddr_o = addr;

  tinydnn_dst_acc u_acc (
    .y_i   (dst_rdata_i),
    .sum_i (r3_sum_q),
    .sum_o (acc_sum)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      idx_q      <= '0;
      pos_q      <= '0;
      r3_valid_q <= 1'b0;
      r4_valid_q <= 1'b0;
    end else begin
      if (load_i) begin
        busy_q <= 1'b1;
        idx_q  <= '0;
        pos_q  <= pos_i;
      end else if (busy_q) begin
        idx_q <= idx_q + 1'b1;
        if ({4'd0, idx_q} == od_i - 8'd1) busy_q <= 1'b0;
      end
      r3_valid_q <= busy_q;
      r4_valid_q <= r3_valid_q;
    end
  end

  always_ff @(posedge clk_i) begin
    r3_sum_q  <= hold_i[idx_q];
    r3_addr_q <= addr;
    r4_sum_q  <= dw_acc_i ? acc_sum : r3_sum_q;
    r4_addr_q <= r3_addr_q;
  end

  logic        norm_valid;
  logic [31:0] norm_data;
  tinydnn_norm u_norm (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (r4_valid_q),
    .sum_i   (r4_sum_q),
    .addr_i  (r4_addr_q),
    .valid_o (norm_valid),
    .addr_o  (dst_waddr_o),
    .data_o  (norm_data)
  );

  assign dst_wdata_o = norm_data;

  assign dst_we_o = norm_valid;
  assign busy_o   = busy_q;
  assign idle_o   = !busy_q && !r3_valid_q && !r4_valid_q && !norm_valid;

  // ---- Assertions (Verilated with --assert) --------------------------------
  // The hold registers are reloaded only after the last core was drained.
  `COSIM_ASSERT_IF(a_load_idle, !busy_q, load_i,
                   ("tinydnn_post: hold registers reloaded while draining core %0d", idx_q))

endmodule
