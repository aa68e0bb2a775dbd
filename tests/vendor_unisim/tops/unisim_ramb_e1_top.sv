// Test top for the 7-series block RAM stand-ins (tests/vendor_unisim): five
// instances of RAMB36E1 / RAMB18E1, each on inputs of its own (index i of
// every port below; a RAMB18E1 uses the low bits), with contents, INIT and
// SRVAL from mix(SEED, ...) as in unisim_ramb_top.sv:
//  0 RAMB36E1 true dual port, A reads 18 and writes 36 (READ_FIRST, DOA_REG 1,
//    RSTREG_PRIORITY_A "REGCE"), B reads 1 and writes 9 (WRITE_MODE_B and
//    DOB_REG left at their defaults: WRITE_FIRST, 0), with CLKARDCLK,
//    RSTREGARSTREG and ENBWREN inverted
//  1 RAMB36E1 simple dual port 72 (RAM_MODE "SDP"), DOA_REG 1, RSTRAMARSTRAM
//    inverted, RDADDR_COLLISION_HWCONFIG "PERFORMANCE"
//  2 RAMB36E1 true dual port 36 / 36, NO_CHANGE / WRITE_FIRST (default),
//    DOA_REG 0, DOB_REG 0 (default), CLKBWRCLK and RSTRAMB inverted,
//    SIM_DEVICE "VIRTEX6"
//  3 RAMB18E1 true dual port, A reads 9 and writes 4 (WRITE_FIRST by default,
//    DOA_REG 1), B reads and writes 18 (NO_CHANGE, DOB_REG 1), with
//    CLKBWRCLK, ENARDEN and RSTREGB inverted
//  4 RAMB18E1 simple dual port 36 (RAM_MODE "SDP"), DOA_REG 1,
//    RSTREG_PRIORITY_A "REGCE"
// The RAMB36E1 take all 16 address pins (bit 15, the cascade's, must be
// ignored). INIT_00, INIT_01, the last INIT_ and INITP_00 of instance i are
// mix256(SEED, 8 * i + 0 .. 3); unused_o[i] is the OR of its cascade and ECC
// outputs, which must stay 0.
`timescale 1ps/1ps
module unisim_ramb_e1_top #(
  parameter logic [63:0] SEED = 64'h7E51,
  localparam int         N    = 5,
  localparam int         AW   = 16
) (
`include "unisim_ramb_ports.svh"
);
`include "unisim_mix.svh"

  // mix(SEED, 1000 + k): INIT_A, INIT_B, SRVAL_A, SRVAL_B of instance i are V(i), V(i + 1), V(i + 2), V(i + 3).
  function automatic logic [63:0] v(input int k);
    return mix(SEED, 1000 + k % 4);
  endfunction

  // ---- RAMB36E1 -------------------------------------------------------------
  for (genvar i = 0; i < 3; i++) begin : g_36
    logic       casa, casb, dbit, sbit;
    logic [7:0] eccp;
    logic [8:0] rdecc;
    RAMB36E1 #(
      .INIT_00(mix256(SEED, 8 * i)), .INIT_01(mix256(SEED, 8 * i + 1)), .INIT_7F(mix256(SEED, 8 * i + 2)),
      .INITP_00(mix256(SEED, 8 * i + 3)),
      .INIT_A(36'(v(i))), .INIT_B(36'(v(i + 1))), .SRVAL_A(36'(v(i + 2))), .SRVAL_B(36'(v(i + 3))),
      .RAM_MODE(i == 1 ? "SDP" : "TDP"),
      .READ_WIDTH_A(i == 0 ? 18 : (i == 1 ? 72 : 36)),
      .WRITE_WIDTH_A(i == 0 ? 36 : (i == 1 ? 0 : 36)),
      .READ_WIDTH_B(i == 0 ? 1 : (i == 1 ? 0 : 36)),
      .WRITE_WIDTH_B(i == 0 ? 9 : (i == 1 ? 72 : 36)),
      .WRITE_MODE_A(i == 0 ? "READ_FIRST" : "NO_CHANGE"),
      .DOA_REG(i == 2 ? 0 : 1),
      .RSTREG_PRIORITY_A(i == 0 ? "REGCE" : "RSTREG"),
      .RDADDR_COLLISION_HWCONFIG(i == 1 ? "PERFORMANCE" : "DELAYED_WRITE"),
      .SIM_DEVICE(i == 2 ? "VIRTEX6" : "7SERIES"), .SIM_COLLISION_CHECK("NONE"),
      .IS_CLKARDCLK_INVERTED(i == 0), .IS_RSTREGARSTREG_INVERTED(i == 0), .IS_ENBWREN_INVERTED(i == 0),
      .IS_RSTRAMARSTRAM_INVERTED(i == 1), .IS_CLKBWRCLK_INVERTED(i == 2), .IS_RSTRAMB_INVERTED(i == 2)
    ) u_ram (
      .CASCADEOUTA(casa), .CASCADEOUTB(casb), .DBITERR(dbit), .SBITERR(sbit), .ECCPARITY(eccp),
      .RDADDRECC(rdecc), .DOADO(douta[i]), .DOBDO(doutb[i]), .DOPADOP(doutpa[i]), .DOPBDOP(doutpb[i]),
      .ADDRARDADDR(addra[i]), .ADDRBWRADDR(addrb[i]), .CASCADEINA(1'b0), .CASCADEINB(1'b0),
      .CLKARDCLK(clka[i]), .CLKBWRCLK(clkb[i]), .DIADI(dina[i]), .DIBDI(dinb[i]), .DIPADIP(dinpa[i]),
      .DIPBDIP(dinpb[i]), .ENARDEN(ena[i]), .ENBWREN(enb[i]), .INJECTDBITERR(1'b0), .INJECTSBITERR(1'b0),
      .REGCEAREGCE(regcea[i]), .REGCEB(regceb[i]), .RSTRAMARSTRAM(rstrama[i]), .RSTRAMB(rstramb[i]),
      .RSTREGARSTREG(rstrega[i]), .RSTREGB(rstregb[i]), .WEA(wea[i]), .WEBWE(webwe[i])
    );
    assign unused_o[i] = |{casa, casb, dbit, sbit, eccp, rdecc};
  end

  // ---- RAMB18E1 -------------------------------------------------------------
  for (genvar i = 3; i < 5; i++) begin : g_18
    localparam bit Sdp = i == 4;
    RAMB18E1 #(
      .INIT_00(mix256(SEED, 8 * i)), .INIT_01(mix256(SEED, 8 * i + 1)), .INIT_3F(mix256(SEED, 8 * i + 2)),
      .INITP_00(mix256(SEED, 8 * i + 3)),
      .INIT_A(18'(v(i))), .INIT_B(18'(v(i + 1))), .SRVAL_A(18'(v(i + 2))), .SRVAL_B(18'(v(i + 3))),
      .RAM_MODE(Sdp ? "SDP" : "TDP"),
      .READ_WIDTH_A(Sdp ? 36 : 9), .WRITE_WIDTH_A(Sdp ? 0 : 4),
      .READ_WIDTH_B(Sdp ? 0 : 18), .WRITE_WIDTH_B(Sdp ? 36 : 18),
      .WRITE_MODE_B(Sdp ? "WRITE_FIRST" : "NO_CHANGE"),
      .DOA_REG(1), .DOB_REG(Sdp ? 0 : 1), .RSTREG_PRIORITY_A(Sdp ? "REGCE" : "RSTREG"),
      .IS_CLKBWRCLK_INVERTED(!Sdp), .IS_ENARDEN_INVERTED(!Sdp), .IS_RSTREGB_INVERTED(!Sdp)
    ) u_ram (
      .DOADO(douta[i][15:0]), .DOBDO(doutb[i][15:0]), .DOPADOP(doutpa[i][1:0]), .DOPBDOP(doutpb[i][1:0]),
      .ADDRARDADDR(addra[i][13:0]), .ADDRBWRADDR(addrb[i][13:0]), .CLKARDCLK(clka[i]), .CLKBWRCLK(clkb[i]),
      .DIADI(dina[i][15:0]), .DIBDI(dinb[i][15:0]), .DIPADIP(dinpa[i][1:0]), .DIPBDIP(dinpb[i][1:0]),
      .ENARDEN(ena[i]), .ENBWREN(enb[i]), .REGCEAREGCE(regcea[i]), .REGCEB(regceb[i]),
      .RSTRAMARSTRAM(rstrama[i]), .RSTRAMB(rstramb[i]), .RSTREGARSTREG(rstrega[i]), .RSTREGB(rstregb[i]),
      .WEA(wea[i][1:0]), .WEBWE(webwe[i][3:0])
    );
    assign douta[i][31:16] = '0;
    assign doutb[i][31:16] = '0;
    assign doutpa[i][3:2]  = '0;
    assign doutpb[i][3:2]  = '0;
    assign unused_o[i] = 1'b0;
    logic unused_in;
    assign unused_in = ^{addra[i][15:14], addrb[i][15:14], dina[i][31:16], dinb[i][31:16], dinpa[i][3:2],
                         dinpb[i][3:2], wea[i][3:2], webwe[i][7:4]};
  end

endmodule
