// UNISIM URAM288 stand-in (UltraScale+ UltraRAM, 4K x 72; UG974 and UG573
// behaviour, not vendor code): one UltraRAM on its own (CASCADE_ORDER_A/B
// "NONE"), both ports on CLK, port A's operation before port B's in each
// cycle; IREG_PRE, OREG, OREG_ECC (a plain pipeline register without ECC),
// byte writes in both BWE_MODEs, RST_MODE "SYNC" / "ASYNC", USE_EXT_CE with
// OREG_CE / OREG_ECC_CE, RDACCESS, the IS_*_INVERTED pins. The behaviour is
// cosim_unisim_uram's (see there and rtl/vendor/README.md). Every attribute
// and pin of the vendor's template is accepted; not modelled, so stopping
// elaboration with one line when set otherwise: CASCADE_ORDER_A/B other than
// "NONE", SELF_MASK_A/B other than 11'h7FF (no address decoding: ADDR[22:12]
// are ignored), EN_ECC_RD_A/B / EN_ECC_WR_A/B "TRUE", EN_AUTO_SLEEP_MODE
// "TRUE". SELF_ADDR_A/B, REG_CAS_A/B (the cascade registers: no cascade),
// MATRIX_ID, NUM_UNIQUE_SELF_ADDR_A/B, NUM_URAM_IN_MATRIX, AUTO_SLEEP_LATENCY
// and AVG_CONS_INACTIVE_CYCLES (within their ranges) have no effect; SLEEP,
// the INJECT and cascade inputs are ignored; the cascade and ECC outputs
// are 0.
`timescale 1ps/1ps
module URAM288 #(
  parameter int    AUTO_SLEEP_LATENCY       = 8,
  parameter int    AVG_CONS_INACTIVE_CYCLES = 10,
  parameter string BWE_MODE_A               = "PARITY_INTERLEAVED",
  parameter string BWE_MODE_B               = "PARITY_INTERLEAVED",
  parameter string CASCADE_ORDER_A          = "NONE",
  parameter string CASCADE_ORDER_B          = "NONE",
  parameter string EN_AUTO_SLEEP_MODE       = "FALSE",
  parameter string EN_ECC_RD_A              = "FALSE",
  parameter string EN_ECC_RD_B              = "FALSE",
  parameter string EN_ECC_WR_A              = "FALSE",
  parameter string EN_ECC_WR_B              = "FALSE",
  parameter string IREG_PRE_A               = "FALSE",
  parameter string IREG_PRE_B               = "FALSE",
  parameter        IS_CLK_INVERTED          = 0,  // untyped: 1'b1 or 1
  parameter        IS_EN_A_INVERTED         = 0,
  parameter        IS_EN_B_INVERTED         = 0,
  parameter        IS_RDB_WR_A_INVERTED     = 0,
  parameter        IS_RDB_WR_B_INVERTED     = 0,
  parameter        IS_RST_A_INVERTED        = 0,
  parameter        IS_RST_B_INVERTED        = 0,
  /* verilator lint_off UNUSEDPARAM */  // placement and power estimation: no behaviour here
  parameter string MATRIX_ID                = "NONE",
  parameter int    NUM_UNIQUE_SELF_ADDR_A   = 1,
  parameter int    NUM_UNIQUE_SELF_ADDR_B   = 1,
  parameter int    NUM_URAM_IN_MATRIX       = 1,
  /* verilator lint_on UNUSEDPARAM */
  parameter string OREG_A                   = "FALSE",
  parameter string OREG_B                   = "FALSE",
  parameter string OREG_ECC_A               = "FALSE",
  parameter string OREG_ECC_B               = "FALSE",
  parameter string REG_CAS_A                = "FALSE",
  parameter string REG_CAS_B                = "FALSE",
  parameter string RST_MODE_A               = "SYNC",
  parameter string RST_MODE_B               = "SYNC",
  /* verilator lint_off UNUSEDPARAM */  // only compared with ADDR[22:12] in a cascade
  parameter logic [10:0] SELF_ADDR_A        = 11'h000,
  parameter logic [10:0] SELF_ADDR_B        = 11'h000,
  /* verilator lint_on UNUSEDPARAM */
  parameter logic [10:0] SELF_MASK_A        = 11'h7FF,
  parameter logic [10:0] SELF_MASK_B        = 11'h7FF,
  parameter string USE_EXT_CE_A             = "FALSE",
  parameter string USE_EXT_CE_B             = "FALSE"
) (
  output logic [22:0] CAS_OUT_ADDR_A,
  output logic [22:0] CAS_OUT_ADDR_B,
  output logic [8:0]  CAS_OUT_BWE_A,
  output logic [8:0]  CAS_OUT_BWE_B,
  output logic        CAS_OUT_DBITERR_A,
  output logic        CAS_OUT_DBITERR_B,
  output logic [71:0] CAS_OUT_DIN_A,
  output logic [71:0] CAS_OUT_DIN_B,
  output logic [71:0] CAS_OUT_DOUT_A,
  output logic [71:0] CAS_OUT_DOUT_B,
  output logic        CAS_OUT_EN_A,
  output logic        CAS_OUT_EN_B,
  output logic        CAS_OUT_RDACCESS_A,
  output logic        CAS_OUT_RDACCESS_B,
  output logic        CAS_OUT_RDB_WR_A,
  output logic        CAS_OUT_RDB_WR_B,
  output logic        CAS_OUT_SBITERR_A,
  output logic        CAS_OUT_SBITERR_B,
  output logic        DBITERR_A,
  output logic        DBITERR_B,
  output logic [71:0] DOUT_A,
  output logic [71:0] DOUT_B,
  output logic        RDACCESS_A,
  output logic        RDACCESS_B,
  output logic        SBITERR_A,
  output logic        SBITERR_B,
  input  logic [22:0] ADDR_A,
  input  logic [22:0] ADDR_B,
  input  logic [8:0]  BWE_A,
  input  logic [8:0]  BWE_B,
  input  logic [22:0] CAS_IN_ADDR_A,
  input  logic [22:0] CAS_IN_ADDR_B,
  input  logic [8:0]  CAS_IN_BWE_A,
  input  logic [8:0]  CAS_IN_BWE_B,
  input  logic        CAS_IN_DBITERR_A,
  input  logic        CAS_IN_DBITERR_B,
  input  logic [71:0] CAS_IN_DIN_A,
  input  logic [71:0] CAS_IN_DIN_B,
  input  logic [71:0] CAS_IN_DOUT_A,
  input  logic [71:0] CAS_IN_DOUT_B,
  input  logic        CAS_IN_EN_A,
  input  logic        CAS_IN_EN_B,
  input  logic        CAS_IN_RDACCESS_A,
  input  logic        CAS_IN_RDACCESS_B,
  input  logic        CAS_IN_RDB_WR_A,
  input  logic        CAS_IN_RDB_WR_B,
  input  logic        CAS_IN_SBITERR_A,
  input  logic        CAS_IN_SBITERR_B,
  input  logic        CLK,
  input  logic [71:0] DIN_A,
  input  logic [71:0] DIN_B,
  input  logic        EN_A,
  input  logic        EN_B,
  input  logic        INJECT_DBITERR_A,
  input  logic        INJECT_DBITERR_B,
  input  logic        INJECT_SBITERR_A,
  input  logic        INJECT_SBITERR_B,
  input  logic        OREG_CE_A,
  input  logic        OREG_CE_B,
  input  logic        OREG_ECC_CE_A,
  input  logic        OREG_ECC_CE_B,
  input  logic        RDB_WR_A,
  input  logic        RDB_WR_B,
  input  logic        RST_A,
  input  logic        RST_B,
  input  logic        SLEEP
);

  // Attributes of what is not modelled: their defaults only.
  cosim_unisim_choice #(.PRIM("URAM288"), .NAME("CASCADE_ORDER_A"), .VALUE(CASCADE_ORDER_A), .ONE("NONE"))
    u_cascade_a ();
  cosim_unisim_choice #(.PRIM("URAM288"), .NAME("CASCADE_ORDER_B"), .VALUE(CASCADE_ORDER_B), .ONE("NONE"))
    u_cascade_b ();
  cosim_unisim_choice #(.PRIM("URAM288"), .NAME("REG_CAS_A"), .VALUE(REG_CAS_A), .ONE("TRUE"), .TWO("FALSE"))
    u_reg_cas_a ();
  cosim_unisim_choice #(.PRIM("URAM288"), .NAME("REG_CAS_B"), .VALUE(REG_CAS_B), .ONE("TRUE"), .TWO("FALSE"))
    u_reg_cas_b ();
  if (SELF_MASK_A != 11'h7FF) begin : g_err_self_mask_a
    cosim_unisim_reject #(.PRIM("URAM288"), .NAME("SELF_MASK_A"), .VALUE($sformatf("11'h%03h", SELF_MASK_A)),
                          .ALLOWED("11'h7FF only: no cascade")) u_reject ();
  end
  if (SELF_MASK_B != 11'h7FF) begin : g_err_self_mask_b
    cosim_unisim_reject #(.PRIM("URAM288"), .NAME("SELF_MASK_B"), .VALUE($sformatf("11'h%03h", SELF_MASK_B)),
                          .ALLOWED("11'h7FF only: no cascade")) u_reject ();
  end

  cosim_unisim_uram #(
    .PRIM("URAM288"), .AUTO_SLEEP_LATENCY, .AVG_CONS_INACTIVE_CYCLES, .BWE_MODE_A, .BWE_MODE_B, .EN_AUTO_SLEEP_MODE,
    .EN_ECC_RD_A, .EN_ECC_RD_B, .EN_ECC_WR_A, .EN_ECC_WR_B, .IREG_PRE_A, .IREG_PRE_B, .OREG_A, .OREG_B, .OREG_ECC_A,
    .OREG_ECC_B, .RST_MODE_A, .RST_MODE_B, .USE_EXT_CE_A, .USE_EXT_CE_B, .IS_CLK_INVERTED, .IS_EN_A_INVERTED,
    .IS_EN_B_INVERTED, .IS_RDB_WR_A_INVERTED, .IS_RDB_WR_B_INVERTED, .IS_RST_A_INVERTED, .IS_RST_B_INVERTED
  ) u_ram (
    .CLK, .EN_A, .EN_B, .RDB_WR_A, .RDB_WR_B, .RST_A, .RST_B, .OREG_CE_A, .OREG_CE_B, .OREG_ECC_CE_A, .OREG_ECC_CE_B,
    .BWE_A, .BWE_B, .ADDR_A(ADDR_A[11:0]), .ADDR_B(ADDR_B[11:0]), .DIN_A, .DIN_B, .DOUT_A, .DOUT_B, .RDACCESS_A,
    .RDACCESS_B
  );

  // Cascade, ECC: not modelled.
  assign {CAS_OUT_ADDR_A, CAS_OUT_ADDR_B, CAS_OUT_BWE_A, CAS_OUT_BWE_B, CAS_OUT_DIN_A, CAS_OUT_DIN_B} = '0;
  assign {CAS_OUT_DOUT_A, CAS_OUT_DOUT_B, CAS_OUT_EN_A, CAS_OUT_EN_B, CAS_OUT_RDACCESS_A, CAS_OUT_RDACCESS_B} = '0;
  assign {CAS_OUT_RDB_WR_A, CAS_OUT_RDB_WR_B, CAS_OUT_DBITERR_A, CAS_OUT_DBITERR_B, CAS_OUT_SBITERR_A} = '0;
  assign {CAS_OUT_SBITERR_B, DBITERR_A, DBITERR_B, SBITERR_A, SBITERR_B} = '0;
  logic unused_pins;
  assign unused_pins = ^{ADDR_A[22:12], ADDR_B[22:12], CAS_IN_ADDR_A, CAS_IN_ADDR_B, CAS_IN_BWE_A, CAS_IN_BWE_B,
                         CAS_IN_DBITERR_A, CAS_IN_DBITERR_B, CAS_IN_DIN_A, CAS_IN_DIN_B, CAS_IN_DOUT_A, CAS_IN_DOUT_B,
                         CAS_IN_EN_A, CAS_IN_EN_B, CAS_IN_RDACCESS_A, CAS_IN_RDACCESS_B, CAS_IN_RDB_WR_A,
                         CAS_IN_RDB_WR_B, CAS_IN_SBITERR_A, CAS_IN_SBITERR_B, INJECT_DBITERR_A, INJECT_DBITERR_B,
                         INJECT_SBITERR_A, INJECT_SBITERR_B, SLEEP};

endmodule
