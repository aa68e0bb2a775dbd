// Scheduler: walks groups of output channels through the layer,
//   for y < h_out, for x0 < w_out step OCol, for cg < ceil(c_in/16),
//   for ky < k, for kx0 < k step KTap (3D mode; 1x1 kernels: 2D mode, OCol2D
//   columns and a single tap),
// reads the feature vectors of every lane (column j, tap t) from the feature
// cache and hands them with the filter address and masks to the PE array.
// Up to four groups (one per filter bank, banks_i + 1 banks, a group's
// context is its bank) are in flight, each with its own output row: an
// output row starts only once the Feature Loader has the input rows it reads
// (rows_i), the oldest group (the leader) first; while it waits for rows, a
// younger group runs a row behind every older group, so the PE array keeps
// busy while the map loads. Groups finish in the order they started.
// The pipeline has two stages (s1: features, s2: lane sums) that all move on
// adv_o; it stalls only when a finishing beat meets a full result slot.
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
  input  logic [1:0]                   banks_i,     // filter banks in use - 1 (1 or 3)
  input  logic                         start_i,     // pulse
  input  logic [1:0]                   bank_i,      // the group's bank, none in flight on it
  input  logic [DimW-1:0]              oc0_i,
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
  output logic [DimW-1:0]              slot_oc0_o,
  output logic [DimW-1:0]              slot_y_o,
  output logic [DimW-1:0]              slot_x0_o,
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
    logic [DimW-1:0] oc0;
    logic [DimW-1:0] y;
    logic [DimW-1:0] x0;
    logic [3:0]      ncols;
  } meta_t;

  // Per group in flight (context = its filter bank): running, first output
  // channel, next output row. lead_q is the oldest group; cur_q the group of
  // the output row being issued.
  logic [3:0]           run_q;
  logic [3:0][DimW-1:0] oc0_q, ry_q;
  logic [1:0]           lead_q, cur_q;
  logic [DimW-1:0]      x0_q, cg_q;
  logic [7:0]           ky_q, kx0_q;

  logic            s1_valid_q, s2_valid_q;
  meta_t           s1_meta_q, s2_meta_q;
  logic [31:0]     s1_wbase_q;
  logic [CVec-1:0] s1_cmask_q;
  logic [KTap-1:0] s1_tmask_q;

  logic            slot_valid_q;
  logic [DimW-1:0] slot_oc0_q, slot_y_q, slot_x0_q;
  logic [3:0]      slot_ncols_q;

  // Output row oy reads input rows up to oy*stride - pad + k - 1 (clipped to
  // the map).
  function automatic logic rows_in(logic [DimW-1:0] oy);
    int need;
    need = int'(oy) * int'(desc_i.stride) - int'(desc_i.pad) + int'(desc_i.k);
    if (need > int'(desc_i.h_in)) need = int'(desc_i.h_in);
    return int'(rows_i) >= need;
  endfunction

  // At the start of an output row, pick the group: the first, from the
  // leader on in start order (banks lead, lead + 1, ... modulo the banks in
  // use), whose row's inputs are in and whose row is behind that of every
  // older group still running. Inside a row the current group goes on.
  logic            row_start, pick_ok, issue;
  logic [1:0]      pick, act;
  logic [DimW-1:0] row_y;  // the issued row's output row
  assign row_start = (x0_q == '0) && (cg_q == '0) && (ky_q == '0) && (kx0_q == '0);
  always_comb begin
    logic            older;   // an older group is running
    logic [DimW-1:0] bound;   // the row of the youngest older group running
    logic [1:0]      c;
    pick_ok = 1'b0;
    pick    = lead_q;
    older   = 1'b0;
    bound   = '0;
    for (int unsigned i = 0; i < 4; i++) begin
      c = (lead_q + 2'(i)) & banks_i;
      if (2'(i) <= banks_i && run_q[c]) begin
        if (!pick_ok && (!older || ry_q[c] < bound) && rows_in(ry_q[c])) begin
          pick_ok = 1'b1;
          pick    = c;
        end
        older = 1'b1;
        bound = ry_q[c];
      end
    end
  end
  assign act       = row_start ? pick : cur_q;
  assign issue     = row_start ? pick_ok : run_q[cur_q];
  assign row_y     = ry_q[act];

  // Layer shape.
  logic            mode3d;
  logic [DimW-1:0] cgs;       // input channel groups
  logic [7:0]      ktap, ocol;
  assign mode3d = (desc_i.k != 8'd1);
  assign cgs    = (desc_i.c_in + DimW'(CVec - 1)) >> 4;
  assign ktap   = mode3d ? 8'(KTap) : 8'd1;
  assign ocol   = mode3d ? 8'(OCol3D) : 8'(OCol2D);

  logic adv;
  assign adv   = !(s2_valid_q && s2_meta_q.last && slot_valid_q);
  assign adv_o = adv;

  // Loop ends.
  logic end_kx, end_ky, end_cg, end_x, end_y;
  assign end_kx = (32'(kx0_q) + 32'(ktap) >= 32'(desc_i.k));
  assign end_ky = (ky_q == desc_i.k - 8'd1);
  assign end_cg = (cg_q == cgs - 1'b1);
  assign end_x  = (32'(x0_q) + 32'(ocol) >= 32'(desc_i.w_out));
  assign end_y  = (row_y == desc_i.h_out - 1'b1);

  logic        first, last;
  logic [3:0]  ncols;
  assign first = (cg_q == '0) && (ky_q == '0) && (kx0_q == '0);
  assign last  = end_cg && end_ky && end_kx;
  always_comb begin
    if (32'(x0_q) + 32'(ocol) > 32'(desc_i.w_out)) ncols = 4'(desc_i.w_out - x0_q);
    else ncols = 4'(ocol);
  end

  // Lane addresses: lane l is column l / KTap, tap l % KTap in 3D mode and
  // column l in 2D mode.
  always_comb begin
    for (int unsigned l = 0; l < NLanes; l++) begin
      int j, t, iy, ix;
      logic ok;
      j  = mode3d ? int'(l / KTap) : int'(l);
      t  = mode3d ? int'(l % KTap) : 0;
      ok = mode3d ? (l < OCol3D * KTap) : (l < OCol2D);
      iy = int'(row_y) * int'(desc_i.stride) + int'(ky_q) - int'(desc_i.pad);
      ix = (int'(x0_q) + j) * int'(desc_i.stride) + int'(kx0_q) + t - int'(desc_i.pad);
      ok = ok && (int'(x0_q) + j < int'(desc_i.w_out)) && (int'(kx0_q) + t < int'(desc_i.k)) &&
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
      oc0_q        <= '0;
      ry_q         <= '0;
      lead_q       <= '0;
      cur_q        <= '0;
      x0_q         <= '0;
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
      slot_oc0_q   <= '0;
      slot_y_q     <= '0;
      slot_x0_q    <= '0;
      slot_ncols_q <= '0;
    end else begin
      // A new group takes its bank's context; with none running it leads.
      if (start_i && !run_q[bank_i]) begin
        run_q[bank_i] <= 1'b1;
        oc0_q[bank_i] <= oc0_i;
        ry_q[bank_i]  <= '0;
        if (run_q == '0) lead_q <= bank_i;
      end
      if (adv) begin
        // Stage 0 -> s1: issue the current beat and step the loops.
        s1_valid_q <= issue;
        if (issue) begin
          cur_q     <= act;
          s1_meta_q <= '{first: first, last: last, glast: last && end_x && end_y, mode3d: mode3d,
                         bank: act, oc0: oc0_q[act], y: row_y, x0: x0_q, ncols: ncols};
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
                if (!end_x) begin
                  x0_q <= x0_q + DimW'(ocol);
                end else begin
                  x0_q <= '0;
                  if (!end_y) begin
                    ry_q[act] <= row_y + 1'b1;
                  end else begin
                    run_q[act] <= 1'b0;
                    if (act == lead_q) lead_q <= (act + 2'd1) & banks_i;
                  end
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
        slot_oc0_q   <= s2_meta_q.oc0;
        slot_y_q     <= s2_meta_q.y;
        slot_x0_q    <= s2_meta_q.x0;
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
  assign slot_oc0_o   = slot_oc0_q;
  assign slot_y_o     = slot_y_q;
  assign slot_x0_o    = slot_x0_q;
  assign slot_ncols_o = slot_ncols_q;
  assign pe_busy_o    = adv && s2_valid_q;
  assign out_wait_o   = !adv;

  // ---- Assertions (Verilated with --assert) --------------------------------
  // The result slot is a one-entry FIFO: a finished block never lands in a
  // full slot (overflow), and the writer pops only a full one (underflow).
  a_slot_no_overflow: assert property (@(posedge clk_i) disable iff (!rst_ni)
    adv && s2_valid_q && s2_meta_q.last |-> !slot_valid_q)
    else $error("tf2_scheduler: output block written into a full result slot");
  a_slot_no_underflow: assert property (@(posedge clk_i) disable iff (!rst_ni)
    slot_pop_i |-> slot_valid_q)
    else $error("tf2_scheduler: result slot popped while empty");
  // A group starts only on a bank without a group in flight; a younger
  // group never overtakes the leader.
  a_start_free: assert property (@(posedge clk_i) disable iff (!rst_ni)
    start_i |-> !run_q[bank_i])
    else $error("tf2_scheduler: group started on bank %0d, which has one in flight", bank_i);
  a_trail: assert property (@(posedge clk_i) disable iff (!rst_ni)
    adv && issue && row_start && act != lead_q |-> !run_q[lead_q] || ry_q[act] < ry_q[lead_q])
    else $error("tf2_scheduler: a younger group overtook the leader");

endmodule
