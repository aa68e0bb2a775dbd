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

  logic        running_q;
  logic [31:0] cycles_q, pe_busy_q, filt_wait_q, out_wait_q, err_info_q;

  // The flags live in the register block (start clears them first there).
  assign done_set_o  = running_q && done_i;
  assign error_set_o = err_i && !error_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q    <= 1'b0;
      cycles_q     <= '0;
      pe_busy_q    <= '0;
      filt_wait_q  <= '0;
      out_wait_q   <= '0;
      err_info_q   <= '0;
    end else begin
      if (start_i) begin
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
        if (done_i) running_q <= 1'b0;
      end
      // The first error is kept.
      if (!start_i && error_set_o) err_info_q <= {err_desc_i, 12'd0, err_code_i};
    end
  end

  assign cycles_o    = cycles_q;
  assign pe_busy_o   = pe_busy_q;
  assign filt_wait_o = filt_wait_q;
  assign out_wait_o  = out_wait_q;
  assign err_info_o  = err_info_q;

endmodule
