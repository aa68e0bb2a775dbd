// Host register block (map in tf2_pkg) on the common register bus
// (rtl/common/cosim_reg_slave): a request is taken whenever the response
// slot is free; its response (read data, also for writes) follows one cycle
// later.
`include "cosim_ports.svh"

module tf2_regs
  import tf2_pkg::*;
(
  input  logic             clk_i,
  input  logic             rst_ni,

  // The instance's geometry, read back by the host (constants of tf2_top).
  input  logic [31:0]      geometry_i,     // {OCol2D, KTap, OCol3D, NPe}, a byte each
  input  logic [31:0]      feat_depth_i,
  input  logic [31:0]      filter_depth_i,

  `COSIM_REG_SLAVE_PORTS(8),

  output logic             start_o,       // one-cycle pulse
  output logic [AddrW-1:0] desc_addr_o,
  output logic [15:0]      desc_count_o,
  input  logic             busy_i,
  input  logic             done_i,        // pulse: run finished
  input  logic             err_i,         // pulse with err_code_i
  input  err_e             err_code_i,
  input  logic [15:0]      err_desc_i,
  input  logic             pe_busy_i,     // per-cycle events for the counters
  input  logic             filt_wait_i,
  input  logic             out_wait_i,
  output logic             done_o,         // CTRL.done (sticky until start or clear)
  output logic             error_o,        // CTRL.error
  output logic [31:0]      err_info_o      // ERR_INFO
);

  logic             done_q, error_q, running_q;
  logic [31:0]      cycles_q, pe_busy_q, filt_wait_q, out_wait_q;
  logic [AddrW-1:0] desc_addr_q;
  logic [15:0]      desc_count_q;
  logic [31:0]      err_info_q;

  logic        wr, start;
  logic [7:0]  acc_addr;
  logic [31:0] acc_wdata, rdata;

  `COSIM_REG_SLAVE_INST(8, wr, acc_addr, acc_wdata, rdata);
  assign start = wr && (acc_addr == 8'h00) && acc_wdata[0] && !busy_i;

  assign start_o         = start;
  assign desc_addr_o     = desc_addr_q;
  assign desc_count_o    = desc_count_q;
  assign done_o          = done_q;
  assign error_o         = error_q;
  assign err_info_o      = err_info_q;

  always_comb begin
    unique case (acc_addr)
      8'h00: rdata = {28'd0, busy_i, error_q, done_q, 1'b0};
      8'h04: rdata = cycles_q;
      8'h08: rdata = {16'd0, desc_count_q};
      8'h0c: rdata = desc_addr_q;
      8'h10: rdata = err_info_q;
      8'h14: rdata = geometry_i;
      8'h18: rdata = pe_busy_q;
      8'h1c: rdata = filt_wait_q;
      8'h20: rdata = out_wait_q;
      8'h24: rdata = feat_depth_i;
      8'h28: rdata = filter_depth_i;
      default: rdata = 32'd0;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      done_q       <= 1'b0;
      error_q      <= 1'b0;
      running_q    <= 1'b0;
      cycles_q     <= '0;
      pe_busy_q    <= '0;
      filt_wait_q  <= '0;
      out_wait_q   <= '0;
      desc_addr_q  <= '0;
      desc_count_q <= '0;
      err_info_q   <= '0;
    end else begin
      if (wr && acc_addr == 8'h08) desc_count_q <= acc_wdata[15:0];
      if (wr && acc_addr == 8'h0c) desc_addr_q <= acc_wdata;
      if (wr && acc_addr == 8'h00 && acc_wdata[1]) done_q <= 1'b0;
      if (start) begin
        done_q      <= 1'b0;
        error_q     <= 1'b0;
        running_q   <= 1'b1;
        cycles_q    <= '0;
        pe_busy_q   <= '0;
        filt_wait_q <= '0;
        out_wait_q  <= '0;
        err_info_q  <= '0;
      end else if (running_q) begin
        cycles_q <= cycles_q + 32'd1;
        if (pe_busy_i) pe_busy_q <= pe_busy_q + 32'd1;
        if (filt_wait_i) filt_wait_q <= filt_wait_q + 32'd1;
        if (out_wait_i) out_wait_q <= out_wait_q + 32'd1;
        if (done_i) begin
          done_q    <= 1'b1;
          running_q <= 1'b0;
        end
      end
      // The first error is kept.
      if (!start && err_i && !error_q) begin
        error_q    <= 1'b1;
        err_info_q <= {err_desc_i, 12'd0, err_code_i};
      end
    end
  end

endmodule
