// Stand-in for the Xilinx parameterized macro xpm_memory_dprom (dual port
// ROM: ports A and B read), written here from its documented behaviour
// (UG974 / UG953 / UG1344), so that user RTL instantiating it Verilates
// unmodified. Not vendor code. Module, parameter and port names are the
// vendor's.
//
// Covered: every parameter and port of the vendor's instantiation template is
// accepted; CLOCKING_MODE "common_clock" (both ports on clka, clkb unused, as
// documented) and "independent_clock" (port A on clka, port B on clkb);
// contents from MEMORY_INIT_FILE ($readmemh, the path as the simulator's
// working directory sees it) or MEMORY_INIT_PARAM; READ_LATENCY_A/B 0
// (combinational, distributed ROM) to 100; READ_RESET_VALUE_A/B with
// RST_MODE_A/B "SYNC" or "ASYNC"; regcea/regceb; out-of-range warnings with
// SIM_ASSERT_CHK 1. Not covered (elaboration error, cosim_xpm_mem_check): ECC,
// READ_DATA_WIDTH_B different from READ_DATA_WIDTH_A, AUTO_SLEEP_TIME other
// than 0. Chosen here, as for xpm_memory_sprom: a ROM without
// MEMORY_INIT_FILE or MEMORY_INIT_PARAM, and MEMORY_PRIMITIVE "ultra" or
// "mixed", stop elaboration. sleep and the ECC injection inputs are ignored;
// the ECC error outputs are 0. MESSAGE_CONTROL has nothing to report (reads
// never collide).
//
// Behaviour (both read ports of cosim_xpm_ram, never written), each port on
// its own clock's edges: on an edge with en<port> the read latch takes the
// word at addr<port>; dout<port> shows it READ_LATENCY_<port> edges later (0:
// combinationally); the last register moves only when regce<port> is high
// (latency >= 2) and rst<port> sets it to READ_RESET_VALUE_<port>
// (RST_MODE_<port> "ASYNC": to zero, at once). Addresses beyond the depth
// read zero.
`timescale 1ns/1ps
module xpm_memory_dprom #(
  parameter int    ADDR_WIDTH_A            = 6,
  parameter int    ADDR_WIDTH_B            = 6,
  parameter int    AUTO_SLEEP_TIME         = 0,
  parameter string CLOCKING_MODE           = "common_clock",
  parameter string ECC_MODE                = "no_ecc",
  parameter string MEMORY_INIT_FILE        = "none",
  parameter string MEMORY_INIT_PARAM       = "0",
  parameter string MEMORY_PRIMITIVE        = "auto",
  parameter int    MEMORY_SIZE             = 2048,
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
  // Synthesis and tool-flow options, and messages this macro never gives.
  /* verilator lint_off UNUSEDPARAM */
  parameter int    CASCADE_HEIGHT          = 0,
  parameter string ECC_BIT_RANGE           = "7:0",
  parameter string ECC_TYPE                = "none",
  parameter int    IGNORE_INIT_SYNTH       = 0,
  parameter string MEMORY_OPTIMIZATION     = "true",
  parameter int    MESSAGE_CONTROL         = 0,
  parameter string RAM_DECOMP              = "auto",
  parameter int    USE_EMBEDDED_CONSTRAINT = 0,
  parameter int    USE_MEM_INIT            = 1,
  parameter int    USE_MEM_INIT_MMI        = 0
  /* verilator lint_on UNUSEDPARAM */
) (
  input  logic                         sleep,

  input  logic                         clka,
  input  logic                         rsta,
  input  logic                         ena,
  input  logic                         regcea,
  input  logic [ADDR_WIDTH_A-1:0]      addra,
  input  logic                         injectsbiterra,
  input  logic                         injectdbiterra,
  output logic [READ_DATA_WIDTH_A-1:0] douta,
  output logic                         sbiterra,
  output logic                         dbiterra,

  input  logic                         clkb,
  input  logic                         rstb,
  input  logic                         enb,
  input  logic                         regceb,
  input  logic [ADDR_WIDTH_B-1:0]      addrb,
  input  logic                         injectsbiterrb,
  input  logic                         injectdbiterrb,
  output logic [READ_DATA_WIDTH_B-1:0] doutb,
  output logic                         sbiterrb,
  output logic                         dbiterrb
);

  localparam int W = READ_DATA_WIDTH_A;

  cosim_xpm_mem_check #(
    .Name("xpm_memory_dprom"), .WidthName("READ_DATA_WIDTH_A"), .Width(W), .MemorySize(MEMORY_SIZE),
    .PortB(1'b1), .Writes(1'b0), .Rom(1'b1), .ReadWidthA(W), .ReadWidthB(READ_DATA_WIDTH_B),
    .AddrWidthA(ADDR_WIDTH_A), .AddrWidthB(ADDR_WIDTH_B), .ReadLatencyA(READ_LATENCY_A),
    .ReadLatencyB(READ_LATENCY_B), .RstModeA(RST_MODE_A), .RstModeB(RST_MODE_B),
    .ClockingMode(CLOCKING_MODE), .Primitive(MEMORY_PRIMITIVE), .EccMode(ECC_MODE),
    .InitFile(MEMORY_INIT_FILE), .InitParam(MEMORY_INIT_PARAM), .WakeupTime(WAKEUP_TIME),
    .AutoSleepTime(AUTO_SLEEP_TIME)
  ) u_check ();

  // The two-port RAM with both read paths and no write path.
  cosim_xpm_ram #(
    .Width       (W),
    .Depth       ((W > 0) ? MEMORY_SIZE / W : 1),
    .AddrWidthA  (ADDR_WIDTH_A),
    .AddrWidthB  (ADDR_WIDTH_B),
    .ByteWidthA  (W),
    .ByteWidthB  (W),
    .WriteA      (1'b0),
    .WriteB      (1'b0),
    .ReadA       (1'b1),
    .ReadB       (1'b1),
    .ReadLatencyA(READ_LATENCY_A),
    .ReadLatencyB(READ_LATENCY_B),
    .ModeA       ("read_first"),
    .ModeB       ("read_first"),
    .RstValA     (W'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(READ_RESET_VALUE_A)))),
    .RstValB     (W'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(READ_RESET_VALUE_B)))),
    .AsyncRstA   (RST_MODE_A == "ASYNC"),
    .AsyncRstB   (RST_MODE_B == "ASYNC"),
    .IndependentClock(CLOCKING_MODE == "independent_clock"),
    .RangeCheck  (SIM_ASSERT_CHK == 1),
    .InitFile    (MEMORY_INIT_FILE),
    .InitParam   ((MEMORY_INIT_PARAM != "0") ? MEMORY_INIT_PARAM : ""),
    .Name        ("xpm_memory_dprom")
  ) u_ram (
    .clka, .clkb, .ena, .wea(1'b0), .addra, .dina('0), .rsta, .regcea, .douta,
    .enb, .web(1'b0), .addrb, .dinb('0), .rstb, .regceb, .doutb
  );

  // No power saving, no ECC.
  logic unused_inputs;
  assign unused_inputs = ^{sleep, injectsbiterra, injectdbiterra, injectsbiterrb, injectdbiterrb};
  assign sbiterra = 1'b0;
  assign dbiterra = 1'b0;
  assign sbiterrb = 1'b0;
  assign dbiterrb = 1'b0;

endmodule
