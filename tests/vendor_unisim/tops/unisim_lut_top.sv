// Test top for the LUT stand-ins (tests/vendor_unisim): NUM instances of each
// of LUT1 ... LUT6 and LUT6_2, all on the inputs i (LUTk on i[k-1:0]), with
// INIT = mix(SEED, 16 * k + n) cut to the LUT's width (k = 7: LUT6_2), and
// FINN's clock LUT, LUT1 #(.INIT(2'b10)).
`timescale 1ps/1ps
module unisim_lut_top #(
  parameter logic [63:0] SEED = 64'h5EED,
  parameter int          NUM  = 8
) (
  input  logic [5:0]     i,
  output logic [NUM-1:0] o1, o2, o3, o4, o5, o6, o6_2_o6, o6_2_o5,
  output logic           o_finn
);
`include "unisim_mix.svh"

  for (genvar n = 0; n < NUM; n++) begin : g_n
    localparam logic [63:0] Init1 = mix(SEED, 16 * 1 + n), Init2 = mix(SEED, 16 * 2 + n);
    localparam logic [63:0] Init3 = mix(SEED, 16 * 3 + n), Init4 = mix(SEED, 16 * 4 + n);
    localparam logic [63:0] Init5 = mix(SEED, 16 * 5 + n), Init6 = mix(SEED, 16 * 6 + n);
    localparam logic [63:0] Init7 = mix(SEED, 16 * 7 + n);
    LUT1 #(.INIT(Init1[1:0])) u_lut1 (.O(o1[n]), .I0(i[0]));
    LUT2 #(.INIT(Init2[3:0])) u_lut2 (.O(o2[n]), .I0(i[0]), .I1(i[1]));
    LUT3 #(.INIT(Init3[7:0])) u_lut3 (.O(o3[n]), .I0(i[0]), .I1(i[1]), .I2(i[2]));
    LUT4 #(.INIT(Init4[15:0])) u_lut4 (.O(o4[n]), .I0(i[0]), .I1(i[1]), .I2(i[2]), .I3(i[3]));
    LUT5 #(.INIT(Init5[31:0])) u_lut5 (.O(o5[n]), .I0(i[0]), .I1(i[1]), .I2(i[2]), .I3(i[3]), .I4(i[4]));
    LUT6 #(.INIT(Init6)) u_lut6 (.O(o6[n]), .I0(i[0]), .I1(i[1]), .I2(i[2]), .I3(i[3]), .I4(i[4]), .I5(i[5]));
    LUT6_2 #(.INIT(Init7)) u_lut6_2 (.O6(o6_2_o6[n]), .O5(o6_2_o5[n]),
                                     .I0(i[0]), .I1(i[1]), .I2(i[2]), .I3(i[3]), .I4(i[4]), .I5(i[5]));
  end

  LUT1 #(.INIT(2'b10)) u_finn (.O(o_finn), .I0(i[0]));

endmodule
