// Splits a request for `beats` full-width beats from a beat-aligned byte
// address into AXI4 INCR bursts of at most 256 beats that never cross a 4 KB
// boundary. Used for AR (fetch, LOAD, COMPUTE loads) and AW (STORE). A new
// request is accepted once the previous one has been fully issued.
module vta_axi_split #(
  parameter int unsigned AddrWidth = 64,
  parameter int unsigned DataBytes = 16,
  localparam int unsigned BeatsPer4k = 4096 / DataBytes
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 clr_i,

  input  logic                 req_valid_i,
  output logic                 req_ready_o,
  input  logic [AddrWidth-1:0] req_addr_i,
  input  logic [31:0]          req_beats_i,   // > 0

  output logic                 ax_valid_o,
  input  logic                 ax_ready_i,
  output logic [AddrWidth-1:0] ax_addr_o,
  output logic [7:0]           ax_len_o,      // beats - 1

  output logic                 idle_o
);

  localparam int unsigned BeatShift = $clog2(DataBytes);

  logic [AddrWidth-1:0] addr_q;
  logic [31:0]          left_q;

  // Beats until the next 4 KB boundary, then the burst length.
  logic [31:0] to_4k, burst;
  always_comb begin
    to_4k = 32'(BeatsPer4k) - 32'(addr_q[11:BeatShift]);
    burst = left_q;
    if (burst > 32'd256) burst = 32'd256;
    if (burst > to_4k)   burst = to_4k;
  end

  assign ax_valid_o  = (left_q != '0);
  assign ax_addr_o   = addr_q;
  assign ax_len_o    = 8'(burst - 32'd1);
  assign req_ready_o = (left_q == '0);
  assign idle_o      = (left_q == '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      addr_q <= '0;
      left_q <= '0;
    end else if (clr_i) begin
      left_q <= '0;
    end else if (req_valid_i && req_ready_o) begin
      addr_q <= req_addr_i;
      left_q <= req_beats_i;
    end else if (ax_valid_o && ax_ready_i) begin
      addr_q <= addr_q + (AddrWidth'(burst) << BeatShift);
      left_q <= left_q - burst;
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  // AXI: AxVALID stays up with a stable address and length until AxREADY.
  a_ax_stable: assert property (@(posedge clk_i) disable iff (!rst_ni || clr_i)
    ax_valid_o && !ax_ready_i |=> ax_valid_o && $stable(ax_addr_o) && $stable(ax_len_o))
    else $error("vta_axi_split: AxVALID dropped or address / length changed before AxREADY");

endmodule
