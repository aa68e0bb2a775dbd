// A string attribute of a UNISIM stand-in that takes one of two values (TWO
// set: "TRUE" or "FALSE", "SYNC" or "ASYNC") or only one (TWO empty: the one
// value the stand-in models, e.g. "FALSE" for an ECC switch): any other value
// stops elaboration with one line through cosim_unisim_reject, e.g.
// 'URAM288 stand-in: OREG_A "YES" is not supported (TRUE or FALSE)'.
`timescale 1ps/1ps
module cosim_unisim_choice #(
  parameter string PRIM  = "URAM288",
  parameter string NAME  = "OREG_A",
  parameter string VALUE = "FALSE",
  parameter string ONE   = "TRUE",
  parameter string TWO   = ""
) ();

  if (VALUE != ONE && (TWO == "" || VALUE != TWO)) begin : g_err
    cosim_unisim_reject #(.PRIM(PRIM), .NAME(NAME), .VALUE(VALUE),
                          .ALLOWED(TWO == "" ? {ONE, " only"} : {ONE, " or ", TWO})) u_reject ();
  end

endmodule
