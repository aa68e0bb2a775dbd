// The attribute check of the UNISIM stand-ins, instantiated once per binary
// attribute (IS_*_INVERTED, a flip-flop's INIT): a value other than 0 or 1
// stops elaboration with one line naming the primitive and the attribute,
// e.g. "FDRE stand-in: IS_C_INVERTED 2 must be 0 or 1". Verilated with
// -Wno-fatal that line only warns, so the model then stops at time 0.
`timescale 1ps/1ps
module cosim_unisim_check #(
  parameter string PRIM  = "FDRE",
  parameter string NAME  = "INIT",
  parameter        VALUE = 0  // untyped: as wide as the user's value (1'b1, 2)
) ();

  if (!(VALUE inside {0, 1})) begin : g_err
    $fatal(1, "%s stand-in: %s %0d must be 0 or 1", PRIM, NAME, VALUE);
    initial $fatal(1, "%s stand-in: %s %0d must be 0 or 1", PRIM, NAME, VALUE);
  end

endmodule
