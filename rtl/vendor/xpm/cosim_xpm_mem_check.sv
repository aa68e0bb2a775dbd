// The parameter checks of the xpm_memory_spram, _sprom, _dprom and
// _dpdistram stand-ins (rtl/vendor/xpm): each unsupported or out-of-range
// value stops elaboration with one line naming the macro and the parameter.
// The wrapper passes its vendor parameters through; those its macro does not
// have are given their fixed value (CLOCKING_MODE "common_clock" for the
// single-port macros, WRITE_MODE_A "read_first" for the ROMs and
// dpdistram, ...) and so always pass. Port B's checks apply when PortB is set.
`timescale 1ns/1ps
module cosim_xpm_mem_check #(
  parameter string Name           = "xpm_memory",
  parameter string WidthName      = "WRITE_DATA_WIDTH_A",  // the parameter that sets the word width
  parameter int    Width          = 32,
  parameter int    MemorySize     = 2048,
  parameter bit    PortB          = 1'b0,
  parameter bit    Writes         = 1'b1,  // port A writes (then BYTE_WRITE_WIDTH_A applies)
  parameter bit    Rom            = 1'b0,  // contents come from MEMORY_INIT_FILE / _PARAM only
  parameter int    ReadWidthA     = 32,
  parameter int    ReadWidthB     = 32,
  parameter int    ByteWidthA     = 32,
  parameter int    AddrWidthA     = 6,
  parameter int    AddrWidthB     = 6,
  parameter int    ReadLatencyA   = 2,
  parameter int    ReadLatencyB   = 2,
  parameter string RstModeA       = "SYNC",
  parameter string RstModeB       = "SYNC",
  parameter string WriteModeA     = "read_first",
  parameter string ClockingMode   = "common_clock",
  parameter string Primitive      = "auto",
  parameter string EccMode        = "no_ecc",
  parameter string InitFile       = "none",
  parameter string InitParam      = "0",
  parameter string WakeupTime     = "disable_sleep",
  parameter int    AutoSleepTime  = 0,
  parameter int    WriteProtect   = 1,
  localparam int   Depth          = (Width > 0) ? MemorySize / Width : 1,
  localparam int   IdxW           = (Depth > 1) ? $clog2(Depth) : 1
) ();

  // A ROM has nothing to put in UltraRAM, which UG974 does not initialise.
  localparam bit PrimOk   = Primitive == "auto" || Primitive == "block" || Primitive == "distributed" ||
                            (!Rom && (Primitive == "ultra" || Primitive == "mixed"));
  localparam bit HardPrim = Primitive == "block" || Primitive == "ultra";
  localparam bit WidthOk  = Width >= 1 && Width <= 4608;
  localparam bit ByteOk   = !Writes || ByteWidthA == Width || (ByteWidthA == 8 && Width % 8 == 0) ||
                            (ByteWidthA == 9 && Width % 9 == 0);
  localparam bit SizeOk   = MemorySize >= 2 && MemorySize <= 150994944 && Width > 0 && MemorySize % Width == 0;
  localparam bit ModeOk   = WriteModeA == "no_change" || WriteModeA == "read_first" || WriteModeA == "write_first";
  localparam bit ClockOk  = ClockingMode == "common_clock" || ClockingMode == "independent_clock";
  localparam bit InitParamSet = InitParam != "" && InitParam != "0";
  localparam bit InitFileSet  = InitFile != "none" && InitFile != "";
  localparam bit InitOk   = !(InitParamSet && InitFileSet) && !(Rom && !InitParamSet && !InitFileSet);
  localparam bit WakeOk   = WakeupTime == "disable_sleep" || WakeupTime == "use_sleep_pin";

  // Port A's and port B's own checks.
  localparam int NPorts = PortB ? 2 : 1;
  localparam bit RstOkA = RstModeA == "SYNC" || RstModeA == "ASYNC";
  localparam bit RstOkB = RstModeB == "SYNC" || RstModeB == "ASYNC";

  function automatic bit port_ok(int read_width, int addr_width, int latency, bit rst_ok);
    return read_width == Width && addr_width >= IdxW && addr_width <= 20 && latency >= 0 && latency <= 100 &&
           !(latency == 0 && HardPrim) && rst_ok;
  endfunction

  localparam bit PortsOk  = port_ok(ReadWidthA, AddrWidthA, ReadLatencyA, RstOkA) &&
                            (!PortB || port_ok(ReadWidthB, AddrWidthB, ReadLatencyB, RstOkB));
  localparam bit ConfigOk = ClockOk && EccMode == "no_ecc" && WidthOk && ByteOk && SizeOk && PrimOk &&
                            ModeOk && InitOk && WakeOk && AutoSleepTime == 0 && WriteProtect inside {0, 1} &&
                            PortsOk;

  if (!ClockOk) begin : g_err_clocking
    $fatal(1, "%s: CLOCKING_MODE \"%s\" must be common_clock or independent_clock", Name, ClockingMode);
  end
  if (EccMode != "no_ecc") begin : g_err_ecc
    $fatal(1, "%s stand-in: ECC_MODE \"%s\" is not supported (no_ecc only)", Name, EccMode);
  end
  if (!WidthOk) begin : g_err_width
    $fatal(1, "%s: %s %0d must be 1 to 4608", Name, WidthName, Width);
  end
  if (!ByteOk) begin : g_err_byte
    $fatal(1, "%s: BYTE_WRITE_WIDTH_A %0d must be 8, 9 or %s (%0d) and divide it", Name, ByteWidthA,
           WidthName, Width);
  end
  if (!SizeOk) begin : g_err_size
    $fatal(1, "%s: MEMORY_SIZE %0d must be a multiple of %s %0d, 2 to 150994944", Name, MemorySize,
           WidthName, Width);
  end
  if (!PrimOk) begin : g_err_prim
    $fatal(1, "%s: MEMORY_PRIMITIVE \"%s\" must be auto, block or distributed%s", Name, Primitive,
           Rom ? " (a ROM)" : ", ultra or mixed");
  end
  if (!ModeOk) begin : g_err_mode
    $fatal(1, "%s: WRITE_MODE_A \"%s\" must be no_change, read_first or write_first", Name, WriteModeA);
  end
  if (InitParamSet && InitFileSet) begin : g_err_init
    $fatal(1, "%s: MEMORY_INIT_FILE \"%s\" and MEMORY_INIT_PARAM \"%s\" are both set", Name, InitFile,
           InitParam);
  end
  if (Rom && !InitParamSet && !InitFileSet) begin : g_err_rom_init
    $fatal(1, "%s: a ROM needs its contents: set MEMORY_INIT_FILE or MEMORY_INIT_PARAM", Name);
  end
  if (!WakeOk) begin : g_err_wake
    $fatal(1, "%s: WAKEUP_TIME \"%s\" must be disable_sleep or use_sleep_pin", Name, WakeupTime);
  end
  if (AutoSleepTime != 0) begin : g_err_sleep
    $fatal(1, "%s stand-in: AUTO_SLEEP_TIME %0d is not supported (0 only)", Name, AutoSleepTime);
  end
  if (!(WriteProtect inside {0, 1})) begin : g_err_protect
    $fatal(1, "%s: WRITE_PROTECT %0d must be 0 or 1", Name, WriteProtect);
  end

  for (genvar p = 0; p < NPorts; p++) begin : g_port
    localparam string Letter   = (p == 0) ? "A" : "B";
    localparam int    RdWidth  = (p == 0) ? ReadWidthA : ReadWidthB;
    localparam int    AddrW    = (p == 0) ? AddrWidthA : AddrWidthB;
    localparam int    Latency  = (p == 0) ? ReadLatencyA : ReadLatencyB;
    localparam string RstMode  = (p == 0) ? RstModeA : RstModeB;
    if (RdWidth != Width) begin : g_err_read_width
      $fatal(1, "%s stand-in: READ_DATA_WIDTH_%s %0d must equal %s %0d (no asymmetric ports)", Name,
             Letter, RdWidth, WidthName, Width);
    end
    if (AddrW < IdxW || AddrW > 20) begin : g_err_addr
      $fatal(1, "%s: ADDR_WIDTH_%s %0d must be from %0d (%0d words) to 20", Name, Letter, AddrW, IdxW, Depth);
    end
    if (Latency < 0 || Latency > 100 || (Latency == 0 && HardPrim)) begin : g_err_lat
      $fatal(1, "%s: READ_LATENCY_%s %0d must be 0 to 100, and at least 1 for %s memory", Name, Letter,
             Latency, Primitive);
    end
    if (RstMode != "SYNC" && RstMode != "ASYNC") begin : g_err_rst
      $fatal(1, "%s: RST_MODE_%s \"%s\" must be SYNC or ASYNC", Name, Letter, RstMode);
    end
  end

  // Verilated with -Wno-fatal, the lines above only warn: stop at time 0.
  if (!ConfigOk) begin : g_err_run
    initial $fatal(1, "%s: unsupported configuration (see the elaboration messages)", Name);
  end

endmodule
