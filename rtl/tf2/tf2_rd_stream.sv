// One read client of the AXI master: a command (16-byte aligned address,
// beat count) becomes INCR bursts of at most 256 beats that never cross a
// 4 KB boundary (cosim_axi_burst_split), issued one at a time through the
// read arbiter; the beats come back in order on beat_valid_o / beat_data_o
// (the sink is always ready). done_o pulses after the last beat of the
// command.
`include "cosim_ports.svh"

module tf2_rd_stream
  import tf2_pkg::*;
#(
  parameter int unsigned BeatCntW = 20
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  input  logic                    cmd_valid_i,
  output logic                    cmd_ready_o,
  /* verilator lint_off UNUSEDSIGNAL */  // bits 3:0: beats are 16-byte aligned
  input  logic [AddrW-1:0]        cmd_addr_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [BeatCntW-1:0]     cmd_beats_i,   // >= 1

  output logic                    beat_valid_o,
  output logic [AxiDataWidth-1:0] beat_data_o,
  output logic                    done_o,
  output logic                    err_o,         // pulses on a beat with RRESP != OKAY

  // Towards the arbiter.
  `COSIM_AXI_READ_CLIENT_PORTS(AddrW, AxiDataWidth)
);

  // The splitter holds the beats not yet requested; r_pending_q marks a burst
  // whose beats are still arriving, which blocks the next AR and a new command.
  logic       r_pending_q;
  logic       split_valid, split_idle, unused_split_ready;
  logic [7:0] split_len;
  logic [BeatCntW-1:0] unused_split_left;

  cosim_axi_burst_split #(.AddrWidth(AddrW), .DataBytes(AxiDataWidth / 8), .BeatsWidth(BeatCntW)) u_split (
    .clk_i, .rst_ni,
    .clr_i       (1'b0),
    .req_valid_i (cmd_valid_i && cmd_ready_o),
    .req_ready_o (unused_split_ready),
    .req_addr_i  ({cmd_addr_i[AddrW-1:4], 4'b0}),
    .req_beats_i (cmd_beats_i),
    .ax_valid_o  (split_valid),
    .ax_ready_i  (ar_ready_i && !r_pending_q),
    .ax_addr_o   (ar_addr_o),
    .ax_len_o    (split_len),
    .idle_o      (split_idle),
    .beats_left_o(unused_split_left)
  );

  assign cmd_ready_o  = split_idle && !r_pending_q;
  assign ar_valid_o   = split_valid && !r_pending_q;
  assign ar_len_o     = split_len;
  assign beat_valid_o = r_pending_q && r_valid_i;
  assign beat_data_o  = r_data_i;
  assign err_o        = beat_valid_o && (r_resp_i != 2'b00);
  assign done_o       = beat_valid_o && r_last_i && split_idle;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_pending_q <= 1'b0;
    end else if (ar_valid_o && ar_ready_i) begin
      r_pending_q <= 1'b1;
    end else if (r_pending_q && r_valid_i && r_last_i) begin
      r_pending_q <= 1'b0;
    end
  end

endmodule
