// Stand-in for the Xilinx parameterized macro xpm_memory_spram (single port
// RAM: port A reads and writes), written here from its documented behaviour
// (UG974 / UG953 / UG1344), so that user RTL instantiating it Verilates
// unmodified. Not vendor code. Module, parameter and port names are the
// vendor's, hence the upper-case parameters and the ports without _i/_o.
//
// Covered: every parameter and port of the vendor's instantiation template is
// accepted; byte-wide (8 or 9 bit) or word-wide writes; READ_LATENCY_A 0
// (combinational, distributed RAM) to 100; WRITE_MODE_A; READ_RESET_VALUE_A
// with RST_MODE_A "SYNC" or "ASYNC"; regcea; MEMORY_INIT_FILE ($readmemh, the
// path as the simulator's working directory sees it) or MEMORY_INIT_PARAM;
// WRITE_PROTECT; out-of-range warnings with SIM_ASSERT_CHK 1. Not covered
// (elaboration error, cosim_xpm_mem_check): ECC, READ_DATA_WIDTH_A different
// from WRITE_DATA_WIDTH_A, AUTO_SLEEP_TIME other than 0. sleep and the ECC
// injection inputs are accepted and ignored; sbiterra/dbiterra are 0.
// MESSAGE_CONTROL has nothing to report (no second port, no collisions).
//
// Behaviour (port A of cosim_xpm_ram, the RAM of xpm_memory_tdpram): on an
// edge with ena, the lanes of dina whose wea bit is set are written at addra
// and the read latch takes the new word ("write_first"), the old word
// ("read_first", the vendor's default) or nothing ("no_change"); with no wea
// bit set it takes the word at addra. douta shows the latch READ_LATENCY_A
// edges later (0: the array, combinationally); the last register moves only
// when regcea is high (latency >= 2) and rsta sets it to READ_RESET_VALUE_A
// (RST_MODE_A "ASYNC": to zero, at once). Addresses beyond the depth write
// nothing and read zero. Contents start at zero unless initialised.
`timescale 1ns/1ps
module xpm_memory_spram #(
  parameter int    ADDR_WIDTH_A            = 6,
  parameter int    AUTO_SLEEP_TIME         = 0,
  parameter int    BYTE_WRITE_WIDTH_A      = 32,
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
  parameter int    WRITE_DATA_WIDTH_A      = 32,
  parameter string WRITE_MODE_A            = "read_first",
  parameter int    WRITE_PROTECT           = 1,
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
  input  logic                                             sleep,
  input  logic                                             clka,
  input  logic                                             rsta,
  input  logic                                             ena,
  input  logic                                             regcea,
  input  logic [WRITE_DATA_WIDTH_A/BYTE_WRITE_WIDTH_A-1:0] wea,
  input  logic [ADDR_WIDTH_A-1:0]                          addra,
  input  logic [WRITE_DATA_WIDTH_A-1:0]                    dina,
  input  logic                                             injectsbiterra,
  input  logic                                             injectdbiterra,
  output logic [READ_DATA_WIDTH_A-1:0]                     douta,
  output logic                                             sbiterra,
  output logic                                             dbiterra
);

  localparam int W = WRITE_DATA_WIDTH_A;

  cosim_xpm_mem_check #(
    .Name("xpm_memory_spram"), .WidthName("WRITE_DATA_WIDTH_A"), .Width(W), .MemorySize(MEMORY_SIZE),
    .PortB(1'b0), .Writes(1'b1), .Rom(1'b0), .ReadWidthA(READ_DATA_WIDTH_A), .ByteWidthA(BYTE_WRITE_WIDTH_A),
    .AddrWidthA(ADDR_WIDTH_A), .ReadLatencyA(READ_LATENCY_A), .RstModeA(RST_MODE_A),
    .WriteModeA(WRITE_MODE_A), .Primitive(MEMORY_PRIMITIVE), .EccMode(ECC_MODE),
    .InitFile(MEMORY_INIT_FILE), .InitParam(MEMORY_INIT_PARAM), .WakeupTime(WAKEUP_TIME),
    .AutoSleepTime(AUTO_SLEEP_TIME), .WriteProtect(WRITE_PROTECT)
  ) u_check ();

  // Port A of the two-port RAM; port B has neither a read nor a write path.
  logic [W-1:0] unused_doutb;

  cosim_xpm_ram #(
    .Width       (W),
    .Depth       ((W > 0) ? MEMORY_SIZE / W : 1),
    .AddrWidthA  (ADDR_WIDTH_A),
    .AddrWidthB  (1),
    .ByteWidthA  (BYTE_WRITE_WIDTH_A),
    .ByteWidthB  (W),
    .WriteA      (1'b1),
    .WriteB      (1'b0),
    .ReadA       (1'b1),
    .ReadB       (1'b0),
    .ReadLatencyA(READ_LATENCY_A),
    .ModeA       (WRITE_MODE_A),
    .RstValA     (W'(cosim_xpm_pkg::hex_param(cosim_xpm_pkg::text_t'(READ_RESET_VALUE_A)))),
    .AsyncRstA   (RST_MODE_A == "ASYNC"),
    .WriteProtect(WRITE_PROTECT != 0),
    .RangeCheck  (SIM_ASSERT_CHK == 1),
    .InitFile    (MEMORY_INIT_FILE),
    .InitParam   ((MEMORY_INIT_PARAM != "0") ? MEMORY_INIT_PARAM : ""),
    .Name        ("xpm_memory_spram")
  ) u_ram (
    .clka, .clkb(1'b0), .ena, .wea, .addra, .dina, .rsta, .regcea, .douta,
    .enb(1'b0), .web(1'b0), .addrb(1'b0), .dinb('0), .rstb(1'b0), .regceb(1'b0), .doutb(unused_doutb)
  );

  // No power saving, no ECC: these inputs have no effect, the error outputs
  // are constant.
  logic unused_inputs;
  assign unused_inputs = ^{sleep, injectsbiterra, injectdbiterra};
  assign sbiterra = 1'b0;
  assign dbiterra = 1'b0;

endmodule
