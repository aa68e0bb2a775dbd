// Stand-in for the Xilinx parameterized macro xpm_cdc_handshake (a bus
// crossing with a full handshake), written here from its documented behaviour
// (UG974 / UG953 / UG1344), so that user RTL instantiating it Verilates
// unmodified. Not vendor code; module, parameter and port names are the
// vendor's.
//
// Every documented parameter (DEST_EXT_HSK, DEST_SYNC_FF 2..10, INIT_SYNC_FF,
// SIM_ASSERT_CHK, SRC_SYNC_FF 2..10, VERSION, WIDTH 1..1024) and port. The
// request (src_send, registered on src_clk) crosses through DEST_SYNC_FF
// flip-flops on dest_clk, the acknowledgement back through SRC_SYNC_FF on
// src_clk. Latencies ("the k-th edge after t": an edge at the same instant as
// t does not count):
//  - src_in is registered on the src_clk edge s that first sees src_send high;
//    it is on dest_out after the DEST_SYNC_FF-th dest_clk edge d after s, and
//    dest_out holds it until the next transfer arrives.
//  - DEST_EXT_HSK 1: dest_req rises after d and falls after the
//    DEST_SYNC_FF-th dest_clk edge after the src_clk edge that sees src_send
//    low again. dest_ack is registered on dest_clk; src_rcv rises after the
//    SRC_SYNC_FF-th src_clk edge after the dest_clk edge that registers
//    dest_ack high, and falls likewise after dest_ack low is registered.
//  - DEST_EXT_HSK 0: dest_req is high for the one dest_clk cycle after d, and
//    the stand-in acknowledges itself: src_rcv rises after the SRC_SYNC_FF-th
//    src_clk edge after d, and falls after the SRC_SYNC_FF-th src_clk edge
//    after the dest_clk edge on which src_send's fall arrives (the
//    DEST_SYNC_FF-th after the src_clk edge that sees it); dest_ack is unused.
// The user completes the handshake before the next transfer, as documented:
// src_send high (src_in held) until src_rcv rises, then low until src_rcv
// falls; with DEST_EXT_HSK 1, dest_ack high after dest_req rises, low after it
// falls. SIM_ASSERT_CHK 1 reports a break of these rules as an error: src_send
// raised while src_rcv is high, src_send dropped or src_in changed before
// src_rcv rises (on src_clk), dest_ack raised while dest_req is low (on
// dest_clk). INIT_SYNC_FF 1 starts every flip-flop at 0. VERSION is accepted
// and has no effect.
`timescale 1ns/1ps
module xpm_cdc_handshake #(
  parameter int DEST_EXT_HSK   = 1,
  parameter int DEST_SYNC_FF   = 4,  // 2..10
  parameter int INIT_SYNC_FF   = 0,
  parameter int SIM_ASSERT_CHK = 0,
  parameter int SRC_SYNC_FF    = 4,  // 2..10
  /* verilator lint_off UNUSEDPARAM */  // the vendor's internal revision: nothing to model
  parameter int VERSION        = 0,
  /* verilator lint_on UNUSEDPARAM */
  parameter int WIDTH          = 1   // 1..1024
) (
  input  logic             src_clk,
  input  logic [WIDTH-1:0] src_in,
  input  logic             src_send,
  output logic             src_rcv,
  input  logic             dest_clk,
  output logic             dest_req,
  input  logic             dest_ack,
  output logic [WIDTH-1:0] dest_out
);

  cosim_xpm_cdc_check #(
    .MACRO("xpm_cdc_handshake"), .DEST_SYNC_FF(DEST_SYNC_FF), .SRC_SYNC_FF(SRC_SYNC_FF),
    .INIT_SYNC_FF(INIT_SYNC_FF), .SIM_ASSERT_CHK(SIM_ASSERT_CHK), .DEST_EXT_HSK(DEST_EXT_HSK), .WIDTH(WIDTH),
    .WIDTH_MAX(1024)
  ) u_check ();

  localparam bit Init = INIT_SYNC_FF != 0;
  localparam bit ExtHsk = DEST_EXT_HSK != 0;

  // ---- Source side: src_clk -------------------------------------------------
  logic             send_q;  // the request that crosses
  logic [WIDTH-1:0] data_q;  // src_in, taken when the request rises
  logic             ack;     // the acknowledgement that crosses back

  if (Init) begin : g_init_src
    initial {send_q, data_q} = '0;
  end
  always_ff @(posedge src_clk) begin
    send_q <= src_send;
    if (src_send && !send_q) data_q <= src_in;
  end

  cosim_xpm_sync #(.STAGES(SRC_SYNC_FF), .WIDTH(1), .INIT(Init)) u_to_src (
    .clk(src_clk), .rst(1'b0), .d(ack), .q(src_rcv));

  // ---- Destination side: dest_clk -------------------------------------------
  // DEST_SYNC_FF - 1 flip-flops, then req_q, the last one: dest_out is loaded
  // on the edge req_q rises, from data_q, which has held still since.
  logic             req_d, req_q, ack_q, pulse_q;
  logic [WIDTH-1:0] out_q;

  cosim_xpm_sync #(.STAGES(DEST_SYNC_FF - 1), .WIDTH(1), .INIT(Init)) u_to_dest (
    .clk(dest_clk), .rst(1'b0), .d(send_q), .q(req_d));

  if (Init) begin : g_init_dest
    initial {req_q, ack_q, pulse_q, out_q} = '0;
  end
  always_ff @(posedge dest_clk) begin
    req_q   <= req_d;
    ack_q   <= dest_ack;
    pulse_q <= req_d & ~req_q;
    if (req_d && !req_q) out_q <= data_q;
  end
  assign dest_out = out_q;

  if (ExtHsk) begin : g_ext_hsk
    assign dest_req = req_q;
    assign ack      = ack_q;
    logic unused_pulse;
    assign unused_pulse = pulse_q;
  end else begin : g_int_hsk
    assign dest_req = pulse_q;
    assign ack      = req_q;  // acknowledged as it arrives
  end

  // ---- Misuse messages (SIM_ASSERT_CHK = 1) ---------------------------------
  if (SIM_ASSERT_CHK == 1) begin : g_chk
    always_ff @(posedge src_clk) begin
      if (src_send && !send_q && src_rcv) begin
        $error("xpm_cdc_handshake: src_send raised while src_rcv is high (the last transfer is not complete)");
      end
      if (!src_send && send_q && !src_rcv) begin
        $error("xpm_cdc_handshake: src_send dropped before src_rcv rose");
      end
      if (src_send && send_q && !src_rcv && src_in != data_q) begin
        $error("xpm_cdc_handshake: src_in changed before src_rcv rose");
      end
    end
    if (ExtHsk) begin : g_dest_chk
      always_ff @(posedge dest_clk) begin
        if (dest_ack && !ack_q && !req_q) $error("xpm_cdc_handshake: dest_ack raised while dest_req is low");
      end
    end
  end

  if (!ExtHsk) begin : g_unused_ack
    logic unused;
    assign unused = ^{dest_ack, ack_q};
  end

endmodule
