// One MAC step of a core (pipeline stage 2): sum + w * d with the spec's
// alignment rules. Purely combinational; the core registers the result.
module tinydnn_mac
  import tinydnn_pkg::*;
(
  input  sum_t        sum_i,
  input  logic [15:0] w_i,
  input  logic [15:0] d_i,
  output sum_t        sum_o
);

  logic [15:0]        prod;     // (128 + frac w) * (128 + frac d) < 2^16
  logic [9:0]         ep;       // exp(w) + exp(d), no bias removed
  logic               sp;
  logic [31:0]        a_al;
  logic [9:0]         diff;     // D = Ep - E + 16, wraps in 10 bits
  logic signed [47:0] shifted;  // (A' * 2^16) >>> D
  logic               no_update;
  logic [31:0]        aligned;

  always_comb begin
    prod    = {9'd1, w_i[6:0]} * {9'd1, d_i[6:0]};
    ep      = {2'b00, w_i[14:7]} + {2'b00, d_i[14:7]};
    sp      = w_i[15] ^ d_i[15];
    a_al    = (sum_i.s ^ sp) ? (32'd0 - sum_i.a) : sum_i.a;
    diff    = ep - sum_i.e + 10'd16;
    shifted = $signed({a_al, 16'd0}) >>> diff[5:0];
    // D < 0: the product is far below the sum. 0 <= D < 64 and the aligned
    // sum outside [-2^30, 2^30): alignment overflow. Both keep the old sum.
    no_update = diff[9] ||
                ((diff[8:6] == 3'd0) && (shifted[47:30] != {18{shifted[47]}}));
    aligned   = (diff[8:6] != 3'd0) ? 32'd0 : shifted[31:0];
    if (no_update) begin
      sum_o = sum_i;
    end else begin
      sum_o.s = sp;
      sum_o.e = ep;
      sum_o.a = {16'd0, prod} + aligned;
    end
  end

endmodule
