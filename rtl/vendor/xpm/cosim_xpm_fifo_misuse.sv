// The FIFO stand-ins' misuse message (SIM_ASSERT_CHK = 1): the vendor asks
// that wr_en and rd_en stay low while the FIFO is in reset (rst,
// wr_rst_busy, rd_rst_busy). One instance watches one request on its clock;
// EN_SIM_ASSERT_ERR "error" makes a request then an error (a failed check in
// this environment), anything else a warning.
`timescale 1ns/1ps
module cosim_xpm_fifo_misuse #(
  parameter string MACRO             = "xpm_fifo_sync",
  parameter int    SIM_ASSERT_CHK    = 0,
  parameter string EN_SIM_ASSERT_ERR = "warning",
  parameter string REQUEST           = "wr_en",            // the request's port
  parameter string RESET             = "rst or *_rst_busy" // what "in reset" is
) (
  input logic clk,
  input logic in_reset,
  input logic request
);

  if (SIM_ASSERT_CHK == 1) begin : g_chk
    always_ff @(posedge clk) begin
      if (in_reset && request) begin
        if (EN_SIM_ASSERT_ERR == "error") begin
          $error("%s: %s while in reset (%s)", MACRO, REQUEST, RESET);
        end else begin
          $warning("%s: %s while in reset (%s)", MACRO, REQUEST, RESET);
        end
      end
    end
  end else begin : g_off
    logic unused;
    assign unused = ^{clk, in_reset, request};
  end

endmodule
