// UNISIM URAM288_BASE stand-in (UltraScale+ UltraRAM without the cascade
// pins; UG974 and UG573 behaviour, not vendor code): URAM288's body
// (cosim_unisim_uram) with its attributes and pins, everything said in
// URAM288.sv holding: ECC (EN_ECC_RD/WR_A/B "TRUE") and EN_AUTO_SLEEP_MODE
// "TRUE" stop elaboration with one line; SLEEP and the INJECT inputs are
// ignored, SBITERR and DBITERR are 0.
`timescale 1ps/1ps
module URAM288_BASE #(
  // One declaration a parameter: Verilator 5.006 drops the type of a second
  // one after a comma in a parameter port list.
  parameter int    AUTO_SLEEP_LATENCY = 8, parameter int AVG_CONS_INACTIVE_CYCLES = 10,
  parameter string BWE_MODE_A = "PARITY_INTERLEAVED", parameter string BWE_MODE_B = "PARITY_INTERLEAVED",
  parameter string EN_AUTO_SLEEP_MODE = "FALSE",
  parameter string EN_ECC_RD_A = "FALSE", parameter string EN_ECC_RD_B = "FALSE",
  parameter string EN_ECC_WR_A = "FALSE", parameter string EN_ECC_WR_B = "FALSE",
  parameter string IREG_PRE_A = "FALSE", parameter string IREG_PRE_B = "FALSE",
  parameter        IS_CLK_INVERTED = 0,  // untyped: 1'b1 or 1
  parameter        IS_EN_A_INVERTED = 0, parameter IS_EN_B_INVERTED = 0,
  parameter        IS_RDB_WR_A_INVERTED = 0, parameter IS_RDB_WR_B_INVERTED = 0,
  parameter        IS_RST_A_INVERTED = 0, parameter IS_RST_B_INVERTED = 0,
  parameter string OREG_A = "FALSE", parameter string OREG_B = "FALSE",
  parameter string OREG_ECC_A = "FALSE", parameter string OREG_ECC_B = "FALSE",
  parameter string RST_MODE_A = "SYNC", parameter string RST_MODE_B = "SYNC",
  parameter string USE_EXT_CE_A = "FALSE", parameter string USE_EXT_CE_B = "FALSE"
) (
  output logic        DBITERR_A, DBITERR_B,
  output logic [71:0] DOUT_A, DOUT_B,
  output logic        SBITERR_A, SBITERR_B,
  input  logic [22:0] ADDR_A, ADDR_B,
  input  logic [8:0]  BWE_A, BWE_B,
  input  logic        CLK,
  input  logic [71:0] DIN_A, DIN_B,
  input  logic        EN_A, EN_B,
  input  logic        INJECT_DBITERR_A, INJECT_DBITERR_B, INJECT_SBITERR_A, INJECT_SBITERR_B,
  input  logic        OREG_CE_A, OREG_CE_B, OREG_ECC_CE_A, OREG_ECC_CE_B,
  input  logic        RDB_WR_A, RDB_WR_B,
  input  logic        RST_A, RST_B,
  input  logic        SLEEP
);

  logic rdaccess_a, rdaccess_b;  // URAM288_BASE has no RDACCESS pins
  cosim_unisim_uram #(
    .PRIM("URAM288_BASE"), .AUTO_SLEEP_LATENCY, .AVG_CONS_INACTIVE_CYCLES, .BWE_MODE_A, .BWE_MODE_B,
    .EN_AUTO_SLEEP_MODE, .EN_ECC_RD_A, .EN_ECC_RD_B, .EN_ECC_WR_A, .EN_ECC_WR_B, .IREG_PRE_A, .IREG_PRE_B,
    .OREG_A, .OREG_B, .OREG_ECC_A, .OREG_ECC_B, .RST_MODE_A, .RST_MODE_B, .USE_EXT_CE_A, .USE_EXT_CE_B,
    .IS_CLK_INVERTED, .IS_EN_A_INVERTED, .IS_EN_B_INVERTED, .IS_RDB_WR_A_INVERTED, .IS_RDB_WR_B_INVERTED,
    .IS_RST_A_INVERTED, .IS_RST_B_INVERTED
  ) u_ram (
    .CLK, .EN_A, .EN_B, .RDB_WR_A, .RDB_WR_B, .RST_A, .RST_B, .OREG_CE_A, .OREG_CE_B, .OREG_ECC_CE_A,
    .OREG_ECC_CE_B, .BWE_A, .BWE_B, .ADDR_A(ADDR_A[11:0]), .ADDR_B(ADDR_B[11:0]), .DIN_A, .DIN_B, .DOUT_A,
    .DOUT_B, .RDACCESS_A(rdaccess_a), .RDACCESS_B(rdaccess_b)
  );

  assign {DBITERR_A, DBITERR_B, SBITERR_A, SBITERR_B} = '0;  // no ECC
  logic unused_pins;
  assign unused_pins = ^{ADDR_A[22:12], ADDR_B[22:12], INJECT_DBITERR_A, INJECT_DBITERR_B, INJECT_SBITERR_A,
                         INJECT_SBITERR_B, SLEEP, rdaccess_a, rdaccess_b};

endmodule
