// A synchroniser of the stand-ins that cross clock domains (xpm_fifo_async,
// xpm_cdc_*): STAGES flip-flops in a row on the destination clock. d, a
// register of the source domain, shows on q after the STAGES-th rising edge
// of clk that follows its change; an edge at the same instant as the source
// edge that changed d still takes the old value (the simulator evaluates both
// clocks' flops on one event, each reading the values from before it). There
// is no metastability in simulation: every value that d holds across a clk
// edge arrives, a value that changes between two clk edges does not.
// rst (synchronous to clk; asynchronous with ASYNC_RST, for
// xpm_cdc_async_rst) loads RST_VALUE into every stage; INIT gives them
// INIT_VALUE at time 0 (the vendor's INIT_SYNC_FF), otherwise the simulator's
// initial value.
`timescale 1ns/1ps
module cosim_xpm_sync #(
  parameter int STAGES     = 2,
  parameter int WIDTH      = 1,
  parameter bit INIT       = 1'b0,
  parameter bit INIT_VALUE = 1'b0,
  parameter bit RST_VALUE  = 1'b0,
  parameter bit ASYNC_RST  = 1'b0
) (
  input  logic             clk,
  input  logic             rst,
  input  logic [WIDTH-1:0] d,
  output logic [WIDTH-1:0] q
);

  localparam int N = (STAGES < 1) ? 1 : STAGES;  // out-of-range values have stopped elaboration
  logic [WIDTH-1:0] stage_q [N];

  if (INIT) begin : g_init
    initial for (int k = 0; k < N; k++) stage_q[k] = {WIDTH{INIT_VALUE}};
  end

  logic [WIDTH-1:0] next [N];  // the row shifted by one
  always_comb begin
    next[0] = d;
    for (int k = 1; k < N; k++) next[k] = stage_q[k-1];
  end

  if (ASYNC_RST) begin : g_async_rst
    always_ff @(posedge clk or posedge rst) begin
      for (int k = 0; k < N; k++) stage_q[k] <= rst ? {WIDTH{RST_VALUE}} : next[k];
    end
  end else begin : g_sync_rst
    always_ff @(posedge clk) begin
      for (int k = 0; k < N; k++) stage_q[k] <= rst ? {WIDTH{RST_VALUE}} : next[k];
    end
  end

  assign q = stage_q[N-1];

endmodule
