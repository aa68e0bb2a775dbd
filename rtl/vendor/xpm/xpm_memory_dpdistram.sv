// Stand-in for the Xilinx parameterized macro xpm_memory_dpdistram (dual port
// distributed RAM: port A reads and writes, port B reads), written here from
// its documented behaviour (UG974 / UG953 / UG1344), so that user RTL
// instantiating it Verilates unmodified. Not vendor code. Module, parameter
// and port names are the vendor's.
//
// Covered: every parameter and port of the vendor's instantiation template is
// accepted; CLOCKING_MODE "common_clock" (both ports on clka, clkb unused, as
// documented) and "independent_clock" (port A on clka, port B on clkb);
// byte-wide (8 or 9 bit) or word-wide writes; READ_LATENCY_A/B 0
// (combinational) to 100; READ_RESET_VALUE_A/B with RST_MODE_A/B "SYNC" or
// "ASYNC"; regcea/regceb; MEMORY_INIT_FILE or MEMORY_INIT_PARAM; out-of-range
// warnings with SIM_ASSERT_CHK 1. Not covered (elaboration error,
// cosim_xpm_mem_check): READ_DATA_WIDTH_A/B different from
// WRITE_DATA_WIDTH_A, ECC_MODE other than "no_ecc" (accepted for templates
// that carry it). MESSAGE_CONTROL has nothing to report.
//
// Behaviour (cosim_xpm_ram with A reading and writing, B reading): a
// distributed RAM reads the array combinationally and registers it, so there
// is no WRITE_MODE: on an edge with ena and a wea bit set port A's read latch
// takes the word before the write ("read_first"); with no wea bit, the word at
// addra. On an edge with enb port B's latch takes the word at addrb before the
// edge (a word port A writes on that edge: the old one). dout<port> shows the
// latch READ_LATENCY_<port> edges later (0: the array, combinationally, so a
// write shows on the next settle); the last register moves only when
// regce<port> is high (latency >= 2) and rst<port> sets it to
// READ_RESET_VALUE_<port> (RST_MODE_<port> "ASYNC": to zero, at once).
// "independent_clock": port B's latch, pipeline, rstb and regceb on clkb, a
// read taking the array as it is just before its clkb edge (a clka write of
// the same instant not included); unpredictable on hardware within a
// clock-to-clock window of the write, so correct RTL does not rely on it.
// Addresses beyond the depth write nothing and read zero. Contents start at
// zero unless initialised.
`timescale 1ns/1ps
module xpm_memory_dpdistram #(
  parameter int    ADDR_WIDTH_A            = 6,
  parameter int    ADDR_WIDTH_B            = 6,
  parameter int    BYTE_WRITE_WIDTH_A      = 32,
  parameter string CLOCKING_MODE           = "common_clock",
  parameter string ECC_MODE                = "no_ecc",
  parameter string MEMORY_INIT_FILE        = "none",
  parameter string MEMORY_INIT_PARAM       = "0",
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
  parameter int    WRITE_DATA_WIDTH_A      = 32,
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
  input  logic                                             clka,
  input  logic                                             rsta,
  input  logic                                             ena,
  input  logic                                             regcea,
  input  logic [WRITE_DATA_WIDTH_A/BYTE_WRITE_WIDTH_A-1:0] wea,
  input  logic [ADDR_WIDTH_A-1:0]                          addra,
  input  logic [WRITE_DATA_WIDTH_A-1:0]                    dina,
  output logic [READ_DATA_WIDTH_A-1:0]                     douta,

  input  logic                                             clkb,
  input  logic                                             rstb,
  input  logic                                             enb,
  input  logic                                             regceb,
  input  logic [ADDR_WIDTH_B-1:0]                          addrb,
  output logic [READ_DATA_WIDTH_B-1:0]                     doutb
);

  localparam int W = WRITE_DATA_WIDTH_A;

  cosim_xpm_mem_check #(
    .Name("xpm_memory_dpdistram"), .WidthName("WRITE_DATA_WIDTH_A"), .Width(W), .MemorySize(MEMORY_SIZE),
    .PortB(1'b1), .Writes(1'b1), .Rom(1'b0), .ReadWidthA(READ_DATA_WIDTH_A), .ReadWidthB(READ_DATA_WIDTH_B),
    .ByteWidthA(BYTE_WRITE_WIDTH_A), .AddrWidthA(ADDR_WIDTH_A), .AddrWidthB(ADDR_WIDTH_B),
    .ReadLatencyA(READ_LATENCY_A), .ReadLatencyB(READ_LATENCY_B), .RstModeA(RST_MODE_A),
    .RstModeB(RST_MODE_B), .ClockingMode(CLOCKING_MODE), .Primitive("distributed"), .EccMode(ECC_MODE),
    .InitFile(MEMORY_INIT_FILE), .InitParam(MEMORY_INIT_PARAM)
  ) u_check ();

  // The two-port RAM: A reads ("read_first", see above) and writes, B reads.
  cosim_xpm_ram #(
    .Width       (W),
    .Depth       ((W > 0) ? MEMORY_SIZE / W : 1),
    .AddrWidthA  (ADDR_WIDTH_A),
    .AddrWidthB  (ADDR_WIDTH_B),
    .ByteWidthA  (BYTE_WRITE_WIDTH_A),
    .ByteWidthB  (W),
    .WriteA      (1'b1),
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
    .Name        ("xpm_memory_dpdistram")
  ) u_ram (
    .clka, .clkb, .ena, .wea, .addra, .dina, .rsta, .regcea, .douta,
    .enb, .web(1'b0), .addrb, .dinb('0), .rstb, .regceb, .doutb
  );

endmodule
