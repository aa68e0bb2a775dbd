// A test DUT with native memory ports (tests/sram): no AXI, the pins a
// course accelerator's memory port has. Not an accelerator: never added with
// cosim_add_dut; its manifests (sram_w1.yaml, sram_b2.yaml) bind it at two
// read latencies and both addressings.
//
// After reset, two engines run at once and `done` rises when both are over:
//   - copy: reads words 0..N-1 through the read-only port (addr_r, en_r,
//     data_r), one per cycle, pipelined, expecting each word LAT_A cycles
//     after its address; writes word i, each byte plus one (no carry between
//     bytes), through the write-only port (addr_w, BYTE_WRITE, data_w) to
//     word i, bytes enabled by i % 4: 1111, 0101, 1010, 0001.
//   - rmw: through one port (b_addr, b_en, b_we, b_wdata, b_rdata) reads
//     word j, waits LAT_B cycles for it, writes j back as 3 * word + 1
//     (32 bits, wrapping), idles one cycle, for j = 0..N-1.
// BYTE_A / BYTE_B: the ports' addresses count bytes (4 per word), else words;
// rmw's byte addresses have j % 4 in their low two bits, which a memory of
// 32-bit words ignores.
// When a port does nothing its address is 16'hffff and its enables low
// (b_we high while idle): a testbench that ignored them would go out of range.
`timescale 1ps/1ps
module sram_dut_top #(
  parameter int unsigned LAT_A = 1,
  parameter int unsigned BYTE_A = 0,
  parameter int unsigned LAT_B = 2,
  parameter int unsigned BYTE_B = 0,
  parameter int unsigned N = 16
) (
  input  logic clk, rst_n,
  // copy: its read-only port, then its write-only port
  output logic [15:0] addr_r, output logic en_r, input logic [31:0] data_r,
  output logic [15:0] addr_w, output logic [3:0] BYTE_WRITE, output logic [31:0] data_w,
  // rmw: its read/write port
  output logic [15:0] b_addr, output logic b_en, output logic b_we, output logic [31:0] b_wdata,
  input  logic [31:0] b_rdata,
  output logic done
);
  // ---- copy -------------------------------------------------------------
  logic [15:0] rd_i;                // next word to read
  logic [15:0] wr_n;                // words written
  logic        v_q [LAT_A];         // a read's data arrives LAT_A cycles on
  logic [15:0] i_q [LAT_A];
  logic        issue, arrive;
  logic [15:0] wi;

  assign issue  = rd_i < 16'(N);
  assign en_r   = issue;
  assign addr_r = !issue ? 16'hffff : BYTE_A != 0 ? rd_i << 2 : rd_i;
  assign arrive = v_q[LAT_A-1];
  assign wi     = i_q[LAT_A-1];

  always_comb begin
    for (int b = 0; b < 4; b++) data_w[8*b +: 8] = data_r[8*b +: 8] + 8'd1;
    unique case (wi[1:0])
      2'd0: BYTE_WRITE = 4'b1111;
      2'd1: BYTE_WRITE = 4'b0101;
      2'd2: BYTE_WRITE = 4'b1010;
      default: BYTE_WRITE = 4'b0001;
    endcase
    if (!arrive) BYTE_WRITE = 4'b0000;
    addr_w = !arrive ? 16'hffff : BYTE_A != 0 ? wi << 2 : wi;
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rd_i <= '0;
      wr_n <= '0;
      for (int k = 0; k < LAT_A; k++) begin
        v_q[k] <= 1'b0;
        i_q[k] <= '0;
      end
    end else begin
      if (issue) rd_i <= rd_i + 16'd1;
      if (arrive) wr_n <= wr_n + 16'd1;
      v_q[0] <= issue;
      i_q[0] <= rd_i;
      for (int k = 1; k < LAT_A; k++) begin
        v_q[k] <= v_q[k-1];
        i_q[k] <= i_q[k-1];
      end
    end
  end

  // ---- rmw --------------------------------------------------------------
  typedef enum logic [1:0] {B_RD, B_WAIT, B_IDLE, B_DONE} b_state_e;
  b_state_e    b_q;
  logic [15:0] j_q;
  logic [7:0]  cnt_q;               // cycles since the read
  logic        b_write;
  logic [15:0] j_addr;

  assign j_addr  = BYTE_B != 0 ? j_q << 2 | 16'(j_q[1:0]) : j_q;  // low bits: not the memory's
  assign b_write = b_q == B_WAIT && cnt_q == 8'(LAT_B);

  always_comb begin
    b_en    = 1'b0;
    b_we    = 1'b0;
    b_addr  = 16'hffff;
    b_wdata = 32'hdeadbeef;
    unique case (b_q)
      B_RD: begin
        b_en   = 1'b1;
        b_addr = j_addr;
      end
      B_WAIT: if (b_write) begin
        b_en    = 1'b1;
        b_we    = 1'b1;
        b_addr  = j_addr;
        b_wdata = b_rdata * 32'd3 + 32'd1;
      end
      B_IDLE: b_we = 1'b1;
      default: ;
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      b_q   <= B_RD;
      j_q   <= '0;
      cnt_q <= '0;
    end else begin
      unique case (b_q)
        B_RD: begin
          b_q   <= B_WAIT;
          cnt_q <= 8'd1;
        end
        B_WAIT: begin
          cnt_q <= cnt_q + 8'd1;
          if (b_write) b_q <= B_IDLE;
        end
        B_IDLE: begin
          j_q <= j_q + 16'd1;
          b_q <= j_q + 16'd1 == 16'(N) ? B_DONE : B_RD;
        end
        default: ;
      endcase
    end
  end

  assign done = wr_n == 16'(N) && b_q == B_DONE;
endmodule
