// A user's module as hand-written Vivado designs and FINN's finn-rtllib write
// them (not house style on purpose): a LUT1 passing the clock the way FINN's
// double-pumped MVU does, a BUFGCE gating it, FDRE / FDCE pipeline stages
// with 1'b0-style attributes, an SRLC32E delay line chained into an SRL16E,
// a LUT6_2 with both outputs. The test only checks that this compiles
// unmodified against the stand-ins (CTest vendor_unisim_user_rtl).
`timescale 1ns / 1ps
module user_unisim_mix (
  input  wire       clk, rst, en, din,
  input  wire [5:0] sel,
  output wire       gclk, dout, o5, o6,
  output wire [1:0] q
);
  wire clk_lut, d_pipe, d_srl;

  LUT1 #(.INIT(2'b10)) lut0 (.O(clk_lut), .I0(clk));
  BUFGCE #(.CE_TYPE("SYNC"), .IS_CE_INVERTED(1'b0), .IS_I_INVERTED(1'b0)) bufg0 (.O(gclk), .CE(en), .I(clk_lut));

  FDRE #(.INIT(1'b0), .IS_C_INVERTED(1'b0), .IS_D_INVERTED(1'b0), .IS_R_INVERTED(1'b0))
    ff0 (.Q(q[0]), .C(clk), .CE(en), .D(din), .R(rst));
  FDCE #(.INIT(1'b1)) ff1 (.Q(q[1]), .C(clk), .CE(1'b1), .D(q[0]), .CLR(rst));

  SRLC32E #(.INIT(32'h00000000)) srl0 (.Q(d_pipe), .Q31(d_srl), .A(5'd7), .CE(en), .CLK(clk), .D(q[1]));
  SRL16E #(.INIT(16'h0000), .IS_CLK_INVERTED(1'b0))
    srl1 (.Q(dout), .A0(sel[0]), .A1(sel[1]), .A2(sel[2]), .A3(d_pipe), .CE(en), .CLK(clk), .D(d_srl));

  LUT6_2 #(.INIT(64'h6996966996696996)) lut1 (.O6(o6), .O5(o5),
    .I0(sel[0]), .I1(sel[1]), .I2(sel[2]), .I3(sel[3]), .I4(sel[4]), .I5(sel[5]));
endmodule
