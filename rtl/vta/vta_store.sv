// STORE engine: ACC -> DRAM of OUT elements. Element (y, x) of the ACC buffer
// at sram_base + y * x_size + x (a running index) goes to DRAM element
// dram_base + y * x_stride + x, each int32 lane truncated to its low byte; no
// padding. Uses only its "prev" token flags (towards COMPUTE): pop_prev takes a
// compute->store token at start, push_prev gives a store->compute token after
// the last write response.
// Owns the AXI write channels: rows become AW bursts, and every issued burst
// queues its length for the W side (rtl/common/cosim_axi_write_bursts), which
// streams beats read from the ACC buffer through a small FIFO.
`include "cosim_assert.svh"
`include "cosim_ports.svh"
`include "vta_ports.svh"

module vta_store import vta_pkg::*; #(
  parameter int unsigned AccDepth = vta_pkg::DefAccDepth,
  `VTA_AXI_PARAMS,
  localparam int unsigned AccAw = $clog2(AccDepth),
  localparam int unsigned DataBytes = DataWidth / 8
) (
  `VTA_ENGINE_INSN_PORTS,

  input  logic                 c2s_avail_i,
  output logic                 c2s_pop_o,
  output logic                 s2c_push_o,

  output logic                 err_o,
  output err_e                 err_code_o,

  output logic                 acc_re_o,
  output logic [AccAw-1:0]     acc_raddr_o,
  input  logic [AccWidth-1:0]  acc_rdata_i,

  `COSIM_AXI_WRITE_CLIENT_PORTS(AddrWidth, DataWidth),

  `VTA_ENGINE_STATUS_PORTS,
  output logic                 busy_o,
  output logic [7:0]           bytes_o,
  output logic                 stall_o
);

  localparam int unsigned BeatsPerElem = OutWidth / DataWidth;
  localparam int unsigned DDepth = 4;

  // No token queue on the "next" side: pop_next never waits and pops nothing.
  logic unused_pop_next, unused_stall_next;
  `VTA_MEM_ENGINE_FRONT(c2s_avail_i, c2s_pop_o, stall_o, 1'b1, unused_pop_next, unused_stall_next);

  logic [31:0] s_count;
  logic [32:0] s_end;
  logic s_empty, s_bad;
  always_comb begin
    s_count = 32'(head.y_size) * 32'(head.x_size);
    s_end   = 33'(head.sram_base) + 33'(s_count);
    s_empty = (s_count == '0);
    s_bad   = !s_empty && (s_end > 33'(AccDepth));
  end

  // ---- AW side ----------------------------------------------------------------
  logic        ag_q;
  logic [15:0] ag_y_q, y_size_q, x_size_q, x_stride_q;
  logic [39:0] ag_row_q;
  logic        wr_req_ready, wr_idle;
  logic        df_valid, df_pop;    // the data FIFO's head beat, and its W handshake
  logic        unused_df_in_ready;  // always set: reads are issued against FIFO credits

  // Rows become AW bursts; W passes the data FIFO's beats on (rtl/common).
  cosim_axi_write_bursts #(.AddrWidth(AddrWidth), .DataBytes(DataBytes), .CountWidth(32)) u_write (
    .clk_i, .rst_ni, .clr_i,
    .idle_o      (wr_idle),
    .beat_valid_i(df_valid),
    .beat_pop_o  (df_pop),
    .req_valid_i (ag_q),
    .req_ready_o (wr_req_ready),
    .req_addr_i  (AddrWidth'(ag_row_q) << 4),
    .req_beats_i (32'(x_size_q) * 32'(BeatsPerElem)),
    `COSIM_AXI_WRITE_HANDSHAKE_CONNECT
  );
  assign m_wstrb_o = '1;  // whole beats

  // ---- ACC read side ----------------------------------------------------------
  logic [31:0] rd_left_q;
  logic [AccAw-1:0] rd_idx_q;
  logic [7:0]  rd_c_q, inflight_c_q;
  logic        inflight_q;
  logic [2:0]  df_count;
  logic [DataWidth-1:0] df_data, trunc;

  assign acc_re_o    = (rd_left_q != '0) && (32'(df_count) + 32'(inflight_q) < 32'(DDepth)) && !halt_i;
  assign acc_raddr_o = rd_idx_q;

  always_comb begin
    for (int unsigned l = 0; l < DataBytes; l++) begin
      trunc[l*8 +: 8] = acc_rdata_i[(32'(inflight_c_q) * DataBytes + l) * 32 +: 8];
    end
  end

  cosim_fifo_sync #(.Width(DataWidth), .Depth(DDepth)) u_data (
    .clk_i, .rst_ni, .clr_i,
    .valid_i (inflight_q), .ready_o (unused_df_in_ready), .data_i (trunc),
    .valid_o (df_valid), .ready_i (df_pop), .data_o (df_data),
    .count_o (df_count)
  );

  // ---- W / B side ---------------------------------------------------------------
  assign m_wdata_o  = df_data;
  assign bytes_o    = df_pop ? 8'(DataBytes) : 8'd0;

  logic all_done;
  assign all_done = !ag_q && wr_idle && (rd_left_q == '0) && !inflight_q && !df_valid;

  logic err_q;
  err_e err_code_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;  hdr_q <= '0;  err_q <= 1'b0;  err_code_q <= ErrNone;
      ag_q <= 1'b0;  ag_y_q <= '0;  ag_row_q <= '0;
      y_size_q <= '0;  x_size_q <= '0;  x_stride_q <= '0;
      rd_left_q <= '0;  rd_idx_q <= '0;  rd_c_q <= '0;  inflight_q <= 1'b0;  inflight_c_q <= '0;
    end else if (clr_i) begin
      state_q <= StIdle;  err_q <= 1'b0;  err_code_q <= ErrNone;
      ag_q <= 1'b0;  rd_left_q <= '0;  inflight_q <= 1'b0;
    end else begin
      err_q <= 1'b0;

      // ACC reads, one beat per cycle.
      inflight_q   <= acc_re_o;
      inflight_c_q <= rd_c_q;
      if (acc_re_o) begin
        rd_left_q <= rd_left_q - 32'd1;
        if (rd_c_q == 8'(BeatsPerElem - 1)) begin
          rd_c_q   <= '0;
          rd_idx_q <= rd_idx_q + 1'b1;
        end else begin
          rd_c_q <= rd_c_q + 8'd1;
        end
      end

      // Row requests.
      if (ag_q && wr_req_ready) begin
        ag_row_q <= ag_row_q + 40'(x_stride_q);
        ag_y_q   <= ag_y_q + 16'd1;
        if (ag_y_q == y_size_q - 16'd1) ag_q <= 1'b0;
      end

      // B responses.
      if (m_bvalid_i && m_bresp_i != 2'b00 && !halt_i) begin
        err_q      <= 1'b1;
        err_code_q <= ErrAxiResp;
      end

      unique case (state_q)
        StIdle: if (start) begin
          hdr_q <= head.hdr;
          if (s_bad) begin
            err_q      <= 1'b1;
            err_code_q <= ErrSramRange;
            state_q    <= StHalt;
          end else if (s_empty) begin
            state_q <= StDone;
          end else begin
            y_size_q   <= head.y_size;
            x_size_q   <= head.x_size;
            x_stride_q <= head.x_stride;
            ag_q       <= 1'b1;
            ag_y_q     <= '0;
            ag_row_q   <= 40'(head.dram_base);
            rd_left_q  <= s_count * 32'(BeatsPerElem);
            rd_idx_q   <= AccAw'(head.sram_base);
            rd_c_q     <= '0;
            state_q    <= StRun;
          end
        end
        StRun:   if (all_done) state_q <= StDone;
        StDone:  state_q <= StIdle;
        default: ;
      endcase
    end
  end

  assign s2c_push_o = (state_q == StDone) && hdr_q.push_prev;
  assign err_o      = err_q;
  assign err_code_o = err_code_q;
  assign busy_o     = (state_q == StRun);

  // Fields a STORE does not use (pads, memory type checked by fetch, the
  // COMPUTE-side token flags).
  logic unused_insn;
  assign unused_insn = ^{head.x_pad_1, head.x_pad_0, head.y_pad_1, head.y_pad_0, head.unused,
                         head.memory_type, hdr_q.push_next, unused_pop_next, unused_stall_next};

  // ---- Assertions (Verilated with --assert) --------------------------------
  // AXI: AWVALID / WVALID stay up with a stable payload until their READY;
  // the engine only accepts STORE to OUT (fetch routes nothing else here).
  `COSIM_ASSERT_HELD(a_aw_stable, m_awvalid_o, m_awready_i, {m_awaddr_o, m_awlen_o},
                     ("vta_store: AWVALID dropped or AW payload changed before AWREADY"),
                     clk_i, !rst_ni || clr_i)
  `COSIM_ASSERT_HELD(a_w_stable, m_wvalid_o, m_wready_i, {m_wdata_o, m_wlast_o},
                     ("vta_store: WVALID dropped or W payload changed before WREADY"),
                     clk_i, !rst_ni || clr_i)
  `COSIM_ASSERT_IF(a_legal_decode, head.hdr.opcode == OpStore && head.memory_type == MemOut,
                   insn_valid_i && insn_ready_o,
                   ("vta_store: accepted opcode %0d memory type %0d", head.hdr.opcode, head.memory_type))

endmodule
