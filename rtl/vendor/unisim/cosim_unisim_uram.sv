// The body of the UltraRAM stand-ins URAM288 and URAM288_BASE (UNISIM,
// UltraScale+, UG974 / UG573), written here from the documented behaviour;
// not vendor code. The pins keep the vendor's names; the wrappers declare
// the attributes and the pins this body does not use (cascade, ECC, SLEEP).
//
// 4096 words of 72 bits, starting at 0 (UltraRAM has no INIT). One clock,
// CLK (falling edge with IS_CLK_INVERTED); two ports, A and B, each doing one
// operation an edge: with EN high a write (RDB_WR high) or a read (RDB_WR
// low), at ADDR[11:0] (the wrappers drop ADDR[22:12], which select a RAM in
// a cascade: unused with SELF_MASK 11'h7FF, the only value modelled). Port
// A's operation comes before port B's in the edge, as documented (one
// single-port array run twice a cycle): B reads A's write of the same edge,
// and where both write one byte B's value stays.
//
// Per port, on each active edge:
//  - IREG_PRE "TRUE": the operation pins (EN, RDB_WR, BWE, ADDR, DIN) are
//    registered first, so the array does the operation of the edge before.
//  - A write changes the bytes whose BWE bit is set: bit k < 8 the data byte
//    DIN[8k+7:8k], and with BWE_MODE "PARITY_INTERLEAVED" also the parity bit
//    DIN[64+k] (BWE[8] unused); with "PARITY_INDEPENDENT" BWE[8] writes
//    DIN[71:64] as a ninth byte. A write leaves the read latch as it is.
//  - A read loads the latch with the word. RST (active high; low with
//    IS_RST_*_INVERTED) clears the latch and every output register instead,
//    and takes the read's place (a write still happens); with RST_MODE
//    "ASYNC" RST clears them the moment it rises too.
//  - OREG "TRUE": the output register takes the latch; OREG_ECC "TRUE": a
//    further register takes the stage before it (without ECC a plain
//    pipeline register). With USE_EXT_CE "FALSE" they load on every edge
//    (the internal enables only save power: the stages hold what they would
//    load); "TRUE": only when OREG_CE / OREG_ECC_CE is high.
// DOUT shows the last stage: a read issued on edge t is on DOUT after edge
// t + IREG_PRE + OREG + OREG_ECC (each 1 when "TRUE"). RDACCESS is high the
// cycle a read's word first shows on DOUT (0 with USE_EXT_CE "TRUE", where
// the vendor does not allow it).
`timescale 1ps/1ps
module cosim_unisim_uram #(
  parameter string PRIM                     = "URAM288",
  parameter int    AUTO_SLEEP_LATENCY       = 8,
  parameter int    AVG_CONS_INACTIVE_CYCLES = 10,
  parameter string BWE_MODE_A               = "PARITY_INTERLEAVED",
  parameter string BWE_MODE_B               = "PARITY_INTERLEAVED",
  parameter string EN_AUTO_SLEEP_MODE       = "FALSE",
  parameter string EN_ECC_RD_A              = "FALSE",
  parameter string EN_ECC_RD_B              = "FALSE",
  parameter string EN_ECC_WR_A              = "FALSE",
  parameter string EN_ECC_WR_B              = "FALSE",
  parameter string IREG_PRE_A               = "FALSE",
  parameter string IREG_PRE_B               = "FALSE",
  parameter string OREG_A                   = "FALSE",
  parameter string OREG_B                   = "FALSE",
  parameter string OREG_ECC_A               = "FALSE",
  parameter string OREG_ECC_B               = "FALSE",
  parameter string RST_MODE_A               = "SYNC",
  parameter string RST_MODE_B               = "SYNC",
  parameter string USE_EXT_CE_A             = "FALSE",
  parameter string USE_EXT_CE_B             = "FALSE",
  // Untyped like the vendor's 1-bit attributes' users expect (1'b1 or 1).
  parameter        IS_CLK_INVERTED          = 0,
  parameter        IS_EN_A_INVERTED         = 0,
  parameter        IS_EN_B_INVERTED         = 0,
  parameter        IS_RDB_WR_A_INVERTED     = 0,
  parameter        IS_RDB_WR_B_INVERTED     = 0,
  parameter        IS_RST_A_INVERTED        = 0,
  parameter        IS_RST_B_INVERTED        = 0
) (
  input  logic        CLK,
  input  logic        EN_A, EN_B, RDB_WR_A, RDB_WR_B, RST_A, RST_B,
  input  logic        OREG_CE_A, OREG_CE_B, OREG_ECC_CE_A, OREG_ECC_CE_B,
  input  logic [8:0]  BWE_A, BWE_B,
  input  logic [11:0] ADDR_A, ADDR_B,
  input  logic [71:0] DIN_A, DIN_B,
  output logic [71:0] DOUT_A, DOUT_B,
  output logic        RDACCESS_A, RDACCESS_B
);

  // ---- Attribute checks (one line each) -------------------------------------
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_CLK_INVERTED"), .VALUE(IS_CLK_INVERTED)) u_check_clk ();
  cosim_unisim_choice #(.PRIM(PRIM), .NAME("EN_AUTO_SLEEP_MODE"), .VALUE(EN_AUTO_SLEEP_MODE), .ONE("FALSE"))
    u_auto_sleep ();
  if (AUTO_SLEEP_LATENCY < 3 || AUTO_SLEEP_LATENCY > 15) begin : g_err_sleep_latency
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("AUTO_SLEEP_LATENCY"), .NUM(AUTO_SLEEP_LATENCY), .ALLOWED("3 to 15"))
      u_reject ();
  end
  if (AVG_CONS_INACTIVE_CYCLES < 10 || AVG_CONS_INACTIVE_CYCLES > 100000) begin : g_err_inactive
    cosim_unisim_reject #(.PRIM(PRIM), .NAME("AVG_CONS_INACTIVE_CYCLES"), .NUM(AVG_CONS_INACTIVE_CYCLES),
                          .ALLOWED("10 to 100000")) u_reject ();
  end

  // ---- The two ports' pins, as the body sees them ----------------------------
  logic        clk;
  logic [1:0]  en_pin, wr_pin, rst, oreg_ce, ecc_ce, rdaccess;
  logic [8:0]  bwe_pin [2];
  logic [11:0] addr_pin [2];
  logic [71:0] din_pin [2], dout [2];
  assign clk      = CLK ^ IS_CLK_INVERTED[0];
  assign en_pin   = {EN_B ^ IS_EN_B_INVERTED[0], EN_A ^ IS_EN_A_INVERTED[0]};
  assign wr_pin   = {RDB_WR_B ^ IS_RDB_WR_B_INVERTED[0], RDB_WR_A ^ IS_RDB_WR_A_INVERTED[0]};
  assign rst      = {RST_B ^ IS_RST_B_INVERTED[0], RST_A ^ IS_RST_A_INVERTED[0]};
  assign oreg_ce  = {OREG_CE_B, OREG_CE_A};
  assign ecc_ce   = {OREG_ECC_CE_B, OREG_ECC_CE_A};
  assign bwe_pin  = '{BWE_A, BWE_B};
  assign addr_pin = '{ADDR_A, ADDR_B};
  assign din_pin  = '{DIN_A, DIN_B};
  assign {DOUT_B, DOUT_A} = {dout[1], dout[0]};
  assign {RDACCESS_B, RDACCESS_A} = rdaccess;

  // The operation each port does at the array on this edge.
  logic [1:0]  op_rd;
  logic [11:0] op_addr [2];
  logic [71:0] op_din [2], op_mask [2], rd_word [2];

  // The 72 bits a port's BWE writes.
  function automatic logic [71:0] byte_mask(logic [8:0] bwe, bit interleaved);
    logic [71:0] m;
    for (int k = 0; k < 8; k++) begin
      m[8*k +: 8] = {8{bwe[k]}};
      m[64 + k]   = interleaved ? bwe[k] : bwe[8];
    end
    return m;
  endfunction

  for (genvar p = 0; p < 2; p++) begin : g_port
    localparam string Sfx = p == 0 ? "_A" : "_B";
    localparam string Bwe = p == 0 ? BWE_MODE_A : BWE_MODE_B, RstMode = p == 0 ? RST_MODE_A : RST_MODE_B;
    localparam string Ireg = p == 0 ? IREG_PRE_A : IREG_PRE_B, Oreg = p == 0 ? OREG_A : OREG_B;
    localparam string OregEcc = p == 0 ? OREG_ECC_A : OREG_ECC_B, ExtCe = p == 0 ? USE_EXT_CE_A : USE_EXT_CE_B;
    localparam string EccRd = p == 0 ? EN_ECC_RD_A : EN_ECC_RD_B, EccWr = p == 0 ? EN_ECC_WR_A : EN_ECC_WR_B;
    cosim_unisim_check #(.PRIM(PRIM), .NAME({"IS_EN", Sfx, "_INVERTED"}),
                         .VALUE(p == 0 ? IS_EN_A_INVERTED : IS_EN_B_INVERTED)) u_check_en ();
    cosim_unisim_check #(.PRIM(PRIM), .NAME({"IS_RDB_WR", Sfx, "_INVERTED"}),
                         .VALUE(p == 0 ? IS_RDB_WR_A_INVERTED : IS_RDB_WR_B_INVERTED)) u_check_wr ();
    cosim_unisim_check #(.PRIM(PRIM), .NAME({"IS_RST", Sfx, "_INVERTED"}),
                         .VALUE(p == 0 ? IS_RST_A_INVERTED : IS_RST_B_INVERTED)) u_check_rst ();
    cosim_unisim_choice #(.PRIM(PRIM), .NAME({"BWE_MODE", Sfx}), .VALUE(Bwe), .ONE("PARITY_INTERLEAVED"),
                          .TWO("PARITY_INDEPENDENT")) u_bwe_mode ();
    cosim_unisim_choice #(.PRIM(PRIM), .NAME({"RST_MODE", Sfx}), .VALUE(RstMode), .ONE("SYNC"), .TWO("ASYNC"))
      u_rst_mode ();
    cosim_unisim_choice #(.PRIM(PRIM), .NAME({"IREG_PRE", Sfx}), .VALUE(Ireg), .ONE("TRUE"), .TWO("FALSE")) u_ireg ();
    cosim_unisim_choice #(.PRIM(PRIM), .NAME({"OREG", Sfx}), .VALUE(Oreg), .ONE("TRUE"), .TWO("FALSE")) u_oreg ();
    cosim_unisim_choice #(.PRIM(PRIM), .NAME({"OREG_ECC", Sfx}), .VALUE(OregEcc), .ONE("TRUE"), .TWO("FALSE"))
      u_oreg_ecc ();
    cosim_unisim_choice #(.PRIM(PRIM), .NAME({"USE_EXT_CE", Sfx}), .VALUE(ExtCe), .ONE("TRUE"), .TWO("FALSE"))
      u_ext_ce ();
    cosim_unisim_choice #(.PRIM(PRIM), .NAME({"EN_ECC_RD", Sfx}), .VALUE(EccRd), .ONE("FALSE")) u_ecc_rd ();
    cosim_unisim_choice #(.PRIM(PRIM), .NAME({"EN_ECC_WR", Sfx}), .VALUE(EccWr), .ONE("FALSE")) u_ecc_wr ();

    // The operation: the pins, or (IREG_PRE) the pins of the edge before.
    logic        en, wr;
    logic [8:0]  bwe;
    logic [11:0] addr;
    logic [71:0] din;
    if (Ireg == "TRUE") begin : g_ireg
      logic        en_q = 1'b0, wr_q = 1'b0;
      logic [8:0]  bwe_q = '0;
      logic [11:0] addr_q = '0;
      logic [71:0] din_q = '0;
      always_ff @(posedge clk) {en_q, wr_q, bwe_q, addr_q, din_q} <= {en_pin[p], wr_pin[p], bwe_pin[p], addr_pin[p], din_pin[p]};
      assign {en, wr, bwe, addr, din} = {en_q, wr_q, bwe_q, addr_q, din_q};
    end else begin : g_pins
      assign {en, wr, bwe, addr, din} = {en_pin[p], wr_pin[p], bwe_pin[p], addr_pin[p], din_pin[p]};
    end
    assign op_rd[p]   = en && !wr;
    assign op_addr[p] = addr;
    assign op_din[p]  = din;
    assign op_mask[p] = en && wr ? byte_mask(bwe, Bwe == "PARITY_INTERLEAVED") : '0;

    // The latch, the output registers and, beside them, which hold a read's
    // word that has not reached DOUT before (for RDACCESS). RST clears them
    // on the edge (and with "ASYNC" when it rises).
    localparam bit UseOreg = Oreg == "TRUE", UseEcc = OregEcc == "TRUE", Ext = ExtCe == "TRUE";
    logic        arst;
    logic [71:0] latch = '0, oreg = '0, ecc = '0;
    logic [2:0]  fresh = '0;  // latch, oreg, ecc
    assign arst = RstMode == "ASYNC" && rst[p];
    always_ff @(posedge clk or posedge arst) begin
      if (rst[p]) begin
        latch <= '0;
        oreg  <= '0;
        ecc   <= '0;
        fresh <= '0;
      end else begin
        if (op_rd[p]) latch <= rd_word[p];
        if (!Ext || oreg_ce[p]) oreg <= latch;
        if (!Ext || ecc_ce[p]) ecc <= UseOreg ? oreg : latch;
        fresh <= {UseOreg ? fresh[1] : fresh[0], fresh[0], op_rd[p]};
      end
    end
    assign dout[p]     = UseEcc ? ecc : (UseOreg ? oreg : latch);
    assign rdaccess[p] = !Ext && (UseEcc ? fresh[2] : (UseOreg ? fresh[1] : fresh[0]));
  end

  // ---- The array: port A's operation, then port B's -------------------------
  logic [71:0] mem [4096];
  initial for (int i = 0; i < 4096; i++) mem[i] = '0;
  logic [71:0] after_a, before_b;  // the word at A's address after A's write; B's before B's
  assign after_a    = (mem[op_addr[0]] & ~op_mask[0]) | (op_din[0] & op_mask[0]);
  assign before_b   = op_addr[1] == op_addr[0] ? after_a : mem[op_addr[1]];
  assign rd_word[0] = mem[op_addr[0]];
  assign rd_word[1] = before_b;
  always_ff @(posedge clk) begin
    if (|op_mask[0]) mem[op_addr[0]] <= after_a;
    if (|op_mask[1]) mem[op_addr[1]] <= (before_b & ~op_mask[1]) | (op_din[1] & op_mask[1]);  // last: B's bytes stay
  end

endmodule
