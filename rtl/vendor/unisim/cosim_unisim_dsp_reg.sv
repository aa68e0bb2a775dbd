// One optional pipeline stage of the DSP slice stand-ins (the C, D, AD, M, P
// and control registers; UG579): STAGES 0 is a wire, STAGES 1 a register
// that starts at 0 and, on the rising edge of CLK, loads 0 while RST is high
// (the reset wins over the enable) or D while CE is high.
`timescale 1ps/1ps
module cosim_unisim_dsp_reg #(
  parameter int W      = 1,
  parameter int STAGES = 1
) (
  input  logic         CLK,
  input  logic         CE,
  input  logic         RST,
  input  logic [W-1:0] D,
  output logic [W-1:0] Q
);

  if (STAGES == 0) begin : g_wire
    logic unused_ctl;  // no register: its clock, enable and reset do nothing
    assign unused_ctl = ^{CLK, CE, RST};
    assign Q = D;
  end else begin : g_reg
    logic [W-1:0] q_r = '0;
    always_ff @(posedge CLK) begin
      if (RST) q_r <= '0;
      else if (CE) q_r <= D;
    end
    assign Q = q_r;
  end

endmodule
