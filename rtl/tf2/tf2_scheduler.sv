// Scheduler: walks groups of output channels through the layer,
//   for blocks of OCol output pixels in row-major order (a block may run on
//   into the next row, so no lane idles at the end of a row),
//   for cg < ceil(c_in/16),
//   for ky < k, for kx0 < k step KTap (3D mode; 1x1 kernels: 2D mode, OCol2D
//   columns and a single tap),
// reads the feature vectors of every lane (column j, tap t) from the feature
// cache and hands them with the filter address and masks to the PE array.
// Up to four groups (one per filter bank, banks_i + 1 banks, a group's
// context is its bank) are in flight, each with its own next block: a block
// starts only once the Feature Loader has the input rows it reads (rows_i)
// and the Writer has room for it (limit_i). Of the groups whose next block
// can start, the one in the lowest output row goes (the oldest of those), so
// the groups advance together row by row, in the order the Writer emits the
// map; a younger group only ever runs behind every older one, so groups
// finish in the order they started.
// The pipeline has two stages (s1: features, s2: lane sums) that all move on
// adv_o; it stalls only when a finishing beat meets a full result slot.
`include "cosim_assert.svh"
module tf2_scheduler
  import tf2_pkg::*;
#(
  parameter int unsigned OCol3D    = DefOCol3D,
  parameter int unsigned KTap      = DefKTap,
  parameter int unsigned OCol2D    = DefOCol2D,
  parameter int unsigned FeatDepth = DefFeatDepth,
  localparam int unsigned NLanes = (OCol3D * KTap > OCol2D) ? OCol3D * KTap : OCol2D,
  localparam int unsigned FAW    = $clog2(FeatDepth)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,

  /* verilator lint_off UNUSEDSIGNAL */  // uses the shape fields only
  input  desc_t                        desc_i,      // stable while running
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [DimW-1:0]              rows_i,      // input rows loaded (every channel group)
  input  logic [3:0][31:0]             limit_i,     // per bank: the Writer's room, a block may end there
  input  logic [1:0]                   banks_i,     // filter banks in use - 1 (1 or 3)
  input  logic                         start_i,     // pulse
  input  logic [1:0]                   bank_i,      // the group's bank, none in flight on it
  output logic                         idle_o,
  output logic                         done_o,      // pulse: group finished (left s2)

  // Feature cache read ports.
  output logic                         fc_re_o,
  output logic [NLanes-1:0]            fc_lane_o,
  output logic [NLanes-1:0][FAW-1:0]   fc_addr_o,
  output logic [DimW-1:0]              qin_addr_o,  // input-Q table word (channel group), read with fc

  // Pipeline control towards the PE array.
  output logic                         adv_o,
  output logic                         s1_valid_o,
  output logic                         s1_mode3d_o,
  output logic [1:0]                   s1_bank_o,
  output logic [31:0]                  s1_wbase_o,
  output logic [CVec-1:0]              s1_cmask_o,
  output logic [KTap-1:0]              s1_tmask_o,
  output logic                         s2_valid_o,
  output logic                         s2_first_o,
  output logic                         s2_last_o,
  output logic                         s2_mode3d_o,
  output logic [1:0]                   s2_bank_o,

  // Result slot (filled by the PE array on the last beat of an output block).
  output logic                         slot_valid_o,
  input  logic                         slot_pop_i,
  output logic [1:0]                   slot_bank_o,
  output logic [31:0]                  slot_pix_o,  // the block's first pixel, y * w_out + x
  output logic [3:0]                   slot_ncols_o,
  output logic                         pe_busy_o,
  output logic                         out_wait_o
);

  // Beat metadata that travels with the pipeline.
  typedef struct packed {
    logic            first;
    logic            last;    // last beat of an output block
    logic            glast;   // last beat of the group
    logic            mode3d;
    logic [1:0]      bank;
    logic [31:0]     pix;
    logic [3:0]      ncols;
  } meta_t;

  // Per group in flight (context = its filter bank): running, next block's
  // first pixel (row, column, index). lead_q is the oldest group; cur_q the
  // group of the block being issued.
  logic [3:0]           run_q;
  logic [3:0][DimW-1:0] ry_q, rx_q;
  logic [3:0][31:0]     pix_q;
  logic [1:0]           lead_q, cur_q;
  logic [DimW-1:0]      cg_q;
  logic [7:0]           ky_q, kx0_q;

  logic            s1_valid_q, s2_valid_q;
  meta_t           s1_meta_q, s2_meta_q;
  logic [31:0]     s1_wbase_q;
  logic [CVec-1:0] s1_cmask_q;
  logic [KTap-1:0] s1_tmask_q;

  logic            slot_valid_q;
  logic [1:0]      slot_bank_q;
  logic [31:0]     slot_pix_q;
  logic [3:0]      slot_ncols_q;

  // Layer shape.
  logic            mode3d;
  logic [DimW-1:0] cgs;       // input channel groups
  logic [7:0]      ktap, ocol;
  assign mode3d = (desc_i.k != 8'd1);
  assign cgs    = (desc_i.c_in + DimW'(CVec - 1)) >> 4;
  assign ktap   = mode3d ? 8'(KTap) : 8'd1;
  assign ocol   = mode3d ? 8'(OCol3D) : 8'(OCol2D);

  // Pixels of the block starting at (oy, ox): OCol, fewer at the end of the
  // map, and at most the rest of this row and the whole next one (a block
  // spans two rows at most).
  function automatic logic [3:0] blk_cols(logic [DimW-1:0] oy, logic [DimW-1:0] ox);
    int left;
    left = ((oy == desc_i.h_out - 1'b1) ? 1 : 2) * int'(desc_i.w_out) - int'(ox);
    return (left < int'(ocol)) ? 4'(left) : 4'(ocol);
  endfunction

  // Output row oy reads input rows up to oy*stride - pad + k - 1 (clipped to
  // the map).
  function automatic logic rows_in(logic [DimW-1:0] oy);
    int need;
    need = int'(oy) * int'(desc_i.stride) - int'(desc_i.pad) + int'(desc_i.k);
    if (need > int'(desc_i.h_in)) need = int'(desc_i.h_in);
    return int'(rows_i) >= need;
  endfunction

  // The block at (oy, ox) needs the inputs of its last pixel's row.
  function automatic logic blk_in(logic [DimW-1:0] oy, logic [DimW-1:0] ox);
    return rows_in((int'(ox) + int'(blk_cols(oy, ox)) > int'(desc_i.w_out)) ? oy + 1'b1 : oy);
  endfunction

  // At the start of a block, pick the group: of those whose block's inputs
  // are in, whose block fits the Writer's room and is behind that of every
  // older group still running, the one whose block starts in the lowest
  // output row, the oldest of those (start order from the leader: banks lead,
  // lead + 1, ... modulo the banks in use). That is the Writer's order: the
  // groups go through the map row by row, each row group after group, so
  // the Writer emits a group's row while the PEs compute the next group's.
  // Inside a block the current group goes on.
  logic            first, last;
  logic            pick_ok, issue;
  logic [1:0]      pick, act;
  logic [DimW-1:0] row_y, blk_x0;  // the issued block's first pixel
  assign first = (cg_q == '0) && (ky_q == '0) && (kx0_q == '0);
  always_comb begin
    logic            older;            // an older group is running
    logic [DimW-1:0] bound_y, bound_x; // the block of the youngest older group running
    logic [1:0]      c;
    pick_ok = 1'b0;
    pick    = lead_q;
    older   = 1'b0;
    bound_y = '0;
    bound_x = '0;
    for (int unsigned i = 0; i < 4; i++) begin
      c = (lead_q + 2'(i)) & banks_i;
      if (2'(i) <= banks_i && run_q[c]) begin
        if ((!older || ry_q[c] < bound_y || (ry_q[c] == bound_y && rx_q[c] < bound_x)) &&
            blk_in(ry_q[c], rx_q[c]) && pix_q[c] + 32'(blk_cols(ry_q[c], rx_q[c])) <= limit_i[c] &&
            (!pick_ok || ry_q[c] < ry_q[pick])) begin
          pick_ok = 1'b1;
          pick    = c;
        end
        older   = 1'b1;
        bound_y = ry_q[c];
        bound_x = rx_q[c];
      end
    end
  end
  assign act       = first ? pick : cur_q;
  assign issue     = first ? pick_ok : run_q[cur_q];
  assign row_y     = ry_q[act];
  assign blk_x0    = rx_q[act];

  logic adv;
  assign adv   = !(s2_valid_q && s2_meta_q.last && slot_valid_q);
  assign adv_o = adv;

  // Loop ends.
  logic end_kx, end_ky, end_cg, end_map;
  logic [3:0]      ncols;
  logic [31:0]     next_x;          // column after the block, counted from its first row
  logic [DimW-1:0] next_y, next_x0; // the group's next block
  assign end_kx  = (32'(kx0_q) + 32'(ktap) >= 32'(desc_i.k));
  assign end_ky  = (ky_q == desc_i.k - 8'd1);
  assign end_cg  = (cg_q == cgs - 1'b1);
  assign ncols   = blk_cols(row_y, blk_x0);
  assign next_x  = 32'(blk_x0) + 32'(ncols);
  always_comb begin
    // A block of two whole rows (w_out < OCol) ends at the start of the third.
    if (next_x >= 2 * 32'(desc_i.w_out)) begin
      next_y  = row_y + DimW'(2);
      next_x0 = DimW'(next_x - 2 * 32'(desc_i.w_out));
    end else if (next_x >= 32'(desc_i.w_out)) begin
      next_y  = row_y + DimW'(1);
      next_x0 = DimW'(next_x - 32'(desc_i.w_out));
    end else begin
      next_y  = row_y;
      next_x0 = DimW'(next_x);
    end
  end
  assign end_map = (next_y == desc_i.h_out);
  assign last    = end_cg && end_ky && end_kx;

  // Lane addresses: lane l is column l / KTap, tap l % KTap in 3D mode and
  // column l in 2D mode; column j is pixel j of the block, in the next row
  // once past the end of this one.
  always_comb begin
    for (int unsigned l = 0; l < NLanes; l++) begin
      int j, t, oy, ox, iy, ix;
      logic ok;
      j  = mode3d ? int'(l / KTap) : int'(l);
      t  = mode3d ? int'(l % KTap) : 0;
      ok = mode3d ? (l < OCol3D * KTap) : (l < OCol2D);
      oy = int'(row_y);
      ox = int'(blk_x0) + j;
      if (ox >= int'(desc_i.w_out)) begin
        oy = oy + 1;
        ox = ox - int'(desc_i.w_out);
      end
      iy = oy * int'(desc_i.stride) + int'(ky_q) - int'(desc_i.pad);
      ix = ox * int'(desc_i.stride) + int'(kx0_q) + t - int'(desc_i.pad);
      ok = ok && (j < int'(ncols)) && (int'(kx0_q) + t < int'(desc_i.k)) &&
           iy >= 0 && iy < int'(desc_i.h_in) && ix >= 0 && ix < int'(desc_i.w_in);
      fc_lane_o[l] = ok;
      fc_addr_o[l] = ok ? FAW'((int'(cg_q) * int'(desc_i.h_in) + iy) * int'(desc_i.w_in) + ix) : '0;
    end
  end
  assign fc_re_o    = adv;
  assign qin_addr_o = cg_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q        <= '0;
      ry_q         <= '0;
      rx_q         <= '0;
      pix_q        <= '0;
      lead_q       <= '0;
      cur_q        <= '0;
      cg_q         <= '0;
      ky_q         <= '0;
      kx0_q        <= '0;
      s1_valid_q   <= 1'b0;
      s2_valid_q   <= 1'b0;
      s1_meta_q    <= '0;
      s2_meta_q    <= '0;
      s1_wbase_q   <= '0;
      s1_cmask_q   <= '0;
      s1_tmask_q   <= '0;
      slot_valid_q <= 1'b0;
      slot_bank_q  <= '0;
      slot_pix_q   <= '0;
      slot_ncols_q <= '0;
    end else begin
      // A new group takes its bank's context; with none running it leads.
      if (start_i && !run_q[bank_i]) begin
        run_q[bank_i] <= 1'b1;
        ry_q[bank_i]  <= '0;
        rx_q[bank_i]  <= '0;
        pix_q[bank_i] <= '0;
        if (run_q == '0) lead_q <= bank_i;
      end
      if (adv) begin
        // Stage 0 -> s1: issue the current beat and step the loops.
        s1_valid_q <= issue;
        if (issue) begin
          cur_q     <= act;
          s1_meta_q <= '{first: first, last: last, glast: last && end_map, mode3d: mode3d,
                         bank: act, pix: pix_q[act], ncols: ncols};
          s1_wbase_q <= 32'(cg_q) * 32'(CVec) * 32'(desc_i.k) * 32'(desc_i.k) +
                        32'(ky_q) * 32'(desc_i.k) + 32'(kx0_q);
          for (int unsigned i = 0; i < CVec; i++) begin
            s1_cmask_q[i] <= (32'(cg_q) * 32'(CVec) + 32'(i) < 32'(desc_i.c_in));
          end
          for (int unsigned t = 0; t < KTap; t++) begin
            s1_tmask_q[t] <= (t < 32'(ktap)) && (32'(kx0_q) + 32'(t) < 32'(desc_i.k));
          end
          if (!end_kx) begin
            kx0_q <= kx0_q + ktap;
          end else begin
            kx0_q <= '0;
            if (!end_ky) begin
              ky_q <= ky_q + 8'd1;
            end else begin
              ky_q <= '0;
              if (!end_cg) begin
                cg_q <= cg_q + 1'b1;
              end else begin
                cg_q <= '0;
                if (end_map) begin
                  run_q[act] <= 1'b0;
                  if (act == lead_q) lead_q <= (act + 2'd1) & banks_i;
                end else begin
                  ry_q[act]  <= next_y;
                  rx_q[act]  <= next_x0;
                  pix_q[act] <= pix_q[act] + 32'(ncols);
                end
              end
            end
          end
        end
        // s1 -> s2.
        s2_valid_q <= s1_valid_q;
        s2_meta_q  <= s1_meta_q;
      end
      // Result slot: filled when a block's last beat leaves s2.
      if (adv && s2_valid_q && s2_meta_q.last) begin
        slot_valid_q <= 1'b1;
        slot_bank_q  <= s2_meta_q.bank;
        slot_pix_q   <= s2_meta_q.pix;
        slot_ncols_q <= s2_meta_q.ncols;
      end else if (slot_pop_i) begin
        slot_valid_q <= 1'b0;
      end
    end
  end

  assign idle_o       = (run_q == '0) && !s1_valid_q && !s2_valid_q;
  assign done_o       = adv && s2_valid_q && s2_meta_q.glast;

  assign s1_valid_o   = s1_valid_q;
  assign s1_mode3d_o  = s1_meta_q.mode3d;
  assign s1_bank_o    = s1_meta_q.bank;
  assign s1_wbase_o   = s1_wbase_q;
  assign s1_cmask_o   = s1_cmask_q;
  assign s1_tmask_o   = s1_tmask_q;
  assign s2_valid_o   = s2_valid_q;
  assign s2_first_o   = s2_meta_q.first;
  assign s2_last_o    = s2_meta_q.last;
  assign s2_mode3d_o  = s2_meta_q.mode3d;
  assign s2_bank_o    = s2_meta_q.bank;

  assign slot_valid_o = slot_valid_q;
  assign slot_bank_o  = slot_bank_q;
  assign slot_pix_o   = slot_pix_q;
  assign slot_ncols_o = slot_ncols_q;
  assign pe_busy_o    = adv && s2_valid_q;
  assign out_wait_o   = !adv;

  // ---- Assertions (Verilated with --assert) --------------------------------
  // The result slot is a one-entry FIFO: a finished block never lands in a
  // full slot (overflow), and the writer pops only a full one (underflow).
  `COSIM_ASSERT_IF(a_slot_no_overflow, !slot_valid_q, adv && s2_valid_q && s2_meta_q.last,
                   ("tf2_scheduler: output block written into a full result slot"))
  `COSIM_ASSERT_IF(a_slot_no_underflow, slot_valid_q, slot_pop_i,
                   ("tf2_scheduler: result slot popped while empty"))
  // A group starts only on a bank without a group in flight; a younger
  // group never overtakes the leader.
  `COSIM_ASSERT_IF(a_start_free, !run_q[bank_i], start_i,
                   ("tf2_scheduler: group started on bank %0d, which has one in flight", bank_i))
  `COSIM_ASSERT_IF(a_trail,
                   !run_q[lead_q] || ry_q[act] < ry_q[lead_q] || (ry_q[act] == ry_q[lead_q] && rx_q[act] < rx_q[lead_q]),
                   adv && issue && first && act != lead_q,
                   ("tf2_scheduler: a younger group overtook the leader"))

endmodule
