// The check of the UNISIM stand-ins' other attributes: instantiated (under a
// generate condition) for a value the stand-in does not support, it stops
// elaboration with one line naming the primitive, the attribute and what is
// supported, e.g. 'RAMB36E2 stand-in: WRITE_MODE_A "READ" is not supported
// (WRITE_FIRST, READ_FIRST or NO_CHANGE)'; a number (VALUE empty) is shown
// as NUM. Verilated with -Wno-fatal the line only warns, so the model then
// stops at time 0.
`timescale 1ps/1ps
module cosim_unisim_reject #(
  parameter string PRIM    = "RAMB36E2",
  parameter string NAME    = "WRITE_MODE_A",
  parameter string VALUE   = "",
  parameter int    NUM     = 0,
  parameter string ALLOWED = ""
) ();

  if (VALUE == "") begin : g_num
    $fatal(1, "%s stand-in: %s %0d is not supported (%s)", PRIM, NAME, NUM, ALLOWED);
    initial $fatal(1, "%s stand-in: %s %0d is not supported (%s)", PRIM, NAME, NUM, ALLOWED);
  end else begin : g_str
    $fatal(1, "%s stand-in: %s \"%s\" is not supported (%s)", PRIM, NAME, VALUE, ALLOWED);
    initial $fatal(1, "%s stand-in: %s \"%s\" is not supported (%s)", PRIM, NAME, VALUE, ALLOWED);
  end

endmodule
