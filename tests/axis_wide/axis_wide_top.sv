// A wide AXI-Stream test DUT (tests/axis_wide): a 256-bit stream in, a
// 128-bit stream out. Each input beat leaves as two output beats, its low
// half then its high half, every byte XORed with 8'h5a plus its byte lane
// within the input beat (lane i: byte ^ (8'h5a + i)). TKEEP follows the
// bytes; a high half whose TKEEP is all zero is dropped, so the partial last
// beat of a packet leaves as one beat when it fits in 16 bytes. TLAST goes
// on the last beat sent of an input beat with TLAST; TUSER (4 bits) rides
// along unchanged; the output's TSTRB is its TKEEP. One input beat in
// flight, so the input is ready every other beat at best.
`timescale 1ps/1ps
module axis_wide_top (
  input  logic clk, rst_n,
  input  logic s_axis_tvalid, output logic s_axis_tready,
  input  logic [255:0] s_axis_tdata, input logic [31:0] s_axis_tkeep, input logic s_axis_tlast,
  input  logic [3:0] s_axis_tuser,
  output logic m_axis_tvalid, input logic m_axis_tready,
  output logic [127:0] m_axis_tdata, output logic [15:0] m_axis_tkeep, output logic [15:0] m_axis_tstrb,
  output logic m_axis_tlast, output logic [3:0] m_axis_tuser
);
  // The held input beat: its payload is one register, loaded and reset together.
  typedef struct packed {
    logic [255:0] data;
    logic [31:0]  keep;
    logic         last;
    logic [3:0]   user;
  } beat_t;
  logic  have_q;   // an input beat is held
  logic  half_q;   // 0: its low half is next, 1: its high half
  beat_t beat_q;

  logic [255:0] xformed;
  always_comb begin
    for (int i = 0; i < 32; i++) xformed[8*i +: 8] = beat_q.data[8*i +: 8] ^ (8'h5a + 8'(i));
  end

  // The current output beat is the last of its input beat.
  logic final_half;
  assign final_half = half_q || beat_q.keep[31:16] == '0;

  assign s_axis_tready = !have_q;
  assign m_axis_tvalid = have_q;
  assign m_axis_tdata  = half_q ? xformed[255:128] : xformed[127:0];
  assign m_axis_tkeep  = half_q ? beat_q.keep[31:16] : beat_q.keep[15:0];
  assign m_axis_tstrb  = m_axis_tkeep;
  assign m_axis_tlast  = beat_q.last && final_half;
  assign m_axis_tuser  = beat_q.user;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      have_q <= 1'b0;
      half_q <= 1'b0;
      beat_q <= '0;
    end else if (s_axis_tvalid && s_axis_tready) begin
      have_q <= 1'b1;
      half_q <= 1'b0;
      beat_q <= '{data: s_axis_tdata, keep: s_axis_tkeep, last: s_axis_tlast, user: s_axis_tuser};
    end else if (m_axis_tvalid && m_axis_tready) begin
      if (final_half) have_q <= 1'b0;
      else half_q <= 1'b1;
    end
  end
endmodule
