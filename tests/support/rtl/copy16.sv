// The test DUTs' AXI4 copy (tests/clocks/iface_top.sv on a further clock,
// tests/axi_channels/axi_channels_top.sv over a read-only and a write-only
// master): after reset it reads 16 64-bit beats from 0x1000 (one burst),
// then writes their complements to 0x2000 (one burst), then holds done_o.
`timescale 1ps/1ps
module copy16 (  // a channel a line, as tests/clocks/iface_top.sv writes its ports
  input  logic clk, rst_n,
  output logic arvalid, input logic arready, output logic [31:0] araddr, output logic [7:0] arlen,
  input  logic rvalid, output logic rready, input logic [63:0] rdata, input logic rlast,
  output logic awvalid, input logic awready, output logic [31:0] awaddr, output logic [7:0] awlen,
  output logic wvalid, input logic wready, output logic [63:0] wdata, output logic wlast,
  input  logic bvalid, output logic bready,
  output logic done_o
);
  typedef enum logic [2:0] {StAr, StR, StAw, StW, StB, StDone} state_e;
  state_e state;
  logic [63:0] beats[16];
  logic [3:0] beat;
  assign arvalid = state == StAr;
  assign araddr  = 32'h1000;
  assign arlen   = 8'd15;
  assign rready  = state == StR;
  assign awvalid = state == StAw;
  assign awaddr  = 32'h2000;
  assign awlen   = 8'd15;
  assign wvalid  = state == StW;
  assign wdata   = ~beats[beat];
  assign wlast   = beat == 4'd15;
  assign bready  = state == StB;
  assign done_o  = state == StDone;
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state <= StAr;
      beat  <= '0;
    end else begin
      unique case (state)
        StAr: if (arready) state <= StR;
        StR: if (rvalid) begin
          beats[beat] <= rdata;
          beat <= beat + 4'd1;
          if (rlast) state <= StAw;
        end
        StAw: if (awready) state <= StW;
        StW: if (wready) begin
          beat <= beat + 4'd1;
          if (wlast) state <= StB;
        end
        StB: if (bvalid) state <= StDone;
        default: ;
      endcase
    end
  end
endmodule
