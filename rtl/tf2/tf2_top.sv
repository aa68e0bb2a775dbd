// TF2 shift-accumulate engine: register port, one AXI4 master (reads
// arbitrated between descriptor fetch, Filter Loader, Feature Loader and the
// Writer's residual map; writes from the Writer), Controller, Scheduler, PE array, Adder,
// requantization + ReLU and Writer. See tf2_pkg for the bus conventions and
// the register map, cpp_model/tf2/compiler.hpp for the DRAM layouts.
`include "cosim_assert.svh"
`include "cosim_ports.svh"

module tf2_top
  import tf2_pkg::*;
#(
  parameter int unsigned NPe         = DefNPe,       // 1, 2, 4, 8 or 16
  parameter int unsigned OCol3D      = DefOCol3D,
  parameter int unsigned KTap        = DefKTap,
  parameter int unsigned OCol2D      = DefOCol2D,
  parameter int unsigned FeatDepth   = DefFeatDepth,
  parameter int unsigned FilterDepth = DefFilterDepth,
  parameter int unsigned RingSlot    = DefRingSlot     // Writer's reorder ring: pixels per filter bank
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,

  // Register port.
  `COSIM_REG_SLAVE_PORTS(8),

  // AXI4 master.
  `COSIM_AXI_MASTER_PORTS(AxiAddrWidth, AxiDataWidth, AxiIdWidth),

  output logic                        busy_o,
  output logic                        done_o,           // CTRL.done
  output logic                        error_o,          // CTRL.error
  output logic [31:0]                 err_info_o,       // ERR_INFO

  // The debug vector (tf2.yaml `debug`: dbg_t): FSM states for the
  // testbench's diagnosis and timeline, per-cycle events for its counters;
  // not needed by a host.
  output dbg_t                        dbg_o
);

  localparam int unsigned NLanes = (OCol3D * KTap > OCol2D) ? OCol3D * KTap : OCol2D;
  localparam int unsigned NCol   = (OCol3D > OCol2D) ? OCol3D : OCol2D;
  localparam int unsigned FAW    = $clog2(FeatDepth);
  localparam int unsigned PeW    = (NPe > 1) ? $clog2(NPe) : 1;

  // The writer fills one 16-channel pixel word per beat; columns fit 4 bits.
  if (NPe == 0 || NPe > CVec || (CVec % NPe) != 0) begin : g_bad_npe
    $error("tf2_top: NPe must divide 16");
  end
  if (NCol > 15) begin : g_bad_ocol
    $error("tf2_top: OCol3D and OCol2D must be <= 15");
  end

  assign m_axi_awsize_o  = 3'($clog2(AxiDataWidth / 8));
  assign m_axi_arsize_o  = 3'($clog2(AxiDataWidth / 8));
  assign m_axi_awburst_o = 2'b01;
  assign m_axi_arburst_o = 2'b01;
  // A single write ID and one read burst at a time: the response IDs carry nothing.
  logic unused_ids;
  assign unused_ids = ^{m_axi_rid_i, m_axi_bid_i};
  assign m_axi_awid_o    = '0;

  // ---------------------------------------------------------------------------
  // Registers and controller
  // ---------------------------------------------------------------------------
  logic             start, busy, done, err;
  err_e             err_code;
  logic [15:0]      err_desc, desc_count;
  logic [AddrW-1:0] desc_addr;
  logic             pe_busy, filt_wait, out_wait;

  // The register block is generated from tf2.yaml (tf2_reg_top); the run's
  // state behind it is tf2_run_state.
  logic        done_set, error_set;
  logic [31:0] cycles, pe_busy_count, filt_wait_count, out_wait_count;
  `COSIM_REG_TOP(tf2, .idle_i (!busy));
  assign start      = reg2hw.ctrl_start;
  assign desc_count = reg2hw.desc_count;
  assign desc_addr  = reg2hw.desc_addr;
  assign done_o     = reg2hw.ctrl_done;
  assign error_o    = reg2hw.ctrl_error;

  tf2_run_state u_run (
    .clk_i, .rst_ni,
    .start_i (start), .done_i (done), .err_i (err), .err_code_i (err_code), .err_desc_i (err_desc),
    .pe_busy_i (pe_busy), .filt_wait_i (filt_wait), .out_wait_i (out_wait), .error_i (reg2hw.ctrl_error),
    .done_set_o (done_set), .error_set_o (error_set), .cycles_o (cycles), .pe_busy_o (pe_busy_count),
    .filt_wait_o (filt_wait_count), .out_wait_o (out_wait_count), .err_info_o (err_info_o)
  );

  assign hw2reg = '{
    ctrl_done_set:       done_set,
    ctrl_done_clr:       start,
    ctrl_error_set:      error_set,
    ctrl_error_clr:      start,
    ctrl_busy:           busy,
    cycles:              cycles,
    err_info_code:       err_info_o[3:0],
    err_info_desc_index: err_info_o[31:16],
    config_npe:          8'(NPe),
    config_ocol3d:       8'(OCol3D),
    config_ktap:         8'(KTap),
    config_ocol2d:       8'(OCol2D),
    pe_busy:             pe_busy_count,
    filt_wait:           filt_wait_count,
    out_wait:            out_wait_count,
    feat_depth:          32'(FeatDepth),
    filt_depth:          32'(FilterDepth),
    default:             '0
  };
  assign busy_o         = busy;

  // Read clients: 0 descriptor fetch, 1 Filter Loader, 2 Feature Loader,
  // 3 Writer (residual map). The Filter Loader goes before the Feature
  // Loader, so the first groups' filters are in while the map streams.
  logic [3:0]            ar_valid, ar_ready, r_valid;
  logic [3:0][AddrW-1:0] ar_addr;
  logic [3:0][7:0]       ar_len;

  // One read burst at a time: the clients compete with fixed priority (lowest
  // index first) for AR, passed straight through and held while ARREADY is
  // low; the winner owns R until RLAST, so R needs no routing by ID. ARID is
  // the client index.
  logic             rd_busy_q;
  logic [1:0]       rd_owner_q, ar_idx;
  logic             ar_take;
  logic             feat_hold_q, filt_hold_q;  // a loader keeps the read port (below)
  logic [AddrW-1:0] ar_addr_win;
  logic [AddrW+7:0] ar_req [4];
  for (genvar c = 0; c < 4; c++) begin : g_ar_req
    assign ar_req[c] = {ar_addr[c], ar_len[c]};
  end
  cosim_arbiter #(.NumReq(4), .DataWidth(AddrW + 8), .RoundRobin(1'b0), .LockIn(1'b1)) u_rd_arb (
    .clk_i, .rst_ni,
    .valid_i (ar_valid & {4{!rd_busy_q}} & ~{1'b0, filt_hold_q, feat_hold_q, 1'b0}),
    .ready_o (ar_ready),
    .data_i  (ar_req),
    .valid_o (m_axi_arvalid_o),
    .ready_i (m_axi_arready_i),
    .data_o  ({ar_addr_win, m_axi_arlen_o}),
    .idx_o   (ar_idx)
  );
  assign m_axi_araddr_o = AxiAddrWidth'(ar_addr_win);
  assign m_axi_arid_o   = AxiIdWidth'(ar_idx);
  assign ar_take        = m_axi_arvalid_o && m_axi_arready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_busy_q  <= 1'b0;
      rd_owner_q <= '0;
    end else if (!rd_busy_q) begin
      if (ar_take) begin
        rd_busy_q  <= 1'b1;
        rd_owner_q <= ar_idx;
      end
    end else if (m_axi_rvalid_i && m_axi_rlast_i) begin
      rd_busy_q <= 1'b0;
    end
  end

  always_comb begin
    r_valid = '0;
    if (rd_busy_q) r_valid[rd_owner_q] = m_axi_rvalid_i;
  end
  assign m_axi_rready_o = rd_busy_q;

  desc_t             desc;
  logic [15:0]       ckk;
  logic [7:0]        kk;
  logic signed [7:0] min_exp;
  logic              qin_we;
  logic [DimW-1:0]   qin_waddr, qin_raddr;
  logic [AxiDataWidth-1:0] qin_wdata;

  logic              feat_start, feat_go, feat_done, feat_err, feat_band_end;
  logic [DimW-1:0]   feat_groups, feat_h, feat_w, feat_rows;
  logic [AddrW-1:0]  feat_addr;
  logic [1:0]        filt_bank, sch_bank, sch_banks;
  logic              filt_start, filt_idle, filt_done, filt_code_err, filt_axi_err;
  logic [DimW-1:0]   filt_oc0;
  logic [PeW:0]      filt_n;
  logic              sch_start, sch_idle, sch_done;
  logic              wr_idle, wr_err, wr_rd_err;
  logic              wr_start;
  logic [1:0]        wr_bank;
  logic [DimW-1:0]   wr_oc0;
  logic [3:0]        wr_busy;
  logic [3:0][31:0]  wr_limit;
  logic              slot_valid, slot_pop;
  // The units' states the debug vector carries.
  logic [3:0]        ctrl_state;
  logic [DimW-1:0]   ctrl_group;
  logic              feat_loaded;
  logic [2:0]        filt_state, wr_state;

  tf2_controller #(.NPe(NPe), .FeatDepth(FeatDepth), .FilterDepth(FilterDepth)) u_ctrl (
    .clk_i, .rst_ni,
    .start_i       (start),
    .desc_addr_i   (desc_addr),
    .desc_count_i  (desc_count),
    .busy_o        (busy),
    .done_o        (done),
    .err_o         (err),
    .err_code_o    (err_code),
    .err_desc_o    (err_desc),
    .desc_o        (desc),
    .ckk_o         (ckk),
    .kk_o          (kk),
    .min_exp_o     (min_exp),
    .qin_we_o      (qin_we),
    .qin_waddr_o   (qin_waddr),
    .qin_wdata_o   (qin_wdata),
    `COSIM_AXI_READ_CLIENT_AT(0),
    .feat_start_o  (feat_start),
    .feat_groups_o (feat_groups),
    .feat_h_o      (feat_h),
    .feat_w_o      (feat_w),
    .feat_addr_o   (feat_addr),
    .feat_go_o     (feat_go),
    .feat_rows_i   (feat_rows),
    .feat_done_i   (feat_done),
    .feat_err_i    (feat_err),
    .filt_start_o  (filt_start),
    .filt_bank_o   (filt_bank),
    .filt_oc0_o    (filt_oc0),
    .filt_n_o      (filt_n),
    .filt_idle_i   (filt_idle),
    .filt_done_i   (filt_done),
    .filt_code_err_i(filt_code_err),
    .filt_axi_err_i(filt_axi_err),
    .sch_start_o   (sch_start),
    .sch_banks_o   (sch_banks),
    .sch_bank_o    (sch_bank),
    .sch_idle_i    (sch_idle),
    .sch_done_i    (sch_done),
    .filt_wait_o   (filt_wait),
    .wr_idle_i     (wr_idle),
    .wr_start_o    (wr_start),
    .wr_bank_o     (wr_bank),
    .wr_oc0_o      (wr_oc0),
    .wr_busy_i     (wr_busy),
    .slot_valid_i  (slot_valid),
    .wr_err_i      (wr_err),
    .wr_rd_err_i   (wr_rd_err),
    .state_o       (ctrl_state),
    .group_o       (ctrl_group),
    .feat_loaded_o (feat_loaded)
  );

  // ---------------------------------------------------------------------------
  // Feature path
  // ---------------------------------------------------------------------------
  logic                  fc_we;
  logic [FAW-1:0]        fc_waddr;
  logic [CVec*8-1:0]     fc_wdata;
  logic                  fc_re;
  logic [NLanes-1:0]     fc_lane;
  logic [NLanes-1:0][FAW-1:0]    fc_raddr;
  logic [NLanes-1:0][CVec*8-1:0] fc_rdata;

  tf2_feature_loader #(.Depth(FeatDepth)) u_feat_ld (
    .clk_i, .rst_ni,
    .start_i   (feat_start),
    .addr_i    (feat_addr),
    .groups_i  (feat_groups),
    .h_i       (feat_h),
    .w_i       (feat_w),
    .go_i      (feat_go),
    .rows_o    (feat_rows),
    .band_end_o(feat_band_end),
    .done_o    (feat_done),
    .err_o     (feat_err),
    .we_o      (fc_we),
    .waddr_o   (fc_waddr),
    .wdata_o   (fc_wdata),
    `COSIM_AXI_READ_CLIENT_AT(2)
  );

  // A Filter Loader group (params and codes) and a Feature Loader band
  // (its rows of every channel group) each keep the read port from their
  // first burst to their last: the two loaders alternate, a group between
  // two bands, and each one's reads stay sequential.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      feat_hold_q <= 1'b0;
      filt_hold_q <= 1'b0;
    end else begin
      if (ar_take && ar_idx == 2'd1) filt_hold_q <= 1'b1;
      else if (filt_done) filt_hold_q <= 1'b0;
      if (ar_take && ar_idx == 2'd2) feat_hold_q <= 1'b1;
      else if (feat_band_end) feat_hold_q <= 1'b0;
    end
  end

  // Feature cache: the layer's whole input map channel group by channel
  // group, one 16-channel pixel per word (address (cg*h_in + iy)*w_in + ix),
  // filled row by row while the Scheduler reads the rows already in; NLanes
  // registered read lanes advancing together, a disabled lane reads zeros
  // (padding).
  logic [NLanes-1:0][CVec*8-1:0] fc_ram_rdata;
  logic [NLanes-1:0]             fc_lane_q;
  cosim_ram #(.Width(CVec * 8), .Depth(FeatDepth), .NumRd(NLanes)) u_feat_cache (
    .clk_i,
    .we_i   (fc_we),
    .waddr_i(fc_waddr),
    .wmask_i(1'b1),
    .wdata_i(fc_wdata),
    .re_i   ({NLanes{fc_re}} & fc_lane),
    .raddr_i(fc_raddr),
    .rdata_o(fc_ram_rdata)
  );
  always_ff @(posedge clk_i) begin
    if (fc_re) fc_lane_q <= fc_lane;
  end
  for (genvar l = 0; l < NLanes; l++) begin : g_fc_lane
    assign fc_rdata[l] = fc_lane_q[l] ? fc_ram_rdata[l] : '0;
  end

  // Input-Q table: one int8 Q per input channel, a 16-channel group per
  // word (the controller loads it after the descriptor); read with the
  // feature vectors, so each beat carries its channels' Q into s1.
  localparam int unsigned QinDepth = (FilterDepth + CVec - 1) / CVec;  // c_in <= FilterDepth
  localparam int unsigned QinAw    = (QinDepth > 1) ? $clog2(QinDepth) : 1;
  logic [CVec-1:0][7:0] s1_qin;
  /* verilator lint_off UNUSEDSIGNAL */  // group indices above the table's depth are refused (ErrDesc)
  logic [DimW-1:0] qin_waddr_full, qin_raddr_full;
  /* verilator lint_on UNUSEDSIGNAL */
  assign qin_waddr_full = qin_waddr;
  assign qin_raddr_full = qin_raddr;
  cosim_ram #(.Width(CVec * 8), .Depth(QinDepth)) u_qin (
    .clk_i,
    .we_i   (qin_we),
    .waddr_i(qin_waddr_full[QinAw-1:0]),
    .wmask_i(1'b1),
    .wdata_i(qin_wdata),
    .re_i   (fc_re),
    .raddr_i(qin_raddr_full[QinAw-1:0]),
    .rdata_o(s1_qin)
  );

  // ---------------------------------------------------------------------------
  // Filter path
  // ---------------------------------------------------------------------------
  logic                    pw_valid, cw_valid;
  logic [1:0]              pw_bank, cw_bank;
  logic [PeW-1:0]          pw_pe;
  logic [31:0]             pw_bias, pw_alpha, pw_beta;
  logic signed [7:0]       pw_qout;
  logic signed [31:0]      cw_pos;
  logic [AxiDataWidth-1:0] cw_codes;

  tf2_filter_loader #(.NPe(NPe)) u_filt_ld (
    .clk_i, .rst_ni,
    .start_i    (filt_start),
    .idle_o     (filt_idle),
    .bank_i     (filt_bank),
    .oc0_i      (filt_oc0),
    .n_i        (filt_n),
    .ckk_i      (ckk),
    .wgt_addr_i (desc.wgt_addr),
    .done_o     (filt_done),
    .code_err_o (filt_code_err),
    .axi_err_o  (filt_axi_err),
    .state_o    (filt_state),
    .pw_valid_o (pw_valid),
    .pw_bank_o  (pw_bank),
    .pw_pe_o    (pw_pe),
    .pw_bias_o  (pw_bias),
    .pw_alpha_o (pw_alpha),
    .pw_beta_o  (pw_beta),
    .pw_qout_o  (pw_qout),
    .cw_valid_o (cw_valid),
    .cw_bank_o  (cw_bank),
    .cw_pos_o   (cw_pos),
    .cw_codes_o (cw_codes),
    `COSIM_AXI_READ_CLIENT_AT(1)
  );

  // ---------------------------------------------------------------------------
  // Scheduler, PE array, writer
  // ---------------------------------------------------------------------------
  logic            adv, s1_valid, s1_mode3d, s2_valid, s2_first, s2_last, s2_mode3d;
  logic [1:0]      s1_bank, s2_bank;
  logic [31:0]     s1_wbase;
  logic [CVec-1:0] s1_cmask;
  logic [KTap-1:0] s1_tmask;
  logic [1:0]      slot_bank;
  logic [31:0]     slot_pix;
  logic [3:0]      slot_ncols;
  logic [NPe-1:0][NCol-1:0][31:0] slot_acc;
  logic [NPe-1:0][31:0]           slot_alpha, slot_beta;

  tf2_scheduler #(
    .OCol3D(OCol3D), .KTap(KTap), .OCol2D(OCol2D), .FeatDepth(FeatDepth)
  ) u_sched (
    .clk_i, .rst_ni,
    .desc_i      (desc),
    .rows_i      (feat_rows),
    .limit_i     (wr_limit),
    .banks_i     (sch_banks),
    .start_i     (sch_start),
    .bank_i      (sch_bank),
    .idle_o      (sch_idle),
    .done_o      (sch_done),
    .fc_re_o     (fc_re),
    .fc_lane_o   (fc_lane),
    .fc_addr_o   (fc_raddr),
    .qin_addr_o  (qin_raddr),
    .adv_o       (adv),
    .s1_valid_o  (s1_valid),
    .s1_mode3d_o (s1_mode3d),
    .s1_bank_o   (s1_bank),
    .s1_wbase_o  (s1_wbase),
    .s1_cmask_o  (s1_cmask),
    .s1_tmask_o  (s1_tmask),
    .s2_valid_o  (s2_valid),
    .s2_first_o  (s2_first),
    .s2_last_o   (s2_last),
    .s2_mode3d_o (s2_mode3d),
    .s2_bank_o   (s2_bank),
    .slot_valid_o(slot_valid),
    .slot_pop_i  (slot_pop),
    .slot_bank_o (slot_bank),
    .slot_pix_o  (slot_pix),
    .slot_ncols_o(slot_ncols),
    .pe_busy_o   (pe_busy),
    .out_wait_o  (out_wait)
  );

  tf2_pe_array #(
    .NPe(NPe), .OCol3D(OCol3D), .KTap(KTap), .OCol2D(OCol2D), .FilterDepth(FilterDepth)
  ) u_pe_array (
    .clk_i, .rst_ni,
    .ckk_i      (ckk),
    .kk_i       (kk),
    .min_exp_i  (min_exp),
    .pw_valid_i (pw_valid),
    .pw_bank_i  (pw_bank),
    .pw_pe_i    (pw_pe),
    .pw_bias_i  (pw_bias),
    .pw_alpha_i (pw_alpha),
    .pw_beta_i  (pw_beta),
    .pw_qout_i  (pw_qout),
    .cw_valid_i (cw_valid),
    .cw_bank_i  (cw_bank),
    .cw_pos_i   (cw_pos),
    .cw_codes_i (cw_codes),
    .adv_i      (adv),
    .s1_valid_i (s1_valid),
    .s1_mode3d_i(s1_mode3d),
    .s1_bank_i  (s1_bank),
    .s1_wbase_i (s1_wbase),
    .s1_cmask_i (s1_cmask),
    .s1_tmask_i (s1_tmask),
    .s1_feat_i  (fc_rdata),
    .s1_qin_i   (s1_qin),
    .s2_valid_i (s2_valid),
    .s2_first_i (s2_first),
    .s2_last_i  (s2_last),
    .s2_mode3d_i(s2_mode3d),
    .s2_bank_i  (s2_bank),
    .slot_acc_o (slot_acc),
    .slot_alpha_o(slot_alpha),
    .slot_beta_o(slot_beta)
  );

  tf2_writer #(.NPe(NPe), .OCol3D(OCol3D), .OCol2D(OCol2D), .SlotWords(RingSlot)) u_writer (
    .clk_i, .rst_ni,
    .desc_i      (desc),
    .idle_o      (wr_idle),
    .err_o       (wr_err),
    .rd_err_o    (wr_rd_err),
    .state_o     (wr_state),
    .start_i     (wr_start),
    .bank_i      (wr_bank),
    .oc0_i       (wr_oc0),
    .slot_busy_o (wr_busy),
    .limit_o     (wr_limit),
    .slot_valid_i(slot_valid),
    .slot_pop_o  (slot_pop),
    .slot_bank_i (slot_bank),
    .slot_pix_i  (slot_pix),
    .slot_ncols_i(slot_ncols),
    .slot_acc_i  (slot_acc),
    .slot_alpha_i(slot_alpha),
    .slot_beta_i (slot_beta),
    `COSIM_AXI_READ_CLIENT_AT(3),
    .m_awvalid_o (m_axi_awvalid_o),
    .m_awready_i (m_axi_awready_i),
    .m_awaddr_o  (m_axi_awaddr_o),
    .m_awlen_o   (m_axi_awlen_o),
    .m_wvalid_o  (m_axi_wvalid_o),
    .m_wready_i  (m_axi_wready_i),
    .m_wdata_o   (m_axi_wdata_o),
    .m_wstrb_o   (m_axi_wstrb_o),
    .m_wlast_o   (m_axi_wlast_o),
    .m_bvalid_i  (m_axi_bvalid_i),
    .m_bready_o  (m_axi_bready_o),
    .m_bresp_i   (m_axi_bresp_i)
  );

  assign dbg_o = '{ctrl_state: ctrl_state, filt_state: filt_state, wr_state: wr_state,
                   rd_busy: rd_busy_q, rd_owner: rd_owner_q, feat_loaded: feat_loaded, sched_idle: sch_idle,
                   pe_busy: pe_busy, filt_wait: filt_wait, out_wait: out_wait, desc_idx: err_desc,
                   group: ctrl_group};

  // ---- Assertions (Verilated with --assert) --------------------------------
  // AXI4 master handshakes: a valid is held, with its payload stable, until
  // the slave takes it (AXI4 A3.2.1).
  `COSIM_ASSERT_HELD(a_ar_stable, m_axi_arvalid_o, m_axi_arready_i, {m_axi_araddr_o, m_axi_arlen_o},
                     ("tf2_top: AR dropped or changed before ARREADY"))
  `COSIM_ASSERT_HELD(a_aw_stable, m_axi_awvalid_o, m_axi_awready_i, {m_axi_awaddr_o, m_axi_awlen_o},
                     ("tf2_top: AW dropped or changed before AWREADY"))
  `COSIM_ASSERT_HELD(a_w_stable, m_axi_wvalid_o, m_axi_wready_i, {m_axi_wdata_o, m_axi_wstrb_o, m_axi_wlast_o},
                     ("tf2_top: W beat dropped or changed before WREADY"))

endmodule
