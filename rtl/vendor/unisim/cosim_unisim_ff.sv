// The body of the flip-flop stand-ins FDRE, FDSE, FDCE and FDPE (UNISIM,
// UG974), written here from the documented truth tables; not vendor code.
// One D flip-flop with clock enable and one set/reset pin SR (the
// primitive's R, S, CLR or PRE), each of C, D and SR optionally inverted
// (IS_*_INVERTED). Q starts at INIT. On the active edge of C (rising, falling
// with IS_C_INVERTED 1): an active SR loads SR_VALUE, else CE loads D. With
// ASYNC 1, SR acts at once and holds Q at SR_VALUE while active (CLR, PRE);
// with ASYNC 0 only on the edge (R, S). SR wins over CE.
`timescale 1ps/1ps
module cosim_unisim_ff #(
  parameter string PRIM           = "FDRE",
  parameter string SR_PIN         = "R",  // the primitive's name for SR
  parameter bit    ASYNC          = 1'b0,
  parameter bit    SR_VALUE       = 1'b0,
  // Untyped like the vendor's 1-bit attributes' users expect: 1'b1 and 1 both
  // fit without a width warning, and a 2 reaches the check whole.
  parameter        INIT           = 0,
  parameter        IS_C_INVERTED  = 0,
  parameter        IS_D_INVERTED  = 0,
  parameter        IS_SR_INVERTED = 0
) (
  input  logic C,
  input  logic CE,
  input  logic D,
  input  logic SR,
  output logic Q
);

  cosim_unisim_check #(.PRIM(PRIM), .NAME("INIT"), .VALUE(INIT)) u_check_init ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_C_INVERTED"), .VALUE(IS_C_INVERTED)) u_check_c ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME("IS_D_INVERTED"), .VALUE(IS_D_INVERTED)) u_check_d ();
  cosim_unisim_check #(.PRIM(PRIM), .NAME({"IS_", SR_PIN, "_INVERTED"}), .VALUE(IS_SR_INVERTED)) u_check_sr ();

  logic c_i, d_i, sr_i;
  assign c_i  = C ^ IS_C_INVERTED[0];
  assign d_i  = D ^ IS_D_INVERTED[0];
  assign sr_i = SR ^ IS_SR_INVERTED[0];

  logic q_r = INIT[0];
  if (ASYNC) begin : g_async
    always_ff @(posedge c_i or posedge sr_i) begin
      if (sr_i) q_r <= SR_VALUE;
      else if (CE) q_r <= d_i;
    end
  end else begin : g_sync
    always_ff @(posedge c_i) begin
      if (sr_i) q_r <= SR_VALUE;
      else if (CE) q_r <= d_i;
    end
  end
  assign Q = q_r;

endmodule
