// A free-running streaming kernel for the install test (install_test.sh,
// step 8): out[i] = in[i] + 1 over 32-bit words, forever, with no control
// port, no ap_start and no ap_done (a Vitis ap_ctrl_none kernel): the
// manifest says `control: none`, and the host's stream check waits for the
// words it wants. One output register, as in @NAME@.sv.
`timescale 1ns/1ps
module @NAME@ (
  input  logic        ap_clk,
  input  logic        ap_rst_n,
  input  logic        s0_TVALID,
  output logic        s0_TREADY,
  input  logic [31:0] s0_TDATA,
  output logic        s1_TVALID,
  input  logic        s1_TREADY,
  output logic [31:0] s1_TDATA
);
  logic        valid_q;
  logic [31:0] data_q;

  assign s0_TREADY = !valid_q || s1_TREADY;
  assign s1_TVALID = valid_q;
  assign s1_TDATA  = data_q;

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      valid_q <= 1'b0;
      data_q  <= '0;
    end else begin
      if (s0_TVALID && s0_TREADY) data_q <= s0_TDATA + 32'd1;
      valid_q <= (s0_TVALID && s0_TREADY) || (valid_q && !s1_TREADY);
    end
  end
endmodule
