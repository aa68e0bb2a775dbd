// The single-bit synchronisers (xpm_cdc_single, xpm_cdc_array_single): each
// bit of src_in, registered on src_clk when SRC_INPUT_REG is 1, then through
// DEST_SYNC_FF flip-flops on dest_clk (cosim_xpm_sync). A value of src_in
// that a src_clk edge registers at time t shows on dest_out after the
// DEST_SYNC_FF-th dest_clk edge after t (one at the same instant as t does
// not count); with SRC_INPUT_REG 0, a value src_in holds across a dest_clk
// edge shows after DEST_SYNC_FF dest_clk edges counted from that one. Each
// bit crosses on its own, as the vendor documents: a value of several bits
// that changes may arrive a bit at a time on hardware, here it arrives whole.
`timescale 1ns/1ps
module cosim_xpm_cdc_bits #(
  parameter string MACRO          = "xpm_cdc_single",
  parameter int    DEST_SYNC_FF   = 4,
  parameter int    INIT_SYNC_FF   = 0,
  parameter int    SIM_ASSERT_CHK = 0,
  parameter int    SRC_INPUT_REG  = 1,
  parameter int    WIDTH          = 1,
  parameter int    WIDTH_MAX      = 1
) (
  input  logic             src_clk,
  input  logic [WIDTH-1:0] src_in,
  input  logic             dest_clk,
  output logic [WIDTH-1:0] dest_out
);

  cosim_xpm_cdc_check #(.MACRO(MACRO), .DEST_SYNC_FF(DEST_SYNC_FF), .INIT_SYNC_FF(INIT_SYNC_FF),
                        .SIM_ASSERT_CHK(SIM_ASSERT_CHK), .SRC_INPUT_REG(SRC_INPUT_REG),
                        .WIDTH(WIDTH), .WIDTH_MAX(WIDTH_MAX)) u_check ();

  logic [WIDTH-1:0] src_q;  // what crosses
  if (SRC_INPUT_REG != 0) begin : g_src_reg
    if (INIT_SYNC_FF != 0) begin : g_init
      initial src_q = '0;
    end
    always_ff @(posedge src_clk) src_q <= src_in;
  end else begin : g_no_src_reg
    assign src_q = src_in;
    logic unused_src_clk;
    assign unused_src_clk = src_clk;
  end

  cosim_xpm_sync #(.STAGES(DEST_SYNC_FF), .WIDTH(WIDTH), .INIT(INIT_SYNC_FF != 0)) u_sync (
    .clk(dest_clk), .rst(1'b0), .d(src_q), .q(dest_out));

endmodule
