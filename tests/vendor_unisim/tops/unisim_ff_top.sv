// Test top for the flip-flop stand-ins (tests/vendor_unisim): 64 flops, each
// on inputs of its own. Flop j = 16 * p + m is FDRE, FDSE, FDCE, FDPE for
// p = 0..3, with INIT = m[0], IS_C_INVERTED = m[1], IS_D_INVERTED = m[2] and
// the inversion of its set/reset pin (R, S, CLR, PRE) = m[3]: every
// combination of every primitive. sr[j] drives that pin.
`timescale 1ps/1ps
module unisim_ff_top (
  input  logic [63:0] c, ce, d, sr,
  output logic [63:0] q
);

  for (genvar j = 0; j < 64; j++) begin : g_ff
    localparam int P = j / 16, M = j % 16;
    localparam int Init = M % 2, InvC = (M / 2) % 2, InvD = (M / 4) % 2, InvSr = (M / 8) % 2;
    if (P == 0) begin : g_fdre
      FDRE #(.INIT(Init), .IS_C_INVERTED(InvC), .IS_D_INVERTED(InvD), .IS_R_INVERTED(InvSr))
        u_ff (.Q(q[j]), .C(c[j]), .CE(ce[j]), .D(d[j]), .R(sr[j]));
    end else if (P == 1) begin : g_fdse
      FDSE #(.INIT(Init), .IS_C_INVERTED(InvC), .IS_D_INVERTED(InvD), .IS_S_INVERTED(InvSr))
        u_ff (.Q(q[j]), .C(c[j]), .CE(ce[j]), .D(d[j]), .S(sr[j]));
    end else if (P == 2) begin : g_fdce
      FDCE #(.INIT(Init), .IS_C_INVERTED(InvC), .IS_D_INVERTED(InvD), .IS_CLR_INVERTED(InvSr))
        u_ff (.Q(q[j]), .C(c[j]), .CE(ce[j]), .D(d[j]), .CLR(sr[j]));
    end else begin : g_fdpe
      FDPE #(.INIT(Init), .IS_C_INVERTED(InvC), .IS_D_INVERTED(InvD), .IS_PRE_INVERTED(InvSr))
        u_ff (.Q(q[j]), .C(c[j]), .CE(ce[j]), .D(d[j]), .PRE(sr[j]));
    end
  end

endmodule
