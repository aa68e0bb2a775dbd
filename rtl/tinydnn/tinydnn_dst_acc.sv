// Destination-buffer accumulation for dW (pipeline stage 3): the stored
// float32 y and an incoming running sum give the sum to normalise next.
module tinydnn_dst_acc
  import tinydnn_pkg::*;
(
  input  logic [31:0] y_i,
  input  sum_t        sum_i,
  output sum_t        sum_o
);

  logic [7:0]         ey;
  logic [9:0]         diff;     // D = exp(y) - E + 134, wraps in 10 bits
  logic [31:0]        a_al;
  logic signed [47:0] shifted;
  logic               pass;
  logic [31:0]        aligned;

  always_comb begin
    ey      = y_i[30:23];
    diff    = {2'b00, ey} - sum_i.e + 10'd134;
    a_al    = (sum_i.s ^ y_i[31]) ? (32'd0 - sum_i.a) : sum_i.a;
    shifted = $signed({a_al, 16'd0}) >>> diff[5:0];
    // exp(y) == 0, D < 0 or alignment overflow: the stored value is dropped.
    pass    = (ey == 8'd0) || diff[9] ||
              ((diff[8:6] == 3'd0) && (shifted[47:30] != {18{shifted[47]}}));
    aligned = (diff[8:6] != 3'd0) ? 32'd0 : shifted[31:0];
    if (pass) begin
      sum_o = sum_i;
    end else begin
      sum_o.s = y_i[31];
      sum_o.e = {2'b00, ey} + 10'd118;
      sum_o.a = {9'd1, y_i[22:0]} + aligned;  // F = 2^23 + frac(y)
    end
  end

endmodule
