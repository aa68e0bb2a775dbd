// Batch controller: runs one command. Weights and bias are one packet each.
// A run is the mini-batch loop, three overlapping processes over the double
// banks: receive sample k into source bank k%2 (dW: its delta into weight
// bank k%2), compute it once its bank is full, stream its results out of
// destination bank k%2 (dW: accumulate every sample in bank 0 and stream it
// once, after the sample that ends the mini-batch).
`include "cosim_assert.svh"
module tinydnn_batch_ctrl
  import tinydnn_pkg::*;
(
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  // The MAC-level mode bits (bias, backward) are not the batch loop's business.
  /* verilator lint_off UNUSEDSIGNAL */
  input  mode_t           mode_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  cfg_t            cfg_i,
  output logic            busy_o,
  output logic            done_o,
  output logic            err_o,    // last command rejected: a size was 0 or OD > NumCores
  // Stream receiver.
  output logic            rx_start_o,
  output rx_kind_e        rx_kind_o,
  output logic [CntW-1:0] rx_n_src_o,
  output logic            rx_core_seg_o,
  output logic [CntW-1:0] rx_n_core_o,
  output logic            rx_bank_o,
  input  logic            rx_done_i,
  // Sample controller and post pipeline.
  output logic            ctl_start_o,
  output logic            src_bank_o,
  output logic            w_bank_o,
  input  logic            ctl_busy_i,
  input  logic            post_idle_i,
  output logic            dst_bank_o,
  output logic            dw_acc_o,
  output logic [CntW-1:0] out_per_core_o,
  // Stream sender.
  output logic            tx_start_o,
  output logic            tx_bank_o,
  output logic [CntW-1:0] tx_count_o,
  input  logic            tx_done_i,
  // Debug: controller state (ctl_busy / post_busy filled in by the top).
  output dbg_t            dbg_o
);

  typedef enum logic [1:0] {StIdle, StLoad, StRun} state_e;
  state_e state_q;

  logic [15:0] rx_cnt_q, cmp_cnt_q, tx_cnt_q, tx_expect;
  logic        rx_busy_q, cmp_busy_q, tx_busy_q;
  logic        rx_bank_q, cmp_bank_q, tx_bank_q;
  logic [1:0]  src_full_q, dst_full_q, src_set, src_clr, dst_set, dst_clr;
  logic        dw_have_q, dw_acc_q;
  logic        cmp_done, tx_bank, run_done;
  // Wide products for the address math; only the low bits address memory.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] n_src, n_wts, n_dlt, opc;
  /* verilator lint_on UNUSEDSIGNAL */
  logic        cfg_bad, err_q;

  always_comb begin
    n_src = {24'd0, cfg_i.id} * {24'd0, cfg_i.ih} * {24'd0, cfg_i.iw};
    n_wts = {24'd0, cfg_i.id} * {24'd0, cfg_i.kh} * {24'd0, cfg_i.kw};
    n_dlt = {24'd0, cfg_i.kh} * {24'd0, cfg_i.kw};
    opc   = {24'd0, cfg_i.oh} * {24'd0, cfg_i.ow} * (mode_i.dw ? {24'd0, cfg_i.id} : 32'd1);
    // Sizes that would make a loop count from zero (and never end) are refused.
    cfg_bad = (cfg_i.kw == '0) || (cfg_i.kh == '0) || (cfg_i.iw == '0) || (cfg_i.ih == '0) ||
              (cfg_i.id == '0) || (cfg_i.ow == '0) || (cfg_i.oh == '0) || (cfg_i.od == '0) ||
              ({24'd0, cfg_i.od} > NumCores) || (cfg_i.samples == '0);
  end
  assign out_per_core_o = opc[CntW-1:0];
  assign tx_count_o     = opc[CntW-1:0] * {5'd0, cfg_i.od};

  always_comb begin
    tx_expect = mode_i.dw ? {15'd0, mode_i.last_sample} : cfg_i.samples;
    tx_bank   = mode_i.dw ? 1'b0 : tx_cnt_q[0];

    // Receiver: a weights or bias packet, or the next sample into a free bank.
    rx_start_o    = 1'b0;
    rx_kind_o     = RxSample;
    rx_n_src_o    = n_src[CntW-1:0];
    rx_core_seg_o = mode_i.dw;
    rx_n_core_o   = n_dlt[CntW-1:0];
    rx_bank_o     = rx_cnt_q[0];
    if (state_q == StIdle && start_i && !cfg_bad && mode_i.wr_weights) begin
      rx_start_o    = 1'b1;
      rx_kind_o     = RxWeights;
      rx_n_src_o    = '0;
      rx_core_seg_o = 1'b1;
      rx_n_core_o   = n_wts[CntW-1:0];
      rx_bank_o     = 1'b0;
    end else if (state_q == StIdle && start_i && !cfg_bad && mode_i.wr_bias) begin
      rx_start_o    = 1'b1;
      rx_kind_o     = RxBias;
      rx_n_src_o    = '0;
      rx_core_seg_o = 1'b1;
      rx_n_core_o   = {{(CntW-1){1'b0}}, 1'b1};
      rx_bank_o     = 1'b0;
    end else if (state_q == StRun && !rx_busy_q && rx_cnt_q != cfg_i.samples &&
                 !src_full_q[rx_cnt_q[0]]) begin
      rx_start_o = 1'b1;
    end

    ctl_start_o = state_q == StRun && !cmp_busy_q && cmp_cnt_q != cfg_i.samples &&
                  src_full_q[cmp_cnt_q[0]] && (mode_i.dw || !dst_full_q[cmp_cnt_q[0]]);
    // One cycle after the start the sample controller already reports busy.
    cmp_done    = cmp_busy_q && !ctl_busy_i && post_idle_i;
    tx_start_o  = state_q == StRun && !tx_busy_q && tx_cnt_q != tx_expect && dst_full_q[tx_bank];

    src_set = '0;
    src_clr = '0;
    dst_set = '0;
    dst_clr = '0;
    if (state_q == StRun && rx_busy_q && rx_done_i) src_set[rx_bank_q] = 1'b1;
    if (cmp_done) begin
      src_clr[cmp_bank_q] = 1'b1;
      if (!mode_i.dw) dst_set[cmp_bank_q] = 1'b1;
      else if (mode_i.last_sample && cmp_cnt_q == cfg_i.samples - 16'd1) dst_set[0] = 1'b1;
    end
    if (tx_busy_q && tx_done_i) dst_clr[tx_bank_q] = 1'b1;

    run_done = state_q == StRun && !rx_busy_q && !cmp_busy_q && !tx_busy_q &&
               rx_cnt_q == cfg_i.samples && cmp_cnt_q == cfg_i.samples && tx_cnt_q == tx_expect;
  end

  assign src_bank_o = cmp_cnt_q[0];
  assign w_bank_o   = mode_i.dw ? cmp_cnt_q[0] : 1'b0;
  assign dst_bank_o = mode_i.dw ? 1'b0 : cmp_bank_q;
  assign dw_acc_o   = dw_acc_q;
  assign tx_bank_o  = tx_bank;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      rx_cnt_q   <= '0;
      cmp_cnt_q  <= '0;
      tx_cnt_q   <= '0;
      rx_busy_q  <= 1'b0;
      cmp_busy_q <= 1'b0;
      tx_busy_q  <= 1'b0;
      rx_bank_q  <= 1'b0;
      cmp_bank_q <= 1'b0;
      tx_bank_q  <= 1'b0;
      src_full_q <= '0;
      dst_full_q <= '0;
      dw_have_q  <= 1'b0;
      dw_acc_q   <= 1'b0;
      done_o     <= 1'b0;
      err_q      <= 1'b0;
    end else begin
      done_o <= 1'b0;
      unique case (state_q)
        StIdle: begin
          if (start_i) err_q <= cfg_bad;
          if (start_i && cfg_bad) begin
            done_o <= 1'b1;
          end else if (start_i) begin
            if (mode_i.wr_weights || mode_i.wr_bias) begin
              state_q <= StLoad;
            end else if (mode_i.run) begin
              state_q    <= StRun;
              rx_cnt_q   <= '0;
              cmp_cnt_q  <= '0;
              tx_cnt_q   <= '0;
              src_full_q <= '0;
              dst_full_q <= '0;
              // Any other command ends a pending dW accumulation.
              if (!mode_i.dw) dw_have_q <= 1'b0;
            end else begin
              done_o <= 1'b1;
            end
          end
        end
        StLoad: begin
          if (rx_done_i) begin
            state_q <= StIdle;
            done_o  <= 1'b1;
          end
        end
        StRun: begin
          src_full_q <= (src_full_q & ~src_clr) | src_set;
          dst_full_q <= (dst_full_q & ~dst_clr) | dst_set;
          if (rx_start_o) begin
            rx_busy_q <= 1'b1;
            rx_bank_q <= rx_cnt_q[0];
          end else if (rx_busy_q && rx_done_i) begin
            rx_busy_q <= 1'b0;
            rx_cnt_q  <= rx_cnt_q + 16'd1;
          end
          if (ctl_start_o) begin
            cmp_busy_q <= 1'b1;
            cmp_bank_q <= cmp_cnt_q[0];
            dw_acc_q   <= mode_i.dw && dw_have_q;
          end else if (cmp_done) begin
            cmp_busy_q <= 1'b0;
            cmp_cnt_q  <= cmp_cnt_q + 16'd1;
            if (mode_i.dw) dw_have_q <= 1'b1;
          end
          if (tx_start_o) begin
            tx_busy_q <= 1'b1;
            tx_bank_q <= tx_bank;
          end else if (tx_busy_q && tx_done_i) begin
            tx_busy_q <= 1'b0;
            tx_cnt_q  <= tx_cnt_q + 16'd1;
            if (mode_i.dw) dw_have_q <= 1'b0;
          end
          if (run_done) begin
            state_q <= StIdle;
            done_o  <= 1'b1;
          end
        end
        default: state_q <= StIdle;
      endcase
    end
  end

  assign busy_o = state_q != StIdle;
  assign err_o  = err_q;

  assign dbg_o = '{
    batch_state: state_q,
    rx_busy:     rx_busy_q,
    cmp_busy:    cmp_busy_q,
    tx_busy:     tx_busy_q,
    src_full:    src_full_q,
    dst_full:    dst_full_q,
    rx_cnt:      rx_cnt_q,
    cmp_cnt:     cmp_cnt_q,
    tx_cnt:      tx_cnt_q,
    default:     '0
  };

  // ---- Assertions (Verilated with --assert) --------------------------------
  `COSIM_ASSERT(a_legal_state, state_q inside {StIdle, StLoad, StRun},
                ("tinydnn_batch_ctrl: illegal state %0d", state_q))
  // The source and destination banks are two-entry FIFOs of samples: a
  // sample is received only into a free source bank and computed only into a
  // free destination bank (overflow), computed only from a full source bank
  // and streamed only from a full destination bank (underflow).
  `COSIM_ASSERT_IF(a_src_no_overflow, !src_full_q[rx_cnt_q[0]], state_q == StRun && rx_start_o,
                   ("tinydnn_batch_ctrl: sample received into full source bank %0d", rx_cnt_q[0]))
  `COSIM_ASSERT_IF(a_dst_no_overflow, !dst_full_q[cmp_cnt_q[0]], ctl_start_o && !mode_i.dw,
                   ("tinydnn_batch_ctrl: sample computed into full destination bank %0d", cmp_cnt_q[0]))
  `COSIM_ASSERT_IF(a_src_no_underflow, src_full_q[cmp_cnt_q[0]], ctl_start_o,
                   ("tinydnn_batch_ctrl: sample computed from empty source bank %0d", cmp_cnt_q[0]))
  `COSIM_ASSERT_IF(a_dst_no_underflow, dst_full_q[tx_bank], tx_start_o,
                   ("tinydnn_batch_ctrl: results streamed from empty destination bank %0d", tx_bank))

endmodule
