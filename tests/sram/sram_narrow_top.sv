// A test DUT whose memory words are no whole number of bytes (tests/sram):
// 18-bit words, as an HLS array of ap_fixed<18, ...> has. Reads words
// 0..N-1 through a read-only port (r_addr, r_en, r_rdata, latency 1), and
// writes to word i of a write-only port (w_addr, w_we, w_wdata)
//     y = x == 18'h3ffff ? 18'h2aaaa : x + 1     (18 bits, wrapping)
// `done` rises after the last write. The comparison is there for a
// testbench that left bits above the 18 set on r_rdata.
`timescale 1ps/1ps
module sram_narrow_top #(
  parameter int unsigned N = 64
) (
  input  logic clk, rst_n,
  output logic [15:0] r_addr, output logic r_en, input logic [17:0] r_rdata,
  output logic [15:0] w_addr, output logic w_we, output logic [17:0] w_wdata,
  output logic done
);
  logic [15:0] i_q;        // next word to read
  logic        v_q;        // a read's data arrives this cycle
  logic [15:0] j_q;        // its word

  assign r_en    = i_q < 16'(N);
  assign r_addr  = r_en ? i_q : 16'hffff;
  assign w_we    = v_q;
  assign w_addr  = v_q ? j_q : 16'hffff;
  assign w_wdata = r_rdata == 18'h3ffff ? 18'h2aaaa : r_rdata + 18'd1;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      i_q  <= '0;
      v_q  <= 1'b0;
      j_q  <= '0;
      done <= 1'b0;
    end else begin
      v_q <= r_en;
      j_q <= i_q;
      if (r_en) i_q <= i_q + 16'd1;
      done <= done || (v_q && j_q == 16'(N - 1));
    end
  end
endmodule
