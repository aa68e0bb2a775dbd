// Test top for the UltraRAM stand-ins (tests/vendor_unisim): five instances,
// each on inputs of its own (index i of every port below; clk[i] is its
// CLK pin), read latency 1 + IREG_PRE + OREG + OREG_ECC per port:
//  0 URAM288 defaults: latency 1 / 1, PARITY_INTERLEAVED, RST_MODE "SYNC"
//  1 URAM288, A: IREG_PRE, OREG, PARITY_INDEPENDENT (3); B: OREG, OREG_ECC,
//    RST_MODE_B "ASYNC" (3)
//  2 URAM288, both IREG_PRE, OREG, OREG_ECC (4 / 4), PARITY_INDEPENDENT,
//    USE_EXT_CE_A, RST_MODE_A "ASYNC", with CLK, EN_A, RST_A and RDB_WR_B
//    inverted
//  3 URAM288, A: OREG_ECC only, RST_MODE_A "ASYNC" (2); B: IREG_PRE, OREG,
//    USE_EXT_CE_B, with EN_B and RST_B inverted (3); REG_CAS_A "TRUE" and a
//    SELF_ADDR, which change nothing without a cascade
//  4 URAM288_BASE, A: OREG, USE_EXT_CE_A, RDB_WR_A inverted (2); B: IREG_PRE
//    (2); it has no RDACCESS: rdaccess_a/b[4] are 0
// unused_o[i] is the OR of the cascade and ECC outputs, which must stay 0.
`timescale 1ps/1ps
module unisim_uram_top #(
  localparam int N = 5
) (
  input  logic [N-1:0] clk, ena, enb, wra, wrb, rsta, rstb, ocea, oceb, ecea, eceb,
  input  logic [22:0]  addra [N], addrb [N],
  input  logic [8:0]   bwea [N], bweb [N],
  input  logic [71:0]  dina [N], dinb [N],
  output logic [71:0]  douta [N], doutb [N],
  output logic [N-1:0] rdaccess_a, rdaccess_b, unused_o
);

  for (genvar i = 0; i < 4; i++) begin : g_uram
    logic [22:0] cas_addr_a, cas_addr_b;
    logic [8:0]  cas_bwe_a, cas_bwe_b;
    logic [71:0] cas_din_a, cas_din_b, cas_dout_a, cas_dout_b;
    logic        cas_dbit_a, cas_dbit_b, cas_en_a, cas_en_b, cas_rdacc_a, cas_rdacc_b, cas_wr_a, cas_wr_b;
    logic        cas_sbit_a, cas_sbit_b, dbit_a, dbit_b, sbit_a, sbit_b;
    URAM288 #(
      .AUTO_SLEEP_LATENCY(8), .AVG_CONS_INACTIVE_CYCLES(10),
      .BWE_MODE_A(i == 1 || i == 2 ? "PARITY_INDEPENDENT" : "PARITY_INTERLEAVED"),
      .BWE_MODE_B(i == 2 ? "PARITY_INDEPENDENT" : "PARITY_INTERLEAVED"),
      .CASCADE_ORDER_A("NONE"), .CASCADE_ORDER_B("NONE"), .EN_AUTO_SLEEP_MODE("FALSE"),
      .EN_ECC_RD_A("FALSE"), .EN_ECC_RD_B("FALSE"), .EN_ECC_WR_A("FALSE"), .EN_ECC_WR_B("FALSE"),
      .IREG_PRE_A(i == 1 || i == 2 ? "TRUE" : "FALSE"), .IREG_PRE_B(i == 2 || i == 3 ? "TRUE" : "FALSE"),
      .IS_CLK_INVERTED(i == 2), .IS_EN_A_INVERTED(i == 2), .IS_EN_B_INVERTED(i == 3),
      .IS_RDB_WR_A_INVERTED(1'b0), .IS_RDB_WR_B_INVERTED(i == 2), .IS_RST_A_INVERTED(i == 2),
      .IS_RST_B_INVERTED(i == 3), .MATRIX_ID("NONE"), .NUM_UNIQUE_SELF_ADDR_A(1), .NUM_UNIQUE_SELF_ADDR_B(1),
      .NUM_URAM_IN_MATRIX(1), .OREG_A(i == 1 || i == 2 ? "TRUE" : "FALSE"), .OREG_B(i != 0 ? "TRUE" : "FALSE"),
      .OREG_ECC_A(i == 2 || i == 3 ? "TRUE" : "FALSE"), .OREG_ECC_B(i == 1 || i == 2 ? "TRUE" : "FALSE"),
      .REG_CAS_A(i == 3 ? "TRUE" : "FALSE"), .REG_CAS_B("FALSE"),
      .RST_MODE_A(i == 2 || i == 3 ? "ASYNC" : "SYNC"), .RST_MODE_B(i == 1 ? "ASYNC" : "SYNC"),
      .SELF_ADDR_A(i == 3 ? 11'h5A5 : 11'h000), .SELF_ADDR_B(11'h000), .SELF_MASK_A(11'h7FF),
      .SELF_MASK_B(11'h7FF), .USE_EXT_CE_A(i == 2 ? "TRUE" : "FALSE"), .USE_EXT_CE_B(i == 3 ? "TRUE" : "FALSE")
    ) u_ram (
      .CAS_OUT_ADDR_A(cas_addr_a), .CAS_OUT_ADDR_B(cas_addr_b), .CAS_OUT_BWE_A(cas_bwe_a),
      .CAS_OUT_BWE_B(cas_bwe_b), .CAS_OUT_DBITERR_A(cas_dbit_a), .CAS_OUT_DBITERR_B(cas_dbit_b),
      .CAS_OUT_DIN_A(cas_din_a), .CAS_OUT_DIN_B(cas_din_b), .CAS_OUT_DOUT_A(cas_dout_a),
      .CAS_OUT_DOUT_B(cas_dout_b), .CAS_OUT_EN_A(cas_en_a), .CAS_OUT_EN_B(cas_en_b),
      .CAS_OUT_RDACCESS_A(cas_rdacc_a), .CAS_OUT_RDACCESS_B(cas_rdacc_b), .CAS_OUT_RDB_WR_A(cas_wr_a),
      .CAS_OUT_RDB_WR_B(cas_wr_b), .CAS_OUT_SBITERR_A(cas_sbit_a), .CAS_OUT_SBITERR_B(cas_sbit_b),
      .DBITERR_A(dbit_a), .DBITERR_B(dbit_b), .DOUT_A(douta[i]), .DOUT_B(doutb[i]),
      .RDACCESS_A(rdaccess_a[i]), .RDACCESS_B(rdaccess_b[i]), .SBITERR_A(sbit_a), .SBITERR_B(sbit_b),
      .ADDR_A(addra[i]), .ADDR_B(addrb[i]), .BWE_A(bwea[i]), .BWE_B(bweb[i]),
      .CAS_IN_ADDR_A(23'h0), .CAS_IN_ADDR_B(23'h0), .CAS_IN_BWE_A(9'h0), .CAS_IN_BWE_B(9'h0),
      .CAS_IN_DBITERR_A(1'b0), .CAS_IN_DBITERR_B(1'b0), .CAS_IN_DIN_A(72'h0), .CAS_IN_DIN_B(72'h0),
      .CAS_IN_DOUT_A(72'h0), .CAS_IN_DOUT_B(72'h0), .CAS_IN_EN_A(1'b0), .CAS_IN_EN_B(1'b0),
      .CAS_IN_RDACCESS_A(1'b0), .CAS_IN_RDACCESS_B(1'b0), .CAS_IN_RDB_WR_A(1'b0), .CAS_IN_RDB_WR_B(1'b0),
      .CAS_IN_SBITERR_A(1'b0), .CAS_IN_SBITERR_B(1'b0), .CLK(clk[i]), .DIN_A(dina[i]), .DIN_B(dinb[i]),
      .EN_A(ena[i]), .EN_B(enb[i]), .INJECT_DBITERR_A(1'b0), .INJECT_DBITERR_B(1'b0), .INJECT_SBITERR_A(1'b0),
      .INJECT_SBITERR_B(1'b0), .OREG_CE_A(ocea[i]), .OREG_CE_B(oceb[i]), .OREG_ECC_CE_A(ecea[i]),
      .OREG_ECC_CE_B(eceb[i]), .RDB_WR_A(wra[i]), .RDB_WR_B(wrb[i]), .RST_A(rsta[i]), .RST_B(rstb[i]),
      .SLEEP(1'b0)
    );
    assign unused_o[i] = |{cas_addr_a, cas_addr_b, cas_bwe_a, cas_bwe_b, cas_din_a, cas_din_b, cas_dout_a,
                           cas_dout_b, cas_dbit_a, cas_dbit_b, cas_en_a, cas_en_b, cas_rdacc_a, cas_rdacc_b,
                           cas_wr_a, cas_wr_b, cas_sbit_a, cas_sbit_b, dbit_a, dbit_b, sbit_a, sbit_b};
  end

  logic dbit_a, dbit_b, sbit_a, sbit_b;
  URAM288_BASE #(
    .AUTO_SLEEP_LATENCY(8), .AVG_CONS_INACTIVE_CYCLES(10), .BWE_MODE_A("PARITY_INTERLEAVED"),
    .BWE_MODE_B("PARITY_INTERLEAVED"), .EN_AUTO_SLEEP_MODE("FALSE"), .EN_ECC_RD_A("FALSE"), .EN_ECC_RD_B("FALSE"),
    .EN_ECC_WR_A("FALSE"), .EN_ECC_WR_B("FALSE"), .IREG_PRE_A("FALSE"), .IREG_PRE_B("TRUE"),
    .IS_CLK_INVERTED(1'b0), .IS_EN_A_INVERTED(1'b0), .IS_EN_B_INVERTED(1'b0), .IS_RDB_WR_A_INVERTED(1'b1),
    .IS_RDB_WR_B_INVERTED(1'b0), .IS_RST_A_INVERTED(1'b0), .IS_RST_B_INVERTED(1'b0), .OREG_A("TRUE"),
    .OREG_B("FALSE"), .OREG_ECC_A("FALSE"), .OREG_ECC_B("FALSE"), .RST_MODE_A("SYNC"), .RST_MODE_B("SYNC"),
    .USE_EXT_CE_A("TRUE"), .USE_EXT_CE_B("FALSE")
  ) u_base (
    .DBITERR_A(dbit_a), .DBITERR_B(dbit_b), .DOUT_A(douta[4]), .DOUT_B(doutb[4]), .SBITERR_A(sbit_a),
    .SBITERR_B(sbit_b), .ADDR_A(addra[4]), .ADDR_B(addrb[4]), .BWE_A(bwea[4]), .BWE_B(bweb[4]), .CLK(clk[4]),
    .DIN_A(dina[4]), .DIN_B(dinb[4]), .EN_A(ena[4]), .EN_B(enb[4]), .INJECT_DBITERR_A(1'b0),
    .INJECT_DBITERR_B(1'b0), .INJECT_SBITERR_A(1'b0), .INJECT_SBITERR_B(1'b0), .OREG_CE_A(ocea[4]),
    .OREG_CE_B(oceb[4]), .OREG_ECC_CE_A(ecea[4]), .OREG_ECC_CE_B(eceb[4]), .RDB_WR_A(wra[4]), .RDB_WR_B(wrb[4]),
    .RST_A(rsta[4]), .RST_B(rstb[4]), .SLEEP(1'b0)
  );
  assign rdaccess_a[4] = 1'b0;
  assign rdaccess_b[4] = 1'b0;
  assign unused_o[4]   = |{dbit_a, dbit_b, sbit_a, sbit_b};

endmodule
