// The run's state behind the host registers: whether a program runs, its
// cycle count, the first error's code and engine, and the performance
// counters. The register block itself (decode, CTRL's done and error flags,
// INSN_COUNT / INSN_ADDR) is generated from vta.yaml into vta_reg_top; this
// module tells it when done and error are set or cleared and what the
// read-only registers hold.
module vta_run_state import vta_pkg::*; (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  input  logic                     start_i,     // CTRL.start written with 1
  input  logic                     finish_i,
  input  logic [3:0]               err_i,       // per engine_e
  input  err_e [3:0]               err_code_i,
  input  logic [NumPerf-1:0][7:0]  perf_inc_i,
  input  logic                     error_i,     // CTRL.error as stored

  output logic                     running_o,
  output logic                     done_set_o,
  output logic                     error_set_o,
  output logic [31:0]              cycles_o,
  output err_e                     err_code_o,
  output engine_e                  err_engine_o,
  output logic [31:0]              perf_o [NumPerf]
);

  // The run's first error: its code and the engine that reported it.
  typedef struct packed {
    err_e    code;
    engine_e engine;
  } first_err_t;
  logic [31:0] cycles_q;
  logic        running_q;
  first_err_t  err_q;
  logic [31:0] perf_q [NumPerf];

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

  // The flags live in the register block: set there, cleared by start.
  assign done_set_o  = finish_i && running_q;
  assign error_set_o = any_err && !error_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycles_q  <= '0;
      running_q <= 1'b0;
      err_q     <= '{code: ErrNone, engine: EngFetch};
    end else begin
      if (running_q) cycles_q <= cycles_q + 32'd1;
      if (finish_i && running_q) running_q <= 1'b0;
      if (error_set_o) begin
        err_q     <= '{code: new_code, engine: new_engine};
        running_q <= 1'b0;
      end
      if (start_i) begin
        running_q  <= 1'b1;
        err_q.code <= ErrNone;
        cycles_q   <= '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned p = 0; p < NumPerf; p++) perf_q[p] <= '0;
    end else begin
      for (int unsigned p = 0; p < NumPerf; p++) begin
        if (start_i)                   perf_q[p] <= '0;
        else if (perf_inc_i[p] != '0) perf_q[p] <= perf_q[p] + 32'(perf_inc_i[p]);
      end
    end
  end

  assign perf_o = perf_q;

  assign running_o    = running_q;
  assign cycles_o     = cycles_q;
  assign err_code_o   = err_q.code;
  assign err_engine_o = err_q.engine;

endmodule
