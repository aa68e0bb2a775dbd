// A 24-bit AXI-Stream test DUT (tests/axis_wide): its TDATA is kept in 4
// bytes by the Verilated model, so its manifest says data_bytes: 3. Each beat
// passes through a one-beat buffer with byte lane i incremented by i + 1;
// TKEEP and TLAST ride along.
`timescale 1ps/1ps
module axis_narrow_top (
  input  logic clk, rst_n,
  input  logic s_axis_tvalid, output logic s_axis_tready,
  input  logic [23:0] s_axis_tdata, input logic [2:0] s_axis_tkeep, input logic s_axis_tlast,
  output logic m_axis_tvalid, input logic m_axis_tready,
  output logic [23:0] m_axis_tdata, output logic [2:0] m_axis_tkeep, output logic m_axis_tlast
);
  // The buffered beat: its payload is one register, loaded and reset together.
  typedef struct packed {
    logic [23:0] data;
    logic [2:0]  keep;
    logic        last;
  } beat_t;
  logic  have_q;
  beat_t beat_q;

  assign s_axis_tready = !have_q || m_axis_tready;
  assign m_axis_tvalid = have_q;
  assign m_axis_tkeep  = beat_q.keep;
  assign m_axis_tlast  = beat_q.last;
  always_comb begin
    for (int i = 0; i < 3; i++) m_axis_tdata[8*i +: 8] = beat_q.data[8*i +: 8] + 8'(i + 1);
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      have_q <= 1'b0;
      beat_q <= '0;
    end else if (s_axis_tvalid && s_axis_tready) begin
      have_q <= 1'b1;
      beat_q <= '{data: s_axis_tdata, keep: s_axis_tkeep, last: s_axis_tlast};
    end else if (m_axis_tready) begin
      have_q <= 1'b0;
    end
  end
endmodule
