// Register block on a valid/ready register port (always ready; read data
// returns the cycle after the request with rvalid). Writes other than CTRL
// are ignored while a command runs; writing CTRL bit 0 starts one command.
// CTRL reads {error, done, busy}: error means the last command was refused
// because a size register was 0 or OD exceeded the core count.
module tinydnn_regs
  import tinydnn_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        reg_valid_i,
  output logic        reg_ready_o,
  input  logic        reg_write_i,
  input  logic [3:0]  reg_addr_i,
  // Registers are at most 16 bits wide; upper write bits are ignored.
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [31:0] reg_wdata_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic        reg_rvalid_o,
  output logic [31:0] reg_rdata_o,
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
  logic        done_q, rvalid_q;
  logic [31:0] rdata_q, cycles_q, macs_q;
  logic        wr, rd;

  assign reg_ready_o = 1'b1;
  assign wr      = reg_valid_i && reg_write_i;
  assign rd      = reg_valid_i && !reg_write_i;
  assign start_o = wr && !busy_i && (reg_addr_i == RegCtrl) && reg_wdata_i[0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q   <= '0;
      cfg_q    <= '{kw: 8'd1, kh: 8'd1, iw: 8'd1, ih: 8'd1, id: 8'd1, ow: 8'd1, oh: 8'd1, od: 8'd1,
                    samples: 16'd1};
      done_q   <= 1'b0;
      rvalid_q <= 1'b0;
      rdata_q  <= '0;
      cycles_q <= '0;
      macs_q   <= '0;
    end else begin
      if (wr && !busy_i) begin
        unique case (reg_addr_i)
          RegMode:    mode_q      <= mode_t'(reg_wdata_i[6:0]);
          RegKw:      cfg_q.kw    <= reg_wdata_i[DimW-1:0];
          RegKh:      cfg_q.kh    <= reg_wdata_i[DimW-1:0];
          RegIw:      cfg_q.iw    <= reg_wdata_i[DimW-1:0];
          RegIh:      cfg_q.ih    <= reg_wdata_i[DimW-1:0];
          RegId:      cfg_q.id    <= reg_wdata_i[DimW-1:0];
          RegOw:      cfg_q.ow    <= reg_wdata_i[DimW-1:0];
          RegOh:      cfg_q.oh    <= reg_wdata_i[DimW-1:0];
          RegOd:      cfg_q.od    <= reg_wdata_i[DimW-1:0];
          RegSamples: cfg_q.samples <= reg_wdata_i[15:0];
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
      rvalid_q <= rd;
      if (rd) begin
        unique case (reg_addr_i)
          RegCtrl:    rdata_q <= {29'd0, err_i, done_q, busy_i};
          RegMode:    rdata_q <= {25'd0, mode_q};
          RegKw:      rdata_q <= {24'd0, cfg_q.kw};
          RegKh:      rdata_q <= {24'd0, cfg_q.kh};
          RegIw:      rdata_q <= {24'd0, cfg_q.iw};
          RegIh:      rdata_q <= {24'd0, cfg_q.ih};
          RegId:      rdata_q <= {24'd0, cfg_q.id};
          RegOw:      rdata_q <= {24'd0, cfg_q.ow};
          RegOh:      rdata_q <= {24'd0, cfg_q.oh};
          RegOd:      rdata_q <= {24'd0, cfg_q.od};
          RegSamples: rdata_q <= {16'd0, cfg_q.samples};
          RegCycles:  rdata_q <= cycles_q;
          RegMacs:    rdata_q <= macs_q;
          default:    rdata_q <= '0;
        endcase
      end
    end
  end

  assign reg_rvalid_o = rvalid_q;
  assign reg_rdata_o  = rdata_q;
  assign mode_o       = mode_q;
  assign cfg_o        = cfg_q;
  assign done_o       = done_q;

endmodule
