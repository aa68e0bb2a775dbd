// Stand-in for the Xilinx parameterized macro xpm_memory_tdpram (true dual
// port RAM: ports A and B both read and write), written here from its
// documented behaviour (UG974 / UG953 / UG1344), so that user RTL
// instantiating it Verilates unmodified. Not vendor code. Module, parameter
// and port names are the vendor's, hence the upper-case parameters and the
// ports without _i/_o.
//
// Covered: every parameter and port of the vendor's instantiation template is
// accepted; CLOCKING_MODE "common_clock" (both ports on clka, clkb unused, as
// documented) and "independent_clock" (port A on clka, port B on clkb);
// byte-wide (8 or 9 bit) or word-wide writes on each port;
// READ_LATENCY_A/B 0 (combinational) to 100; WRITE_MODE_A/B; READ_RESET_VALUE_A/B
// with RST_MODE_A/B "SYNC" or "ASYNC"; regcea/regceb; MEMORY_INIT_FILE
// ($readmemh, the path as the simulator's working directory sees it) or
// MEMORY_INIT_PARAM; WRITE_PROTECT; collision warnings with MESSAGE_CONTROL 1;
// out-of-range warnings with SIM_ASSERT_CHK 1. Not covered (elaboration
// error): ECC, any two of the four data widths
// different, AUTO_SLEEP_TIME other than 0. sleep and the ECC injection inputs
// are accepted and ignored; sbiterra/b and dbiterra/b are 0.
//
// Behaviour of each port (cosim_xpm_ram), on an edge with en<port>:
//  - with a write enable bit set, those lanes of din<port> are written at
//    addr<port>, and the port's read latch takes the new word
//    ("write_first"), the old word ("read_first") or nothing ("no_change");
//  - with no write enable set, the read latch takes the word at addr<port>.
// dout<port> shows the latch READ_LATENCY_<port> edges later (0:
// combinational); the last register takes the one before it only when
// regce<port> is high (latency >= 2) and rst<port> sets it to
// READ_RESET_VALUE_<port>. A port reading the word the other port writes on
// the same edge gets the old word; both ports writing one word leave port
// B's lanes. On block RAM the vendor documents those collisions as
// unpredictable (except a read against a "read_first" write), so correct RTL
// avoids them. Contents start at zero unless initialised.
//
// "independent_clock": each port does the above on its own clock's edges
// (A: clka, B: clkb), reads, writes, pipeline, rst and regce alike. A read
// takes the array as it is just before the reading port's edge: every write
// of the other port's earlier edges, none of an edge of the other clock at
// the same instant (edges of both clocks at one instant are one event; were
// they evaluated one after the other, their order would decide). Both ports
// writing one word at one instant leave one of the two (undefined). On
// hardware a read of a word the other port writes within a clock-to-clock
// window, or two such writes, are unpredictable (UG974), so correct RTL does
// not rely on what the stand-in returns. No collision warnings
// (MESSAGE_CONTROL 1 warns in "common_clock" only).
`timescale 1ns/1ps
module xpm_memory_tdpram #(
  parameter int    ADDR_WIDTH_A            = 6,
  parameter int    ADDR_WIDTH_B            = 6,
  parameter int    AUTO_SLEEP_TIME         = 0,
  parameter int    BYTE_WRITE_WIDTH_A      = 32,
  parameter int    BYTE_WRITE_WIDTH_B      = 32,
  parameter string CLOCKING_MODE           = "common_clock",
  parameter string ECC_MODE                = "no_ecc",
  parameter string MEMORY_INIT_FILE        = "none",
  parameter string MEMORY_INIT_PARAM       = "0",
  parameter string MEMORY_PRIMITIVE        = "auto",
  parameter int    MEMORY_SIZE             = 2048,
  parameter int    MESSAGE_CONTROL         = 0,
  parameter int    READ_DATA_WIDTH_A       = 32,
  parameter int    READ_DATA_WIDTH_B       = 32,
  parameter int    READ_LATENCY_A          = 2,
  parameter int    READ_LATENCY_B          = 2,
  parameter        READ_RESET_VALUE_A      = "0",  // hex strings, like the vendor's
  parameter        READ_RESET_VALUE_B      = "0",
  parameter string RST_MODE_A              = "SYNC",
  parameter string RST_MODE_B              = "SYNC",
  parameter int    SIM_ASSERT_CHK          = 0,
  parameter string WAKEUP_TIME             = "disable_sleep",
  parameter int    WRITE_DATA_WIDTH_A      = 32,
  parameter int    WRITE_DATA_WIDTH_B      = 32,
  parameter string WRITE_MODE_A            = "no_change",
  parameter string WRITE_MODE_B            = "no_change",
  parameter int    WRITE_PROTECT           = 1,
  // Synthesis and tool-flow options with no behaviour to model.
  /* verilator lint_off UNUSEDPARAM */
  parameter int    CASCADE_HEIGHT          = 0,
  parameter string ECC_BIT_RANGE           = "7:0",
  parameter string ECC_TYPE                = "none",
  parameter int    IGNORE_INIT_SYNTH       = 0,
  parameter string MEMORY_OPTIMIZATION     = "true",
  parameter string RAM_DECOMP              = "auto",
  parameter int    USE_EMBEDDED_CONSTRAINT = 0,
  parameter int    USE_MEM_INIT            = 1,
  parameter int    USE_MEM_INIT_MMI        = 0
  /* verilator lint_on UNUSEDPARAM */
) (
  input  logic                                           sleep,

  input  logic                                           clka,
  input  logic                                           ena,
  input  logic                                           rsta,
  input  logic                                           regcea,
  input  logic [WRITE_DATA_WIDTH_A/BYTE_WRITE_WIDTH_A-1:0] wea,
  input  logic [ADDR_WIDTH_A-1:0]                        addra,
  input  logic [WRITE_DATA_WIDTH_A-1:0]                  dina,
  output logic [READ_DATA_WIDTH_A-1:0]                   douta,
  input  logic                                           injectsbiterra,
  input  logic                                           injectdbiterra,
  output logic                                           sbiterra,
  output logic                                           dbiterra,

  input  logic                                           clkb,
  input  logic                                           enb,
  input  logic                                           rstb,
  input  logic                                           regceb,
  input  logic [WRITE_DATA_WIDTH_B/BYTE_WRITE_WIDTH_B-1:0] web,
  input  logic [ADDR_WIDTH_B-1:0]                        addrb,
  input  logic [WRITE_DATA_WIDTH_B-1:0]                  dinb,
  output logic [READ_DATA_WIDTH_B-1:0]                   doutb,
  input  logic                                           injectsbiterrb,
  input  logic                                           injectdbiterrb,
  output logic                                           sbiterrb,
  output logic                                           dbiterrb
);

  // ---- Configuration ------------------------------------------------------
  localparam int W     = WRITE_DATA_WIDTH_A;
  localparam int Depth = (W > 0) ? MEMORY_SIZE / W : 1;
  localparam int IdxW  = (Depth > 1) ? $clog2(Depth) : 1;
  localparam logic [W-1:0] RstValA =
      W'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(READ_RESET_VALUE_A)));
  localparam logic [W-1:0] RstValB =
      W'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(READ_RESET_VALUE_B)));

  localparam bit WidthOk = W >= 1 && W <= 4608 && READ_DATA_WIDTH_A == W && WRITE_DATA_WIDTH_B == W &&
                           READ_DATA_WIDTH_B == W;
  localparam bit ByteOk  = (BYTE_WRITE_WIDTH_A == W || (BYTE_WRITE_WIDTH_A == 8 && W % 8 == 0) ||
                            (BYTE_WRITE_WIDTH_A == 9 && W % 9 == 0)) &&
                           (BYTE_WRITE_WIDTH_B == W || (BYTE_WRITE_WIDTH_B == 8 && W % 8 == 0) ||
                            (BYTE_WRITE_WIDTH_B == 9 && W % 9 == 0));
  localparam bit SizeOk  = MEMORY_SIZE >= 2 && MEMORY_SIZE <= 150994944 && W > 0 && MEMORY_SIZE % W == 0;
  localparam bit AddrOk  = ADDR_WIDTH_A >= IdxW && ADDR_WIDTH_A <= 20 &&
                           ADDR_WIDTH_B >= IdxW && ADDR_WIDTH_B <= 20;
  localparam bit PrimOk  = MEMORY_PRIMITIVE == "auto" || MEMORY_PRIMITIVE == "block" ||
                           MEMORY_PRIMITIVE == "distributed" || MEMORY_PRIMITIVE == "ultra" ||
                           MEMORY_PRIMITIVE == "mixed";
  localparam bit HardPrim = MEMORY_PRIMITIVE == "block" || MEMORY_PRIMITIVE == "ultra";
  localparam bit LatOk   = READ_LATENCY_A >= 0 && READ_LATENCY_A <= 100 && !(READ_LATENCY_A == 0 && HardPrim) &&
                           READ_LATENCY_B >= 0 && READ_LATENCY_B <= 100 && !(READ_LATENCY_B == 0 && HardPrim);
  localparam bit ModeOk  = (WRITE_MODE_A == "no_change" || WRITE_MODE_A == "read_first" ||
                            WRITE_MODE_A == "write_first") &&
                           (WRITE_MODE_B == "no_change" || WRITE_MODE_B == "read_first" ||
                            WRITE_MODE_B == "write_first");
  localparam bit RstOk   = (RST_MODE_A == "SYNC" || RST_MODE_A == "ASYNC") &&
                           (RST_MODE_B == "SYNC" || RST_MODE_B == "ASYNC");
  localparam bit InitParamSet = MEMORY_INIT_PARAM != "" && MEMORY_INIT_PARAM != "0";
  localparam bit InitOk  = !(InitParamSet && MEMORY_INIT_FILE != "none" && MEMORY_INIT_FILE != "");
  localparam bit WakeOk  = WAKEUP_TIME == "disable_sleep" || WAKEUP_TIME == "use_sleep_pin";
  localparam bit TwoClocks = CLOCKING_MODE == "independent_clock";
  localparam bit ClockOk = CLOCKING_MODE == "common_clock" || TwoClocks;
  localparam bit ConfigOk = ClockOk && ECC_MODE == "no_ecc" && WidthOk &&
                            ByteOk && SizeOk && AddrOk && PrimOk && LatOk && ModeOk && RstOk &&
                            InitOk && WakeOk && AUTO_SLEEP_TIME == 0 && WRITE_PROTECT inside {0, 1};

  if (!ClockOk) begin : g_err_clocking
    $fatal(1, "xpm_memory_tdpram: CLOCKING_MODE \"%s\" must be common_clock or independent_clock",
           CLOCKING_MODE);
  end
  if (ECC_MODE != "no_ecc") begin : g_err_ecc
    $fatal(1, "xpm_memory_tdpram stand-in: ECC_MODE \"%s\" is not supported (no_ecc only)", ECC_MODE);
  end
  if (!WidthOk) begin : g_err_width
    $fatal(1, "xpm_memory_tdpram stand-in: WRITE_DATA_WIDTH_A/B %0d/%0d and READ_DATA_WIDTH_A/B %0d/%0d must be equal, 1 to 4608",
           W, WRITE_DATA_WIDTH_B, READ_DATA_WIDTH_A, READ_DATA_WIDTH_B);
  end
  if (!ByteOk) begin : g_err_byte
    $fatal(1, "xpm_memory_tdpram: BYTE_WRITE_WIDTH_A %0d and BYTE_WRITE_WIDTH_B %0d must be 8, 9 or the data width (%0d) and divide it",
           BYTE_WRITE_WIDTH_A, BYTE_WRITE_WIDTH_B, W);
  end
  if (!SizeOk) begin : g_err_size
    $fatal(1, "xpm_memory_tdpram: MEMORY_SIZE %0d must be a multiple of WRITE_DATA_WIDTH_A %0d, 2 to 150994944",
           MEMORY_SIZE, W);
  end
  if (!AddrOk) begin : g_err_addr
    $fatal(1, "xpm_memory_tdpram: ADDR_WIDTH_A %0d and ADDR_WIDTH_B %0d must be from %0d (%0d words) to 20",
           ADDR_WIDTH_A, ADDR_WIDTH_B, IdxW, Depth);
  end
  if (!PrimOk) begin : g_err_prim
    $fatal(1, "xpm_memory_tdpram: MEMORY_PRIMITIVE \"%s\" must be auto, block, distributed, ultra or mixed",
           MEMORY_PRIMITIVE);
  end
  if (!LatOk) begin : g_err_lat
    $fatal(1, "xpm_memory_tdpram: READ_LATENCY_A %0d and READ_LATENCY_B %0d must be 0 to 100, and at least 1 for %s memory",
           READ_LATENCY_A, READ_LATENCY_B, MEMORY_PRIMITIVE);
  end
  if (!ModeOk) begin : g_err_mode
    $fatal(1, "xpm_memory_tdpram: WRITE_MODE_A \"%s\" and WRITE_MODE_B \"%s\" must be no_change, read_first or write_first",
           WRITE_MODE_A, WRITE_MODE_B);
  end
  if (!RstOk) begin : g_err_rst
    $fatal(1, "xpm_memory_tdpram: RST_MODE_A \"%s\" and RST_MODE_B \"%s\" must be SYNC or ASYNC",
           RST_MODE_A, RST_MODE_B);
  end
  if (!InitOk) begin : g_err_init
    $fatal(1, "xpm_memory_tdpram: MEMORY_INIT_FILE \"%s\" and MEMORY_INIT_PARAM \"%s\" are both set",
           MEMORY_INIT_FILE, MEMORY_INIT_PARAM);
  end
  if (!WakeOk) begin : g_err_wake
    $fatal(1, "xpm_memory_tdpram: WAKEUP_TIME \"%s\" must be disable_sleep or use_sleep_pin", WAKEUP_TIME);
  end
  if (AUTO_SLEEP_TIME != 0) begin : g_err_sleep
    $fatal(1, "xpm_memory_tdpram stand-in: AUTO_SLEEP_TIME %0d is not supported (0 only)", AUTO_SLEEP_TIME);
  end
  if (!(WRITE_PROTECT inside {0, 1})) begin : g_err_protect
    $fatal(1, "xpm_memory_tdpram: WRITE_PROTECT %0d must be 0 or 1", WRITE_PROTECT);
  end
  // Verilated with -Wno-fatal, the lines above only warn: stop at time 0.
  if (!ConfigOk) begin : g_err_run
    initial $fatal(1, "xpm_memory_tdpram: unsupported configuration (see the elaboration messages)");
  end

  // ---- The RAM ----------------------------------------------------------------
  cosim_xpm_ram #(
    .Width       (W),
    .Depth       (Depth),
    .AddrWidthA  (ADDR_WIDTH_A),
    .AddrWidthB  (ADDR_WIDTH_B),
    .ByteWidthA  (BYTE_WRITE_WIDTH_A),
    .ByteWidthB  (BYTE_WRITE_WIDTH_B),
    .WriteA      (1'b1),
    .WriteB      (1'b1),
    .ReadA       (1'b1),
    .ReadB       (1'b1),
    .ReadLatencyA(READ_LATENCY_A),
    .ReadLatencyB(READ_LATENCY_B),
    .ModeA       (WRITE_MODE_A),
    .ModeB       (WRITE_MODE_B),
    .RstValA     (RstValA),
    .RstValB     (RstValB),
    .AsyncRstA   (RST_MODE_A == "ASYNC"),
    .AsyncRstB   (RST_MODE_B == "ASYNC"),
    .IndependentClock(TwoClocks),
    .BypassB     (1'b0),
    .WriteProtect(WRITE_PROTECT != 0),
    .Messages    (MESSAGE_CONTROL == 1),
    .RangeCheck  (SIM_ASSERT_CHK == 1),
    .InitFile    (MEMORY_INIT_FILE),
    .InitParam   (InitParamSet ? MEMORY_INIT_PARAM : ""),
    .Name        ("xpm_memory_tdpram")
  ) u_ram (
    .clka  (clka),
    .clkb  (clkb),
    .ena   (ena),
    .wea   (wea),
    .addra (addra),
    .dina  (dina),
    .rsta  (rsta),
    .regcea(regcea),
    .douta (douta),
    .enb   (enb),
    .web   (web),
    .addrb (addrb),
    .dinb  (dinb),
    .rstb  (rstb),
    .regceb(regceb),
    .doutb (doutb)
  );

  // Inputs of the vendor's port list with no effect here: sleep (no power
  // saving), the ECC error injection (no ECC). (clkb goes to the RAM, which
  // leaves it unused in common_clock mode, as documented.) The ECC error
  // outputs are constant.
  logic unused_inputs;
  assign unused_inputs = ^{sleep, injectsbiterra, injectdbiterra, injectsbiterrb, injectdbiterrb};
  assign sbiterra = 1'b0;
  assign dbiterra = 1'b0;
  assign sbiterrb = 1'b0;
  assign dbiterrb = 1'b0;

endmodule
