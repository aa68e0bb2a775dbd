// The counters behind the host registers: CYCLES (cycles busy since the last
// start) and MACS (MAC steps times active cores). The register block itself
// (decode, the size and mode registers, CTRL.done) is generated from
// tinydnn.yaml into tinydnn_reg_top.
module tinydnn_run_state
  import tinydnn_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic        busy_i,
  input  logic        mac_step_i,   // one MAC step issued to the active cores
  input  logic [DimW-1:0] od_i,     // active cores (the OD register)
  output logic [31:0] cycles_o,
  output logic [31:0] macs_o
);

  // The counters, cleared together by a start.
  typedef struct packed {
    logic [31:0] cycles, macs;
  } counts_t;
  counts_t cnt_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else if (start_i) begin
      cnt_q <= '0;
    end else begin
      if (busy_i) cnt_q.cycles <= cnt_q.cycles + 32'd1;
      if (mac_step_i) cnt_q.macs <= cnt_q.macs + 32'(od_i);
    end
  end

  assign cycles_o = cnt_q.cycles;
  assign macs_o   = cnt_q.macs;

endmodule
