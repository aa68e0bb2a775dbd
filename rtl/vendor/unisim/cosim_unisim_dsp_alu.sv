// The second stage of the DSP slice stand-ins (UG579, UG479, AM004; USE_SIMD
// "ONE48" / "ONE58"): the PW-bit adder/subtracter/logic unit on the W, X, Y,
// Z multiplexer outputs and the carry-in CIN, by ALUMODE (DSP48E1 has no W
// multiplexer: its W is 0). Z is inverted first when ALUMODE[0] is set and
// the result after when ALUMODE[1] is set, which gives the four documented
// arithmetic modes:
//   0000  Z + W + X + Y + CIN        0001  not(Z) + W + X + Y + CIN
//   0010  not(Z + W + X + Y + CIN)   0011  Z - (W + X + Y + CIN)
// Logic modes (W must be 0, Y 0 or all ones; CIN has no effect), per bit with
// z = Z or not(Z): 01xx X xor z xor Y, 11xx the majority of X, z, Y (AND with
// Y 0, OR with Y all ones), then inverted by ALUMODE[1]. 10xx is reserved:
// R = 0 (this stand-in's choice).
// CARRY is bit PW of the sum as an unsigned number (the CARRYCASCOUT of a
// chain); CARRYOUT3 is that bit, inverted in mode 0011 so that it is 1 when
// the subtraction does not borrow; both 0 in the logic modes.
`timescale 1ps/1ps
module cosim_unisim_dsp_alu #(
  parameter int PW = 48
) (
  input  logic [PW-1:0] W,
  input  logic [PW-1:0] X,
  input  logic [PW-1:0] Y,
  input  logic [PW-1:0] Z,
  input  logic          CIN,
  input  logic [3:0]    ALUMODE,
  output logic [PW-1:0] R,
  output logic          CARRY,
  output logic          CARRYOUT3
);

  logic [PW-1:0] z_i;
  logic [PW:0]   sum;  // bits PW:0 of the sum (the bit above is not needed)
  assign z_i = Z ^ {PW{ALUMODE[0]}};
  assign sum = (PW+1)'(z_i) + (PW+1)'(W) + (PW+1)'(X) + (PW+1)'(Y) + (PW+1)'(CIN);

  always_comb begin
    CARRY = 1'b0;
    unique case (ALUMODE[3:2])
      2'b00: begin
        R     = sum[PW-1:0] ^ {PW{ALUMODE[1]}};
        CARRY = sum[PW];
      end
      2'b01:   R = (X ^ z_i ^ Y) ^ {PW{ALUMODE[1]}};
      2'b11:   R = ((X & z_i) | (X & Y) | (z_i & Y)) ^ {PW{ALUMODE[1]}};
      default: R = '0;
    endcase
  end
  assign CARRYOUT3 = CARRY ^ (ALUMODE == 4'b0011);

endmodule
