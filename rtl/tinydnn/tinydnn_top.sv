// tiny-dnn bfloat16 convolution accelerator: 16 MAC cores (one output channel
// each) fed by a shared source buffer, one shared normaliser writing a
// double-banked float32 destination buffer, AXI-Stream in (4 x bf16 per
// beat) and out (2 x float32 per beat), a valid/ready register port.
`include "cosim_assert.svh"
`include "cosim_ports.svh"

module tinydnn_top
  import tinydnn_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,
  // Register port.
  `COSIM_REG_SLAVE_PORTS(6),
  // AXI-Stream slave: weights, bias and samples.
  input  logic        s_axis_tvalid_i,
  output logic        s_axis_tready_o,
  input  logic [63:0] s_axis_tdata_i,
  input  logic        s_axis_tlast_i,
  // AXI-Stream master: results.
  output logic        m_axis_tvalid_o,
  input  logic        m_axis_tready_i,
  output logic [63:0] m_axis_tdata_o,
  output logic        m_axis_tlast_o,
  output logic        busy_o,
  output logic        done_o,
  // Debug for the testbench: controller states (hang diagnosis) and the
  // MAC-step strobe (one step on every active core this cycle).
  output dbg_t        dbg_o,
  output logic        mac_step_o
);

  mode_t mode;
  cfg_t  cfg;
  logic  start, busy, cmd_done, cmd_err;

  logic            rx_start, rx_core_seg, rx_bank, rx_done;
  rx_kind_e        rx_kind;
  logic [CntW-1:0] rx_n_src, rx_n_core;
  logic                src_we;
  logic [SrcAddrW-1:0] src_waddr, src_raddr;
  logic [15:0]         rx_wdata, src_rdata, d;
  logic [NumCores-1:0] w_we, bias_we;
  logic [WAddrW-1:0]   w_waddr, w_raddr;

  logic            ctl_start, src_bank, w_bank, ctl_busy;
  logic            step_valid, step_first, step_last, step_bias;
  logic [CntW-1:0] step_pos, out_per_core;
  sum_t            hold [NumCores];

  logic                post_busy, post_idle, dst_bank, dw_acc;
  logic                dst_we;
  logic [DstAddrW-1:0] dst_raddr, dst_waddr;
  logic [31:0]         dst_rdata_q, dst_wdata;

  logic                tx_start, tx_bank, tx_done;
  logic [CntW-1:0]     tx_count;
  logic [DstAddrW-2:0] tx_addr;
  logic [63:0]         tx_data;

  // The register block is generated from tinydnn.yaml (tinydnn_reg_top); the
  // counters behind it are tinydnn_run_state.
  logic [31:0]     cycles, macs;
  `COSIM_REG_TOP(tinydnn, .idle_i (!busy));
  assign start = reg2hw.ctrl_start;
  assign mode  = '{last_sample: reg2hw.mode_last_sample, dw: reg2hw.mode_dw, backward: reg2hw.mode_backward,
                   en_bias: reg2hw.mode_en_bias, run: reg2hw.mode_run, wr_bias: reg2hw.mode_wr_bias,
                   wr_weights: reg2hw.mode_wr_weights};
  assign cfg   = '{kw: reg2hw.kw, kh: reg2hw.kh, iw: reg2hw.iw, ih: reg2hw.ih, id: reg2hw.id, ow: reg2hw.ow,
                   oh: reg2hw.oh, od: reg2hw.od, samples: reg2hw.samples};
  assign done_o = reg2hw.ctrl_done;

  tinydnn_run_state u_run (
    .clk_i, .rst_ni,
    .start_i (start), .busy_i (busy), .mac_step_i (step_valid), .od_i (cfg.od),
    .cycles_o (cycles), .macs_o (macs)
  );

  assign hw2reg = '{
    ctrl_busy:     busy,
    ctrl_done_set: cmd_done,
    ctrl_done_clr: start,
    ctrl_error:    cmd_err,
    cycles:        cycles,
    macs:          macs,
    default:       '0
  };

  dbg_t batch_dbg;

  tinydnn_batch_ctrl u_batch (
    .clk_i, .rst_ni,
    .start_i        (start),
    .mode_i         (mode),
    .cfg_i          (cfg),
    .busy_o         (busy),
    .done_o         (cmd_done),
    .err_o          (cmd_err),
    .rx_start_o     (rx_start),
    .rx_kind_o      (rx_kind),
    .rx_n_src_o     (rx_n_src),
    .rx_core_seg_o  (rx_core_seg),
    .rx_n_core_o    (rx_n_core),
    .rx_bank_o      (rx_bank),
    .rx_done_i      (rx_done),
    .ctl_start_o    (ctl_start),
    .src_bank_o     (src_bank),
    .w_bank_o       (w_bank),
    .ctl_busy_i     (ctl_busy),
    .post_idle_i    (post_idle),
    .dst_bank_o     (dst_bank),
    .dw_acc_o       (dw_acc),
    .out_per_core_o (out_per_core),
    .tx_start_o     (tx_start),
    .tx_bank_o      (tx_bank),
    .tx_count_o     (tx_count),
    .tx_done_i      (tx_done),
    .dbg_o          (batch_dbg)
  );

  tinydnn_axis_rx u_rx (
    .clk_i, .rst_ni,
    .start_i     (rx_start),
    .kind_i      (rx_kind),
    .n_src_i     (rx_n_src),
    .core_seg_i  (rx_core_seg),
    .n_core_i    (rx_n_core),
    .od_i        (cfg.od),
    .bank_i      (rx_bank),
    .done_o      (rx_done),
    .s_tvalid_i  (s_axis_tvalid_i),
    .s_tready_o  (s_axis_tready_o),
    .s_tdata_i   (s_axis_tdata_i),
    .s_tlast_i   (s_axis_tlast_i),
    .src_we_o    (src_we),
    .src_waddr_o (src_waddr),
    .wdata_o     (rx_wdata),
    .w_we_o      (w_we),
    .w_waddr_o   (w_waddr),
    .bias_we_o   (bias_we)
  );

  // Source buffer: two banks of bf16 (the next sample streams into one while
  // the cores read the other); one synchronous read port shared by all cores.
  cosim_ram #(.Width(16), .Depth(2 * SrcBankDepth)) u_src (
    .clk_i, .we_i (src_we), .waddr_i (src_waddr), .wmask_i (1'b1), .wdata_i (rx_wdata),
    .re_i (1'b1), .raddr_i (src_raddr), .rdata_o (src_rdata)
  );

  tinydnn_sample_ctrl u_ctl (
    .clk_i, .rst_ni,
    .start_i      (ctl_start),
    .cfg_i        (cfg),
    .backward_i   (mode.backward),
    .dw_i         (mode.dw),
    .en_bias_i    (mode.en_bias),
    .src_bank_i   (src_bank),
    .w_bank_i     (w_bank),
    .post_busy_i  (post_busy),
    .src_raddr_o  (src_raddr),
    .w_raddr_o    (w_raddr),
    .step_valid_o (step_valid),
    .step_first_o (step_first),
    .step_last_o  (step_last),
    .step_bias_o  (step_bias),
    .step_pos_o   (step_pos),
    .busy_o       (ctl_busy)
  );

  // The bias step multiplies by 1.0 instead of a source value.
  assign d = step_bias ? Bf16One : src_rdata;

  for (genvar k = 0; k < NumCores; k++) begin : g_core
    tinydnn_core u_core (
      .clk_i, .rst_ni,
      .w_we_i       (w_we[k]),
      .w_waddr_i    (w_waddr),
      .w_wdata_i    (rx_wdata),
      .bias_we_i    (bias_we[k]),
      .bias_wdata_i (rx_wdata),
      .w_raddr_i    (w_raddr),
      .step_valid_i (step_valid),
      .step_first_i (step_first),
      .step_last_i  (step_last),
      .step_bias_i  (step_bias),
      .d_i          (d),
      .hold_o       (hold[k])
    );
  end

  tinydnn_post u_post (
    .clk_i, .rst_ni,
    .load_i         (step_last),
    .pos_i          (step_pos),
    .hold_i         (hold),
    .od_i           (cfg.od),
    .out_per_core_i (out_per_core),
    .dst_bank_i     (dst_bank),
    .dw_acc_i       (dw_acc),
    .dst_raddr_o    (dst_raddr),
    .dst_rdata_i    (dst_rdata_q),
    .dst_we_o       (dst_we),
    .dst_waddr_o    (dst_waddr),
    .dst_wdata_o    (dst_wdata),
    .busy_o         (post_busy),
    .idle_o         (post_idle)
  );

  // Destination buffer: two banks of float32 stored as 64-bit words, so the
  // stream sender reads one whole output beat (2 x float32) per cycle. Ports:
  // a float32 write (stage 5), a registered float32 read (stage 3, the dW
  // accumulator) and a combinational 64-bit read (stream sender).
  logic [1:0][63:0] dst_rword;
  cosim_ram #(.Width(64), .Depth(DstBankDepth), .ChunkWidth(32), .NumRd(2), .ReadLatency(0)) u_dst (
    .clk_i, .we_i (dst_we), .waddr_i (dst_waddr[DstAddrW-1:1]),
    .wmask_i (dst_waddr[0] ? 2'b10 : 2'b01), .wdata_i ({dst_wdata, dst_wdata}),
    .re_i (2'b11), .raddr_i ({tx_addr, dst_raddr[DstAddrW-1:1]}), .rdata_o (dst_rword)
  );
  always_ff @(posedge clk_i) begin
    dst_rdata_q <= dst_raddr[0] ? dst_rword[0][63:32] : dst_rword[0][31:0];
  end
  assign tx_data = dst_rword[1];

  tinydnn_axis_tx u_tx (
    .clk_i, .rst_ni,
    .start_i    (tx_start),
    .bank_i     (tx_bank),
    .count_i    (tx_count),
    .done_o     (tx_done),
    .rd_addr_o  (tx_addr),
    .rd_data_i  (tx_data),
    .m_tvalid_o (m_axis_tvalid_o),
    .m_tready_i (m_axis_tready_i),
    .m_tdata_o  (m_axis_tdata_o),
    .m_tlast_o  (m_axis_tlast_o)
  );

  assign busy_o = busy;

  always_comb begin
    dbg_o           = batch_dbg;
    dbg_o.ctl_busy  = ctl_busy;
    dbg_o.post_busy = post_busy;
  end
  assign mac_step_o = step_valid;

  // ---- Assertions (Verilated with --assert) --------------------------------
  // AXI-Stream master: TVALID is held, with TDATA and TLAST stable, until the
  // sink takes the beat (AMBA AXI4-Stream 2.2.1).
  `COSIM_ASSERT_HELD(a_m_axis_stable, m_axis_tvalid_o, m_axis_tready_i, {m_axis_tdata_o, m_axis_tlast_o},
                     ("tinydnn_top: m_axis beat dropped or changed before TREADY"))

endmodule
