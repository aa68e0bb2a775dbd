// The run's state behind the host registers: whether a run is in progress,
// its cycle and event counters, and what the first error was. The register
// block itself (decode, CTRL's done and error flags, DESC_COUNT / DESC_ADDR)
// is generated from tf2.yaml into tf2_reg_top; this module tells it when done
// and error are set and what the read-only registers hold.
module tf2_run_state
  import tf2_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,

  input  logic        start_i,       // CTRL.start written with 1 while idle
  input  logic        done_i,        // pulse: run finished
  input  logic        err_i,         // pulse with err_code_i
  input  err_e        err_code_i,
  input  logic [15:0] err_desc_i,
  input  logic        pe_busy_i,     // per-cycle events for the counters
  input  logic        filt_wait_i,
  input  logic        out_wait_i,
  input  logic        error_i,       // CTRL.error as stored

  output logic        done_set_o,
  output logic        error_set_o,
  output logic [31:0] cycles_o,
  output logic [31:0] pe_busy_o,
  output logic [31:0] filt_wait_o,
  output logic [31:0] out_wait_o,
  output logic [31:0] err_info_o     // ERR_INFO
);

  // The run's cycle and event counters, cleared together by a start.
  typedef struct packed {
    logic [31:0] cycles, pe_busy, filt_wait, out_wait;
  } counts_t;
  logic        running_q;
  counts_t     cnt_q;
  logic [31:0] err_info_q;

  // The flags live in the register block (start clears them first there).
  assign done_set_o  = running_q && done_i;
  assign error_set_o = err_i && !error_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q  <= 1'b0;
      cnt_q      <= '0;
      err_info_q <= '0;
    end else begin
      if (start_i) begin
        running_q  <= 1'b1;
        cnt_q      <= '0;
        err_info_q <= '0;
      end else if (running_q) begin
        cnt_q.cycles <= cnt_q.cycles + 32'd1;
        if (pe_busy_i) cnt_q.pe_busy <= cnt_q.pe_busy + 32'd1;
        if (filt_wait_i) cnt_q.filt_wait <= cnt_q.filt_wait + 32'd1;
        if (out_wait_i) cnt_q.out_wait <= cnt_q.out_wait + 32'd1;
        if (done_i) running_q <= 1'b0;
      end
      // The first error is kept.
      if (!start_i && error_set_o) err_info_q <= {err_desc_i, 12'd0, err_code_i};
    end
  end

  assign cycles_o    = cnt_q.cycles;
  assign pe_busy_o   = cnt_q.pe_busy;
  assign filt_wait_o = cnt_q.filt_wait;
  assign out_wait_o  = cnt_q.out_wait;
  assign err_info_o  = err_info_q;

endmodule
