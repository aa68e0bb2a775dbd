// Test top for the block RAM stand-ins (tests/vendor_unisim): five instances,
// each on inputs of its own (index i of every port below; a RAMB18E2 uses
// the low bits), with contents, INIT and SRVAL from mix(SEED, ...):
//  0 RAMB36E2 true dual port 36 / 36, WRITE_FIRST / READ_FIRST, DOA_REG 1
//    (RSTREG_PRIORITY_A "REGCE"), DOB_REG 0
//  1 RAMB36E2 true dual port, A reads 9 and writes 18 (NO_CHANGE, DOA_REG 0),
//    B reads 4 and writes 1 (WRITE_FIRST, DOB_REG 1), with CLKBWRCLK,
//    ENARDEN, RSTRAMB and RSTREGB inverted
//  2 RAMB36E2 simple dual port 72, DOA_REG 1
//  3 RAMB18E2 true dual port 18 / 2, READ_FIRST / NO_CHANGE, both DO*_REG 1,
//    with CLKARDCLK, ENBWREN, RSTRAMARSTRAM and RSTREGARSTREG inverted
//  4 RAMB18E2 simple dual port 36, DOA_REG 0
// INIT_00, INIT_01, the last INIT_ and INITP_00 of instance i are
// mix256(SEED, 8 * i + 0 .. 3); unused_o[i] is the OR of its cascade (and
// ECC) outputs, which must stay 0.
`timescale 1ps/1ps
module unisim_ramb_top #(
  parameter logic [63:0] SEED = 64'hB4A3,
  localparam int         N    = 5,
  localparam int         AW   = 15
) (
`include "unisim_ramb_ports.svh"
);
`include "unisim_mix.svh"

  localparam logic [63:0] V0 = mix(SEED, 1000), V1 = mix(SEED, 1001), V2 = mix(SEED, 1002), V3 = mix(SEED, 1003);

  // ---- RAMB36E2 -------------------------------------------------------------
  for (genvar i = 0; i < 3; i++) begin : g_36
    logic [31:0] casa, casb;
    logic [3:0]  caspa, caspb;
    logic [7:0]  eccp;
    logic [8:0]  rdecc;
    logic        cdbit, csbit, dbit, sbit;
    localparam bit Sdp = i == 2;
    RAMB36E2 #(
      .INIT_00(mix256(SEED, 8 * i)), .INIT_01(mix256(SEED, 8 * i + 1)), .INIT_7F(mix256(SEED, 8 * i + 2)),
      .INITP_00(mix256(SEED, 8 * i + 3)),
      .INIT_A(36'(i == 0 ? V0 : V2)), .INIT_B(36'(i == 0 ? V1 : V3)),
      .SRVAL_A(36'(i == 0 ? V2 : V0)), .SRVAL_B(36'(i == 0 ? V3 : V1)),
      .READ_WIDTH_A(i == 0 ? 36 : (i == 1 ? 9 : 72)),
      .WRITE_WIDTH_A(i == 0 ? 36 : (i == 1 ? 18 : 0)),
      .READ_WIDTH_B(i == 0 ? 36 : (i == 1 ? 4 : 0)),
      .WRITE_WIDTH_B(i == 0 ? 36 : (i == 1 ? 1 : 72)),
      .WRITE_MODE_A(i == 0 ? "WRITE_FIRST" : "NO_CHANGE"),
      .WRITE_MODE_B(i == 0 ? "READ_FIRST" : (i == 1 ? "WRITE_FIRST" : "NO_CHANGE")),
      .DOA_REG(i == 1 ? 0 : 1), .DOB_REG(i == 0 ? 0 : 1),
      .RSTREG_PRIORITY_A(i == 0 ? "REGCE" : "RSTREG"),
      .CLOCK_DOMAINS(Sdp ? "COMMON" : "INDEPENDENT"), .SIM_COLLISION_CHECK("NONE"),
      .IS_CLKBWRCLK_INVERTED(i == 1), .IS_ENARDEN_INVERTED(i == 1), .IS_RSTRAMB_INVERTED(i == 1),
      .IS_RSTREGB_INVERTED(i == 1)
    ) u_ram (
      .CASDOUTA(casa), .CASDOUTB(casb), .CASDOUTPA(caspa), .CASDOUTPB(caspb), .CASOUTDBITERR(cdbit),
      .CASOUTSBITERR(csbit), .DBITERR(dbit), .ECCPARITY(eccp), .RDADDRECC(rdecc), .SBITERR(sbit),
      .DOUTADOUT(douta[i]), .DOUTBDOUT(doutb[i]), .DOUTPADOUTP(doutpa[i]), .DOUTPBDOUTP(doutpb[i]),
      .ADDRARDADDR(addra[i]), .ADDRBWRADDR(addrb[i]), .ADDRENA(1'b1), .ADDRENB(1'b1),
      .CASDIMUXA(1'b0), .CASDIMUXB(1'b0), .CASDINA(32'h0), .CASDINB(32'h0), .CASDINPA(4'h0), .CASDINPB(4'h0),
      .CASDOMUXA(1'b0), .CASDOMUXB(1'b0), .CASDOMUXEN_A(1'b1), .CASDOMUXEN_B(1'b1), .CASINDBITERR(1'b0),
      .CASINSBITERR(1'b0), .CASOREGIMUXA(1'b0), .CASOREGIMUXB(1'b0), .CASOREGIMUXEN_A(1'b1),
      .CASOREGIMUXEN_B(1'b1), .CLKARDCLK(clka[i]), .CLKBWRCLK(clkb[i]), .DINADIN(dina[i]), .DINBDIN(dinb[i]),
      .DINPADINP(dinpa[i]), .DINPBDINP(dinpb[i]), .ECCPIPECE(1'b1), .ENARDEN(ena[i]), .ENBWREN(enb[i]),
      .INJECTDBITERR(1'b0), .INJECTSBITERR(1'b0), .REGCEAREGCE(regcea[i]), .REGCEB(regceb[i]),
      .RSTRAMARSTRAM(rstrama[i]), .RSTRAMB(rstramb[i]), .RSTREGARSTREG(rstrega[i]), .RSTREGB(rstregb[i]),
      .SLEEP(1'b0), .WEA(wea[i]), .WEBWE(webwe[i])
    );
    assign unused_o[i] = |{casa, casb, caspa, caspb, eccp, rdecc, cdbit, csbit, dbit, sbit};
  end

  // ---- RAMB18E2 -------------------------------------------------------------
  for (genvar i = 3; i < 5; i++) begin : g_18
    logic [15:0] casa, casb;
    logic [1:0]  caspa, caspb;
    localparam bit Sdp = i == 4;
    RAMB18E2 #(
      .INIT_00(mix256(SEED, 8 * i)), .INIT_01(mix256(SEED, 8 * i + 1)), .INIT_3F(mix256(SEED, 8 * i + 2)),
      .INITP_00(mix256(SEED, 8 * i + 3)),
      .INIT_A(18'(V1)), .INIT_B(18'(V2)), .SRVAL_A(18'(V3)), .SRVAL_B(18'(V0)),
      .READ_WIDTH_A(Sdp ? 36 : 18), .WRITE_WIDTH_A(Sdp ? 0 : 18),
      .READ_WIDTH_B(Sdp ? 0 : 2), .WRITE_WIDTH_B(Sdp ? 36 : 2),
      .WRITE_MODE_A(Sdp ? "WRITE_FIRST" : "READ_FIRST"), .WRITE_MODE_B(Sdp ? "WRITE_FIRST" : "NO_CHANGE"),
      .DOA_REG(Sdp ? 0 : 1), .DOB_REG(1),
      .IS_CLKARDCLK_INVERTED(!Sdp), .IS_ENBWREN_INVERTED(!Sdp), .IS_RSTRAMARSTRAM_INVERTED(!Sdp),
      .IS_RSTREGARSTREG_INVERTED(!Sdp)
    ) u_ram (
      .CASDOUTA(casa), .CASDOUTB(casb), .CASDOUTPA(caspa), .CASDOUTPB(caspb),
      .DOUTADOUT(douta[i][15:0]), .DOUTBDOUT(doutb[i][15:0]), .DOUTPADOUTP(doutpa[i][1:0]),
      .DOUTPBDOUTP(doutpb[i][1:0]),
      .ADDRARDADDR(addra[i][13:0]), .ADDRBWRADDR(addrb[i][13:0]), .ADDRENA(1'b1), .ADDRENB(1'b1),
      .CASDIMUXA(1'b0), .CASDIMUXB(1'b0), .CASDINA(16'h0), .CASDINB(16'h0), .CASDINPA(2'h0), .CASDINPB(2'h0),
      .CASDOMUXA(1'b0), .CASDOMUXB(1'b0), .CASDOMUXEN_A(1'b1), .CASDOMUXEN_B(1'b1), .CASOREGIMUXA(1'b0),
      .CASOREGIMUXB(1'b0), .CASOREGIMUXEN_A(1'b1), .CASOREGIMUXEN_B(1'b1), .CLKARDCLK(clka[i]),
      .CLKBWRCLK(clkb[i]), .DINADIN(dina[i][15:0]), .DINBDIN(dinb[i][15:0]), .DINPADINP(dinpa[i][1:0]),
      .DINPBDINP(dinpb[i][1:0]), .ENARDEN(ena[i]), .ENBWREN(enb[i]), .REGCEAREGCE(regcea[i]),
      .REGCEB(regceb[i]), .RSTRAMARSTRAM(rstrama[i]), .RSTRAMB(rstramb[i]), .RSTREGARSTREG(rstrega[i]),
      .RSTREGB(rstregb[i]), .SLEEP(1'b0), .WEA(wea[i][1:0]), .WEBWE(webwe[i][3:0])
    );
    assign douta[i][31:16] = '0;
    assign doutb[i][31:16] = '0;
    assign doutpa[i][3:2]  = '0;
    assign doutpb[i][3:2]  = '0;
    assign unused_o[i] = |{casa, casb, caspa, caspb};
    logic unused_in;
    assign unused_in = ^{addra[i][14], addrb[i][14], dina[i][31:16], dinb[i][31:16], dinpa[i][3:2],
                         dinpb[i][3:2], wea[i][3:2], webwe[i][7:4]};
  end

endmodule
