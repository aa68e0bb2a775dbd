// Writer: takes finished output blocks from the result slot (NPe channels x
// up to NCol pixels of int32 sums), requantizes them (tf2_requant, ReLU) and
// writes the output map back to DRAM in its row-by-row layout
// ([h_out][ceil(c_out/16)][w_out][16], one 128-bit beat per pixel word,
// bytes oc0 % 16 .. + NPe under the strobe, channels >= c_out written as 0).
//
// Fill side: a block's pixels go into a reorder ring, one slot of SlotWords
// pixels per filter bank (the group in flight on that bank), pixel p at
// p % SlotWords of its slot. The Scheduler issues a block only while it fits
// (limit_o: pixels emitted + SlotWords), so a fill never waits.
//
// Emit side: the ring drains in address order, so the whole output is one
// sequential write stream: among the groups in flight, the one whose next
// pixel has the lowest (output row, first channel) goes next, as a run of
// the pixels it has ready (up to RunMax, never past the row's end). Each run
// is one AW request (split at 4 KB); its beats queue in a FIFO of OutDepth
// beats in front of W, so the port's stalls do not reach the PEs.
// Residual layers (desc.residual): the run's pixels of the residual map (same
// layout and shape) are read first (read client 3) and added with int8
// saturation; ReLU then applies after the add instead of in the requantizer.
`include "cosim_assert.svh"
`include "cosim_ports.svh"

module tf2_writer
  import tf2_pkg::*;
#(
  parameter int unsigned NPe       = DefNPe,
  parameter int unsigned OCol3D    = DefOCol3D,
  parameter int unsigned OCol2D    = DefOCol2D,
  parameter int unsigned OutDepth  = 32,    // output beats queued for the W channel
  parameter int unsigned SlotWords = DefRingSlot,  // reorder-ring pixels per filter bank (a power of two)
  parameter int unsigned RunMax    = 16,    // pixels per emitted run (one AW request)
  localparam int unsigned NCol  = (OCol3D > OCol2D) ? OCol3D : OCol2D,
  localparam int unsigned PeW   = (NPe > 1) ? $clog2(NPe) : 1,
  localparam int unsigned SlotW = $clog2(SlotWords),
  localparam int unsigned RunW  = $clog2(RunMax + 1)
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,

  /* verilator lint_off UNUSEDSIGNAL */  // uses the output fields only
  input  desc_t                          desc_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                           idle_o,     // nothing buffered or in flight, no B outstanding
  output logic                           err_o,      // pulse on BRESP != OKAY
  output logic                           rd_err_o,   // pulse on a residual beat with RRESP != OKAY
  output logic [2:0]                     state_o,    // emit FSM state, for diagnosis

  // Groups: a group claims its bank's slot (start_i, from the controller,
  // before the group runs); the slot stays busy until its last pixel has
  // been emitted, and a claimed slot with nothing ready holds the emit order.
  input  logic                           start_i,
  input  logic [1:0]                     bank_i,
  input  logic [DimW-1:0]                oc0_i,
  output logic [3:0]                     slot_busy_o,
  output logic [3:0][31:0]               limit_o,    // per bank: a block may end at this pixel index

  input  logic                           slot_valid_i,
  output logic                           slot_pop_o,
  input  logic [1:0]                     slot_bank_i,
  input  logic [31:0]                    slot_pix_i,   // the block's first pixel (y * w_out + x)
  input  logic [3:0]                     slot_ncols_i,
  input  logic [NPe-1:0][NCol-1:0][31:0] slot_acc_i,
  input  logic [NPe-1:0][31:0]           slot_alpha_i,
  input  logic [NPe-1:0][31:0]           slot_beta_i,

  // Residual map read client (through the read arbiter).
  `COSIM_AXI_READ_CLIENT_PORTS(AddrW, AxiDataWidth),

  `COSIM_AXI_WRITE_CLIENT_PORTS(AxiAddrWidth, AxiDataWidth)
);

  if (SlotWords == 0 || (SlotWords & (SlotWords - 1)) != 0 || SlotWords < 2 * NCol) begin : g_bad_slot
    $error("tf2_writer: SlotWords must be a power of two of at least two blocks");
  end

  // Emit FSM: StIdle picks the next run, residual layers read its residual
  // pixels, StPush moves its pixels from the ring into the W FIFO.
  typedef enum logic [2:0] {StIdle, StResCmd, StRes, StPush} state_e;
  state_e state_q;
  assign state_o = state_q;

  // ---- Per-slot state --------------------------------------------------------
  logic [3:0]                 busy_q;
  logic [3:0][DimW-1:0]       oc0_q;
  logic [3:0][31:0]           filled_q, emitted_q;    // pixels in the ring / gone to the W FIFO
  logic [3:0][DimW-1:0]       ey_q, ex_q;             // next pixel to emit (row, column)
  logic [3:0][CVec-1:0]       strb_q, addm_q;         // write strobe; lanes of real channels
  logic [31:0]                npix;
  assign npix = 32'(desc_i.h_out) * 32'(desc_i.w_out);
  for (genvar s = 0; s < 4; s++) begin : g_limit
    assign limit_o[s] = emitted_q[s] + 32'(SlotWords);
  end
  assign slot_busy_o = busy_q;

  // ---- Fill side -------------------------------------------------------------
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

  logic                              filling_q;
  logic [NCol-1:0][AxiDataWidth-1:0] buf_q;
  logic [1:0]                        fbank_q;
  logic [31:0]                       fpix_q;      // pixel index of the next word to fill
  logic [3:0]                        fcol_q, fn_q;
  logic                              fill_last;
  assign fill_last  = filling_q && (fcol_q == fn_q - 4'd1);
  assign slot_pop_o = (!filling_q || fill_last) && slot_valid_i;

  // ---- Reorder ring ----------------------------------------------------------
  logic                    ring_re;
  logic [SlotW+1:0]        ring_raddr;
  logic [AxiDataWidth-1:0] ring_rdata;
  cosim_ram #(.Width(AxiDataWidth), .Depth(4 * SlotWords)) u_ring (
    .clk_i,
    .we_i   (filling_q),
    .waddr_i({fbank_q, fpix_q[SlotW-1:0]}),
    .wmask_i(1'b1),
    .wdata_i(buf_q[fcol_q]),
    .re_i   (ring_re),
    .raddr_i(ring_raddr),
    .rdata_o(ring_rdata)
  );

  // ---- Emit side: the next run -----------------------------------------------
  // The busy slot with pixels left whose next pixel comes first in the map
  // (row, then channel group) goes next, once it has pixels ready.
  // Nothing goes out while a claimed group has not produced its first pixel:
  // at the start of a layer the writes would freeze the port under the
  // filter loads the PEs wait for, and they would only fill the ring's order
  // up to that group's first row anyway.
  logic            pick_ok, all_started;
  logic [1:0]      pick;
  logic [31:0]     pick_ready, pick_row_left, pick_n;
  always_comb begin
    pick_ok = 1'b0;
    pick    = '0;
    all_started = 1'b1;
    for (int unsigned s = 0; s < 4; s++) begin
      if (busy_q[s] && filled_q[s] == '0) all_started = 1'b0;
      if (busy_q[s] && emitted_q[s] != npix &&
          (!pick_ok || ey_q[s] < ey_q[pick] || (ey_q[s] == ey_q[pick] && oc0_q[s] < oc0_q[pick]))) begin
        pick_ok = 1'b1;
        pick    = 2'(s);
      end
    end
    pick_ready    = filled_q[pick] - emitted_q[pick];
    pick_row_left = 32'(desc_i.w_out) - 32'(ex_q[pick]);
    pick_n        = (pick_ready < pick_row_left) ? pick_ready : pick_row_left;
    if (pick_n > 32'(RunMax)) pick_n = 32'(RunMax);
    if (!all_started) pick_n = '0;
  end

  // Byte offset of the run's first pixel, in the output map and (same shape)
  // in the residual map.
  logic [AddrW-1:0] pick_off;
  assign pick_off = ((AddrW'(ey_q[pick]) * AddrW'((32'(desc_i.c_out) + 32'd15) >> 4) +
                      AddrW'(oc0_q[pick][DimW-1:4])) * AddrW'(desc_i.w_out) + AddrW'(ex_q[pick])) * 32'd16;

  logic             wr_req_ready, run_go;
  logic [1:0]       rs_q;           // the run's slot
  logic [RunW-1:0]  rn_q;           // its pixels
  logic [RunW-1:0]  ri_q, rp_q;     // ring reads issued, beats pushed
  logic [AddrW-1:0] res_addr_q;
  assign run_go = (state_q == StIdle) && pick_ok && (pick_n != '0) && wr_req_ready;

  // AW: the run's bursts; W passes the FIFO's beats on (rtl/common).
  logic             wr_idle, beat_valid, beat_pop;
  logic [AddrW-1:0] run_addr;   // the run's first byte in the output map
  assign run_addr = desc_i.out_addr + pick_off;
  cosim_axi_write_bursts #(.AddrWidth(AxiAddrWidth), .DataBytes(AxiDataWidth / 8), .BeatsWidth(RunW)) u_write (
    .clk_i, .rst_ni,
    .clr_i       (1'b0),
    .idle_o      (wr_idle),
    .beat_valid_i(beat_valid),
    .beat_pop_o  (beat_pop),
    .req_valid_i (run_go),
    .req_ready_o (wr_req_ready),
    .req_addr_i  (AxiAddrWidth'(run_addr)),
    .req_beats_i (RunW'(pick_n)),
    `COSIM_AXI_WRITE_HANDSHAKE_CONNECT
  );

  // Residual pixels of the run: one read command of rn beats.
  logic                           res_cmd_ready, res_beat, res_done;
  logic [AxiDataWidth-1:0]        res_data;
  logic [RunMax-1:0][AxiDataWidth-1:0] resbuf_q;
  logic [RunW-1:0]                rcol_q;
  tf2_rd_stream #(.BeatCntW(RunW)) u_res (
    .clk_i, .rst_ni,
    .cmd_valid_i (state_q == StResCmd),
    .cmd_ready_o (res_cmd_ready),
    .cmd_addr_i  (res_addr_q),
    .cmd_beats_i (rn_q),
    .beat_valid_o(res_beat),
    .beat_data_o (res_data),
    .done_o      (res_done),
    .err_o       (rd_err_o),
    .ar_valid_o, .ar_ready_i, .ar_addr_o, .ar_len_o,
    .r_valid_i, .r_data_i, .r_last_i, .r_resp_i
  );

  // StPush: a ring read is issued while the W FIFO has room for it and the
  // one still in flight; its word is pushed the next cycle.
  localparam int unsigned BeatW = AxiDataWidth + AxiDataWidth / 8;
  localparam int unsigned CntW  = $clog2(OutDepth + 1);
  logic             beat_ready, push;
  logic [BeatW-1:0] beat_head;
  logic [CntW-1:0]  beat_count;
  logic             rd_q;          // a ring word arrives this cycle
  logic [AxiDataWidth-1:0] push_data;
  assign ring_re    = (state_q == StPush) && (ri_q != rn_q) &&
                      (32'(beat_count) + (rd_q ? 32'd1 : 32'd0) < 32'(OutDepth));
  assign ring_raddr = {rs_q, emitted_q[rs_q][SlotW-1:0]};
  assign push       = rd_q;
  always_comb begin
    push_data = ring_rdata;
    if (desc_i.residual) begin
      for (int unsigned l = 0; l < CVec; l++) begin
        if (addm_q[rs_q][l]) push_data[8*l +: 8] = res_add(ring_rdata[8*l +: 8], resbuf_q[rp_q][8*l +: 8], desc_i.relu);
      end
    end
  end

  cosim_fifo_sync #(.Width(BeatW), .Depth(OutDepth)) u_wbeats (
    .clk_i, .rst_ni,
    .clr_i   (1'b0),
    .valid_i (push),
    .ready_o (beat_ready),
    .data_i  ({strb_q[rs_q], push_data}),
    .valid_o (beat_valid),
    .ready_i (beat_pop),
    .data_o  (beat_head),
    .count_o (beat_count)
  );

  assign m_wdata_o  = beat_head[AxiDataWidth-1:0];
  assign m_wstrb_o  = beat_head[BeatW-1:AxiDataWidth];
  assign err_o      = m_bvalid_i && (m_bresp_i != 2'b00);
  assign idle_o     = (state_q == StIdle) && !filling_q && (busy_q == '0) && wr_idle && !beat_valid && !rd_q;

  // ---- Next state (always_comb) and registers (always_ff) --------------------
  // Where two updates of one cycle hit the same slot, the later one below
  // wins: a fill or a ring read of the slot a group is claiming.
  state_e                            state_d;
  logic [3:0]                        busy_d;
  logic [3:0][DimW-1:0]              oc0_d, ey_d, ex_d;
  logic [3:0][31:0]                  filled_d, emitted_d;
  logic [3:0][CVec-1:0]              strb_d, addm_d;
  logic                              filling_d;
  logic [NCol-1:0][AxiDataWidth-1:0] buf_d;
  logic [1:0]                        fbank_d, rs_d;
  logic [31:0]                       fpix_d;
  logic [3:0]                        fcol_d, fn_d;
  logic [RunW-1:0]                   rn_d, ri_d, rp_d, rcol_d;
  logic [AddrW-1:0]                  res_addr_d;
  logic                              resbuf_we;   // a residual beat lands at rcol_q

  // Slots: a group takes its bank's slot. Lanes of this group carry its
  // channels; the group holding the last channel also zeroes the rest of the
  // pixel word (padding channels). A ring read frees its pixel and moves the
  // slot's emit position on; the slot is free once its last pixel is read.
  logic [CVec-1:0] claim_strb, claim_addm;   // strb_q / addm_q of the claiming group
  always_comb begin
    for (int unsigned l = 0; l < CVec; l++) begin
      int unsigned ch, lo;
      logic mine, pad;
      lo   = 32'(oc0_i) % CVec;
      ch   = 32'(oc0_i) - lo + l;
      mine = (l >= lo) && (l < lo + NPe);
      pad  = (l >= lo) && (32'(oc0_i) + NPe >= 32'(desc_i.c_out));
      claim_strb[l] = mine || pad;
      claim_addm[l] = mine && ch < 32'(desc_i.c_out);
    end
  end

  always_comb begin
    // Every slot keeps its state unless claimed, filled or read below.
    {busy_d, oc0_d, filled_d, emitted_d} = {busy_q, oc0_q, filled_q, emitted_q};
    {ey_d, ex_d, strb_d, addm_d}         = {ey_q, ex_q, strb_q, addm_q};
    if (start_i) begin
      busy_d[bank_i]    = 1'b1;
      oc0_d[bank_i]     = oc0_i;
      filled_d[bank_i]  = '0;
      emitted_d[bank_i] = '0;
      ey_d[bank_i]      = '0;
      ex_d[bank_i]      = '0;
      strb_d[bank_i]    = claim_strb;
      addm_d[bank_i]    = claim_addm;
    end
    if (filling_q) filled_d[fbank_q] = filled_q[fbank_q] + 32'd1;
    if (ring_re) begin
      emitted_d[rs_q] = emitted_q[rs_q] + 32'd1;
      if (ex_q[rs_q] == desc_i.w_out - 1'b1) begin
        ex_d[rs_q] = '0;
        ey_d[rs_q] = ey_q[rs_q] + 1'b1;
      end else begin
        ex_d[rs_q] = ex_q[rs_q] + 1'b1;
      end
      if (emitted_q[rs_q] + 32'd1 == npix) busy_d[rs_q] = 1'b0;
    end
  end

  // Fill: the popped block is staged requantized, then written into the ring
  // one pixel a cycle. Lane l of the pixel word is PE l - fill_lo of the
  // group's slot, written where the slot's lanes hold real channels, else zero.
  int unsigned fill_lo;
  assign fill_lo = 32'(oc0_q[slot_bank_i]) % CVec;
  always_comb begin
    {filling_d, buf_d, fbank_d, fpix_d, fcol_d, fn_d} = {filling_q, buf_q, fbank_q, fpix_q, fcol_q, fn_q};
    if (filling_q) begin
      fcol_d = fcol_q + 4'd1;
      fpix_d = fpix_q + 32'd1;
      if (fill_last) filling_d = 1'b0;
    end
    if (slot_pop_o) begin
      filling_d = 1'b1;
      fbank_d   = slot_bank_i;
      fpix_d    = slot_pix_i;
      fcol_d    = '0;
      fn_d      = slot_ncols_i;
      for (int unsigned l = 0; l < CVec; l++) begin
        for (int unsigned j = 0; j < NCol; j++) begin
          buf_d[j][8*l +: 8] = addm_q[slot_bank_i][l] ? y[PeW'(l - fill_lo)][j] : 8'd0;
        end
      end
    end
  end

  // Emit FSM.
  always_comb begin
    state_d    = state_q;
    rs_d       = rs_q;
    rn_d       = rn_q;
    ri_d       = ring_re ? ri_q + 1'b1 : ri_q;
    rp_d       = push ? rp_q + 1'b1 : rp_q;
    rcol_d     = rcol_q;
    res_addr_d = res_addr_q;
    resbuf_we  = 1'b0;
    unique case (state_q)
      StIdle: if (run_go) begin
        rs_d       = pick;
        rn_d       = RunW'(pick_n);
        ri_d       = '0;
        rp_d       = '0;
        rcol_d     = '0;
        res_addr_d = desc_i.res_addr + pick_off;
        state_d    = desc_i.residual ? StResCmd : StPush;
      end
      StResCmd: if (res_cmd_ready) state_d = StRes;
      StRes: begin
        if (res_beat) begin
          resbuf_we = 1'b1;
          rcol_d    = rcol_q + 1'b1;
        end
        if (res_done) state_d = StPush;
      end
      StPush: if (push && rp_q == rn_q - 1'b1) state_d = StIdle;
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      busy_q     <= '0;
      oc0_q      <= '0;
      filled_q   <= '0;
      emitted_q  <= '0;
      ey_q       <= '0;
      ex_q       <= '0;
      strb_q     <= '0;
      addm_q     <= '0;
      filling_q  <= 1'b0;
      buf_q      <= '0;
      fbank_q    <= '0;
      fpix_q     <= '0;
      fcol_q     <= '0;
      fn_q       <= '0;
      rs_q       <= '0;
      rn_q       <= '0;
      ri_q       <= '0;
      rp_q       <= '0;
      rcol_q     <= '0;
      res_addr_q <= '0;
      resbuf_q   <= '0;
      rd_q       <= 1'b0;
    end else begin
      state_q    <= state_d;
      busy_q     <= busy_d;
      oc0_q      <= oc0_d;
      filled_q   <= filled_d;
      emitted_q  <= emitted_d;
      ey_q       <= ey_d;
      ex_q       <= ex_d;
      strb_q     <= strb_d;
      addm_q     <= addm_d;
      filling_q  <= filling_d;
      buf_q      <= buf_d;
      fbank_q    <= fbank_d;
      fpix_q     <= fpix_d;
      fcol_q     <= fcol_d;
      fn_q       <= fn_d;
      rs_q       <= rs_d;
      rn_q       <= rn_d;
      ri_q       <= ri_d;
      rp_q       <= rp_d;
      rcol_q     <= rcol_d;
      res_addr_q <= res_addr_d;
      if (resbuf_we) resbuf_q[rcol_q] <= res_data;
      rd_q       <= ring_re;
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  `COSIM_ASSERT(a_legal_state, state_q inside {StIdle, StResCmd, StRes, StPush},
                ("tf2_writer: illegal state %0d", state_q))
  // A block has 1..NCol pixels: an empty one would fill nothing and never
  // pop the next.
  `COSIM_ASSERT_IF(a_block_nonempty, (slot_ncols_i != '0) && (32'(slot_ncols_i) <= NCol), slot_pop_o,
                   ("tf2_writer: output block of %0d pixels", slot_ncols_i))
  // The ring: a block lands in its group's slot at the next pixel of that
  // group, inside the room the Scheduler was given, and a slot is taken only
  // when free.
  `COSIM_ASSERT_IF(a_fill_in_order,
                   busy_q[slot_bank_i] &&
                   slot_pix_i == filled_q[slot_bank_i] +
                                 ((filling_q && fbank_q == slot_bank_i) ? 32'(fn_q) - 32'(fcol_q) : 32'd0),
                   slot_pop_o,
                   ("tf2_writer: block at pixel %0d out of order for bank %0d", slot_pix_i, slot_bank_i))
  `COSIM_ASSERT_IF(a_fill_room, fpix_q < emitted_q[fbank_q] + 32'(SlotWords), filling_q,
                   ("tf2_writer: pixel %0d overwrites an unemitted one in bank %0d", fpix_q, fbank_q))
  `COSIM_ASSERT_IF(a_slot_free, !busy_q[bank_i], start_i,
                   ("tf2_writer: group started on bank %0d, whose slot still holds pixels", bank_i))
  `COSIM_ASSERT_IF(a_push_room, beat_ready, push, ("tf2_writer: W FIFO overflow"))

endmodule
