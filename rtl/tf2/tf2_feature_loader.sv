// Feature Loader: copies a layer's input map (C16HW, one 128-bit beat per
// 16-channel pixel vector) from DRAM into the feature cache, word 0 first.
`include "cosim_ports.svh"

module tf2_feature_loader
  import tf2_pkg::*;
#(
  parameter int unsigned Depth = DefFeatDepth,
  localparam int unsigned AW = $clog2(Depth)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  input  logic                    start_i,    // pulse; words_i >= 1
  input  logic [AddrW-1:0]        addr_i,
  input  logic [AW:0]             words_i,
  output logic                    done_o,     // pulse after the last word
  output logic                    err_o,

  output logic                    we_o,
  output logic [AW-1:0]           waddr_o,
  output logic [CVec*8-1:0]       wdata_o,

  `COSIM_AXI_READ_CLIENT_PORTS(AddrW, AxiDataWidth)
);

  logic [AW-1:0] wptr_q;
  logic          beat_valid;
  logic [AxiDataWidth-1:0] beat_data;
  logic          cmd_ready;

  tf2_rd_stream #(.BeatCntW(20)) u_stream (
    .clk_i, .rst_ni,
    .cmd_valid_i (start_i),
    .cmd_ready_o (cmd_ready),
    .cmd_addr_i  (addr_i),
    .cmd_beats_i (20'(words_i)),
    .beat_valid_o(beat_valid),
    .beat_data_o (beat_data),
    .done_o,
    .err_o,
    .ar_valid_o, .ar_ready_i, .ar_addr_o, .ar_len_o,
    .r_valid_i, .r_data_i, .r_last_i, .r_resp_i
  );

  assign we_o    = beat_valid;
  assign waddr_o = wptr_q;
  assign wdata_o = beat_data;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= '0;
    end else if (start_i && cmd_ready) begin
      wptr_q <= '0;
    end else if (beat_valid) begin
      wptr_q <= wptr_q + 1'b1;
    end
  end

endmodule
