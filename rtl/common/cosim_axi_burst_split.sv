// AXI burst splitter: a request for req_beats_i full-width beats from a
// beat-aligned byte address becomes AXI4 INCR bursts (address, AxLEN) of at
// most MaxBeats beats that never cross a 4 KB boundary, each as long as
// those two limits and the beats left allow. Serves AR and AW alike: the
// data channels are the user's. A new request is accepted once the previous
// one has been fully issued (idle_o); clr_i drops what is left.
//
// NumAddr > 1: the request carries NumAddr addresses that advance together
// (a copy's source and destination); each burst stays inside the 4 KB page
// of every one of them.
`include "cosim_assert.svh"
`include "cosim_ports.svh"
`timescale 1ps/1ps  // vendor RTL carries timescales and Verilator wants every module to have one; 1ps keeps the default (message and dump times unchanged)
module cosim_axi_burst_split #(
  parameter int unsigned AddrWidth  = 64,
  parameter int unsigned DataBytes  = 16,   // bytes per beat, a power of two
  parameter int unsigned BeatsWidth = 32,   // width of the request's beat count
  parameter int unsigned MaxBeats   = 256,  // AXI4 INCR: at most 256
  parameter int unsigned NumAddr    = 1,
  localparam int unsigned BeatShift = $clog2(DataBytes)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  clr_i,

  `COSIM_BURST_REQUEST_PORTS(AddrWidth, BeatsWidth, NumAddr),

  output logic                  ax_valid_o,
  input  logic                  ax_ready_i,
  output logic [NumAddr-1:0][AddrWidth-1:0] ax_addr_o,
  output logic [7:0]            ax_len_o,      // beats - 1

  output logic                  idle_o,
  output logic [BeatsWidth-1:0] beats_left_o   // not yet issued, this burst included
);

  localparam int unsigned BeatsPer4k = 4096 / DataBytes;

  logic [NumAddr-1:0][AddrWidth-1:0] addr_q;
  logic [BeatsWidth-1:0]              left_q;

  // Beats to the nearest 4 KB boundary, then the burst length.
  logic [31:0] to_4k, burst;
  always_comb begin
    to_4k = 32'(BeatsPer4k);
    for (int unsigned a = 0; a < NumAddr; a++) begin
      if (32'(BeatsPer4k) - 32'(addr_q[a][11:BeatShift]) < to_4k) begin
        to_4k = 32'(BeatsPer4k) - 32'(addr_q[a][11:BeatShift]);
      end
    end
    burst = 32'(left_q);
    if (burst > 32'(MaxBeats)) burst = 32'(MaxBeats);
    if (burst > to_4k)         burst = to_4k;
  end

  assign ax_valid_o  = (left_q != '0);
  assign ax_addr_o   = addr_q;
  assign ax_len_o    = 8'(burst - 32'd1);
  assign req_ready_o = (left_q == '0);
  assign idle_o      = (left_q == '0);
  assign beats_left_o = left_q;

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
      for (int unsigned a = 0; a < NumAddr; a++) begin
        addr_q[a] <= addr_q[a] + (AddrWidth'(burst) << BeatShift);
      end
      left_q <= left_q - BeatsWidth'(burst);
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  // AXI: AxVALID stays up with a stable address and length until AxREADY.
  cosim_assert_held #(.Width(NumAddr * AddrWidth + 8), .Name("cosim_axi_burst_split AxVALID")) u_ax_held (
    .clk_i, .rst_ni, .clr_i,
    .valid_i(ax_valid_o), .ready_i(ax_ready_i), .payload_i({ax_addr_o, ax_len_o})
  );
`ifdef COSIM_ASSERT_FULL
  // The full set (the primitive's own tests; a DUT pays for each assertion in
  // simulation speed): legal requests and legal bursts.
  `COSIM_ASSERT_IF(a_req_nonempty, req_beats_i != '0, req_valid_i && req_ready_o,
                   ("cosim_axi_burst_split: request of zero beats"), clk_i, !rst_ni || clr_i)
  for (genvar a = 0; a < NumAddr; a++) begin : g_addr_asrt
    if (BeatShift > 0) begin : g_align
      `COSIM_ASSERT_IF(a_req_aligned, req_addr_i[a][BeatShift-1:0] == '0, req_valid_i && req_ready_o,
                       ("cosim_axi_burst_split: request address %0h not aligned to %0d-byte beats",
                        req_addr_i[a], DataBytes), clk_i, !rst_ni || clr_i)
    end
    // Within the length limit and the 4 KB page of their first byte.
    `COSIM_ASSERT_IF(a_burst_legal,
                     burst != '0 && burst <= 32'(MaxBeats) && 32'(addr_q[a][11:0]) + (burst << BeatShift) <= 32'd4096,
                     ax_valid_o,
                     ("cosim_axi_burst_split: burst of %0d beats at %0h is illegal", burst, addr_q[a]),
                     clk_i, !rst_ni || clr_i)
  end
`endif

endmodule
