// @NAME@'s AXI4-Lite control slave: the Vitis ap_ctrl_hs register map of an
// RTL kernel, written from its documented behaviour.
//   0x00 CTRL  bit 0 ap_start (write 1 to start; clears when the kernel takes
//              it), bit 1 ap_done (clear on read), bit 2 ap_idle (read only),
//              bit 3 ap_ready (clear on read), bit 7 auto_restart
//   0x04 GIE   bit 0 global interrupt enable
//   0x08 IER   bit 0 ap_done, bit 1 ap_ready interrupt enable
//   0x0C ISR   bit 0 ap_done, bit 1 ap_ready interrupt status (toggle on write)
//   0x10 A_LO, 0x14 A_HI, 0x18 B_LO, 0x1C B_HI, 0x20 C_LO, 0x24 C_HI: the
//              vector addresses; 0x28 LENGTH: bytes per vector
// interrupt = GIE && (ISR != 0). Writes take AW and W in any order (each
// held until both arrived), then answer OKAY on B; reads answer on R one
// cycle after AR. An address outside the map reads 0 and ignores writes.
`include "@NAME@_ports.svh"
`timescale 1ns/1ps
module @NAME@_control_s_axi #(
  parameter integer C_S_AXI_ADDR_WIDTH = 6,
  parameter integer C_S_AXI_DATA_WIDTH = 32
) (
  input  logic                              ACLK,
  input  logic                              ARESET_N,
  `@NAME@_S_AXI_LITE_PORTS(, C_S_AXI_ADDR_WIDTH, C_S_AXI_DATA_WIDTH),
  output logic                              interrupt,
  // to and from the kernel: the block-level handshake, the arguments
  output logic ap_start, input logic ap_done, input logic ap_ready, input logic ap_idle,
  output logic [63:0] a, b, c,
  output logic [31:0] length
);

  localparam logic [5:0] AddrCtrl = 6'h00, AddrGie = 6'h04, AddrIer = 6'h08, AddrIsr = 6'h0c,
                         AddrALo = 6'h10, AddrAHi = 6'h14, AddrBLo = 6'h18, AddrBHi = 6'h1c,
                         AddrCLo = 6'h20, AddrCHi = 6'h24, AddrLength = 6'h28;

  // Write channel: AW and W captured independently, then one B.
  logic                          aw_have_q, w_have_q, b_q;
  logic [5:0]                    waddr_q;
  logic [31:0]                   wdata_q;
  logic [3:0]                    wstrb_q;
  logic                          do_write;
  // Read channel.
  logic                          r_q;
  logic [31:0]                   rdata_q;
  logic                          do_read;
  logic [5:0]                    raddr;

  logic        start_q, done_q, ready_q, auto_restart_q, gie_q;
  logic [1:0]  ier_q, isr_q;
  logic [63:0] a_q, b_q64, c_q;
  logic [31:0] length_q;

  assign AWREADY  = !aw_have_q && !b_q;
  assign WREADY   = !w_have_q && !b_q;
  assign BVALID   = b_q;
  assign BRESP    = 2'b00;
  assign ARREADY  = !r_q;
  assign RVALID   = r_q;
  assign RDATA    = rdata_q;
  assign RRESP    = 2'b00;
  assign do_write = aw_have_q && w_have_q && !b_q;
  assign do_read  = ARVALID && !r_q;
  assign raddr    = 6'(ARADDR);

  // The byte lanes of a 32-bit register a write changes.
  function automatic logic [31:0] merge(logic [31:0] old, logic [31:0] wd, logic [3:0] strb);
    for (int i = 0; i < 4; i++) if (strb[i]) old[8*i +: 8] = wd[8*i +: 8];
    return old;
  endfunction

  always_ff @(posedge ACLK) begin
    if (!ARESET_N) begin
      {aw_have_q, w_have_q, b_q, r_q} <= '0;
      waddr_q <= '0;
      wdata_q <= '0;
      wstrb_q <= '0;
      rdata_q <= '0;
    end else begin
      if (AWVALID && AWREADY) begin
        aw_have_q <= 1'b1;
        waddr_q   <= 6'(AWADDR);
      end
      if (WVALID && WREADY) begin
        w_have_q <= 1'b1;
        wdata_q  <= WDATA;
        wstrb_q  <= WSTRB;
      end
      if (do_write) begin
        {aw_have_q, w_have_q} <= 2'b00;
        b_q <= 1'b1;
      end else if (b_q && BREADY) begin
        b_q <= 1'b0;
      end
      if (do_read) begin
        r_q <= 1'b1;
        unique case (raddr)
          AddrCtrl:   rdata_q <= {24'd0, auto_restart_q, 3'd0, ready_q, ap_idle, done_q, start_q};
          AddrGie:    rdata_q <= {31'd0, gie_q};
          AddrIer:    rdata_q <= {30'd0, ier_q};
          AddrIsr:    rdata_q <= {30'd0, isr_q};
          AddrALo:    rdata_q <= a_q[31:0];
          AddrAHi:    rdata_q <= a_q[63:32];
          AddrBLo:    rdata_q <= b_q64[31:0];
          AddrBHi:    rdata_q <= b_q64[63:32];
          AddrCLo:    rdata_q <= c_q[31:0];
          AddrCHi:    rdata_q <= c_q[63:32];
          AddrLength: rdata_q <= length_q;
          default:    rdata_q <= 32'd0;
        endcase
      end else if (r_q && RREADY) begin
        r_q <= 1'b0;
      end
    end
  end

  // The registers. ap_done and ap_ready clear when CTRL is read; ap_start
  // clears when the kernel takes it (ap_ready), or stays set with auto_restart.
  always_ff @(posedge ACLK) begin
    if (!ARESET_N) begin
      {start_q, done_q, ready_q, auto_restart_q, gie_q} <= '0;
      {ier_q, isr_q} <= '0;
      {a_q, b_q64, c_q} <= '0;
      length_q <= '0;
    end else begin
      if (do_read && raddr == AddrCtrl) begin
        done_q  <= 1'b0;
        ready_q <= 1'b0;
      end
      if (ap_done) done_q <= 1'b1;
      if (ap_ready) begin
        ready_q <= 1'b1;
        start_q <= auto_restart_q;
      end
      isr_q <= isr_q | ({ap_ready, ap_done} & ier_q);
      if (do_write) begin
        unique case (waddr_q)
          AddrCtrl: begin
            if (wstrb_q[0] && wdata_q[0]) start_q <= 1'b1;
            if (wstrb_q[0]) auto_restart_q <= wdata_q[7];
          end
          AddrGie:    if (wstrb_q[0]) gie_q <= wdata_q[0];
          AddrIer:    if (wstrb_q[0]) ier_q <= wdata_q[1:0];
          AddrIsr:    if (wstrb_q[0]) isr_q <= (isr_q | ({ap_ready, ap_done} & ier_q)) ^ wdata_q[1:0];
          AddrALo:    a_q[31:0]     <= merge(a_q[31:0], wdata_q, wstrb_q);
          AddrAHi:    a_q[63:32]    <= merge(a_q[63:32], wdata_q, wstrb_q);
          AddrBLo:    b_q64[31:0]   <= merge(b_q64[31:0], wdata_q, wstrb_q);
          AddrBHi:    b_q64[63:32]  <= merge(b_q64[63:32], wdata_q, wstrb_q);
          AddrCLo:    c_q[31:0]     <= merge(c_q[31:0], wdata_q, wstrb_q);
          AddrCHi:    c_q[63:32]    <= merge(c_q[63:32], wdata_q, wstrb_q);
          AddrLength: length_q      <= merge(length_q, wdata_q, wstrb_q);
          default: ;
        endcase
      end
    end
  end

  assign interrupt = gie_q && (isr_q != 2'b00);
  assign ap_start  = start_q;
  assign a         = a_q;
  assign b         = b_q64;
  assign c         = c_q;
  assign length    = length_q;

  logic unused_addr;
  assign unused_addr = ^{AWADDR, ARADDR};

endmodule
