// A kernel laid out as HLS writes one whose top function has no AXI4-Lite
// interface (HLS's default): block-level control on pins (ap_start, ap_done,
// ap_idle, ap_ready), a clock enable, a scalar argument as an input port, a
// returned value, a 64-bit AXI-Stream in and a 64-bit FIFO port out (ap_fifo:
// out_r_din, out_r_full_n, out_r_write, as an hls::stream without an axis
// pragma). Each call takes one word x from in_r, sends
//     y = (x ^ key[63:0]) + key[95:64]      (64-bit, wrapping)
// to out_r and returns y's high half (ap_return, valid with ap_done).
// Nothing advances while ap_ce is low.
`timescale 1 ns / 1 ps
(* CORE_GENERATION_INFO="@NAME@_blk,hls_ip_test" *)
module @NAME@_blk (
        ap_clk,
        ap_rst_n,
        ap_start,
        ap_done,
        ap_idle,
        ap_ready,
        ap_ce,
        key,
        in_r_TDATA,
        in_r_TVALID,
        in_r_TREADY,
        out_r_din,
        out_r_full_n,
        out_r_write,
        ap_return
);
input   ap_clk;
input   ap_rst_n;
input   ap_start;
output   ap_done;
output   ap_idle;
output   ap_ready;
input   ap_ce;
input  [95:0] key;
input  [63:0] in_r_TDATA;
input   in_r_TVALID;
output   in_r_TREADY;
output  [63:0] out_r_din;
input   out_r_full_n;
output   out_r_write;
output  [31:0] ap_return;

localparam IDLE = 2'd0, READ = 2'd1, WRITE = 2'd2, DONE = 2'd3;
reg [1:0] state;
reg [95:0] key_q;
reg [63:0] y;

assign ap_idle = state == IDLE;
assign ap_ready = ap_ce && state == IDLE && ap_start;
assign ap_done = state == DONE;
assign in_r_TREADY = state == READ;
assign out_r_write = state == WRITE && out_r_full_n;
assign out_r_din = y;
assign ap_return = y[63:32];

always @(posedge ap_clk) begin
    if (!ap_rst_n) begin
        state <= IDLE;
        key_q <= 96'd0;
        y <= 64'd0;
    end else if (ap_ce) begin
        case (state)
            IDLE: if (ap_start) begin
                key_q <= key;
                state <= READ;
            end
            READ: if (in_r_TVALID) begin
                y <= (in_r_TDATA ^ key_q[63:0]) + {32'd0, key_q[95:64]};
                state <= WRITE;
            end
            WRITE: if (out_r_full_n) state <= DONE;
            default: state <= IDLE;
        endcase
    end
end
endmodule
