// The body of the block RAM stand-ins RAMB18E2 and RAMB36E2 (UNISIM,
// UltraScale, UG974 / UG573) and RAMB18E1 and RAMB36E1 (7 series, UG953 /
// UG473), written here from the documented behaviour; not vendor code. The
// pins keep the UltraScale names (the 7-series wrappers map theirs: DIADI is
// DINADIN, DOADO DOUTADOUT, and so on); the wrappers only declare the
// attributes and the pins they do not use.
//
// The array: 2^AW data bits and 2^AW / 8 parity bits, kept as rows of 64
// data and 8 parity bits. A port of width W (1, 2, 4, 9, 18, 36, 72) moves D
// data bits (W, or 8 per 9) and P = D / 8 parity bits; its word at address
// pins ADDR is data bits [a*D +: D] and parity bits [a*P +: P] with
// a = ADDR >> log2(D) (the low log2(D) pins unused), so ports of different
// widths see one array, and INIT_xx / INITP_xx are the data / parity bits
// 256 at a time from bit 0. A written word is split into lanes of 8 data bits
// and 1 parity bit, lane k under write-enable bit k (widths below 9: one
// lane under bit 0).
//
// Simple dual port (SDP: RAM_MODE "SDP" on the 7 series; on UltraScale,
// RAM_MODE "", READ_WIDTH_A or WRITE_WIDTH_B the double width, 72 or 36;
// both sides must be that width): port A only reads, on CLKARDCLK,
// {DOUTBDOUT, DOUTADOUT} and {DOUTPBDOUTP, DOUTPADOUTP}; port B only writes,
// on CLKBWRCLK, {DINBDIN, DINADIN} and {DINPBDINP, DINPADINP} under WEBWE and
// ENBWREN.
//
// Each port, on the active edge of its own clock with its enable high:
//  - the lanes whose write-enable bit is set are written (a write);
//  - the read latch takes SRVAL when RSTRAM is high; else on a write the
//    word after the write ("WRITE_FIRST"), the word before ("READ_FIRST") or
//    nothing ("NO_CHANGE"); else (a read) the word at the address;
//  - with DO_REG 1 the output register, on every edge whatever the enable,
//    takes SRVAL when RSTREG is high (with RSTREG_PRIORITY "REGCE" only when
//    REGCE is high too), else the latch when REGCE is high.
// The outputs show the output register (DO_REG 1) or the latch (DO_REG 0);
// both start at INIT. Outputs above the port's read width are 0. SRVAL and
// INIT are {parity, data} on the port's pins (SDP: port B's attributes for
// the upper half). A port's read takes the array as it is before its edge:
// a write of the other port at the same instant (the same clock, or two
// clocks rising at once) is not in it; both ports writing one lane at one
// instant leave one of the two (undefined on hardware).
`timescale 1ps/1ps
module cosim_unisim_ramb #(
  parameter string PRIM = "RAMB36E2",
  parameter int    AW   = 15,  // address pins: 15 (36 Kb) or 14 (18 Kb)
  parameter int    DP   = 32,  // data pins per port: 32 or 16
  // "" (UltraScale: simple dual port by the widths), "TDP" or "SDP" (7 series).
  parameter string RAM_MODE = "",
  /* verilator lint_off WIDTHCONCAT */  // the contents are 16 Kb or 32 Kb wide: on purpose
  parameter logic [(1 << AW)-1:0]       INIT_D = '0,  // {INIT_.., ..., INIT_00}
  parameter logic [(1 << AW) / 8 - 1:0] INIT_P = '0,  // {INITP_.., ..., INITP_00}
  /* verilator lint_on WIDTHCONCAT */
  parameter logic [DP + DP/8 - 1:0] INIT_A  = '0,
  parameter logic [DP + DP/8 - 1:0] INIT_B  = '0,
  parameter logic [DP + DP/8 - 1:0] SRVAL_A = '0,
  parameter logic [DP + DP/8 - 1:0] SRVAL_B = '0,
  parameter int    READ_WIDTH_A      = 0,
  parameter int    READ_WIDTH_B      = 0,
  parameter int    WRITE_WIDTH_A     = 0,
  parameter int    WRITE_WIDTH_B     = 0,
  parameter string WRITE_MODE_A      = "NO_CHANGE",
  parameter string WRITE_MODE_B      = "NO_CHANGE",
  parameter string RSTREG_PRIORITY_A = "RSTREG",
  parameter string RSTREG_PRIORITY_B = "RSTREG",
  // Untyped like the vendor's 1-bit attributes' users expect (1'b1 or 1).
  parameter DOA_REG = 1, DOB_REG = 1,
  parameter IS_CLKARDCLK_INVERTED = 0, IS_CLKBWRCLK_INVERTED = 0,
  parameter IS_ENARDEN_INVERTED = 0, IS_ENBWREN_INVERTED = 0,
  parameter IS_RSTRAMARSTRAM_INVERTED = 0, IS_RSTRAMB_INVERTED = 0,
  parameter IS_RSTREGARSTREG_INVERTED = 0, IS_RSTREGB_INVERTED = 0,
  localparam int   PP = DP / 8
) (
  input  logic          CLKARDCLK, CLKBWRCLK,
  input  logic          ENARDEN, ENBWREN,
  input  logic          RSTRAMARSTRAM, RSTRAMB, RSTREGARSTREG, RSTREGB,
  input  logic          REGCEAREGCE, REGCEB,
  input  logic [AW-1:0] ADDRARDADDR, ADDRBWRADDR,
  input  logic [DP-1:0] DINADIN, DINBDIN,
  input  logic [PP-1:0] DINPADINP, DINPBDINP,
  input  logic [PP-1:0] WEA,
  input  logic [2*PP-1:0] WEBWE,
  output logic [DP-1:0] DOUTADOUT, DOUTBDOUT,
  output logic [PP-1:0] DOUTPADOUTP, DOUTPBDOUTP
);

  localparam int Tdp = DP + PP;   // the widest true-dual-port width: 36 or 18
  localparam int Sdp = 2 * Tdp;   // the simple-dual-port width: 72 or 36
  localparam bit IsSdp = RAM_MODE == "SDP" || (RAM_MODE == "" && (READ_WIDTH_A == Sdp || WRITE_WIDTH_B == Sdp));
  localparam int Rows = (1 << AW) / 64;

  // ---- Attribute checks (one line each) -------------------------------------
  cosim_unisim_check #(.PRIM(PRIM), .NAME("DOA_REG"), .VALUE(DOA_REG)) u_check_doa ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("DOB_REG"), .VALUE(DOB_REG)) u_check_dob ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_CLKARDCLK_INVERTED"), .VALUE(IS_CLKARDCLK_INVERTED)) u_check_clka ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_CLKBWRCLK_INVERTED"), .VALUE(IS_CLKBWRCLK_INVERTED)) u_check_clkb ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_ENARDEN_INVERTED"), .VALUE(IS_ENARDEN_INVERTED)) u_check_ena ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_ENBWREN_INVERTED"), .VALUE(IS_ENBWREN_INVERTED)) u_check_enb ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTRAMARSTRAM_INVERTED"), .VALUE(IS_RSTRAMARSTRAM_INVERTED))
    u_check_rstrama ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTRAMB_INVERTED"), .VALUE(IS_RSTRAMB_INVERTED)) u_check_rstramb ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTREGARSTREG_INVERTED"), .VALUE(IS_RSTREGARSTREG_INVERTED))
    u_check_rstrega ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_RSTREGB_INVERTED"), .VALUE(IS_RSTREGB_INVERTED)) u_check_rstregb ();

  function automatic bit width_ok(int w, bit sdp_too);
    return w inside {0, 1, 2, 4, 9, 18} || w == Tdp || (sdp_too && w == Sdp);
  endfunction
  localparam string Widths = Tdp == 36 ? "0, 1, 2, 4, 9, 18, 36" : "0, 1, 2, 4, 9, 18";
  // Port A's read and port B's write may be the SDP width, except in RAM_MODE "TDP".
  localparam bit    SdpWidth = RAM_MODE != "TDP";
  localparam string WidthsAB = SdpWidth ? {Widths, ", ", $sformatf("%0d", Sdp)} : {Widths, " with RAM_MODE TDP"};
  if (RAM_MODE != "" && RAM_MODE != "TDP" && RAM_MODE != "SDP") begin : g_err_mode
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("RAM_MODE"), .VALUE(RAM_MODE), .ALLOWED("TDP or SDP")) u_reject ();
  end
  if (!width_ok(READ_WIDTH_A, SdpWidth)) begin : g_err_rwa
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("READ_WIDTH_A"), .NUM(READ_WIDTH_A), .ALLOWED(WidthsAB)) u_reject ();
  end
  if (!width_ok(WRITE_WIDTH_B, SdpWidth)) begin : g_err_wwb
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("WRITE_WIDTH_B"), .NUM(WRITE_WIDTH_B), .ALLOWED(WidthsAB)) u_reject ();
  end
  if (!width_ok(READ_WIDTH_B, 0)) begin : g_err_rwb
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("READ_WIDTH_B"), .NUM(READ_WIDTH_B), .ALLOWED(Widths)) u_reject ();
  end
  if (!width_ok(WRITE_WIDTH_A, 0)) begin : g_err_wwa
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("WRITE_WIDTH_A"), .NUM(WRITE_WIDTH_A), .ALLOWED(Widths)) u_reject ();
  end
  // SDP with a narrower side (the vendor allows it) is not modelled.
  if (IsSdp && (READ_WIDTH_A != Sdp || WRITE_WIDTH_B != Sdp) && width_ok(READ_WIDTH_A, 1) && width_ok(WRITE_WIDTH_B, 1))
  begin : g_err_sdp
    cosim_unisim_reject #(.PRIM(PRIM), .NAME(READ_WIDTH_A == Sdp ? "WRITE_WIDTH_B" : "READ_WIDTH_A"),
                          .NUM(READ_WIDTH_A == Sdp ? WRITE_WIDTH_B : READ_WIDTH_A),
                          .ALLOWED($sformatf("%0d with simple dual port", Sdp))) u_reject ();
  end
  if (WRITE_MODE_A != "WRITE_FIRST" && WRITE_MODE_A != "READ_FIRST" && WRITE_MODE_A != "NO_CHANGE") begin : g_err_wma
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("WRITE_MODE_A"), .VALUE(WRITE_MODE_A),
                          .ALLOWED("WRITE_FIRST, READ_FIRST or NO_CHANGE")) u_reject ();
  end
  if (WRITE_MODE_B != "WRITE_FIRST" && WRITE_MODE_B != "READ_FIRST" && WRITE_MODE_B != "NO_CHANGE") begin : g_err_wmb
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("WRITE_MODE_B"), .VALUE(WRITE_MODE_B),
                          .ALLOWED("WRITE_FIRST, READ_FIRST or NO_CHANGE")) u_reject ();
  end
  if (RSTREG_PRIORITY_A != "RSTREG" && RSTREG_PRIORITY_A != "REGCE") begin : g_err_rpa
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("RSTREG_PRIORITY_A"), .VALUE(RSTREG_PRIORITY_A),
                          .ALLOWED("RSTREG or REGCE")) u_reject ();
  end
  if (RSTREG_PRIORITY_B != "RSTREG" && RSTREG_PRIORITY_B != "REGCE") begin : g_err_rpb
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("RSTREG_PRIORITY_B"), .VALUE(RSTREG_PRIORITY_B),
                          .ALLOWED("RSTREG or REGCE")) u_reject ();
  end

  // ---- The array --------------------------------------------------------------
  // Each port writes it from a process on its own clock, as a two-clock RAM.
  /* verilator lint_off MULTIDRIVEN */
  logic [63:0] mem_d [Rows];
  logic [7:0]  mem_p [Rows];
  /* verilator lint_on MULTIDRIVEN */
  initial begin
    for (int r = 0; r < Rows; r++) begin
      mem_d[r] = INIT_D[64*r +: 64];
      mem_p[r] = INIT_P[8*r +: 8];
    end
  end

  // ---- The two ports, as the body sees them (SDP mapped) -------------------
  logic [1:0]          clk, en, rstram, rstreg, regce;
  logic [AW-1:0]       addr [2];
  logic [2*DP-1:0]     din [2], dout [2];
  logic [2*PP-1:0]     dinp [2], doutp [2], we [2];
  assign clk    = {CLKBWRCLK ^ IS_CLKBWRCLK_INVERTED[0], CLKARDCLK ^ IS_CLKARDCLK_INVERTED[0]};
  assign en     = {ENBWREN ^ IS_ENBWREN_INVERTED[0], ENARDEN ^ IS_ENARDEN_INVERTED[0]};
  assign rstram = {RSTRAMB ^ IS_RSTRAMB_INVERTED[0], RSTRAMARSTRAM ^ IS_RSTRAMARSTRAM_INVERTED[0]};
  assign rstreg = {RSTREGB ^ IS_RSTREGB_INVERTED[0], RSTREGARSTREG ^ IS_RSTREGARSTREG_INVERTED[0]};
  assign regce  = {REGCEB, REGCEAREGCE};
  assign addr   = '{ADDRARDADDR, ADDRBWRADDR};
  assign din    = '{{DP'(0), DINADIN}, IsSdp ? {DINBDIN, DINADIN} : {DP'(0), DINBDIN}};
  assign dinp   = '{{PP'(0), DINPADINP}, IsSdp ? {DINPBDINP, DINPADINP} : {PP'(0), DINPBDINP}};
  assign we     = '{{PP'(0), WEA}, WEBWE};

  // Data bits of a width (8 per 9), and log2 of them.
  function automatic int dbits(int w);
    return w < 9 ? w : w / 9 * 8;
  endfunction
  function automatic int lg(int n);
    return n <= 1 ? 0 : $clog2(n);
  endfunction

  for (genvar p = 0; p < 2; p++) begin : g_port
    // SDP: A reads only, B writes only.
    localparam int RW = p == 0 ? READ_WIDTH_A : (IsSdp ? 0 : READ_WIDTH_B);
    localparam int WW = p == 0 ? (IsSdp ? 0 : WRITE_WIDTH_A) : WRITE_WIDTH_B;
    localparam int RD = dbits(RW), RP = RD / 8, WD = dbits(WW), WP = WD / 8;
    localparam int Lanes = WD >= 8 ? WD / 8 : 1;
    localparam int LaneW = WD >= 8 ? 8 : (WD > 0 ? WD : 1);
    localparam string Mode = p == 0 ? WRITE_MODE_A : WRITE_MODE_B;
    localparam bit Reg = p == 0 ? DOA_REG[0] : DOB_REG[0];
    localparam bit RstFirst = (p == 0 ? RSTREG_PRIORITY_A : RSTREG_PRIORITY_B) == "RSTREG";
    // SRVAL / INIT as {parity, data} of the port's read width.
    localparam logic [Tdp-1:0] SrOwn = p == 0 ? SRVAL_A : SRVAL_B, InOwn = p == 0 ? INIT_A : INIT_B;
    localparam logic [2*PP+2*DP-1:0] Mask = {(2*PP)'((1 << RP) - 1), (2*DP)'((64'd1 << RD) - 1)};
    localparam logic [2*PP+2*DP-1:0] SrWide = IsSdp ? {SRVAL_B[Tdp-1:DP], SRVAL_A[Tdp-1:DP], SRVAL_B[DP-1:0], SRVAL_A[DP-1:0]}
                                                    : {{PP{1'b0}}, SrOwn[Tdp-1:DP], {DP{1'b0}}, SrOwn[DP-1:0]};
    localparam logic [2*PP+2*DP-1:0] InWide = IsSdp ? {INIT_B[Tdp-1:DP], INIT_A[Tdp-1:DP], INIT_B[DP-1:0], INIT_A[DP-1:0]}
                                                    : {{PP{1'b0}}, InOwn[Tdp-1:DP], {DP{1'b0}}, InOwn[DP-1:0]};
    localparam logic [2*PP+2*DP-1:0] Srval = SrWide & Mask, Init = InWide & Mask;

    // The row, and the word's first data bit in it, for each width.
    logic [AW-7:0] row;
    logic [5:0]    roff, woff;
    assign row  = addr[p][AW-1:6];
    assign roff = 6'((addr[p][5:0] >> lg(RD)) << lg(RD));
    assign woff = 6'((addr[p][5:0] >> lg(WD)) << lg(WD));

    logic [Lanes-1:0] lane_we;
    logic             wr;  // this edge writes (a write operation)
    assign lane_we = WW > 0 ? we[p][Lanes-1:0] : '0;
    assign wr      = |lane_we;

    // The row before and after this port's write, and the read word in each.
    logic [63:0] new_d;
    logic [7:0]  new_p;
    always_comb begin
      new_d = mem_d[row];
      new_p = mem_p[row];
      for (int k = 0; k < Lanes; k++) begin
        if (lane_we[k]) begin
          new_d[woff + 6'(k * LaneW) +: LaneW] = din[p][k*LaneW +: LaneW];
          if (WP > 0) new_p[3'(woff[5:3]) + 3'(k)] = dinp[p][k];
        end
      end
    end
    logic [2*PP+2*DP-1:0] old_word, new_word;
    assign old_word = {(2*PP)'(mem_p[row] >> roff / 8), (2*DP)'(mem_d[row] >> roff)} & Mask;
    assign new_word = {(2*PP)'(new_p >> roff / 8), (2*DP)'(new_d >> roff)} & Mask;

    always_ff @(posedge clk[p]) begin
      if (en[p] && wr) begin
        for (int k = 0; k < Lanes; k++) begin
          if (lane_we[k]) begin
            mem_d[row][woff + 6'(k * LaneW) +: LaneW] <= din[p][k*LaneW +: LaneW];
            if (WP > 0) mem_p[row][3'(woff[5:3]) + 3'(k)] <= dinp[p][k];
          end
        end
      end
    end

    // The read latch and the output register.
    logic [2*PP+2*DP-1:0] latch = Init, out;
    always_ff @(posedge clk[p]) begin
      if (en[p]) begin
        if (rstram[p]) latch <= Srval;
        else if (!wr) latch <= old_word;
        else if (Mode == "WRITE_FIRST") latch <= new_word;
        else if (Mode == "READ_FIRST") latch <= old_word;
      end
    end
    if (Reg) begin : g_reg
      logic [2*PP+2*DP-1:0] oreg = Init;
      always_ff @(posedge clk[p]) begin
        if (rstreg[p] && (RstFirst || regce[p])) oreg <= Srval;
        else if (regce[p]) oreg <= latch;
      end
      assign out = oreg;
    end else begin : g_latch
      assign out = latch;
      logic unused_reg;
      assign unused_reg = ^{rstreg[p], regce[p]};
    end
    assign {doutp[p], dout[p]} = out;
  end

  // Port B's pins give the upper half of port A's read in SDP.
  assign DOUTADOUT   = dout[0][DP-1:0];
  assign DOUTPADOUTP = doutp[0][PP-1:0];
  assign DOUTBDOUT   = IsSdp ? dout[0][2*DP-1:DP] : dout[1][DP-1:0];
  assign DOUTPBDOUTP = IsSdp ? doutp[0][2*PP-1:PP] : doutp[1][PP-1:0];

endmodule
