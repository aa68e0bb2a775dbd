// The RAM behind the xpm_memory_sdpram and xpm_memory_tdpram stand-ins
// (rtl/vendor/xpm): one array of Depth words of Width bits, two ports A and
// B, each able to write (lane write enables of ByteWidth bits) and to read
// through a pipeline of ReadLatency registers. Port A runs on clka; port B on
// clka too (CLOCKING_MODE "common_clock"; clkb is unused) or, with
// IndependentClock, on clkb. Internal to the stand-ins; the behaviour it
// implements is described in the wrappers and in rtl/vendor/README.md.
//
// One edge of a port's clock, for that port with en (or, with WriteProtect 0,
// a write enable alone):
//  - writes land in the array; a lane both ports write in one edge keeps B's
//    data (undefined on hardware);
//  - the read latch (the first pipeline register) takes
//      a read (no write enable set):  the word before the edge; with
//                                      BypassB, port B reading the word A
//                                      writes takes the new word instead
//      a write, Mode write_first:     the word after the write
//      a write, Mode read_first:      the word before the write
//      a write, Mode no_change:       nothing (holds)
//  - ReadLatency 0: dout is the array at addr, combinationally.
//  - ReadLatency 1: the latch is dout; rst sets it to RstVal (before en).
//  - ReadLatency n >= 2: registers 2 .. n-1 follow the latch with en delayed;
//    the last register (dout) takes the one before it when regce is high and
//    is set to RstVal when rst is high (rst first).
//  - AsyncRst: rst clears dout at once, to zero, as documented for
//    RST_MODE "ASYNC".
// With IndependentClock each port does the above on its own clock's edges
// only: a read takes the array as it is just before the reading port's edge
// (the writes of the other port's earlier edges included; edges of both
// clocks at one instant are one event, so a write at that instant is not);
// a lane both ports write at one instant keeps one of the two (undefined);
// BypassB and the collision messages apply to common_clock only.
// Addresses at or beyond Depth write nothing and read zero.
`timescale 1ns/1ps
module cosim_xpm_ram #(
  parameter int          Width        = 32,
  parameter int          Depth        = 64,
  parameter int          AddrWidthA   = 6,
  parameter int          AddrWidthB   = 6,
  parameter int          ByteWidthA   = 32,
  parameter int          ByteWidthB   = 32,
  parameter bit          WriteA       = 1'b1,
  parameter bit          WriteB       = 1'b1,
  parameter bit          ReadA        = 1'b1,
  parameter bit          ReadB        = 1'b1,
  parameter int          ReadLatencyA = 1,
  parameter int          ReadLatencyB = 1,
  parameter string       ModeA        = "no_change",
  parameter string       ModeB        = "no_change",
  parameter logic [Width-1:0] RstValA = '0,
  parameter logic [Width-1:0] RstValB = '0,
  parameter bit          AsyncRstA    = 1'b0,
  parameter bit          AsyncRstB    = 1'b0,
  parameter bit          IndependentClock = 1'b0,  // port B on clkb (else on clka)
  parameter bit          BypassB      = 1'b0,  // B reads the word A writes in the same edge as new
  parameter bit          WriteProtect = 1'b1,  // a write needs en as well as we
  parameter bit          Messages     = 1'b0,  // warn on address collisions
  parameter bit          RangeCheck   = 1'b0,  // warn on addresses beyond Depth
  parameter string       InitFile     = "none",
  parameter string       InitParam    = "",
  parameter string       Name         = "xpm_memory",
  localparam int         NbA          = Width / ByteWidthA,
  localparam int         NbB          = Width / ByteWidthB,
  localparam int         IdxW         = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic                  clka,
  input  logic                  clkb,  // used with IndependentClock only

  input  logic                  ena,
  input  logic [NbA-1:0]        wea,
  input  logic [AddrWidthA-1:0] addra,
  input  logic [Width-1:0]      dina,
  input  logic                  rsta,
  input  logic                  regcea,
  output logic [Width-1:0]      douta,

  input  logic                  enb,
  input  logic [NbB-1:0]        web,
  input  logic [AddrWidthB-1:0] addrb,
  input  logic [Width-1:0]      dinb,
  input  logic                  rstb,
  input  logic                  regceb,
  output logic [Width-1:0]      doutb
);

  // With IndependentClock the ports write the array from processes on two
  // clocks (g_write_two), as a dual-clock RAM does.
  /* verilator lint_off MULTIDRIVEN */
  logic [Width-1:0] mem_q [Depth];
  /* verilator lint_on MULTIDRIVEN */

  // ---- Initial contents: MEMORY_INIT_FILE or MEMORY_INIT_PARAM, else zeros --
  function automatic logic [3:0] hex_digit(logic [7:0] c);
    return cosim_xpm_pkg::hex_digit(c);
  endfunction

  initial begin
    for (int i = 0; i < Depth; i++) mem_q[i] = '0;
    if (InitFile != "none" && InitFile != "") begin
      $readmemh(InitFile, mem_q);
    end else begin
      // "AB,CD,1": one hex word per location from 0, separated by commas.
      automatic int               idx  = 0;
      automatic logic [Width-1:0] word = '0;
      for (int i = 0; i < InitParam.len(); i++) begin
        if (InitParam[i] == ",") begin
          if (idx < Depth) mem_q[idx] = word;
          idx++;
          word = '0;
        end else if (cosim_xpm_pkg::is_hex_digit(InitParam[i])) begin
          word = (word << 4) | Width'(hex_digit(InitParam[i]));
        end
      end
      if (InitParam.len() > 0 && idx < Depth) mem_q[idx] = word;
    end
  end

  // ---- Ports --------------------------------------------------------------
  logic                  in_a, in_b;      // address inside the array
  logic [IdxW-1:0]       idx_a, idx_b;    // the address as an index (valid when in_*)
  logic [Width-1:0]      old_a, old_b;    // the word before the edge
  logic [Width-1:0]      new_a, new_b;    // the word after this port's write
  logic                  wr_a, wr_b;      // this port writes this edge
  logic                  we_any_a, we_any_b;

  // The stand-ins check at elaboration that AddrWidth* >= IdxW.
  assign in_a  = 32'(addra) < 32'(Depth);
  assign in_b  = 32'(addrb) < 32'(Depth);
  assign idx_a = IdxW'(addra);
  assign idx_b = IdxW'(addrb);
  assign old_a = in_a ? mem_q[idx_a] : '0;
  assign old_b = in_b ? mem_q[idx_b] : '0;

  assign we_any_a = WriteA && (|wea);
  assign we_any_b = WriteB && (|web);
  assign wr_a     = we_any_a && (ena || !WriteProtect) && in_a;
  assign wr_b     = we_any_b && (enb || !WriteProtect) && in_b;

  always_comb begin
    new_a = old_a;
    for (int i = 0; i < NbA; i++) begin
      if (wea[i]) new_a[i*ByteWidthA +: ByteWidthA] = dina[i*ByteWidthA +: ByteWidthA];
    end
    new_b = old_b;
    for (int i = 0; i < NbB; i++) begin
      if (web[i]) new_b[i*ByteWidthB +: ByteWidthB] = dinb[i*ByteWidthB +: ByteWidthB];
    end
  end

  // Port B's clock.
  logic clk_b;
  if (IndependentClock) begin : g_clk_b_own
    assign clk_b = clkb;
  end else begin : g_clk_b_common
    assign clk_b = clka;
    logic unused_clkb;
    assign unused_clkb = clkb;
  end

  // The writes: one process for both ports on one clock (B's lanes last), one
  // per port with two clocks (a lane both write at one instant: one of the two).
  task automatic write_a();
    for (int i = 0; i < NbA; i++) begin
      if (wea[i]) mem_q[idx_a][i*ByteWidthA +: ByteWidthA] <= dina[i*ByteWidthA +: ByteWidthA];
    end
  endtask
  task automatic write_b();
    for (int i = 0; i < NbB; i++) begin
      if (web[i]) mem_q[idx_b][i*ByteWidthB +: ByteWidthB] <= dinb[i*ByteWidthB +: ByteWidthB];
    end
  endtask

  if (IndependentClock) begin : g_write_two
    always_ff @(posedge clka) if (wr_a) write_a();
    always_ff @(posedge clk_b) if (wr_b) write_b();
  end else begin : g_write_one
    always_ff @(posedge clka) begin
      if (wr_a) write_a();
      if (wr_b) write_b();
    end
  end

  // What each read latch takes this edge.
  logic             load_a, load_b;
  logic [Width-1:0] latch_a, latch_b;

  always_comb begin
    load_a  = ena && (!we_any_a || ModeA != "no_change");
    latch_a = (we_any_a && ModeA == "write_first") ? new_a : old_a;
    load_b  = enb && (!we_any_b || ModeB != "no_change");
    latch_b = (we_any_b && ModeB == "write_first") ? new_b : old_b;
    if (BypassB && !IndependentClock && !we_any_b && wr_a && in_b && idx_a == idx_b) begin
      latch_b = new_a;
    end
  end

  if (ReadA) begin : g_read_a
    cosim_xpm_ram_read #(
      .Width(Width), .Latency(ReadLatencyA), .RstVal(RstValA), .AsyncRst(AsyncRstA)
    ) u_read (
      .clk(clka), .en(ena), .load(load_a), .latch(latch_a), .comb(old_a), .rst(rsta), .regce(regcea),
      .dout(douta)
    );
  end else begin : g_no_read_a
    // A port without a read path (sdpram's A): the wrapper ties these off.
    assign douta = '0;
    logic unused_read_a;
    assign unused_read_a = ^{rsta, regcea, load_a, latch_a};
  end

  if (ReadB) begin : g_read_b
    cosim_xpm_ram_read #(
      .Width(Width), .Latency(ReadLatencyB), .RstVal(RstValB), .AsyncRst(AsyncRstB)
    ) u_read (
      .clk(clk_b), .en(enb), .load(load_b), .latch(latch_b), .comb(old_b), .rst(rstb), .regce(regceb),
      .dout(doutb)
    );
  end else begin : g_no_read_b
    // Nor does a single-port memory's B, whose clock then drives nothing.
    assign doutb = '0;
    logic unused_read_b;
    assign unused_read_b = ^{rstb, regceb, load_b, latch_b, clk_b};
  end

  // ---- Messages (MESSAGE_CONTROL / SIM_ASSERT_CHK) --------------------------
  // A collision needs both ports on one edge: common_clock only.
  if (Messages && !IndependentClock) begin : g_collision_msg
    always_ff @(posedge clka) begin
      if (ena && enb && in_a && in_b && idx_a == idx_b && (we_any_a || we_any_b)) begin
        $warning("%s: both ports access address 0x%0h in one cycle with a write (collision)",
                 Name, addra);
      end
    end
  end
  if (RangeCheck) begin : g_range_msg
    always_ff @(posedge clka) begin
      if (ena && !in_a) $warning("%s: port A address 0x%0h is beyond the %0d words", Name, addra, Depth);
    end
    always_ff @(posedge clk_b) begin
      if (enb && !in_b) $warning("%s: port B address 0x%0h is beyond the %0d words", Name, addrb, Depth);
    end
  end

endmodule
