// The one shared normaliser (pipeline stages 4 and 5). Stage 4 takes the
// magnitude, counts leading zeros and shifts; stage 5 forms the float32 and
// drives the destination-buffer write directly.
module tinydnn_norm
  import tinydnn_pkg::*;
(
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                valid_i,
  input  sum_t                sum_i,
  input  logic [DstAddrW-1:0] addr_i,
  output logic                valid_o,
  output logic [DstAddrW-1:0] addr_o,
  output logic [31:0]         data_o
);

  logic        s_d, s_q;
  logic [31:0] mag;
  logic [4:0]  lz;
  // The leading one (bit 31) is implicit and bits 7:0 are truncated away.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] n_full;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [9:0]  e_d, e_q;
  logic [22:0] n_d, n_q;
  logic        valid_q;
  logic [DstAddrW-1:0] addr_q;

  always_comb begin
    s_d = sum_i.s;
    mag = sum_i.a;
    if (sum_i.a[31]) begin
      mag = 32'd0 - sum_i.a;
      s_d = ~sum_i.s;
    end
    // Highest set bit wins; A == 0 keeps the spec's lz = 31.
    lz = 5'd31;
    for (int i = 0; i < 32; i++) begin
      if (mag[i]) lz = 5'(31 - i);
    end
    n_full = mag << lz;
    n_d    = n_full[30:8];
    e_d    = sum_i.e - {5'd0, lz} + 10'd17 - 10'd127;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
    end else begin
      valid_q <= valid_i;
    end
  end

  // Datapath registers need no reset.
  always_ff @(posedge clk_i) begin
    s_q    <= s_d;
    e_q    <= e_d;
    n_q    <= n_d;
    addr_q <= addr_i;
  end

  // Stage 5: e <= 0 (10-bit signed) flushes to +0.0; no overflow handling.
  assign valid_o = valid_q;
  assign addr_o  = addr_q;
  assign data_o  = (e_q[9] || (e_q == 10'd0)) ? 32'd0 : {s_q, e_q[7:0], n_q};

endmodule
