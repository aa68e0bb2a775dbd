// Types and constants of @NAME@: an int8 vector adder. Register offsets and
// the state enum are generated from @NAME@.yaml into @NAME@_reg_pkg,
// exported here.
package @NAME@_pkg;

  import @NAME@_reg_pkg::*;
  export @NAME@_reg_pkg::*;

  parameter int unsigned AddrWidth     = 32;
  parameter int unsigned DataWidth     = 64;
  parameter int unsigned StrbWidth     = DataWidth / 8;
  parameter int unsigned Lanes         = DataWidth / 8;  // int8 lanes per beat
  parameter int unsigned MaxBurstBeats = 16;

  // AXI4 constants.
  parameter logic [1:0] BurstIncr  = 2'b01;
  parameter logic [2:0] Size8Bytes = 3'd3;

  // int8 addition saturated to [-128, 127].
  function automatic logic [7:0] sat_add8(logic [7:0] a, logic [7:0] b);
    logic signed [8:0] sum;
    sum = $signed({a[7], a}) + $signed({b[7], b});
    if (sum > 9'sd127) return 8'h7f;
    if (sum < -9'sd128) return 8'h80;
    return sum[7:0];
  endfunction

endpackage
