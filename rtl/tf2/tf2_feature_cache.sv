// On-chip feature cache: the whole input map of a layer in C16HW order, one
// 16-channel pixel vector per word (address (cg*h_in + iy)*w_in + ix).
// One write port (Feature Loader) and NumRd registered read ports
// (Scheduler); a read with its lane disabled returns zeros (padding).
module tf2_feature_cache
  import tf2_pkg::*;
#(
  parameter int unsigned Depth = DefFeatDepth,
  parameter int unsigned NumRd = 15,
  localparam int unsigned AW = $clog2(Depth)
) (
  input  logic                                clk_i,

  input  logic                                we_i,
  input  logic [AW-1:0]                       waddr_i,
  input  logic [CVec*8-1:0]                   wdata_i,

  input  logic                                re_i,     // advance the read registers
  input  logic [NumRd-1:0]                    rlane_i,  // lane reads real data
  input  logic [NumRd-1:0][AW-1:0]            raddr_i,
  output logic [NumRd-1:0][CVec*8-1:0]        rdata_o
);

  logic [CVec*8-1:0] mem_q [Depth];
  logic [NumRd-1:0][CVec*8-1:0] rdata_q;

  assign rdata_o = rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    if (re_i) begin
      for (int unsigned l = 0; l < NumRd; l++) begin
        rdata_q[l] <= rlane_i[l] ? mem_q[raddr_i[l]] : '0;
      end
    end
  end

endmodule
