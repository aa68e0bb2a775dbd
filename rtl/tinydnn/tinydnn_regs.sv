// Register block on the common register bus (rtl/common/cosim_reg_slave:
// valid/ready request and response; register w at byte address 4*w; the
// response, read data also for writes, follows the request by one cycle).
// Writes other than CTRL
// are ignored while a command runs; writing CTRL bit 0 starts one command.
// CTRL reads {error, done, busy}: error means the last command was refused
// because a size register was 0 or OD exceeded the core count.
`include "cosim_ports.svh"

module tinydnn_regs
  import tinydnn_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,
  `COSIM_REG_SLAVE_PORTS(6),
  output mode_t       mode_o,
  output cfg_t        cfg_o,
  output logic        start_o,
  input  logic        busy_i,
  input  logic        done_i,
  input  logic        err_i,
  input  logic        mac_step_i,   // one MAC step issued to the active cores
  output logic        done_o
);

  mode_t       mode_q;
  cfg_t        cfg_q;
  logic        done_q;
  logic [31:0] cycles_q, macs_q, rdata;
  logic        wr;
  logic [5:0]  acc_addr;
  logic [5:0]  reg_off;  // the register's byte offset (RegCtrl ... from tinydnn_reg_pkg)
  logic [31:0] acc_wdata;
  // Registers are at most 16 bits wide; upper write bits and the byte lanes
  // of the address are ignored.
  logic [17:0] unused_bits;
  assign unused_bits = {acc_wdata[31:16], acc_addr[1:0]};

  `COSIM_REG_SLAVE_INST(6, wr, acc_addr, acc_wdata, rdata);
  assign reg_off = {acc_addr[5:2], 2'b00};
  assign start_o = wr && !busy_i && (reg_off == RegCtrl) && acc_wdata[0];

  always_comb begin
    unique case (reg_off)
      RegCtrl:    rdata = {29'd0, err_i, done_q, busy_i};
      RegMode:    rdata = {25'd0, mode_q};
      RegKw:      rdata = {24'd0, cfg_q.kw};
      RegKh:      rdata = {24'd0, cfg_q.kh};
      RegIw:      rdata = {24'd0, cfg_q.iw};
      RegIh:      rdata = {24'd0, cfg_q.ih};
      RegId:      rdata = {24'd0, cfg_q.id};
      RegOw:      rdata = {24'd0, cfg_q.ow};
      RegOh:      rdata = {24'd0, cfg_q.oh};
      RegOd:      rdata = {24'd0, cfg_q.od};
      RegSamples: rdata = {16'd0, cfg_q.samples};
      RegCycles:  rdata = cycles_q;
      RegMacs:    rdata = macs_q;
      default:    rdata = '0;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q   <= '0;
      cfg_q    <= '{kw: 8'd1, kh: 8'd1, iw: 8'd1, ih: 8'd1, id: 8'd1, ow: 8'd1, oh: 8'd1, od: 8'd1,
                    samples: 16'd1};
      done_q   <= 1'b0;
      cycles_q <= '0;
      macs_q   <= '0;
    end else begin
      if (wr && !busy_i) begin
        unique case (reg_off)
          RegMode:    mode_q      <= mode_t'(acc_wdata[6:0]);
          RegKw:      cfg_q.kw    <= acc_wdata[DimW-1:0];
          RegKh:      cfg_q.kh    <= acc_wdata[DimW-1:0];
          RegIw:      cfg_q.iw    <= acc_wdata[DimW-1:0];
          RegIh:      cfg_q.ih    <= acc_wdata[DimW-1:0];
          RegId:      cfg_q.id    <= acc_wdata[DimW-1:0];
          RegOw:      cfg_q.ow    <= acc_wdata[DimW-1:0];
          RegOh:      cfg_q.oh    <= acc_wdata[DimW-1:0];
          RegOd:      cfg_q.od    <= acc_wdata[DimW-1:0];
          RegSamples: cfg_q.samples <= acc_wdata[15:0];
          default: ;
        endcase
      end
      if (start_o) begin
        done_q   <= 1'b0;
        cycles_q <= '0;
        macs_q   <= '0;
      end else begin
        if (done_i) done_q <= 1'b1;
        if (busy_i) cycles_q <= cycles_q + 32'd1;
        if (mac_step_i) macs_q <= macs_q + {24'd0, cfg_q.od};
      end
    end
  end

  assign mode_o       = mode_q;
  assign cfg_o        = cfg_q;
  assign done_o       = done_q;

endmodule
