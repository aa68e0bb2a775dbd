// A user's UltraRAM buffer as hand-written Vivado designs write it (not house
// style on purpose): URAM288 and URAM288_BASE with every attribute and port
// of the vendor's instantiation templates spelled out, 1'b0-style
// inversions, 11-bit SELF_ADDR / SELF_MASK literals, unused outputs left
// open. The test only checks that this compiles unmodified against the
// stand-ins (CTest vendor_unisim_user_uram).
`timescale 1ns / 1ps
module user_unisim_uram (
  input  wire        clk, rst, we, re,
  input  wire [11:0] waddr, raddr,
  input  wire [71:0] wdata,
  output wire [71:0] rdata, rdata_base
);
  URAM288 #(
    .AUTO_SLEEP_LATENCY(8), .AVG_CONS_INACTIVE_CYCLES(10), .BWE_MODE_A("PARITY_INTERLEAVED"),
    .BWE_MODE_B("PARITY_INTERLEAVED"), .CASCADE_ORDER_A("NONE"), .CASCADE_ORDER_B("NONE"),
    .EN_AUTO_SLEEP_MODE("FALSE"), .EN_ECC_RD_A("FALSE"), .EN_ECC_RD_B("FALSE"), .EN_ECC_WR_A("FALSE"),
    .EN_ECC_WR_B("FALSE"), .IREG_PRE_A("FALSE"), .IREG_PRE_B("FALSE"), .IS_CLK_INVERTED(1'b0),
    .IS_EN_A_INVERTED(1'b0), .IS_EN_B_INVERTED(1'b0), .IS_RDB_WR_A_INVERTED(1'b0), .IS_RDB_WR_B_INVERTED(1'b0),
    .IS_RST_A_INVERTED(1'b0), .IS_RST_B_INVERTED(1'b0), .MATRIX_ID("NONE"), .NUM_UNIQUE_SELF_ADDR_A(1),
    .NUM_UNIQUE_SELF_ADDR_B(1), .NUM_URAM_IN_MATRIX(1), .OREG_A("FALSE"), .OREG_B("TRUE"),
    .OREG_ECC_A("FALSE"), .OREG_ECC_B("TRUE"), .REG_CAS_A("FALSE"), .REG_CAS_B("FALSE"), .RST_MODE_A("SYNC"),
    .RST_MODE_B("SYNC"), .SELF_ADDR_A(11'h000), .SELF_ADDR_B(11'h000), .SELF_MASK_A(11'h7ff),
    .SELF_MASK_B(11'h7ff), .USE_EXT_CE_A("FALSE"), .USE_EXT_CE_B("FALSE")
  ) buf0 (
    .CAS_OUT_ADDR_A(), .CAS_OUT_ADDR_B(), .CAS_OUT_BWE_A(), .CAS_OUT_BWE_B(), .CAS_OUT_DBITERR_A(),
    .CAS_OUT_DBITERR_B(), .CAS_OUT_DIN_A(), .CAS_OUT_DIN_B(), .CAS_OUT_DOUT_A(), .CAS_OUT_DOUT_B(),
    .CAS_OUT_EN_A(), .CAS_OUT_EN_B(), .CAS_OUT_RDACCESS_A(), .CAS_OUT_RDACCESS_B(), .CAS_OUT_RDB_WR_A(),
    .CAS_OUT_RDB_WR_B(), .CAS_OUT_SBITERR_A(), .CAS_OUT_SBITERR_B(), .DBITERR_A(), .DBITERR_B(), .DOUT_A(),
    .DOUT_B(rdata), .RDACCESS_A(), .RDACCESS_B(), .SBITERR_A(), .SBITERR_B(),
    .ADDR_A({11'd0, waddr}), .ADDR_B({11'd0, raddr}), .BWE_A(9'h1ff), .BWE_B(9'h000),
    .CAS_IN_ADDR_A(23'd0), .CAS_IN_ADDR_B(23'd0), .CAS_IN_BWE_A(9'd0), .CAS_IN_BWE_B(9'd0),
    .CAS_IN_DBITERR_A(1'b0), .CAS_IN_DBITERR_B(1'b0), .CAS_IN_DIN_A(72'd0), .CAS_IN_DIN_B(72'd0),
    .CAS_IN_DOUT_A(72'd0), .CAS_IN_DOUT_B(72'd0), .CAS_IN_EN_A(1'b0), .CAS_IN_EN_B(1'b0),
    .CAS_IN_RDACCESS_A(1'b0), .CAS_IN_RDACCESS_B(1'b0), .CAS_IN_RDB_WR_A(1'b0), .CAS_IN_RDB_WR_B(1'b0),
    .CAS_IN_SBITERR_A(1'b0), .CAS_IN_SBITERR_B(1'b0), .CLK(clk), .DIN_A(wdata), .DIN_B(72'd0), .EN_A(we),
    .EN_B(re), .INJECT_DBITERR_A(1'b0), .INJECT_DBITERR_B(1'b0), .INJECT_SBITERR_A(1'b0),
    .INJECT_SBITERR_B(1'b0), .OREG_CE_A(1'b1), .OREG_CE_B(1'b1), .OREG_ECC_CE_A(1'b1), .OREG_ECC_CE_B(1'b1),
    .RDB_WR_A(1'b1), .RDB_WR_B(1'b0), .RST_A(rst), .RST_B(rst), .SLEEP(1'b0)
  );

  URAM288_BASE #(
    .AUTO_SLEEP_LATENCY(8), .AVG_CONS_INACTIVE_CYCLES(10), .BWE_MODE_A("PARITY_INTERLEAVED"),
    .BWE_MODE_B("PARITY_INTERLEAVED"), .EN_AUTO_SLEEP_MODE("FALSE"), .EN_ECC_RD_A("FALSE"),
    .EN_ECC_RD_B("FALSE"), .EN_ECC_WR_A("FALSE"), .EN_ECC_WR_B("FALSE"), .IREG_PRE_A("FALSE"),
    .IREG_PRE_B("FALSE"), .IS_CLK_INVERTED(1'b0), .IS_EN_A_INVERTED(1'b0), .IS_EN_B_INVERTED(1'b0),
    .IS_RDB_WR_A_INVERTED(1'b0), .IS_RDB_WR_B_INVERTED(1'b0), .IS_RST_A_INVERTED(1'b0),
    .IS_RST_B_INVERTED(1'b0), .OREG_A("FALSE"), .OREG_B("TRUE"), .OREG_ECC_A("FALSE"), .OREG_ECC_B("FALSE"),
    .RST_MODE_A("SYNC"), .RST_MODE_B("SYNC"), .USE_EXT_CE_A("FALSE"), .USE_EXT_CE_B("FALSE")
  ) buf1 (
    .DBITERR_A(), .DBITERR_B(), .DOUT_A(), .DOUT_B(rdata_base), .SBITERR_A(), .SBITERR_B(),
    .ADDR_A({11'd0, waddr}), .ADDR_B({11'd0, raddr}), .BWE_A(9'h1ff), .BWE_B(9'h000), .CLK(clk),
    .DIN_A(wdata), .DIN_B(72'd0), .EN_A(we), .EN_B(re), .INJECT_DBITERR_A(1'b0), .INJECT_DBITERR_B(1'b0),
    .INJECT_SBITERR_A(1'b0), .INJECT_SBITERR_B(1'b0), .OREG_CE_A(1'b1), .OREG_CE_B(1'b1),
    .OREG_ECC_CE_A(1'b1), .OREG_ECC_CE_B(1'b1), .RDB_WR_A(1'b1), .RDB_WR_B(1'b0), .RST_A(rst), .RST_B(rst),
    .SLEEP(1'b0)
  );
endmodule
