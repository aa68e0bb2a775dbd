// Controller: runs desc_count descriptors in order. Per layer it fetches the
// 64-byte descriptor, checks it against the caches (ErrDesc stops the run),
// starts the Feature Loader, keeps the Filter Loader loading groups of NPe
// output channels into the filter banks as they free up (four banks when two
// filters fit a filter-cache memory, 2*c_in*k*k <= FilterDepth, else two;
// group g uses bank g % banks), lets each group claim its bank's Writer slot
// in group order as soon as the slot is empty, starts each loaded group that
// has claimed its slot on the Scheduler (one per bank in flight; the
// Scheduler gates their rows on the Feature Loader), and waits for the whole
// map and the Writer before the next layer. The two loaders share
// the read port band by band and group by group: the first EarlyGroups
// groups' filters load after the first band, the next group's after the
// second, and each later band waits while the Filter Loader has a group it
// may load, so the PEs get work on the first rows early and every later row
// feeds every group. Weight-code and AXI errors are reported and the run
// still completes (no hang).
`include "cosim_assert.svh"
`include "cosim_ports.svh"

module tf2_controller
  import tf2_pkg::*;
#(
  parameter int unsigned NPe         = DefNPe,
  parameter int unsigned FeatDepth   = DefFeatDepth,
  parameter int unsigned FilterDepth = DefFilterDepth,
  localparam int unsigned PeW = (NPe > 1) ? $clog2(NPe) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  input  logic                    start_i,
  input  logic [AddrW-1:0]        desc_addr_i,
  input  logic [15:0]             desc_count_i,
  output logic                    busy_o,
  output logic                    done_o,
  output logic                    err_o,
  output err_e                    err_code_o,
  output logic [15:0]             err_desc_o,

  output desc_t                   desc_o,
  output logic [15:0]             ckk_o,
  output logic [7:0]              kk_o,
  output logic signed [7:0]       min_exp_o,

  // The layer's input-Q table (one 16-byte word per channel group), written
  // before the groups start.
  output logic                    qin_we_o,
  output logic [DimW-1:0]         qin_waddr_o,
  output logic [AxiDataWidth-1:0] qin_wdata_o,

  // Descriptor fetch read client.
  `COSIM_AXI_READ_CLIENT_PORTS(AddrW, AxiDataWidth),

  output logic                    feat_start_o,
  output logic [DimW-1:0]         feat_groups_o,   // the input map's shape, with feat_start_o
  output logic [DimW-1:0]         feat_h_o,
  output logic [DimW-1:0]         feat_w_o,
  output logic [AddrW-1:0]        feat_addr_o,
  output logic                    feat_go_o,       // the Feature Loader may start its next band
  input  logic [DimW-1:0]         feat_rows_i,     // input rows loaded
  input  logic                    feat_done_i,
  input  logic                    feat_err_i,

  output logic                    filt_start_o,
  output logic [1:0]              filt_bank_o,
  output logic [DimW-1:0]         filt_oc0_o,
  output logic [PeW:0]            filt_n_o,
  input  logic                    filt_idle_i,
  input  logic                    filt_done_i,
  input  logic                    filt_code_err_i,
  input  logic                    filt_axi_err_i,

  output logic                    sch_start_o,
  output logic [1:0]              sch_banks_o,    // banks in use - 1 (1 or 3)
  output logic [1:0]              sch_bank_o,
  input  logic                    sch_idle_i,
  input  logic                    sch_done_i,
  output logic                    filt_wait_o,

  input  logic                    wr_idle_i,
  output logic                    wr_start_o,      // a group claims its bank's Writer slot
  output logic [1:0]              wr_bank_o,
  output logic [DimW-1:0]         wr_oc0_o,
  input  logic [3:0]              wr_busy_i,       // per bank: the Writer's slot is claimed
  input  logic                    slot_valid_i,
  input  logic                    wr_err_i,
  input  logic                    wr_rd_err_i,

  // Diagnosis: FSM state, next group to schedule, input map loaded.
  output logic [3:0]              state_o,
  output logic [DimW-1:0]         group_o,
  output logic                    feat_loaded_o
);

  typedef enum logic [3:0] {StIdle, StFetch, StFetchWait, StCheck, StQinFetch, StQinWait, StRun, StDrain,
                            StDone} state_e;
  state_e state_q;

  logic [15:0]      idx_q;
  logic [DimW-1:0]  beat_q;    // beat of the descriptor or the input-Q table
  logic [2:0][127:0] raw_q;     // descriptor beats 0..2 (beat 3 is reserved)
  desc_t            desc_q;
  logic             feat_done_q;
  logic [DimW-1:0]  fg_q, lg_q, sg_q;   // next group to load / to start / to finish
  logic [DimW-1:0]  wg_q;               // next group to claim a Writer slot
  logic [1:0]       banks_q;      // filter banks in use - 1 (a mask on group indices)
  logic [3:0]       bank_full_q;
  logic [1:0]       filt_bank_q;  // bank being loaded by the Filter Loader

  // Fetch stream: the descriptor (4 beats), then the layer's input-Q table
  // (one beat per channel group).
  logic fetch_cmd, fetch_ready, fetch_beat, fetch_done, fetch_err;
  logic [AxiDataWidth-1:0] fetch_data;
  logic [31:0]             cgs;
  assign fetch_cmd = (state_q == StFetch) || (state_q == StQinFetch);
  tf2_rd_stream #(.BeatCntW(20)) u_fetch (
    .clk_i, .rst_ni,
    .cmd_valid_i (fetch_cmd),
    .cmd_ready_o (fetch_ready),
    .cmd_addr_i  ((state_q == StFetch) ? desc_addr_i + (32'(idx_q) << 6) : desc_q.qin_addr),
    .cmd_beats_i ((state_q == StFetch) ? 20'd4 : 20'(cgs)),
    .beat_valid_o(fetch_beat),
    .beat_data_o (fetch_data),
    .done_o      (fetch_done),
    .err_o       (fetch_err),
    .ar_valid_o, .ar_ready_i, .ar_addr_o, .ar_len_o,
    .r_valid_i, .r_data_i, .r_last_i, .r_resp_i
  );

  // Decode of the raw words (layout in cpp_model/tf2/compiler.hpp).
  desc_t dec;
  always_comb begin
    dec.op       = raw_q[0][7:0];
    dec.relu     = raw_q[0][8];
    dec.residual = raw_q[0][10];
    dec.sat_requant = raw_q[0][11];
    dec.c_in     = raw_q[0][47:32];
    dec.c_out    = raw_q[0][63:48];
    dec.h_in     = raw_q[0][79:64];
    dec.w_in     = raw_q[0][95:80];
    dec.h_out    = raw_q[0][111:96];
    dec.w_out    = raw_q[0][127:112];
    dec.k        = raw_q[1][7:0];
    dec.stride   = raw_q[1][15:8];
    dec.pad      = raw_q[1][23:16];
    dec.min_exp  = raw_q[1][39:32];
    dec.in_addr  = raw_q[1][95:64];
    dec.wgt_addr = raw_q[1][127:96];
    dec.out_addr = raw_q[2][63:32];
    dec.res_addr = raw_q[2][95:64];
    dec.qin_addr = raw_q[2][127:96];
  end

  logic [31:0]       feat_words, ckk, kk;
  logic              bad;
  assign cgs        = (32'(dec.c_in) + 32'd15) >> 4;
  assign feat_words = cgs * 32'(dec.h_in) * 32'(dec.w_in);
  assign kk         = 32'(dec.k) * 32'(dec.k);
  assign ckk        = 32'(dec.c_in) * kk;
  always_comb begin
    bad = 1'b0;
    if (dec.op != OpConv) bad = 1'b1;
    if (dec.c_in == '0 || dec.c_out == '0 || dec.h_in == '0 || dec.w_in == '0) bad = 1'b1;
    if (dec.h_out == '0 || dec.w_out == '0) bad = 1'b1;
    if (32'(dec.h_in) > MaxDim || 32'(dec.w_in) > MaxDim) bad = 1'b1;
    if (32'(dec.h_out) > MaxDim || 32'(dec.w_out) > MaxDim) bad = 1'b1;
    if (dec.k == '0 || 32'(dec.k) > MaxK || dec.stride == '0 || dec.pad >= dec.k) bad = 1'b1;
    // Every output window must lie inside the padded input.
    if ((32'(dec.h_out) - 1) * 32'(dec.stride) + 32'(dec.k) > 32'(dec.h_in) + 2 * 32'(dec.pad)) bad = 1'b1;
    if ((32'(dec.w_out) - 1) * 32'(dec.stride) + 32'(dec.k) > 32'(dec.w_in) + 2 * 32'(dec.pad)) bad = 1'b1;
    if (feat_words > FeatDepth || ckk > FilterDepth) bad = 1'b1;
    if (dec.residual && dec.res_addr[3:0] != '0) bad = 1'b1;  // residual pixels are whole beats
  end

  logic [DimW-1:0] ngroups;
  assign ngroups = DimW'((32'(desc_q.c_out) + NPe - 1) / NPe);

  // Group launches.
  logic [DimW-1:0] f_oc0;
  logic [31:0]     f_left;
  assign f_oc0  = DimW'(32'(fg_q) * NPe);
  assign f_left = 32'(desc_q.c_out) - 32'(f_oc0);
  // A bank is full from its load's end until its group leaves the PEs.
  logic [1:0]  f_bank, l_bank, s_bank;   // banks of groups fg, lg, sg
  logic [31:0] nbanks;
  assign f_bank = fg_q[1:0] & banks_q;
  assign l_bank = lg_q[1:0] & banks_q;
  assign s_bank = sg_q[1:0] & banks_q;
  assign nbanks = 32'(banks_q) + 32'd1;
  // Input rows the next group's filters wait for (the band plan above).
  logic [31:0] gate_rows;
  logic        filt_may;
  always_comb begin
    gate_rows = 0;
    if (32'(fg_q) < EarlyGroups) gate_rows = BandFirst;
    else if (32'(fg_q) == EarlyGroups) gate_rows = BandFirst + BandRows;
    if (gate_rows > 32'(desc_q.h_in)) gate_rows = 32'(desc_q.h_in);
  end
  assign filt_may     = (fg_q < ngroups) && !bank_full_q[f_bank] && 32'(feat_rows_i) >= gate_rows;
  assign filt_start_o = (state_q == StRun) && filt_idle_i && filt_may;
  assign filt_bank_o  = f_bank;
  assign filt_oc0_o   = f_oc0;
  assign filt_n_o     = (f_left < NPe) ? (PeW+1)'(f_left) : (PeW+1)'(NPe);

  // Group lg starts once its bank is loaded and it has claimed its Writer
  // slot. The claim also keeps one group per bank in flight: the slot frees
  // only when group lg - banks has emitted its last pixel, long after it
  // left the PEs (until then its bank stays full with its own filters).
  assign sch_start_o = (state_q == StRun) && (lg_q < ngroups) && bank_full_q[l_bank] && (lg_q < wg_q);

  // Groups claim their bank's Writer slot in order as soon as it is free,
  // before their filters are in: a claimed slot holds the Writer's address
  // order at its group's next pixel, so the output of the first groups waits
  // in the Writer's ring (writes would freeze the port under the loads) and
  // then goes out as one sequential stream.
  logic [1:0] w_bank;
  assign w_bank     = wg_q[1:0] & banks_q;
  assign wr_start_o = (state_q == StRun) && (wg_q < ngroups) && !wr_busy_i[w_bank];
  assign wr_bank_o  = w_bank;
  assign wr_oc0_o   = DimW'(32'(wg_q) * NPe);
  assign sch_banks_o = banks_q;
  assign sch_bank_o  = l_bank;
  // The PEs idle for want of filters: no group in flight, the next one not loaded.
  assign filt_wait_o = (state_q == StRun) && (lg_q == sg_q) && (lg_q < ngroups) && !bank_full_q[l_bank];

  assign feat_start_o  = (state_q == StCheck) && !bad;
  assign feat_groups_o = DimW'(cgs);
  assign feat_h_o      = dec.h_in;
  assign feat_w_o      = dec.w_in;
  assign feat_addr_o   = dec.in_addr;  // desc_q loads at the same edge
  // Later bands wait while the Filter Loader loads or may load a group.
  assign feat_go_o     = (state_q == StRun) && filt_idle_i && !filt_may;

  // Next state; the flops below only register it.
  state_e            state_d;
  logic [15:0]       idx_d;
  logic [DimW-1:0]   beat_d, fg_d, lg_d, sg_d, wg_d;
  logic [2:0][127:0] raw_d;
  desc_t             desc_d;
  logic              feat_done_d;
  logic [1:0]        banks_d, filt_bank_d;
  logic [3:0]        bank_full_d;
  logic [15:0]       ckk_d;
  logic [7:0]        kk_d;
  logic signed [7:0] min_exp_d;

  always_comb begin
    state_d = state_q;
    {idx_d, beat_d, raw_d, desc_d} = {idx_q, beat_q, raw_q, desc_q};
    {fg_d, lg_d, sg_d, wg_d, bank_full_d, banks_d} = {fg_q, lg_q, sg_q, wg_q, bank_full_q, banks_q};
    {ckk_d, kk_d, min_exp_d} = {ckk_o, kk_o, min_exp_o};
    // The Feature Loader finishes at some point after the layer's StCheck
    // (which clears the flag, later in this block).
    feat_done_d = feat_done_q || feat_done_i;
    unique case (state_q)
      StIdle: if (start_i) begin
        idx_d   = '0;
        state_d = (desc_count_i == '0) ? StDone : StFetch;
      end
      StFetch: if (fetch_ready) begin
        beat_d  = '0;
        state_d = StFetchWait;
      end
      StFetchWait: if (fetch_beat) begin
        if (beat_q < DimW'(3)) raw_d[beat_q[1:0]] = fetch_data;
        beat_d = beat_q + 1'b1;
        if (fetch_done) state_d = StCheck;
      end
      StCheck: begin
        if (bad) begin
          state_d = StDone;
        end else begin
          desc_d    = dec;
          ckk_d     = 16'(ckk);
          kk_d      = 8'(kk);
          min_exp_d = dec.min_exp;
          // The layer's groups start from the first, every bank empty.
          {feat_done_d, fg_d, lg_d, sg_d, wg_d, bank_full_d} = '0;
          banks_d   = (2 * ckk <= FilterDepth) ? 2'd3 : 2'd1;
          state_d   = StQinFetch;
        end
      end
      StQinFetch: begin
        if (fetch_ready) begin
          beat_d  = '0;
          state_d = StQinWait;
        end
      end
      StQinWait: begin
        if (fetch_beat) begin
          beat_d = beat_q + 1'b1;
          if (fetch_done) state_d = StRun;
        end
      end
      StRun: begin
        if (filt_start_o) fg_d = fg_q + 1'b1;
        if (sch_start_o) lg_d = lg_q + 1'b1;
        if (wr_start_o) wg_d = wg_q + 1'b1;
        for (int unsigned b = 0; b < 4; b++) begin
          if (filt_done_i && filt_bank_q == 2'(b)) bank_full_d[b] = 1'b1;
          else if (sch_done_i && s_bank == 2'(b)) bank_full_d[b] = 1'b0;
        end
        if (sch_done_i) sg_d = sg_q + 1'b1;
        if (sg_q == ngroups && feat_done_q) state_d = StDrain;
      end
      StDrain: if (wr_idle_i && !slot_valid_i && sch_idle_i && filt_idle_i) begin
        if (idx_q + 16'd1 == desc_count_i) begin
          state_d = StDone;
        end else begin
          idx_d   = idx_q + 16'd1;
          state_d = StFetch;
        end
      end
      StDone: state_d = StIdle;
      default: state_d = StIdle;
    endcase
    filt_bank_d = filt_start_o ? f_bank : filt_bank_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= StIdle;
      idx_q       <= '0;
      beat_q      <= '0;
      raw_q       <= '0;
      desc_q      <= '0;
      feat_done_q <= 1'b0;
      fg_q        <= '0;
      lg_q        <= '0;
      sg_q        <= '0;
      wg_q        <= '0;
      bank_full_q <= '0;
      banks_q     <= 2'd1;
      ckk_o       <= '0;
      kk_o        <= '0;
      min_exp_o   <= '0;
      filt_bank_q <= '0;
    end else begin
      state_q     <= state_d;
      idx_q       <= idx_d;
      beat_q      <= beat_d;
      raw_q       <= raw_d;
      desc_q      <= desc_d;
      feat_done_q <= feat_done_d;
      fg_q        <= fg_d;
      lg_q        <= lg_d;
      sg_q        <= sg_d;
      wg_q        <= wg_d;
      bank_full_q <= bank_full_d;
      banks_q     <= banks_d;
      ckk_o       <= ckk_d;
      kk_o        <= kk_d;
      min_exp_o   <= min_exp_d;
      filt_bank_q <= filt_bank_d;
    end
  end

  assign qin_we_o    = (state_q == StQinWait) && fetch_beat;
  assign qin_waddr_o = beat_q;
  assign qin_wdata_o = fetch_data;

  assign busy_o   = (state_q != StIdle);
  assign done_o   = (state_q == StDone);
  assign desc_o   = desc_q;
  assign state_o       = state_q;
  assign group_o       = sg_q;
  assign feat_loaded_o = feat_done_q;

  // Errors: a bad descriptor, a 1111 code, a non-OKAY response.
  always_comb begin
    err_o      = 1'b1;
    err_code_o = ErrNone;
    if (state_q == StCheck && bad) err_code_o = ErrDesc;
    else if (filt_code_err_i) err_code_o = ErrCode;
    else if (fetch_err || feat_err_i || filt_axi_err_i || wr_rd_err_i) err_code_o = ErrAxiRead;
    else if (wr_err_i) err_code_o = ErrAxiWrite;
    else err_o = 1'b0;
  end
  assign err_desc_o = idx_q;

  // ---- Assertions (Verilated with --assert) --------------------------------
  `COSIM_ASSERT(a_legal_state,
                state_q inside {StIdle, StFetch, StFetchWait, StCheck, StQinFetch, StQinWait, StRun, StDrain, StDone},
                ("tf2_controller: illegal state %0d", state_q))
  // The filter banks are a FIFO of channel groups: a load never targets the
  // bank of a group that has not left the PEs (overflow), and the scheduler
  // starts only on a loaded bank (underflow).
  `COSIM_ASSERT_IF(a_filt_bank_free, 32'(fg_q) < 32'(sg_q) + nbanks, filt_start_o,
                   ("tf2_controller: filter bank %0d reloaded while its group runs", f_bank))
  `COSIM_ASSERT_IF(a_sch_bank_full, bank_full_q[l_bank] && lg_q < fg_q, sch_start_o,
                   ("tf2_controller: scheduler started on an empty filter bank %0d", l_bank))
  `COSIM_ASSERT_IF(a_sch_one_per_bank, 32'(lg_q) < 32'(sg_q) + nbanks, sch_start_o,
                   ("tf2_controller: group started on bank %0d while its previous group is in the PEs", l_bank))

endmodule
