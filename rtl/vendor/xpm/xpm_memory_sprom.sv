// Stand-in for the Xilinx parameterized macro xpm_memory_sprom (single port
// ROM: port A reads), written here from its documented behaviour (UG974 /
// UG953 / UG1344), so that user RTL instantiating it Verilates unmodified.
// Not vendor code. Module, parameter and port names are the vendor's.
//
// Covered: every parameter and port of the vendor's instantiation template is
// accepted; contents from MEMORY_INIT_FILE ($readmemh, the path as the
// simulator's working directory sees it) or MEMORY_INIT_PARAM; READ_LATENCY_A
// 0 (combinational, distributed ROM) to 100; READ_RESET_VALUE_A with
// RST_MODE_A "SYNC" or "ASYNC"; regcea; out-of-range warnings with
// SIM_ASSERT_CHK 1. Not covered (elaboration error, cosim_xpm_mem_check): ECC,
// AUTO_SLEEP_TIME other than 0. Chosen here, where the vendor leaves it to
// its tools: a ROM with neither MEMORY_INIT_FILE nor MEMORY_INIT_PARAM (or
// MEMORY_INIT_PARAM "0") stops elaboration, since it could only read zeros;
// MEMORY_PRIMITIVE "ultra" and "mixed" stop it too (UltraRAM is not
// initialised). sleep and the ECC injection inputs are ignored;
// sbiterra/dbiterra are 0.
//
// Behaviour (port A of cosim_xpm_ram, never written): on an edge with ena the
// read latch takes the word at addra; douta shows it READ_LATENCY_A edges
// later (0: combinationally); the last register moves only when regcea is
// high (latency >= 2) and rsta sets it to READ_RESET_VALUE_A (RST_MODE_A
// "ASYNC": to zero, at once). Addresses beyond the depth read zero, as do
// words the initialisation leaves out.
`timescale 1ns/1ps
module xpm_memory_sprom #(
  parameter int    ADDR_WIDTH_A            = 6,
  parameter int    AUTO_SLEEP_TIME         = 0,
  parameter string ECC_MODE                = "no_ecc",
  parameter string MEMORY_INIT_FILE        = "none",
  parameter string MEMORY_INIT_PARAM       = "0",
  parameter string MEMORY_PRIMITIVE        = "auto",
  parameter int    MEMORY_SIZE             = 2048,
  parameter int    READ_DATA_WIDTH_A       = 32,
  parameter int    READ_LATENCY_A          = 2,
  parameter        READ_RESET_VALUE_A      = "0",  // hex string, like the vendor's
  parameter string RST_MODE_A              = "SYNC",
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
  output logic                         dbiterra
);

  localparam int W = READ_DATA_WIDTH_A;

  cosim_xpm_mem_check #(
    .Name("xpm_memory_sprom"), .WidthName("READ_DATA_WIDTH_A"), .Width(W), .MemorySize(MEMORY_SIZE),
    .PortB(1'b0), .Writes(1'b0), .Rom(1'b1), .ReadWidthA(W), .AddrWidthA(ADDR_WIDTH_A),
    .ReadLatencyA(READ_LATENCY_A), .RstModeA(RST_MODE_A), .Primitive(MEMORY_PRIMITIVE), .EccMode(ECC_MODE),
    .InitFile(MEMORY_INIT_FILE), .InitParam(MEMORY_INIT_PARAM), .WakeupTime(WAKEUP_TIME),
    .AutoSleepTime(AUTO_SLEEP_TIME)
  ) u_check ();

  // Port A of the two-port RAM, with no write path; port B unused.
  logic [W-1:0] unused_doutb;

  cosim_xpm_ram #(
    .Width       (W),
    .Depth       ((W > 0) ? MEMORY_SIZE / W : 1),
    .AddrWidthA  (ADDR_WIDTH_A),
    .AddrWidthB  (1),
    .ByteWidthA  (W),
    .ByteWidthB  (W),
    .WriteA      (1'b0),
    .WriteB      (1'b0),
    .ReadA       (1'b1),
    .ReadB       (1'b0),
    .ReadLatencyA(READ_LATENCY_A),
    .ModeA       ("read_first"),
    .RstValA     (W'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(READ_RESET_VALUE_A)))),
    .AsyncRstA   (RST_MODE_A == "ASYNC"),
    .RangeCheck  (SIM_ASSERT_CHK == 1),
    .InitFile    (MEMORY_INIT_FILE),
    .InitParam   ((MEMORY_INIT_PARAM != "0") ? MEMORY_INIT_PARAM : ""),
    .Name        ("xpm_memory_sprom")
  ) u_ram (
    .clka, .clkb(1'b0), .ena, .wea(1'b0), .addra, .dina('0), .rsta, .regcea, .douta,
    .enb(1'b0), .web(1'b0), .addrb(1'b0), .dinb('0), .rstb(1'b0), .regceb(1'b0), .doutb(unused_doutb)
  );

  // No power saving, no ECC.
  logic unused_inputs;
  assign unused_inputs = ^{sleep, injectsbiterra, injectdbiterra};
  assign sbiterra = 1'b0;
  assign dbiterra = 1'b0;

endmodule
