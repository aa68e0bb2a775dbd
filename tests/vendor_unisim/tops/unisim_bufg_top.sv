// Test top for the clock buffer stand-ins (tests/vendor_unisim): a BUFG and
// five BUFGCE on inputs of their own: 0 the defaults (CE_TYPE "SYNC"),
// 1 "ASYNC", 2 "SYNC" with IS_CE_INVERTED, 3 "SYNC" with IS_I_INVERTED,
// 4 "ASYNC" with both inverted.
`timescale 1ps/1ps
module unisim_bufg_top (
  input  logic       bufg_i,
  output logic       bufg_o,
  input  logic [4:0] i, ce,
  output logic [4:0] o
);

  BUFG u_bufg (.O(bufg_o), .I(bufg_i));
  BUFGCE u_sync (.O(o[0]), .CE(ce[0]), .I(i[0]));
  BUFGCE #(.CE_TYPE("ASYNC"), .SIM_DEVICE("ULTRASCALE_PLUS")) u_async (.O(o[1]), .CE(ce[1]), .I(i[1]));
  BUFGCE #(.CE_TYPE("SYNC"), .IS_CE_INVERTED(1'b1)) u_sync_ce_n (.O(o[2]), .CE(ce[2]), .I(i[2]));
  BUFGCE #(.CE_TYPE("SYNC"), .IS_I_INVERTED(1'b1)) u_sync_i_n (.O(o[3]), .CE(ce[3]), .I(i[3]));
  BUFGCE #(.CE_TYPE("ASYNC"), .IS_CE_INVERTED(1'b1), .IS_I_INVERTED(1'b1))
    u_async_n (.O(o[4]), .CE(ce[4]), .I(i[4]));

endmodule
