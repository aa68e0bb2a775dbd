// Interfaces on further clocks, for the harness's binders
// (tests/clocks/iface_test.cpp): each domain has its own clock and reset and
// nothing crosses between them.
//  - c_clk: an AXI4-Lite slave with a scratch register (0x00, read and
//    write) and c_clk's rising edges since its reset (0x04, read only; the
//    value at the edge that takes the read address); other addresses answer
//    SLVERR;
//  - s_clk: a stream stage: each 32-bit beat of `in` leaves on `out` as 64
//    bits, {s_clk's rising edges since its reset at the edge that took it,
//    the beat}, TLAST carried;
//  - m_clk: an AXI4 master that, once out of reset, reads 16 64-bit beats
//    at 0x1000 in one burst and writes their complements to 0x2000 in one,
//    then raises m_done_o;
//  - clk (the primary clock): counts its edges, so the top has one.
`timescale 1ns/1ps
module iface_top (
  input  logic clk, rst_n, c_clk, c_rst_n, s_clk, s_rst_n, m_clk, m_rst_n,
  // AXI4-Lite, on c_clk
  input  logic s_axi_awvalid, output logic s_axi_awready, input logic [7:0] s_axi_awaddr,
  input  logic s_axi_wvalid, output logic s_axi_wready, input logic [31:0] s_axi_wdata, input logic [3:0] s_axi_wstrb,
  output logic s_axi_bvalid, input logic s_axi_bready, output logic [1:0] s_axi_bresp,
  input  logic s_axi_arvalid, output logic s_axi_arready, input logic [7:0] s_axi_araddr,
  output logic s_axi_rvalid, input logic s_axi_rready, output logic [31:0] s_axi_rdata, output logic [1:0] s_axi_rresp,
  // The streams, on s_clk
  input  logic in_tvalid, output logic in_tready, input logic [31:0] in_tdata, input logic in_tlast,
  output logic out_tvalid, input logic out_tready, output logic [63:0] out_tdata, output logic out_tlast,
  // AXI4, on m_clk
  output logic m_axi_arvalid, input logic m_axi_arready, output logic [31:0] m_axi_araddr, output logic [7:0] m_axi_arlen,
  input  logic m_axi_rvalid, output logic m_axi_rready, input logic [63:0] m_axi_rdata, input logic m_axi_rlast,
  output logic m_axi_awvalid, input logic m_axi_awready, output logic [31:0] m_axi_awaddr, output logic [7:0] m_axi_awlen,
  output logic m_axi_wvalid, input logic m_axi_wready, output logic [63:0] m_axi_wdata, output logic m_axi_wlast,
  input  logic m_axi_bvalid, output logic m_axi_bready,

  output logic m_done_o,
  output logic [31:0] main_edges_o
);
  always_ff @(posedge clk) main_edges_o <= rst_n ? main_edges_o + 1 : '0;

  // ---- c_clk: AXI4-Lite -----------------------------------------------------
  logic [31:0] scratch, c_edges;
  logic        aw_fire, ar_fire;
  logic        unused_c;
  assign unused_c = ^{s_axi_wstrb, s_axi_awaddr[1:0], s_axi_araddr[1:0]};
  // A write is taken when its address and data are both there.
  assign s_axi_awready = s_axi_awvalid && s_axi_wvalid && !s_axi_bvalid;
  assign s_axi_wready  = s_axi_awready;
  assign s_axi_arready = !s_axi_rvalid;
  assign aw_fire = s_axi_awvalid && s_axi_awready;
  assign ar_fire = s_axi_arvalid && s_axi_arready;
  always_ff @(posedge c_clk) begin
    if (!c_rst_n) begin
      scratch <= '0;
      c_edges <= '0;
      s_axi_bvalid <= 1'b0;
      s_axi_rvalid <= 1'b0;
      s_axi_bresp <= 2'b00;
      s_axi_rresp <= 2'b00;
      s_axi_rdata <= '0;
    end else begin
      c_edges <= c_edges + 1;
      if (aw_fire) begin
        if (s_axi_awaddr[7:2] == 0) scratch <= s_axi_wdata;
        s_axi_bresp <= s_axi_awaddr[7:2] == 0 ? 2'b00 : 2'b10;
        s_axi_bvalid <= 1'b1;
      end else if (s_axi_bready) begin
        s_axi_bvalid <= 1'b0;
      end
      if (ar_fire) begin
        s_axi_rdata <= s_axi_araddr[7:2] == 0 ? scratch : s_axi_araddr[7:2] == 1 ? c_edges : '0;
        s_axi_rresp <= s_axi_araddr[7:2] <= 1 ? 2'b00 : 2'b10;
        s_axi_rvalid <= 1'b1;
      end else if (s_axi_rready) begin
        s_axi_rvalid <= 1'b0;
      end
    end
  end

  // ---- s_clk: the stream stage ------------------------------------------------
  logic [31:0] s_edges;
  assign in_tready = !out_tvalid || out_tready;
  always_ff @(posedge s_clk) begin
    if (!s_rst_n) begin
      s_edges <= '0;
      out_tvalid <= 1'b0;
      out_tdata <= '0;
      out_tlast <= 1'b0;
    end else begin
      s_edges <= s_edges + 1;
      if (in_tvalid && in_tready) begin
        out_tvalid <= 1'b1;
        out_tdata <= {s_edges, in_tdata};
        out_tlast <= in_tlast;
      end else if (out_tready) begin
        out_tvalid <= 1'b0;
      end
    end
  end

  // ---- m_clk: the AXI4 master ----------------------------------------------------
  // The copy of tests/support/rtl/copy16.sv, on m_clk.
  copy16 u_copy (
    .clk (m_clk), .rst_n (m_rst_n),
    .arvalid (m_axi_arvalid), .arready (m_axi_arready), .araddr (m_axi_araddr), .arlen (m_axi_arlen),
    .rvalid (m_axi_rvalid), .rready (m_axi_rready), .rdata (m_axi_rdata), .rlast (m_axi_rlast),
    .awvalid (m_axi_awvalid), .awready (m_axi_awready), .awaddr (m_axi_awaddr), .awlen (m_axi_awlen),
    .wvalid (m_axi_wvalid), .wready (m_axi_wready), .wdata (m_axi_wdata), .wlast (m_axi_wlast),
    .bvalid (m_axi_bvalid), .bready (m_axi_bready), .done_o (m_done_o)
  );
endmodule
