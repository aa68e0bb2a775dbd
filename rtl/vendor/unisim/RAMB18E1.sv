// UNISIM RAMB18E1 stand-in (7 series / Zynq-7000 18 Kb block RAM; UG953 and
// UG473 behaviour, not vendor code): 16 Kb of data and 2 Kb of parity, true
// dual port (RAM_MODE "TDP") of widths 1, 2, 4, 9, 18 per port and
// direction, or simple dual port 36 (RAM_MODE "SDP", READ_WIDTH_A =
// WRITE_WIDTH_B = 36). The 14 address pins are as on RAMB18E2.
// Port A on CLKARDCLK, port B on CLKBWRCLK, each on its own clock. The
// behaviour is cosim_unisim_ramb's (see there and rtl/vendor/README.md), with
// the 7-series pin names and defaults (DO*_REG 0, WRITE_MODE "WRITE_FIRST").
// Every attribute and pin of the vendor's template is accepted; not modelled,
// so stopping elaboration with one line when set otherwise: INIT_FILE other
// than "NONE", RAM_MODE "SDP" with a side narrower than 36.
// SIM_COLLISION_CHECK, RDADDR_COLLISION_HWCONFIG and SIM_DEVICE ("7SERIES" or
// "VIRTEX6") are accepted without effect (no X on collisions).
`timescale 1ps/1ps
module RAMB18E1 #(
  parameter        DOA_REG           = 0,  // untyped: 1'b1 or 1
  parameter        DOB_REG           = 0,
  parameter logic [255:0] INIT_00 = 256'h0,
  parameter logic [255:0] INIT_01 = 256'h0,
  parameter logic [255:0] INIT_02 = 256'h0,
  parameter logic [255:0] INIT_03 = 256'h0,
  parameter logic [255:0] INIT_04 = 256'h0,
  parameter logic [255:0] INIT_05 = 256'h0,
  parameter logic [255:0] INIT_06 = 256'h0,
  parameter logic [255:0] INIT_07 = 256'h0,
  parameter logic [255:0] INIT_08 = 256'h0,
  parameter logic [255:0] INIT_09 = 256'h0,
  parameter logic [255:0] INIT_0A = 256'h0,
  parameter logic [255:0] INIT_0B = 256'h0,
  parameter logic [255:0] INIT_0C = 256'h0,
  parameter logic [255:0] INIT_0D = 256'h0,
  parameter logic [255:0] INIT_0E = 256'h0,
  parameter logic [255:0] INIT_0F = 256'h0,
  parameter logic [255:0] INIT_10 = 256'h0,
  parameter logic [255:0] INIT_11 = 256'h0,
  parameter logic [255:0] INIT_12 = 256'h0,
  parameter logic [255:0] INIT_13 = 256'h0,
  parameter logic [255:0] INIT_14 = 256'h0,
  parameter logic [255:0] INIT_15 = 256'h0,
  parameter logic [255:0] INIT_16 = 256'h0,
  parameter logic [255:0] INIT_17 = 256'h0,
  parameter logic [255:0] INIT_18 = 256'h0,
  parameter logic [255:0] INIT_19 = 256'h0,
  parameter logic [255:0] INIT_1A = 256'h0,
  parameter logic [255:0] INIT_1B = 256'h0,
  parameter logic [255:0] INIT_1C = 256'h0,
  parameter logic [255:0] INIT_1D = 256'h0,
  parameter logic [255:0] INIT_1E = 256'h0,
  parameter logic [255:0] INIT_1F = 256'h0,
  parameter logic [255:0] INIT_20 = 256'h0,
  parameter logic [255:0] INIT_21 = 256'h0,
  parameter logic [255:0] INIT_22 = 256'h0,
  parameter logic [255:0] INIT_23 = 256'h0,
  parameter logic [255:0] INIT_24 = 256'h0,
  parameter logic [255:0] INIT_25 = 256'h0,
  parameter logic [255:0] INIT_26 = 256'h0,
  parameter logic [255:0] INIT_27 = 256'h0,
  parameter logic [255:0] INIT_28 = 256'h0,
  parameter logic [255:0] INIT_29 = 256'h0,
  parameter logic [255:0] INIT_2A = 256'h0,
  parameter logic [255:0] INIT_2B = 256'h0,
  parameter logic [255:0] INIT_2C = 256'h0,
  parameter logic [255:0] INIT_2D = 256'h0,
  parameter logic [255:0] INIT_2E = 256'h0,
  parameter logic [255:0] INIT_2F = 256'h0,
  parameter logic [255:0] INIT_30 = 256'h0,
  parameter logic [255:0] INIT_31 = 256'h0,
  parameter logic [255:0] INIT_32 = 256'h0,
  parameter logic [255:0] INIT_33 = 256'h0,
  parameter logic [255:0] INIT_34 = 256'h0,
  parameter logic [255:0] INIT_35 = 256'h0,
  parameter logic [255:0] INIT_36 = 256'h0,
  parameter logic [255:0] INIT_37 = 256'h0,
  parameter logic [255:0] INIT_38 = 256'h0,
  parameter logic [255:0] INIT_39 = 256'h0,
  parameter logic [255:0] INIT_3A = 256'h0,
  parameter logic [255:0] INIT_3B = 256'h0,
  parameter logic [255:0] INIT_3C = 256'h0,
  parameter logic [255:0] INIT_3D = 256'h0,
  parameter logic [255:0] INIT_3E = 256'h0,
  parameter logic [255:0] INIT_3F = 256'h0,
  parameter logic [255:0] INITP_00 = 256'h0,
  parameter logic [255:0] INITP_01 = 256'h0,
  parameter logic [255:0] INITP_02 = 256'h0,
  parameter logic [255:0] INITP_03 = 256'h0,
  parameter logic [255:0] INITP_04 = 256'h0,
  parameter logic [255:0] INITP_05 = 256'h0,
  parameter logic [255:0] INITP_06 = 256'h0,
  parameter logic [255:0] INITP_07 = 256'h0,
  parameter logic [17:0] INIT_A = 18'h0,
  parameter logic [17:0] INIT_B = 18'h0,
  parameter string INIT_FILE         = "NONE",
  parameter        IS_CLKARDCLK_INVERTED = 0,
  parameter        IS_CLKBWRCLK_INVERTED = 0,
  parameter        IS_ENARDEN_INVERTED = 0,
  parameter        IS_ENBWREN_INVERTED = 0,
  parameter        IS_RSTRAMARSTRAM_INVERTED = 0,
  parameter        IS_RSTRAMB_INVERTED = 0,
  parameter        IS_RSTREGARSTREG_INVERTED = 0,
  parameter        IS_RSTREGB_INVERTED = 0,
  parameter string RAM_MODE          = "TDP",
  parameter string RDADDR_COLLISION_HWCONFIG = "DELAYED_WRITE",
  parameter int    READ_WIDTH_A      = 0,
  parameter int    READ_WIDTH_B      = 0,
  parameter string RSTREG_PRIORITY_A = "RSTREG",
  parameter string RSTREG_PRIORITY_B = "RSTREG",
  /* verilator lint_off UNUSEDPARAM */  // no collision X: no behaviour here
  parameter string SIM_COLLISION_CHECK = "ALL",
  /* verilator lint_on UNUSEDPARAM */
  parameter string SIM_DEVICE        = "7SERIES",
  parameter logic [17:0] SRVAL_A = 18'h0,
  parameter logic [17:0] SRVAL_B = 18'h0,
  parameter string WRITE_MODE_A      = "WRITE_FIRST",
  parameter string WRITE_MODE_B      = "WRITE_FIRST",
  parameter int    WRITE_WIDTH_A     = 0,
  parameter int    WRITE_WIDTH_B     = 0
) (
  output logic [15:0] DOADO,
  output logic [15:0] DOBDO,
  output logic [1:0]  DOPADOP,
  output logic [1:0]  DOPBDOP,
  input  logic [13:0] ADDRARDADDR,
  input  logic [13:0] ADDRBWRADDR,
  input  logic        CLKARDCLK,
  input  logic        CLKBWRCLK,
  input  logic [15:0] DIADI,
  input  logic [15:0] DIBDI,
  input  logic [1:0]  DIPADIP,
  input  logic [1:0]  DIPBDIP,
  input  logic        ENARDEN,
  input  logic        ENBWREN,
  input  logic        REGCEAREGCE,
  input  logic        REGCEB,
  input  logic        RSTRAMARSTRAM,
  input  logic        RSTRAMB,
  input  logic        RSTREGARSTREG,
  input  logic        RSTREGB,
  input  logic [1:0]  WEA,
  input  logic [3:0]  WEBWE
);

  // Attributes of what is not modelled: their defaults only.
  if (INIT_FILE != "NONE") begin : g_err_init_file
    cosim_unisim_reject #(.PRIM("RAMB18E1"), .NAME("INIT_FILE"), .VALUE(INIT_FILE),
                          .ALLOWED("NONE only")) u_reject ();
  end
  if (RDADDR_COLLISION_HWCONFIG != "DELAYED_WRITE" && RDADDR_COLLISION_HWCONFIG != "PERFORMANCE") begin : g_err_rdaddr_collision
    cosim_unisim_reject #(.PRIM("RAMB18E1"), .NAME("RDADDR_COLLISION_HWCONFIG"), .VALUE(RDADDR_COLLISION_HWCONFIG),
                          .ALLOWED("DELAYED_WRITE or PERFORMANCE")) u_reject ();
  end
  if (SIM_DEVICE != "7SERIES" && SIM_DEVICE != "VIRTEX6") begin : g_err_sim_device
    cosim_unisim_reject #(.PRIM("RAMB18E1"), .NAME("SIM_DEVICE"), .VALUE(SIM_DEVICE),
                          .ALLOWED("7SERIES or VIRTEX6")) u_reject ();
  end

  cosim_unisim_ramb #(
    .PRIM("RAMB18E1"), .AW(14), .DP(16), .RAM_MODE,
    .INIT_D({INIT_3F, INIT_3E, INIT_3D, INIT_3C, INIT_3B, INIT_3A, INIT_39, INIT_38, INIT_37, INIT_36, INIT_35, INIT_34, INIT_33, INIT_32, INIT_31, INIT_30, INIT_2F, INIT_2E, INIT_2D, INIT_2C, INIT_2B, INIT_2A, INIT_29, INIT_28, INIT_27, INIT_26, INIT_25, INIT_24, INIT_23, INIT_22, INIT_21, INIT_20, INIT_1F, INIT_1E, INIT_1D, INIT_1C, INIT_1B, INIT_1A, INIT_19, INIT_18, INIT_17, INIT_16, INIT_15, INIT_14, INIT_13, INIT_12, INIT_11, INIT_10, INIT_0F, INIT_0E, INIT_0D, INIT_0C, INIT_0B, INIT_0A, INIT_09, INIT_08, INIT_07, INIT_06, INIT_05, INIT_04, INIT_03, INIT_02, INIT_01, INIT_00}),
    .INIT_P({INITP_07, INITP_06, INITP_05, INITP_04, INITP_03, INITP_02, INITP_01, INITP_00}),
    .INIT_A, .INIT_B, .SRVAL_A, .SRVAL_B, .READ_WIDTH_A, .READ_WIDTH_B, .WRITE_WIDTH_A, .WRITE_WIDTH_B,
    .WRITE_MODE_A, .WRITE_MODE_B, .RSTREG_PRIORITY_A, .RSTREG_PRIORITY_B, .DOA_REG, .DOB_REG,
    .IS_CLKARDCLK_INVERTED, .IS_CLKBWRCLK_INVERTED, .IS_ENARDEN_INVERTED, .IS_ENBWREN_INVERTED,
    .IS_RSTRAMARSTRAM_INVERTED, .IS_RSTRAMB_INVERTED, .IS_RSTREGARSTREG_INVERTED, .IS_RSTREGB_INVERTED
  ) u_ram (
    .CLKARDCLK, .CLKBWRCLK, .ENARDEN, .ENBWREN, .RSTRAMARSTRAM, .RSTRAMB, .RSTREGARSTREG, .RSTREGB,
    .REGCEAREGCE, .REGCEB,
    .ADDRARDADDR, .ADDRBWRADDR,
    .DINADIN(DIADI), .DINBDIN(DIBDI), .DINPADINP(DIPADIP), .DINPBDINP(DIPBDIP), .WEA, .WEBWE,
    .DOUTADOUT(DOADO), .DOUTBDOUT(DOBDO), .DOUTPADOUTP(DOPADOP), .DOUTPBDOUTP(DOPBDOP)
  );

endmodule
