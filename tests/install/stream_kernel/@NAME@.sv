// A Vitis-style streaming RTL kernel for the install test (install_test.sh,
// step 7): out[i] = in[i] + INC over 32-bit words (wrapping), with a
// streaming kernel's interface: ap_clk, ap_rst_n, the AXI4-Lite control port
// (the template's control map: INC in A_LO, the byte count in LENGTH), a
// 32-bit input stream p0_* and output stream p1_* without TLAST or TKEEP
// (with TID and TDEST, which the testbench holds at 0 and does not read),
// and the interrupt pin. No AXI4 master: the testbench binds the streams
// from the manifest's axis_in / axis_out interfaces, with no wrapper code.
//
// One output register: a word is taken from p0 when the register is empty
// or leaves in the same cycle; ap_done once LENGTH / 4 words have left.
`include "@NAME@_ports.svh"
`timescale 1ns/1ps
module @NAME@ #(
  `@NAME@_CONTROL_PARAMS
) (
  input  logic ap_clk, ap_rst_n,
  // TID and TDEST: routing, as an HLS side-channel stream has it; unused here.
  input  logic p0_TVALID, output logic p0_TREADY, input logic [31:0] p0_TDATA,
  input  logic [1:0] p0_TID, input logic [1:0] p0_TDEST,
  output logic p1_TVALID, input logic p1_TREADY, output logic [31:0] p1_TDATA,
  output logic [1:0] p1_TID, output logic [1:0] p1_TDEST,
  `@NAME@_S_AXI_LITE_PORTS(s_axi_control_, C_S_AXI_CONTROL_ADDR_WIDTH, C_S_AXI_CONTROL_DATA_WIDTH),
  output logic        interrupt
);

  // arg_a: the increment (A_LO, bits 31:0); arg_length: bytes in and out;
  // B and C are not this kernel's.
  `@NAME@_CONTROL;

  logic        run_q, run_d;
  logic [31:0] inc_q, inc_d;
  logic [31:0] in_left_q, in_left_d;    // words still to take from p0
  logic [31:0] out_left_q, out_left_d;  // words still to give on p1
  logic        out_valid_q, out_valid_d;
  logic [31:0] out_data_q, out_data_d;
  logic        ap_done_d;

  logic take, give;
  assign give      = out_valid_q && p1_TREADY;
  assign p0_TREADY = run_q && in_left_q != 0 && (!out_valid_q || p1_TREADY);
  assign take      = p0_TVALID && p0_TREADY;
  assign ap_idle   = !run_q;
  assign ap_ready  = !run_q && ap_start;

  always_comb begin
    run_d       = run_q;
    inc_d       = inc_q;
    in_left_d   = take ? in_left_q - 32'd1 : in_left_q;
    out_left_d  = give ? out_left_q - 32'd1 : out_left_q;
    out_valid_d = take || (out_valid_q && !p1_TREADY);
    out_data_d  = take ? p0_TDATA + inc_q : out_data_q;
    ap_done_d   = 1'b0;
    if (!run_q && ap_start) begin
      run_d      = 1'b1;
      inc_d      = arg_a[31:0];
      in_left_d  = arg_length >> 2;
      out_left_d = arg_length >> 2;
    end else if (run_q && out_left_q == 0) begin
      run_d     = 1'b0;
      ap_done_d = 1'b1;
    end
  end

  // Power-on values after a delay, as HLS-generated RTL writes them: the
  // build leaves the delay out (--no-timing); reset sets them again.
  initial begin
    #0 run_q = 1'b0;
  end

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      {run_q, out_valid_q, ap_done} <= '0;
      {inc_q, in_left_q, out_left_q, out_data_q} <= '0;
    end else begin
      {run_q, out_valid_q, ap_done} <= {run_d, out_valid_d, ap_done_d};
      {inc_q, in_left_q, out_left_q, out_data_q} <= {inc_d, in_left_d, out_left_d, out_data_d};
    end
  end

  assign p1_TVALID = out_valid_q;
  assign p1_TDATA  = out_data_q;
  assign p1_TID    = '0;
  assign p1_TDEST  = '0;

  logic unused;
  assign unused = ^{arg_a[63:32], arg_b, arg_c, arg_length[1:0], p0_TID, p0_TDEST};

endmodule
