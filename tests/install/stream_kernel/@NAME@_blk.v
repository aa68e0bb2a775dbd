// A kernel laid out as HLS writes one whose top function has no AXI4-Lite
// interface (HLS's default): block-level control on pins (ap_start, ap_done,
// ap_idle, ap_ready), a clock enable, a scalar argument as an input port, a
// returned value, a 64-bit AXI-Stream in and a 64-bit FIFO port out (ap_fifo:
// out_r_din, out_r_full_n, out_r_write, as an hls::stream without an axis
// pragma), and an array of two 32-bit words out as Vivado HLS 2020 splits it,
// a stream an element (res_V_data_0_V, res_V_data_1_V). Each call takes one
// word x from in_r, sends
//     y = (x ^ key[63:0]) + key[95:64]      (64-bit, wrapping)
// to out_r, then y's low and high halves to res_V_data_0_V and _1_V, and
// returns y's high half (ap_return, valid with ap_done).
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
        res_V_data_0_V_TDATA,
        res_V_data_0_V_TVALID,
        res_V_data_0_V_TREADY,
        res_V_data_1_V_TDATA,
        res_V_data_1_V_TVALID,
        res_V_data_1_V_TREADY,
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
output  [31:0] res_V_data_0_V_TDATA;
output   res_V_data_0_V_TVALID;
input   res_V_data_0_V_TREADY;
output  [31:0] res_V_data_1_V_TDATA;
output   res_V_data_1_V_TVALID;
input   res_V_data_1_V_TREADY;
output  [31:0] ap_return;

localparam IDLE = 3'd0, READ = 3'd1, WRITE = 3'd2, RES0 = 3'd3, RES1 = 3'd4, DONE = 3'd5;
reg [2:0] state;
reg [95:0] key_q;
reg [63:0] y;

assign ap_idle = state == IDLE;
assign ap_ready = ap_ce && state == IDLE && ap_start;
assign ap_done = state == DONE;
assign in_r_TREADY = state == READ;
assign out_r_write = state == WRITE && out_r_full_n;
assign out_r_din = y;
assign res_V_data_0_V_TVALID = state == RES0;
assign res_V_data_0_V_TDATA = y[31:0];
assign res_V_data_1_V_TVALID = state == RES1;
assign res_V_data_1_V_TDATA = y[63:32];
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
            WRITE: if (out_r_full_n) state <= RES0;
            RES0: if (res_V_data_0_V_TREADY) state <= RES1;
            RES1: if (res_V_data_1_V_TREADY) state <= DONE;
            default: state <= IDLE;
        endcase
    end
end
endmodule
