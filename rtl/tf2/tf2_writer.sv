// Writer: takes a finished output block from the result slot (NPe channels
// x up to NCol columns of int32 sums), requantizes it (tf2_requant, ReLU),
// and writes it back to DRAM in C16HW order: one 128-bit beat per pixel,
// bytes oc0 % 16 .. + NPe under the strobe, channels >= c_out written as 0.
// The block's pixels are contiguous, so it goes out as INCR bursts split at
// 4 KB boundaries; B responses are counted, not waited for per burst.
// The requantized block is staged, then its beats queue in a FIFO of
// OutDepth beats in front of the W channel (AW runs ahead with the burst
// lengths), so the PEs go on while the memory port is frozen.
// Residual layers (desc.residual): the same pixels of the residual map are
// read first (read client 3) and added to the requantized block with int8
// saturation; ReLU then applies after the add instead of in the requantizer.
`include "cosim_ports.svh"

module tf2_writer
  import tf2_pkg::*;
#(
  parameter int unsigned NPe    = DefNPe,
  parameter int unsigned OCol3D = DefOCol3D,
  parameter int unsigned OCol2D = DefOCol2D,
  parameter int unsigned OutDepth = 32,   // output beats queued for the W channel
  localparam int unsigned NCol  = (OCol3D > OCol2D) ? OCol3D : OCol2D,
  localparam int unsigned PeW   = (NPe > 1) ? $clog2(NPe) : 1
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,

  /* verilator lint_off UNUSEDSIGNAL */  // uses the output fields only
  input  desc_t                          desc_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                           idle_o,     // nothing latched, no B outstanding
  output logic                           err_o,      // pulse on BRESP != OKAY
  output logic                           rd_err_o,   // pulse on a residual beat with RRESP != OKAY
  output logic [2:0]                     state_o,    // FSM state, for diagnosis

  input  logic                           slot_valid_i,
  output logic                           slot_pop_o,
  input  logic [DimW-1:0]                slot_oc0_i,
  input  logic [DimW-1:0]                slot_y_i,
  input  logic [DimW-1:0]                slot_x0_i,
  input  logic [3:0]                     slot_ncols_i,
  input  logic [NPe-1:0][NCol-1:0][31:0] slot_acc_i,
  input  logic [NPe-1:0][31:0]           slot_alpha_i,
  input  logic [NPe-1:0][31:0]           slot_beta_i,

  // Residual map read client (through the read arbiter).
  `COSIM_AXI_READ_CLIENT_PORTS(AddrW, AxiDataWidth),

  output logic                           m_awvalid_o,
  input  logic                           m_awready_i,
  output logic [AxiAddrWidth-1:0]        m_awaddr_o,
  output logic [7:0]                     m_awlen_o,
  output logic                           m_wvalid_o,
  input  logic                           m_wready_i,
  output logic [AxiDataWidth-1:0]        m_wdata_o,
  output logic [AxiDataWidth/8-1:0]      m_wstrb_o,
  output logic                           m_wlast_o,
  input  logic                           m_bvalid_i,
  output logic                           m_bready_o,
  input  logic [1:0]                     m_bresp_i
);

  // Staging FSM: a popped block waits in buf_q for its residual pixels
  // (residual layers), then its beats move one per cycle into the W FIFO.
  typedef enum logic [2:0] {StIdle, StResCmd, StRes, StPush} state_e;
  state_e state_q, state_d;
  assign state_o = state_q;

  // Requantized block.
  logic [NPe-1:0][NCol-1:0][7:0] y;
  for (genvar p = 0; p < NPe; p++) begin : g_rq_pe
    for (genvar j = 0; j < NCol; j++) begin : g_rq_col
      tf2_requant u_rq (
        .acc_i  (slot_acc_i[p][j]),
        .alpha_i(slot_alpha_i[p]),
        .beta_i (slot_beta_i[p]),
        .relu_i (desc_i.relu && !desc_i.residual),
        .wide_i (desc_i.sat_requant),
        .y_o    (y[p][j])
      );
    end
  end

  logic [NCol-1:0][AxiDataWidth-1:0] buf_q;
  logic [AxiDataWidth/8-1:0]         strb_q;
  logic [CVec-1:0]                   addm_q;            // lanes holding real output channels
  logic [3:0]                        rcol_q;            // next residual beat's buffer column
  logic [3:0]                        ncols_q;
  logic [3:0]                        col_q, col_d;      // next pixel to push into the W FIFO
  logic [AddrW-1:0]                  blk_addr_q;
  logic [15:0]                       outst_q;           // bursts awaiting B

  // Pixel offset of the block start: ((og*h_out + y)*w_out + x0)*16, in the
  // output map and (same shape) in the residual map.
  logic [AddrW-1:0] blk_off;
  assign blk_off = ((AddrW'(slot_oc0_i[DimW-1:4]) * AddrW'(desc_i.h_out) + AddrW'(slot_y_i)) *
                    AddrW'(desc_i.w_out) + AddrW'(slot_x0_i)) * 32'd16;

  // A staged pixel goes into the W FIFO; the block's first one also hands
  // the block to the AW splitter (idle once the previous block's bursts are
  // all issued).
  logic push, push_last, sp_req_ready, beat_ready;
  assign push      = (state_q == StPush) && beat_ready && (col_q != '0 || sp_req_ready);
  assign push_last = push && (col_q == ncols_q - 4'd1);

  // The next block is taken with the last push of this one, or from idle.
  assign slot_pop_o = ((state_q == StIdle) || push_last) && slot_valid_i;

  // AW: the block's bursts; each burst's length queues for the W side.
  logic       sp_valid, sp_idle, wl_ready, wl_valid, wl_pop;
  logic [7:0] sp_len, wl_len;
  logic [AddrW-1:0] sp_addr;
  logic [3:0] unused_sp_left;
  logic [3:0] unused_wl_count;
  cosim_axi_burst_split #(.AddrWidth(AddrW), .DataBytes(AxiDataWidth / 8), .BeatsWidth(4)) u_aw_split (
    .clk_i, .rst_ni,
    .clr_i       (1'b0),
    .req_valid_i ((state_q == StPush) && col_q == '0 && beat_ready),
    .req_ready_o (sp_req_ready),
    .req_addr_i  (blk_addr_q),
    .req_beats_i (ncols_q),
    .ax_valid_o  (sp_valid),
    .ax_ready_i  (m_awready_i && wl_ready),
    .ax_addr_o   (sp_addr),
    .ax_len_o    (sp_len),
    .idle_o      (sp_idle),
    .beats_left_o(unused_sp_left)
  );
  assign m_awvalid_o = sp_valid && wl_ready;
  assign m_awaddr_o  = AxiAddrWidth'(sp_addr);
  assign m_awlen_o   = sp_len;

  cosim_fifo_sync #(.Width(8), .Depth(8)) u_wlen (
    .clk_i, .rst_ni,
    .clr_i   (1'b0),
    .valid_i (m_awvalid_o && m_awready_i),
    .ready_o (wl_ready),
    .data_i  (sp_len),
    .valid_o (wl_valid),
    .ready_i (wl_pop),
    .data_o  (wl_len),
    .count_o (unused_wl_count)
  );

  // W: the queued beats (data and strobe), WLAST by the burst's length.
  localparam int unsigned BeatW = AxiDataWidth + AxiDataWidth / 8;
  logic             beat_valid, beat_pop;
  logic [BeatW-1:0] beat_head;
  logic [$clog2(OutDepth + 1)-1:0] unused_beat_count;
  cosim_fifo_sync #(.Width(BeatW), .Depth(OutDepth)) u_wbeats (
    .clk_i, .rst_ni,
    .clr_i   (1'b0),
    .valid_i (push),
    .ready_o (beat_ready),
    .data_i  ({strb_q, buf_q[col_q]}),
    .valid_o (beat_valid),
    .ready_i (beat_pop),
    .data_o  (beat_head),
    .count_o (unused_beat_count)
  );

  logic [7:0] wbeat_q;   // beat of the current W burst
  assign m_wvalid_o = beat_valid && wl_valid;
  assign m_wdata_o  = beat_head[AxiDataWidth-1:0];
  assign m_wstrb_o  = beat_head[BeatW-1:AxiDataWidth];
  assign m_wlast_o  = (wbeat_q == wl_len);
  assign beat_pop   = m_wvalid_o && m_wready_i;
  assign wl_pop     = beat_pop && m_wlast_o;
  assign m_bready_o = 1'b1;
  assign err_o      = m_bvalid_i && (m_bresp_i != 2'b00);
  assign idle_o     = (state_q == StIdle) && sp_idle && !wl_valid && !beat_valid && (outst_q == '0);

  // Residual pixels of the block: one read command of ncols beats.
  logic [AddrW-1:0]        res_addr_q;
  logic                    res_cmd_ready, res_beat, res_done;
  logic [AxiDataWidth-1:0] res_data;
  tf2_rd_stream #(.BeatCntW(10)) u_res (
    .clk_i, .rst_ni,
    .cmd_valid_i (state_q == StResCmd),
    .cmd_ready_o (res_cmd_ready),
    .cmd_addr_i  (res_addr_q),
    .cmd_beats_i (10'(ncols_q)),
    .beat_valid_o(res_beat),
    .beat_data_o (res_data),
    .done_o      (res_done),
    .err_o       (rd_err_o),
    .ar_valid_o, .ar_ready_i, .ar_addr_o, .ar_len_o,
    .r_valid_i, .r_data_i, .r_last_i, .r_resp_i
  );

  always_comb begin
    state_d = state_q;
    col_d   = col_q;
    unique case (state_q)
      StIdle: ;
      StResCmd: if (res_cmd_ready) state_d = StRes;
      StRes: if (res_done) state_d = StPush;
      StPush: if (push) begin
        col_d = col_q + 4'd1;
        if (push_last) state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
    if (slot_pop_o) begin
      col_d   = '0;
      state_d = desc_i.residual ? StResCmd : StPush;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      col_q   <= '0;
      wbeat_q <= '0;
      outst_q <= '0;
      buf_q   <= '0;
      strb_q  <= '0;
      addm_q  <= '0;
      rcol_q  <= '0;
      ncols_q <= '0;
      blk_addr_q <= '0;
      res_addr_q <= '0;
    end else begin
      state_q <= state_d;
      col_q   <= col_d;
      if (beat_pop) wbeat_q <= m_wlast_o ? 8'd0 : wbeat_q + 8'd1;
      if ((m_awvalid_o && m_awready_i) && !m_bvalid_i) outst_q <= outst_q + 16'd1;
      else if (!(m_awvalid_o && m_awready_i) && m_bvalid_i) outst_q <= outst_q - 16'd1;
      if (slot_pop_o) begin
        rcol_q     <= '0;
        ncols_q    <= slot_ncols_i;
        blk_addr_q <= desc_i.out_addr + blk_off;
        res_addr_q <= desc_i.res_addr + blk_off;
        // Lanes of this group carry its channels; the group holding the last
        // channel also zeroes the rest of the pixel word (padding channels).
        for (int unsigned l = 0; l < CVec; l++) begin
          int unsigned ch, lo;
          logic mine, pad;
          lo   = 32'(slot_oc0_i) % CVec;
          ch   = 32'(slot_oc0_i) - lo + l;
          mine = (l >= lo) && (l < lo + NPe);
          pad  = (l >= lo) && (32'(slot_oc0_i) + NPe >= 32'(desc_i.c_out));
          strb_q[l] <= mine || pad;
          addm_q[l] <= mine && ch < 32'(desc_i.c_out);
          for (int unsigned j = 0; j < NCol; j++) begin
            buf_q[j][8*l +: 8] <= (mine && ch < 32'(desc_i.c_out)) ? y[PeW'(l - lo)][j] : 8'd0;
`ifdef COSIM_INJECT_BUG
            // Test-only fault (tests/wave, never in the product build): output
            // channel 5 of pixel (y 2, x 3) gets its least significant bit flipped
            // (a block's pixels run on into the next row).
            if (mine && ch == 32'd5 && j < 32'(slot_ncols_i) &&
                32'(slot_y_i) * 32'(desc_i.w_out) + 32'(slot_x0_i) + j == 2 * 32'(desc_i.w_out) + 32'd3) begin
              buf_q[j][8*l +: 8] <= y[PeW'(l - lo)][j] ^ 8'd1;
            end
`endif
          end
        end
      end
      // Residual beat: add it to the buffered column, lanes of real channels only.
      if (state_q == StRes && res_beat) begin
        rcol_q <= rcol_q + 4'd1;
        for (int unsigned l = 0; l < CVec; l++) begin
          if (addm_q[l]) begin
            buf_q[rcol_q][8*l +: 8] <= res_add(buf_q[rcol_q][8*l +: 8], res_data[8*l +: 8], desc_i.relu);
          end
        end
      end
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  a_legal_state: assert property (@(posedge clk_i) disable iff (!rst_ni)
    state_q inside {StIdle, StResCmd, StRes, StPush})
    else $error("tf2_writer: illegal state %0d", state_q);
  // Write bursts: a B response only for a burst that was issued (the
  // outstanding count never underflows) and a W beat only inside a burst
  // whose AW went out (its length queued).
  a_b_no_underflow: assert property (@(posedge clk_i) disable iff (!rst_ni)
    m_bvalid_i |-> (outst_q != '0) || (m_awvalid_o && m_awready_i))
    else $error("tf2_writer: B response without an outstanding burst");
  // A block has 1..NCol pixels: an empty one would ask for a burst of zero
  // beats, which AXI cannot express (AWLEN 255 = 256 beats instead).
  a_block_nonempty: assert property (@(posedge clk_i) disable iff (!rst_ni)
    slot_pop_o |-> (slot_ncols_i != '0) && (32'(slot_ncols_i) <= NCol))
    else $error("tf2_writer: output block of %0d pixels", slot_ncols_i);
  a_wlast_at_end: assert property (@(posedge clk_i) disable iff (!rst_ni)
    m_wvalid_o |-> wbeat_q <= wl_len)
    else $error("tf2_writer: W beat %0d past its burst's last (%0d)", wbeat_q, wl_len);

endmodule
