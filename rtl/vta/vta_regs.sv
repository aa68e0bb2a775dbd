// Host register block (map in vta_pkg) on the common register bus
// (rtl/common/cosim_reg_slave: valid/ready request and response, byte
// addresses). Holds the run state: start pulse, done and error flags, cycle counter and
// the performance counters.
`include "cosim_ports.svh"

module vta_regs import vta_pkg::*; (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  `COSIM_REG_SLAVE_PORTS(RegAddrWidth),

  output logic                     start_o,
  output logic [31:0]              insn_count_o,
  output logic [31:0]              insn_addr_o,

  input  logic                     finish_i,
  input  logic [3:0]               err_i,       // per engine_e
  input  err_e [3:0]               err_code_i,
  input  logic [NumPerf-1:0][7:0]  perf_inc_i,
  input  logic [31:0]              status_lo_i,

  output logic                     running_o,
  output logic                     done_o,
  output logic                     error_o,
  output err_e                     err_code_o,
  output engine_e                  err_engine_o
);

  logic [31:0] insn_count_q, insn_addr_q, cycles_q;
  logic        running_q, done_q, error_q;
  err_e        err_code_q;
  engine_e     err_engine_q;
  logic [31:0] perf_q [NumPerf];

  logic                    wr, start;
  logic [RegAddrWidth-1:0] acc_addr;
  logic [31:0]             acc_wdata;
  logic [31:0]             rdata;

  `COSIM_REG_SLAVE_INST(RegAddrWidth, wr, acc_addr, acc_wdata, rdata);
  assign start = wr && (acc_addr == RegCtrl) && acc_wdata[0];

  // First engine (lowest index) reporting an error this cycle.
  logic    any_err;
  err_e    new_code;
  engine_e new_engine;
  always_comb begin
    any_err    = |err_i;
    new_code   = ErrNone;
    new_engine = EngFetch;
    for (int e = 3; e >= 0; e--) begin
      if (err_i[e]) begin
        new_code   = err_code_i[e];
        new_engine = engine_e'(e);
      end
    end
  end

  logic [3:0]  perf_sel;
  logic [RegAddrWidth-1:0] perf_off;
  always_comb begin
    perf_off = acc_addr - RegPerfBase;
    perf_sel = perf_off[5:2];
    rdata = '0;
    unique case (acc_addr)
      RegCtrl:      rdata = {29'd0, error_q, done_q, running_q};
      RegCycles:    rdata = cycles_q;
      RegInsnCount: rdata = insn_count_q;
      RegInsnAddr:  rdata = insn_addr_q;
      RegErrInfo:   rdata = {26'd0, err_engine_q, err_code_q};
      RegStatusLo:  rdata = status_lo_i;
      default: begin
        if (acc_addr >= RegPerfBase && perf_off[1:0] == 2'b00 &&
            32'(perf_off[RegAddrWidth-1:2]) < NumPerf) begin
          rdata = perf_q[perf_sel];
        end
      end
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      insn_count_q <= '0;  insn_addr_q <= '0;  cycles_q <= '0;
      running_q <= 1'b0;  done_q <= 1'b0;  error_q <= 1'b0;
      err_code_q <= ErrNone;  err_engine_q <= EngFetch;
    end else begin
      if (wr && acc_addr == RegInsnCount) insn_count_q <= acc_wdata;
      if (wr && acc_addr == RegInsnAddr)  insn_addr_q  <= acc_wdata;
      if (wr && acc_addr == RegCtrl && acc_wdata[1]) done_q <= 1'b0;

      if (running_q) cycles_q <= cycles_q + 32'd1;
      if (finish_i && running_q) begin
        done_q    <= 1'b1;
        running_q <= 1'b0;
      end
      if (any_err && !error_q) begin
        error_q      <= 1'b1;
        err_code_q   <= new_code;
        err_engine_q <= new_engine;
        running_q    <= 1'b0;
      end
      if (start) begin
        running_q  <= 1'b1;
        done_q     <= 1'b0;
        error_q    <= 1'b0;
        err_code_q <= ErrNone;
        cycles_q   <= '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned p = 0; p < NumPerf; p++) perf_q[p] <= '0;
    end else begin
      for (int unsigned p = 0; p < NumPerf; p++) begin
        if (start)                     perf_q[p] <= '0;
        else if (perf_inc_i[p] != '0) perf_q[p] <= perf_q[p] + 32'(perf_inc_i[p]);
      end
    end
  end

  assign start_o      = start;
  assign insn_count_o = insn_count_q;
  assign insn_addr_o  = insn_addr_q;
  assign running_o    = running_q;
  assign done_o       = done_q;
  assign error_o      = error_q;
  assign err_code_o   = err_code_q;
  assign err_engine_o = err_engine_q;

endmodule
