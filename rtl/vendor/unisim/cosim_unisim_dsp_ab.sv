// The A or B input registers of the DSP slice stand-ins (UG579 "dual A/B
// registers"): REG (AREG/BREG) 0, 1 or 2 stages, CASCREG (ACASCREG/BCASCREG)
// the stages before the cascade output. Q2 feeds the A:B path and, with
// INMODE selecting it, the multiplier; Q1 is the other multiplier choice.
//   REG 0: Q1 = Q2 = COUT = D, no register.
//   REG 1: the second register (CE2) loads D; the first (CE1) loads D too and
//          is Q1 (this stand-in's reading of the documented "with 1 register
//          and INMODE selecting it, the first register is used").
//   REG 2: the first register (CE1) loads D, the second (CE2) the first.
// COUT is Q2 when CASCREG = REG, else (REG 2, CASCREG 1) the first register.
// Both registers start at 0 and load 0 while RST is high.
`timescale 1ps/1ps
module cosim_unisim_dsp_ab #(
  parameter int W       = 30,
  parameter int REG     = 1,
  parameter int CASCREG = 1
) (
  input  logic         CLK,
  input  logic         CE1,
  input  logic         CE2,
  input  logic         RST,
  input  logic [W-1:0] D,
  output logic [W-1:0] Q1,
  output logic [W-1:0] Q2,
  output logic [W-1:0] COUT
);

  if (REG == 0) begin : g_wire
    logic unused_ctl;
    assign unused_ctl = ^{CLK, CE1, CE2, RST};
    assign Q1   = D;
    assign Q2   = D;
    assign COUT = D;
  end else begin : g_reg
    logic [W-1:0] r1 = '0, r2 = '0;
    always_ff @(posedge CLK) begin
      if (RST) r1 <= '0;
      else if (CE1) r1 <= D;
    end
    always_ff @(posedge CLK) begin
      if (RST) r2 <= '0;
      else if (CE2) r2 <= (REG == 2) ? r1 : D;
    end
    assign Q1   = r1;
    assign Q2   = r2;
    assign COUT = (CASCREG == REG) ? r2 : r1;
  end

endmodule
