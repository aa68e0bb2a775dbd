// Test DUT: a one-burst-at-a-time DMA copy engine. Each round reads up to
// MaxBurstBeats beats (never crossing a 4 KiB boundary on either side) into
// a buffer, then writes them out, then waits for the write response.
`include "cosim_ports.svh"

module testdut
  import testdut_pkg::*;
(
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Register port: the common register bus (rtl/common/cosim_reg_slave);
  // writes take effect at the request's clock edge, the response follows.
  `COSIM_REG_SLAVE_PORTS(8),

  // Status for the testbench.
  output logic                 done_o,
  output state_e               state_o,
  output logic [28:0]          beats_left_o,

  // AXI4 master (one ID: arid / awid are 0, rid / bid ignored).
  `COSIM_AXI_MASTER_PORTS(AddrWidth, DataWidth, 1)
);

  localparam int unsigned BeatIdxWidth = $clog2(MaxBurstBeats);

  state_e                 state_q, state_d;
  logic [AddrWidth-1:0]   len_q, src_q, dst_q;        // programmed registers
  logic [BeatIdxWidth:0]  burst_q, burst_d;           // beats in the current burst
  logic [BeatIdxWidth:0]  beat_q, beat_d;             // beat index inside it
  logic [31:0]            cycles_q, cycles_d;
  logic                   done_q, done_d;
  logic                   err_q, err_d;

  logic        reg_wr, start, unused_acc_valid;
  logic [7:0]  acc_addr;
  logic [31:0] acc_wdata, acc_rdata;
  cosim_reg_slave #(.AddrWidth(8), .DataWidth(32)) u_slave (
    .clk_i, .rst_ni,
    `COSIM_REG_SLAVE_CONNECT,
    .acc_valid_o (unused_acc_valid),  // reads have no side effect here
    .acc_write_o (reg_wr),
    .acc_addr_o  (acc_addr),
    .acc_wdata_o (acc_wdata),
    .acc_rdata_i (acc_rdata)
  );
  assign start = reg_wr && acc_addr == RegControl && acc_wdata[0] && state_q == StIdle;

  // Bursts: the remaining beats, capped by the burst size and by the distance
  // of both addresses (source 0, destination 1) to their next 4 KiB
  // boundary. The splitter moves on to the next burst at the write response.
  logic                           unused_split_valid, unused_split_ready, unused_split_idle;
  logic [1:0][AddrWidth-1:0]      split_addr;
  logic [7:0]                     split_len;
  logic [28:0]                    beats_left;
  logic [BeatIdxWidth:0]          next_burst;
  cosim_axi_burst_split #(
    .AddrWidth(AddrWidth), .DataBytes(StrbWidth), .BeatsWidth(29), .MaxBeats(MaxBurstBeats), .NumAddr(2)
  ) u_split (
    .clk_i, .rst_ni,
    .clr_i        (1'b0),
    .req_valid_i  (start && len_q[AddrWidth-1:3] != '0),
    .req_ready_o  (unused_split_ready),
    .req_addr_i   ({{dst_q[AddrWidth-1:3], 3'b000}, {src_q[AddrWidth-1:3], 3'b000}}),
    .req_beats_i  (len_q[AddrWidth-1:3]),
    .ax_valid_o   (unused_split_valid),  // always set from StReadAddr to the last B
    .ax_ready_i   (state_q == StWriteResp && m_axi_bvalid_i),
    .ax_addr_o    (split_addr),
    .ax_len_o     (split_len),
    .idle_o       (unused_split_idle),
    .beats_left_o (beats_left)
  );
  assign next_burst = (BeatIdxWidth + 1)'(split_len) + 1'b1;

  always_comb begin
    state_d      = state_q;
    burst_d      = burst_q;
    beat_d       = beat_q;
    cycles_d     = (state_q != StIdle) ? cycles_q + 32'd1 : cycles_q;
    done_d       = done_q;
    err_d        = err_q;
    if (reg_wr && acc_addr == RegControl && acc_wdata[1]) done_d = 1'b0;
    unique case (state_q)
      StIdle: begin
        if (start) begin
          cycles_d     = 32'd0;
          done_d       = 1'b0;
          err_d        = 1'b0;
          if (len_q[AddrWidth-1:3] == '0) begin
            done_d = 1'b1;
          end else begin
            state_d = StReadAddr;
          end
        end
      end
      StReadAddr: begin
        burst_d = next_burst;
        beat_d  = '0;
        if (m_axi_arready_i) state_d = StReadData;
      end
      StReadData: begin
        if (m_axi_rvalid_i) begin
          if (m_axi_rresp_i != 2'b00) err_d = 1'b1;
          beat_d = beat_q + 1'b1;
          if (m_axi_rlast_i || beat_q + 1'b1 == burst_q) begin
            beat_d  = '0;
            state_d = StWriteAddr;
          end
        end
      end
      StWriteAddr: begin
        if (m_axi_awready_i) state_d = StWriteData;
      end
      StWriteData: begin
        if (m_axi_wready_i) begin
          beat_d = beat_q + 1'b1;
          if (beat_q + 1'b1 == burst_q) state_d = StWriteResp;
        end
      end
      StWriteResp: begin
        if (m_axi_bvalid_i) begin
          if (m_axi_bresp_i != 2'b00) err_d = 1'b1;
          if (beats_left == 29'(burst_q)) begin
            state_d = StIdle;
            done_d  = 1'b1;
          end else begin
            state_d = StReadAddr;
          end
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= StIdle;
      len_q        <= '0;
      src_q        <= '0;
      dst_q        <= '0;
      burst_q      <= '0;
      beat_q       <= '0;
      cycles_q     <= '0;
      done_q       <= 1'b0;
      err_q        <= 1'b0;
    end else begin
      state_q      <= state_d;
      burst_q      <= burst_d;
      beat_q       <= beat_d;
      cycles_q     <= cycles_d;
      done_q       <= done_d;
      err_q        <= err_d;
      if (reg_wr && state_q == StIdle) begin
        unique case (acc_addr)
          RegLength: len_q <= acc_wdata;
          RegSrc:    src_q <= acc_wdata;
          RegDst:    dst_q <= acc_wdata;
          default: ;
        endcase
      end
    end
  end

  // Burst buffer: data only, no reset; read combinationally by the W channel.
  cosim_ram #(.Width(DataWidth), .Depth(MaxBurstBeats), .ReadLatency(0)) u_buf (
    .clk_i,
    .we_i    (state_q == StReadData && m_axi_rvalid_i),
    .waddr_i (beat_q[BeatIdxWidth-1:0]),
    .wmask_i (1'b1),
    .wdata_i (m_axi_rdata_i),
    .re_i    (1'b1),
    .raddr_i (beat_q[BeatIdxWidth-1:0]),
    .rdata_o (m_axi_wdata_o)
  );

  always_comb begin
    unique case (acc_addr)
      RegControl: acc_rdata = {30'd0, done_q, state_q != StIdle};
      RegCycles:  acc_rdata = cycles_q;
      RegLength:  acc_rdata = len_q;
      RegSrc:     acc_rdata = src_q;
      RegDst:     acc_rdata = dst_q;
      RegStatus:  acc_rdata = {28'd0, err_q, state_q};
      default:    acc_rdata = 32'd0;
    endcase
  end

  assign done_o       = done_q;
  assign state_o      = state_q;
  assign beats_left_o = beats_left;

  assign m_axi_araddr_o  = split_addr[0];
  assign m_axi_arlen_o   = split_len;
  assign m_axi_arsize_o  = Size8Bytes;
  assign m_axi_arburst_o = BurstIncr;
  assign m_axi_arvalid_o = state_q == StReadAddr;
  assign m_axi_rready_o  = state_q == StReadData;

  assign m_axi_awaddr_o  = split_addr[1];
  assign m_axi_awlen_o   = 8'(burst_q) - 8'd1;
  assign m_axi_awsize_o  = Size8Bytes;
  assign m_axi_awburst_o = BurstIncr;
  assign m_axi_awvalid_o = state_q == StWriteAddr;
  // One ID: both address channels use 0, the response IDs carry nothing.
  assign m_axi_arid_o = '0;
  assign m_axi_awid_o = '0;
  logic unused_ids;
  assign unused_ids = ^{m_axi_rid_i, m_axi_bid_i};
  assign m_axi_wstrb_o   = '1;
  assign m_axi_wlast_o   = state_q == StWriteData && beat_q + 1'b1 == burst_q;
  assign m_axi_wvalid_o  = state_q == StWriteData;
  assign m_axi_bready_o  = state_q == StWriteResp;

endmodule
