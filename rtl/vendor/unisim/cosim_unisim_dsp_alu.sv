// The second stage of the DSP48E2 stand-in (UG579, USE_SIMD "ONE48"): the
// adder/subtracter/logic unit on the W, X, Y, Z multiplexer outputs and the
// carry-in CIN, by ALUMODE. Z is inverted first when ALUMODE[0] is set and
// the result after when ALUMODE[1] is set, which gives the four documented
// arithmetic modes:
//   0000  Z + W + X + Y + CIN        0001  not(Z) + W + X + Y + CIN
//   0010  not(Z + W + X + Y + CIN)   0011  Z - (W + X + Y + CIN)
// Logic modes (W must be 0, Y 0 or all ones; CIN has no effect), per bit with
// z = Z or not(Z): 01xx X xor z xor Y, 11xx the majority of X, z, Y (AND with
// Y 0, OR with Y all ones), then inverted by ALUMODE[1]. 10xx is reserved:
// R = 0 (this stand-in's choice).
// CARRY is bit 48 of the sum as an unsigned number (the CARRYCASCOUT of a
// chain); CARRYOUT3 is that bit, inverted in mode 0011 so that it is 1 when
// the subtraction does not borrow; both 0 in the logic modes.
`timescale 1ps/1ps
module cosim_unisim_dsp_alu (
  input  logic [47:0] W,
  input  logic [47:0] X,
  input  logic [47:0] Y,
  input  logic [47:0] Z,
  input  logic        CIN,
  input  logic [3:0]  ALUMODE,
  output logic [47:0] R,
  output logic        CARRY,
  output logic        CARRYOUT3
);

  logic [47:0] z_i;
  logic [48:0] sum;  // bits 48:0 of the sum (its bit 49 is not needed)
  assign z_i = Z ^ {48{ALUMODE[0]}};
  assign sum = 49'(z_i) + 49'(W) + 49'(X) + 49'(Y) + 49'(CIN);

  always_comb begin
    CARRY = 1'b0;
    unique case (ALUMODE[3:2])
      2'b00: begin
        R     = sum[47:0] ^ {48{ALUMODE[1]}};
        CARRY = sum[48];
      end
      2'b01:   R = (X ^ z_i ^ Y) ^ {48{ALUMODE[1]}};
      2'b11:   R = ((X & z_i) | (X & Y) | (z_i & Y)) ^ {48{ALUMODE[1]}};
      default: R = '0;
    endcase
  end
  assign CARRYOUT3 = CARRY ^ (ALUMODE == 4'b0011);

endmodule
