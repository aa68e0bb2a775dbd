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

  logic [31:0] cycles_q, macs_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycles_q <= '0;
      macs_q   <= '0;
    end else if (start_i) begin
      cycles_q <= '0;
      macs_q   <= '0;
    end else begin
      if (busy_i) cycles_q <= cycles_q + 32'd1;
      if (mac_step_i) macs_q <= macs_q + 32'(od_i);
    end
  end

  assign cycles_o = cycles_q;
  assign macs_o   = macs_q;

endmodule
