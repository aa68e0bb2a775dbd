// Stand-in for the Xilinx parameterized macro xpm_memory_sdpram (simple dual
// port RAM: port A writes, port B reads), written here from its documented
// behaviour (UG974 / UG953 / UG1344), so that user RTL instantiating it
// Verilates unmodified. Not vendor code. Module, parameter and port names are
// the vendor's, hence the upper-case parameters and the ports without _i/_o.
//
// Covered: every parameter and port of the vendor's instantiation template is
// accepted; CLOCKING_MODE "common_clock" (both ports on clka, clkb unused, as
// documented) and "independent_clock" (writes on clka, reads on clkb);
// byte-wide (8 or 9 bit) or word-wide writes; READ_LATENCY_B 0
// (combinational) to 100; WRITE_MODE_B; READ_RESET_VALUE_B with RST_MODE_B
// "SYNC" or "ASYNC"; regceb; MEMORY_INIT_FILE ($readmemh, the path as the
// simulator's working directory sees it) or MEMORY_INIT_PARAM; WRITE_PROTECT;
// collision warnings with MESSAGE_CONTROL 1; out-of-range warnings with
// SIM_ASSERT_CHK 1. Not covered (elaboration error): ECC, READ_DATA_WIDTH_B different from WRITE_DATA_WIDTH_A, AUTO_SLEEP_TIME
// other than 0. sleep and the ECC injection inputs are accepted and ignored;
// sbiterrb/dbiterrb are 0.
//
// Behaviour (cosim_xpm_ram): on an edge with ena, the lanes of dina whose wea
// bit is set are written at addra. On an edge with enb the read latch takes
// the word at addrb; doutb shows it READ_LATENCY_B edges after the read
// (0: combinational). The last register takes the one before it only when
// regceb is high (READ_LATENCY_B >= 2) and rstb sets it to READ_RESET_VALUE_B.
// A read of the word port A writes on the same edge returns the old word
// ("read_first", "no_change") or the new one ("write_first"); on block RAM the
// vendor documents the latter two as unpredictable, so correct RTL avoids
// relying on either. Contents start at zero unless initialised.
//
// "independent_clock": the above with port A's edges those of clka and port
// B's (the read, the pipeline, rstb, regceb) those of clkb. A read takes the
// array as it is just before its clkb edge: every write of an earlier clka
// edge, none of a clka edge at the same instant (edges of both clocks at one
// instant are one event), so WRITE_MODE_B "write_first" never gives port A's
// new word. (Evaluated one after the other, the order of the two edges would
// decide.) On hardware such a read, within a clock-to-clock window of the
// write, is unpredictable (UG974), so correct RTL does not rely on it. No
// collision warnings (MESSAGE_CONTROL 1 warns in "common_clock" only).
`timescale 1ns/1ps
module xpm_memory_sdpram #(
  parameter int    ADDR_WIDTH_A            = 6,
  parameter int    ADDR_WIDTH_B            = 6,
  parameter int    AUTO_SLEEP_TIME         = 0,
  parameter int    BYTE_WRITE_WIDTH_A      = 32,
  parameter string CLOCKING_MODE           = "common_clock",
  parameter string ECC_MODE                = "no_ecc",
  parameter string MEMORY_INIT_FILE        = "none",
  parameter string MEMORY_INIT_PARAM       = "0",
  parameter string MEMORY_PRIMITIVE        = "auto",
  parameter int    MEMORY_SIZE             = 2048,
  parameter int    MESSAGE_CONTROL         = 0,
  parameter int    READ_DATA_WIDTH_B       = 32,
  parameter int    READ_LATENCY_B          = 2,
  parameter        READ_RESET_VALUE_B      = "0",  // hex string, like the vendor's
  parameter string RST_MODE_A              = "SYNC",
  parameter string RST_MODE_B              = "SYNC",
  parameter int    SIM_ASSERT_CHK          = 0,
  parameter string WAKEUP_TIME             = "disable_sleep",
  parameter int    WRITE_DATA_WIDTH_A      = 32,
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
  input  logic [WRITE_DATA_WIDTH_A/BYTE_WRITE_WIDTH_A-1:0] wea,
  input  logic [ADDR_WIDTH_A-1:0]                        addra,
  input  logic [WRITE_DATA_WIDTH_A-1:0]                  dina,
  input  logic                                           injectsbiterra,
  input  logic                                           injectdbiterra,

  input  logic                                           clkb,
  input  logic                                           enb,
  input  logic                                           rstb,
  input  logic                                           regceb,
  input  logic [ADDR_WIDTH_B-1:0]                        addrb,
  output logic [READ_DATA_WIDTH_B-1:0]                   doutb,
  output logic                                           sbiterrb,
  output logic                                           dbiterrb
);

  // ---- Configuration ------------------------------------------------------
  localparam int W     = WRITE_DATA_WIDTH_A;
  localparam int Depth = (W > 0) ? MEMORY_SIZE / W : 1;
  localparam int IdxW  = (Depth > 1) ? $clog2(Depth) : 1;
  localparam logic [W-1:0] RstValB =
      W'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(READ_RESET_VALUE_B)));

  localparam bit WidthOk = W >= 1 && W <= 4608 && READ_DATA_WIDTH_B == W;
  localparam bit ByteOk  = BYTE_WRITE_WIDTH_A == W || (BYTE_WRITE_WIDTH_A == 8 && W % 8 == 0) ||
                           (BYTE_WRITE_WIDTH_A == 9 && W % 9 == 0);
  localparam bit SizeOk  = MEMORY_SIZE >= 2 && MEMORY_SIZE <= 150994944 && W > 0 && MEMORY_SIZE % W == 0;
  localparam bit AddrOk  = ADDR_WIDTH_A >= IdxW && ADDR_WIDTH_A <= 20 &&
                           ADDR_WIDTH_B >= IdxW && ADDR_WIDTH_B <= 20;
  localparam bit PrimOk  = MEMORY_PRIMITIVE == "auto" || MEMORY_PRIMITIVE == "block" ||
                           MEMORY_PRIMITIVE == "distributed" || MEMORY_PRIMITIVE == "ultra" ||
                           MEMORY_PRIMITIVE == "mixed";
  localparam bit LatOk   = READ_LATENCY_B >= 0 && READ_LATENCY_B <= 100 &&
                           !(READ_LATENCY_B == 0 && (MEMORY_PRIMITIVE == "block" ||
                                                     MEMORY_PRIMITIVE == "ultra"));
  localparam bit ModeOk  = WRITE_MODE_B == "no_change" || WRITE_MODE_B == "read_first" ||
                           WRITE_MODE_B == "write_first";
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
    $fatal(1, "xpm_memory_sdpram: CLOCKING_MODE \"%s\" must be common_clock or independent_clock",
           CLOCKING_MODE);
  end
  if (ECC_MODE != "no_ecc") begin : g_err_ecc
    $fatal(1, "xpm_memory_sdpram stand-in: ECC_MODE \"%s\" is not supported (no_ecc only)", ECC_MODE);
  end
  if (!WidthOk) begin : g_err_width
    $fatal(1, "xpm_memory_sdpram stand-in: WRITE_DATA_WIDTH_A %0d and READ_DATA_WIDTH_B %0d must be equal, 1 to 4608",
           W, READ_DATA_WIDTH_B);
  end
  if (!ByteOk) begin : g_err_byte
    $fatal(1, "xpm_memory_sdpram: BYTE_WRITE_WIDTH_A %0d must be 8, 9 or WRITE_DATA_WIDTH_A (%0d) and divide it",
           BYTE_WRITE_WIDTH_A, W);
  end
  if (!SizeOk) begin : g_err_size
    $fatal(1, "xpm_memory_sdpram: MEMORY_SIZE %0d must be a multiple of WRITE_DATA_WIDTH_A %0d, 2 to 150994944",
           MEMORY_SIZE, W);
  end
  if (!AddrOk) begin : g_err_addr
    $fatal(1, "xpm_memory_sdpram: ADDR_WIDTH_A %0d and ADDR_WIDTH_B %0d must be from %0d (%0d words) to 20",
           ADDR_WIDTH_A, ADDR_WIDTH_B, IdxW, Depth);
  end
  if (!PrimOk) begin : g_err_prim
    $fatal(1, "xpm_memory_sdpram: MEMORY_PRIMITIVE \"%s\" must be auto, block, distributed, ultra or mixed",
           MEMORY_PRIMITIVE);
  end
  if (!LatOk) begin : g_err_lat
    $fatal(1, "xpm_memory_sdpram: READ_LATENCY_B %0d must be 0 to 100, and at least 1 for %s memory",
           READ_LATENCY_B, MEMORY_PRIMITIVE);
  end
  if (!ModeOk) begin : g_err_mode
    $fatal(1, "xpm_memory_sdpram: WRITE_MODE_B \"%s\" must be no_change, read_first or write_first",
           WRITE_MODE_B);
  end
  if (!RstOk) begin : g_err_rst
    $fatal(1, "xpm_memory_sdpram: RST_MODE_A \"%s\" and RST_MODE_B \"%s\" must be SYNC or ASYNC",
           RST_MODE_A, RST_MODE_B);
  end
  if (!InitOk) begin : g_err_init
    $fatal(1, "xpm_memory_sdpram: MEMORY_INIT_FILE \"%s\" and MEMORY_INIT_PARAM \"%s\" are both set",
           MEMORY_INIT_FILE, MEMORY_INIT_PARAM);
  end
  if (!WakeOk) begin : g_err_wake
    $fatal(1, "xpm_memory_sdpram: WAKEUP_TIME \"%s\" must be disable_sleep or use_sleep_pin", WAKEUP_TIME);
  end
  if (AUTO_SLEEP_TIME != 0) begin : g_err_sleep
    $fatal(1, "xpm_memory_sdpram stand-in: AUTO_SLEEP_TIME %0d is not supported (0 only)", AUTO_SLEEP_TIME);
  end
  if (!(WRITE_PROTECT inside {0, 1})) begin : g_err_protect
    $fatal(1, "xpm_memory_sdpram: WRITE_PROTECT %0d must be 0 or 1", WRITE_PROTECT);
  end
  // Verilated with -Wno-fatal, the lines above only warn: stop at time 0.
  if (!ConfigOk) begin : g_err_run
    initial $fatal(1, "xpm_memory_sdpram: unsupported configuration (see the elaboration messages)");
  end

  // ---- The RAM ----------------------------------------------------------------
  logic [W-1:0] unused_douta;  // port A has no read path

  cosim_xpm_ram #(
    .Width       (W),
    .Depth       (Depth),
    .AddrWidthA  (ADDR_WIDTH_A),
    .AddrWidthB  (ADDR_WIDTH_B),
    .ByteWidthA  (BYTE_WRITE_WIDTH_A),
    .ByteWidthB  (W),
    .WriteA      (1'b1),
    .WriteB      (1'b0),
    .ReadA       (1'b0),
    .ReadB       (1'b1),
    .ReadLatencyA(1),
    .ReadLatencyB(READ_LATENCY_B),
    .ModeA       ("no_change"),
    .ModeB       ("no_change"),  // B never writes; WRITE_MODE_B acts through BypassB
    .RstValA     ('0),
    .RstValB     (RstValB),
    .AsyncRstA   (1'b0),
    .AsyncRstB   (RST_MODE_B == "ASYNC"),
    .IndependentClock(TwoClocks),
    .BypassB     (WRITE_MODE_B == "write_first"),
    .WriteProtect(WRITE_PROTECT != 0),
    .Messages    (MESSAGE_CONTROL == 1),
    .RangeCheck  (SIM_ASSERT_CHK == 1),
    .InitFile    (MEMORY_INIT_FILE),
    .InitParam   (InitParamSet ? MEMORY_INIT_PARAM : ""),
    .Name        ("xpm_memory_sdpram")
  ) u_ram (
    .clka  (clka),
    .clkb  (clkb),
    .ena   (ena),
    .wea   (wea),
    .addra (addra),
    .dina  (dina),
    .rsta  (1'b0),
    .regcea(1'b0),
    .douta (unused_douta),
    .enb   (enb),
    .web   (1'b0),
    .addrb (addrb),
    .dinb  ('0),
    .rstb  (rstb),
    .regceb(regceb),
    .doutb (doutb)
  );

  // Inputs of the vendor's port list with no effect here: sleep (no power
  // saving), the ECC error injection (no ECC). (clkb goes to the RAM, which
  // leaves it unused in common_clock mode, as documented.) The ECC error
  // outputs are constant.
  logic unused_inputs;
  assign unused_inputs = ^{sleep, injectsbiterra, injectdbiterra};
  assign sbiterrb = 1'b0;
  assign dbiterrb = 1'b0;

endmodule
