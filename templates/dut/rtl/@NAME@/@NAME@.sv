// @NAME@: an int8 vector adder on the shared register bus and an AXI4 master.
// Each round reads a burst of A into one buffer (rtl/common/cosim_ram), the
// same burst of B into a second one, then writes A + B (per int8 lane,
// saturated) to DST and waits for the write response. Bursts come from
// rtl/common/cosim_axi_burst_split: at most MaxBurstBeats 64-bit beats, never
// across a 4 KiB boundary of any of the three address streams.
`include "cosim_ports.svh"

module @NAME@
  import @NAME@_pkg::*;
(
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Register port: the common register bus (rtl/common/cosim_reg_slave).
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
  logic [BeatIdxWidth:0]  burst_q, burst_d;                // beats in the current burst
  logic [BeatIdxWidth:0]  beat_q, beat_d;                  // beat index inside it
  logic [31:0]            cycles_q, cycles_d;
  logic                   done_set, done_clr;
  logic                   err_q, err_d;

  // The register block, generated from @NAME@.yaml: decode, storage, CONTROL's
  // done flag (set and cleared from here), writes only while idle.
  `COSIM_REG_TOP(@NAME@, .idle_i (state_q == StIdle));
  logic                 start;
  logic [AddrWidth-1:0] len_q, src_a_q, src_b_q, dst_q;  // programmed registers
  assign start   = reg2hw.control_start;
  assign len_q   = reg2hw.length;
  assign src_a_q = reg2hw.src_a;
  assign src_b_q = reg2hw.src_b;
  assign dst_q   = reg2hw.dst;
  // Lengths and addresses count 8-byte beats: their three low bits are ignored.
  logic unused_low_bits;
  assign unused_low_bits = ^{len_q[2:0], src_a_q[2:0], src_b_q[2:0], dst_q[2:0]};
  assign hw2reg = '{
    control_start:    state_q != StIdle,  // reads 1 while busy
    control_done_set: done_set,
    control_done_clr: done_clr,
    cycles:           cycles_q,
    status_state:     state_q,
    status_bus_error: err_q,
    default:          '0
  };

  // Bursts (rtl/common/cosim_axi_burst_split): the remaining beats, capped by
  // the burst size and by the distance of all three addresses (A 0, B 1,
  // destination 2) to their next 4 KiB boundary. The splitter moves on to the
  // next burst at the write response.
  logic                           unused_split_valid, unused_split_ready, unused_split_idle;
  logic [2:0][AddrWidth-1:0]      split_addr;
  logic [7:0]                     split_len;
  logic [28:0]                    beats_left;
  logic [BeatIdxWidth:0]          next_burst;
  cosim_axi_burst_split #(
    .AddrWidth(AddrWidth), .DataBytes(StrbWidth), .BeatsWidth(29), .MaxBeats(MaxBurstBeats), .NumAddr(3)
  ) u_split (
    .clk_i, .rst_ni,
    .clr_i        (1'b0),
    .req_valid_i  (start && len_q[AddrWidth-1:3] != '0),
    .req_ready_o  (unused_split_ready),
    .req_addr_i   ({{dst_q[AddrWidth-1:3], 3'b000}, {src_b_q[AddrWidth-1:3], 3'b000},
                    {src_a_q[AddrWidth-1:3], 3'b000}}),
    .req_beats_i  (len_q[AddrWidth-1:3]),
    .ax_valid_o   (unused_split_valid),  // always set from StReadAddrA to the last B
    .ax_ready_i   (state_q == StWriteResp && m_axi_bvalid_i),
    .ax_addr_o    (split_addr),
    .ax_len_o     (split_len),
    .idle_o       (unused_split_idle),
    .beats_left_o (beats_left)
  );
  assign next_burst = (BeatIdxWidth + 1)'(split_len) + 1'b1;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {burst_q, beat_q, cycles_q} <= '0;
      err_q                       <= 1'b0;
      state_q                     <= StIdle;
    end else begin
      {burst_q, beat_q, cycles_q} <= {burst_d, beat_d, cycles_d};
      err_q                       <= err_d;
      state_q                     <= state_d;
    end
  end

  always_comb begin
    state_d      = state_q;
    burst_d      = burst_q;
    beat_d       = beat_q;
    cycles_d     = (state_q != StIdle) ? cycles_q + 32'd1 : cycles_q;
    done_set     = 1'b0;
    done_clr     = 1'b0;
    err_d        = err_q;
    unique case (state_q)
      StIdle: begin
        if (start) begin
          cycles_d = 32'd0;
          err_d    = 1'b0;
          // An empty vector is done at once; any other start clears done.
          done_set = len_q[AddrWidth-1:3] == '0;
          done_clr = !done_set;
          if (len_q[AddrWidth-1:3] != '0) state_d = StReadAddrA;
        end
      end
      StReadAddrA: begin
        burst_d = next_burst;
        beat_d  = '0;
        if (m_axi_arready_i) state_d = StReadDataA;
      end
      StReadAddrB: begin
        if (m_axi_arready_i) state_d = StReadDataB;
      end
      // A's burst, then B's: the same beats into the other buffer.
      StReadDataA, StReadDataB: begin
        if (m_axi_rvalid_i) begin
          if (m_axi_rresp_i != 2'b00) err_d = 1'b1;
          beat_d = beat_q + 1'b1;
          if (m_axi_rlast_i || beat_q + 1'b1 == burst_q) begin
            beat_d  = '0;
            state_d = (state_q == StReadDataA) ? StReadAddrB : StWriteAddr;
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
            state_d  = StIdle;
            done_set = 1'b1;
          end else begin
            state_d = StReadAddrA;
          end
        end
      end
      default: state_d = StIdle;
    endcase
  end

  // Burst buffers (rtl/common/cosim_ram): data only, no reset; read
  // combinationally by the adder while the W channel sends the sum.
  // Buffer 0 holds A's burst, buffer 1 B's.
  logic [1:0][DataWidth-1:0] buf_beat;
  for (genvar b = 0; b < 2; b++) begin : g_buf
    cosim_ram #(.Width(DataWidth), .Depth(MaxBurstBeats), .ReadLatency(0)) u_buf (
      .clk_i,
      .we_i    (state_q == (b == 0 ? StReadDataA : StReadDataB) && m_axi_rvalid_i),
      .waddr_i (beat_q[BeatIdxWidth-1:0]),
      .wmask_i (1'b1),
      .wdata_i (m_axi_rdata_i),
      .re_i    (1'b1),
      .raddr_i (beat_q[BeatIdxWidth-1:0]),
      .rdata_o (buf_beat[b])
    );
  end

  // The adder: one saturating int8 add per lane of the beat being written.
  logic [DataWidth-1:0] sum;
  always_comb begin
    for (int unsigned l = 0; l < Lanes; l++) sum[8*l +: 8] = sat_add8(buf_beat[0][8*l +: 8], buf_beat[1][8*l +: 8]);
  end

  assign done_o       = reg2hw.control_done;
  assign state_o      = state_q;
  assign beats_left_o = beats_left;

  assign m_axi_araddr_o  = state_q == StReadAddrB ? split_addr[1] : split_addr[0];
  assign m_axi_arlen_o   = split_len;
  assign m_axi_arsize_o  = Size8Bytes;
  assign m_axi_arburst_o = BurstIncr;
  assign m_axi_arvalid_o = state_q == StReadAddrA || state_q == StReadAddrB;
  assign m_axi_rready_o  = state_q == StReadDataA || state_q == StReadDataB;

  assign m_axi_awaddr_o  = split_addr[2];
  assign m_axi_awlen_o   = 8'(burst_q) - 8'd1;
  assign m_axi_awsize_o  = Size8Bytes;
  assign m_axi_awburst_o = BurstIncr;
  assign m_axi_awvalid_o = state_q == StWriteAddr;
  // One ID: both address channels use 0, the response IDs carry nothing.
  assign m_axi_arid_o = '0;
  assign m_axi_awid_o = '0;
  logic unused_ids;
  assign unused_ids = ^{m_axi_rid_i, m_axi_bid_i};
  assign m_axi_wdata_o   = sum;
  assign m_axi_wstrb_o   = '1;
  assign m_axi_wlast_o   = state_q == StWriteData && beat_q + 1'b1 == burst_q;
  assign m_axi_wvalid_o  = state_q == StWriteData;
  assign m_axi_bready_o  = state_q == StWriteResp;

endmodule
