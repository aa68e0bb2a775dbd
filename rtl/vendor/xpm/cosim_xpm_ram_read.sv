// One port's read pipeline in cosim_xpm_ram (rtl/vendor/xpm), the RAM behind
// the xpm_memory_* stand-ins:
//  - Latency 0: dout is `comb` (the array at the address), combinationally.
//  - Latency 1: dout is the read latch: it takes `latch` on an edge with
//    `load`; rst sets it to RstVal first.
//  - Latency n >= 2: the latch, n-2 middle registers that follow it with en
//    delayed (the enable is "pipelined internally"), and the output register,
//    which takes the register before it when regce is high; rst sets it to
//    RstVal first.
//  - AsyncRst: rst clears the output register at once, to zero (RST_MODE
//    "ASYNC").
`timescale 1ns/1ps
module cosim_xpm_ram_read #(
  parameter int               Width    = 32,
  parameter int               Latency  = 1,
  parameter logic [Width-1:0] RstVal   = '0,
  parameter bit               AsyncRst = 1'b0
) (
  input  logic             clk,
  input  logic             en,
  input  logic             load,
  input  logic [Width-1:0] latch,
  input  logic [Width-1:0] comb,
  input  logic             rst,
  input  logic             regce,
  output logic [Width-1:0] dout
);

  if (Latency == 0) begin : g_comb
    assign dout = comb;
    // A distributed-RAM read has no register to enable or reset.
    logic unused_ctrl;
    assign unused_ctrl = ^{clk, en, load, latch, rst, regce};
  end else begin : g_reg
    logic [Width-1:0] out_q;
    logic [Width-1:0] out_d;  // what the output register takes when enabled
    logic             out_en;

    if (Latency == 1) begin : g_latch_out
      assign out_d  = latch;
      assign out_en = load;
      // The latch is the output register: en acts through load, and there is
      // no later stage for regce to enable.
      logic unused_ctrl;
      assign unused_ctrl = ^{en, regce, comb};
    end else begin : g_pipe
      logic [Width-1:0]   stage_q [Latency-1];  // 0: the latch, then the middle registers
      logic [Latency-2:0] en_q;                 // en_q[k]: en k + 1 edges ago

      always_ff @(posedge clk) begin
        if (load) stage_q[0] <= latch;
        for (int k = 1; k < Latency - 1; k++) begin
          if (en_q[k-1]) stage_q[k] <= stage_q[k-1];
        end
        en_q <= (en_q << 1) | (Latency-1)'(en);
      end

      assign out_d  = stage_q[Latency-2];
      assign out_en = regce;
      logic unused_ctrl;
      assign unused_ctrl = ^{en_q[Latency-2], comb};
    end

    if (AsyncRst) begin : g_async
      always_ff @(posedge clk or posedge rst) begin
        if (rst)         out_q <= '0;
        else if (out_en) out_q <= out_d;
      end
    end else begin : g_sync
      always_ff @(posedge clk) begin
        if (rst)         out_q <= RstVal;
        else if (out_en) out_q <= out_d;
      end
    end

    assign dout = out_q;
  end

endmodule
