// The write side of an AXI4 master for a client that writes runs of
// full-width beats: a request (byte address, beats) becomes AW bursts
// (cosim_axi_burst_split: at most 256 beats, never across a 4 KB boundary);
// every burst that goes out queues its length (a FIFO of LenDepth) for the W
// side, which passes the client's beats on in order and marks each burst's
// last beat. B is always ready; the bursts still awaiting their response are
// counted, so idle_o says when everything asked for has been answered.
// WDATA, WSTRB and BRESP are the client's: this module sees only the
// handshake of its beat stream (beat_valid_i, and beat_pop_o when a beat
// leaves). clr_i drops what is left to issue, the queued lengths and the
// counts. The client declares the same AXI ports (cosim_ports.svh:
// COSIM_AXI_WRITE_CLIENT_PORTS) and passes them on by name
// (COSIM_AXI_WRITE_HANDSHAKE_CONNECT).
`include "cosim_assert.svh"
`include "cosim_ports.svh"
`timescale 1ps/1ps  // vendor RTL carries timescales and Verilator wants every module to have one; 1ps keeps the default (message and dump times unchanged)
module cosim_axi_write_bursts #(
  // The splitter's: address bits, bytes per beat (a power of two), bits of a request's beat count.
  parameter int unsigned AddrWidth = 64, DataBytes = 16, BeatsWidth = 32,
  parameter int unsigned LenDepth   = 8,    // bursts issued ahead of their W beats
  parameter int unsigned CountWidth = 16    // bursts awaiting B
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  clr_i,
  `COSIM_BURST_REQUEST_PORTS(AddrWidth, BeatsWidth, 1),
  // The client's next W beat is there; it leaves in this cycle.
  input  logic                  beat_valid_i,
  output logic                  beat_pop_o,
  `COSIM_AXI_WRITE_HANDSHAKE_PORTS(AddrWidth),
  output logic                  idle_o         // nothing to issue, no beat owed, no B outstanding
);

  // AW: the splitter's bursts, each only while its length has room to queue.
  logic                  split_valid, split_idle, len_ready, len_valid, len_pop;
  logic [7:0]            len_head;
  logic [BeatsWidth-1:0] unused_split_left;
  logic [$clog2(LenDepth + 1)-1:0] unused_len_count;
  cosim_axi_burst_split #(.AddrWidth(AddrWidth), .DataBytes(DataBytes), .BeatsWidth(BeatsWidth)) u_split (
    .clk_i, .rst_ni, .clr_i,
    .req_valid_i, .req_ready_o, .req_addr_i, .req_beats_i,
    .ax_valid_o  (split_valid),
    .ax_ready_i  (m_awready_i && len_ready),
    .ax_addr_o   (m_awaddr_o),
    .ax_len_o    (m_awlen_o),
    .idle_o      (split_idle),
    .beats_left_o(unused_split_left)
  );
  assign m_awvalid_o = split_valid && len_ready;

  cosim_fifo_sync #(.Width(8), .Depth(LenDepth)) u_wlen (
    .clk_i, .rst_ni, .clr_i,
    .valid_i (m_awvalid_o && m_awready_i),
    .ready_o (len_ready),
    .data_i  (m_awlen_o),
    .valid_o (len_valid),
    .ready_i (len_pop),
    .data_o  (len_head),
    .count_o (unused_len_count)
  );

  // W: the client's beats inside the burst at the head, WLAST on its last.
  logic [7:0]            wbeat_q;         // beat of the current W burst
  logic [CountWidth-1:0] outstanding_q;   // bursts issued, B not yet seen
  assign m_wvalid_o = beat_valid_i && len_valid;
  assign m_wlast_o  = (wbeat_q == len_head);
  assign beat_pop_o = m_wvalid_o && m_wready_i;
  assign len_pop    = beat_pop_o && m_wlast_o;
  assign m_bready_o = 1'b1;
  assign idle_o     = split_idle && !len_valid && (outstanding_q == '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {wbeat_q, outstanding_q} <= '0;
    end else if (clr_i) begin
      {wbeat_q, outstanding_q} <= '0;
    end else begin
      if (beat_pop_o) wbeat_q <= m_wlast_o ? 8'd0 : wbeat_q + 8'd1;
      outstanding_q <= outstanding_q + ((m_awvalid_o && m_awready_i) ? CountWidth'(1) : '0)
                                     - (m_bvalid_i ? CountWidth'(1) : '0);
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  // A B response only for a burst that was issued (the count never
  // underflows), and a W beat only inside a burst whose AW went out.
  `COSIM_ASSERT_IF(a_b_no_underflow, (outstanding_q != '0) || (m_awvalid_o && m_awready_i), m_bvalid_i,
                   ("cosim_axi_write_bursts: B response without an outstanding burst"), clk_i, !rst_ni || clr_i)
  `COSIM_ASSERT_IF(a_wlast_at_end, wbeat_q <= len_head, m_wvalid_o,
                   ("cosim_axi_write_bursts: W beat %0d past its burst's last (%0d)", wbeat_q, len_head),
                   clk_i, !rst_ni || clr_i)

endmodule
