// Test top for the shift-register-LUT stand-ins (tests/vendor_unisim), each
// on inputs of its own: NUM SRL16E (index n) and NUM SRLC32E (index NUM + n),
// INIT = mix(SEED, n) and mix(SEED, NUM + n) cut to width, IS_CLK_INVERTED =
// n % 2; and two SRLC32E chained through Q31 (INITs mix(SEED, 100) for the
// first, mix(SEED, 101) for the second) read as one 64-bit shift register:
// casc_q = the bit at casc_a (the second's Q for casc_a >= 32).
`timescale 1ps/1ps
module unisim_srl_top #(
  parameter logic [63:0] SEED = 64'h5A1,
  parameter int          NUM  = 4
) (
  input  logic [2*NUM-1:0]   clk, ce, d,
  input  logic [5*2*NUM-1:0] a,  // 5 bits an instance (SRL16E: the low 4)
  output logic [2*NUM-1:0]   q,
  output logic [NUM-1:0]     q31,
  input  logic               casc_clk, casc_ce, casc_d,
  input  logic [5:0]         casc_a,
  output logic               casc_q
);
`include "unisim_mix.svh"

  logic [NUM-1:0] unused_a4;
  for (genvar n = 0; n < NUM; n++) begin : g_n
    localparam logic [63:0] Init16 = mix(SEED, n), Init32 = mix(SEED, NUM + n);
    SRL16E #(.INIT(Init16[15:0]), .IS_CLK_INVERTED(n % 2))
      u_srl16 (.Q(q[n]), .A0(a[5*n]), .A1(a[5*n+1]), .A2(a[5*n+2]), .A3(a[5*n+3]),
               .CE(ce[n]), .CLK(clk[n]), .D(d[n]));
    assign unused_a4[n] = a[5*n+4];
    SRLC32E #(.INIT(Init32[31:0]), .IS_CLK_INVERTED(n % 2))
      u_srl32 (.Q(q[NUM+n]), .Q31(q31[n]), .A(a[5*(NUM+n) +: 5]), .CE(ce[NUM+n]), .CLK(clk[NUM+n]), .D(d[NUM+n]));
  end

  localparam logic [63:0] InitLo = mix(SEED, 100), InitHi = mix(SEED, 101);
  logic lo_q, lo_q31, hi_q, unused_hi_q31;
  SRLC32E #(.INIT(InitLo[31:0])) u_lo (.Q(lo_q), .Q31(lo_q31), .A(casc_a[4:0]), .CE(casc_ce), .CLK(casc_clk), .D(casc_d));
  SRLC32E #(.INIT(InitHi[31:0])) u_hi (.Q(hi_q), .Q31(unused_hi_q31), .A(casc_a[4:0]), .CE(casc_ce), .CLK(casc_clk),
                                       .D(lo_q31));
  assign casc_q = casc_a[5] ? hi_q : lo_q;

endmodule
