// Protocol checker for a valid/ready handshake: once valid is up and ready is
// not, valid stays up and the payload stays the same until ready (AXI
// AxVALID, the register bus, the arbiter's output). A module around
// `COSIM_ASSERT_HELD (cosim_assert.svh, where the body is chosen) for the
// primitives, whose failures are reported as a_held in the instance
// (u_rsp_held, ...) with the primitive's Name in the text. Active only in
// builds with --assert, like every assertion.
`include "cosim_assert.svh"
`timescale 1ps/1ps  // vendor RTL carries timescales and Verilator wants every module to have one; 1ps keeps the default (message and dump times unchanged)
module cosim_assert_held #(
  parameter int unsigned Width = 1,
  parameter string       Name  = "cosim_assert_held"
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,     // synchronous flush: forget the stall
  input  logic             valid_i,
  input  logic             ready_i,
  input  logic [Width-1:0] payload_i
);

  `COSIM_ASSERT_HELD(a_held, valid_i, ready_i, payload_i,
                    ("%s: valid dropped or payload changed before ready", Name),
                    clk_i, !rst_ni || clr_i)

endmodule
