// VTA core top: fetch, three instruction queues, the LOAD / COMPUTE / STORE
// engines, four token queues, the INP / WGT / ACC / UOP buffers, one AXI4
// master to DRAM and the host register block. See vta_pkg for the register
// map, the AXI conventions and the status_o layout.
`include "cosim_ports.svh"

module vta_top import vta_pkg::*; #(
  parameter int unsigned InpDepth  = vta_pkg::DefInpDepth,
  parameter int unsigned WgtDepth  = vta_pkg::DefWgtDepth,
  parameter int unsigned AccDepth  = vta_pkg::DefAccDepth,
  parameter int unsigned UopDepth  = vta_pkg::DefUopDepth,
  parameter int unsigned DataWidth = vta_pkg::AxiDataWidth,
  localparam int unsigned AddrWidth = vta_pkg::AxiAddrWidth,
  localparam int unsigned IdWidth   = vta_pkg::AxiIdWidth,
  localparam int unsigned StrbWidth = DataWidth / 8
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  // Host registers.
  `COSIM_REG_SLAVE_PORTS(RegAddrWidth),

  // AXI4 master.
  `COSIM_AXI_MASTER_PORTS(AddrWidth, DataWidth, IdWidth),

  // Run state and debug (status_t).
  output logic                     done_o,
  output logic                     error_o,
  output logic [127:0]             status_o
);

  localparam int unsigned InpAw = $clog2(InpDepth);
  localparam int unsigned WgtAw = $clog2(WgtDepth);
  localparam int unsigned AccAw = $clog2(AccDepth);
  localparam int unsigned UopAw = $clog2(UopDepth);
  localparam int unsigned QCntW = $clog2(InsnQueueDepth + 1);

  // Lint: widths other than 64 / 128 bits would split instructions or INP /
  // OUT elements across partial beats, which the engines do not do.
  if (DataWidth != 64 && DataWidth != 128) begin : g_bad_width
    $error("vta_top: DataWidth must be 64 or 128");
  end

  // rlast / bid are not needed: each client counts its beats, and the STORE
  // engine is the only writer.
  logic unused;
  assign unused = m_axi_rlast_i ^ (^m_axi_bid_i);

  // ---------------------------------------------------------------------------
  // Registers and run control.
  // ---------------------------------------------------------------------------
  logic start, running, done, error, finish;
  logic [31:0] insn_count, insn_addr;
  logic [3:0] err_pulse;
  err_e [3:0] err_code;
  err_e err_code_q;
  engine_e err_engine_q;
  logic [NumPerf-1:0][7:0] perf_inc;
  status_t status;

  // The register block is generated from vta.yaml (vta_reg_top); the run's
  // state behind it is vta_run_state.
  logic [31:0] cycles;
  logic [31:0] perf [NumPerf];
  logic run_done, run_error;
  `COSIM_REG_TOP(vta, .perf_i (perf));
  assign start      = reg2hw.ctrl_start;
  assign insn_count = reg2hw.insn_count;
  assign insn_addr  = reg2hw.insn_addr;
  assign done       = reg2hw.ctrl_done;
  assign error      = reg2hw.ctrl_error;

  vta_run_state u_run (
    .clk_i, .rst_ni,
    .start_i (start), .finish_i (finish), .err_i (err_pulse), .err_code_i (err_code),
    .perf_inc_i (perf_inc), .error_i (error),
    .running_o (running), .done_set_o (run_done), .error_set_o (run_error), .cycles_o (cycles),
    .err_code_o (err_code_q), .err_engine_o (err_engine_q), .perf_o (perf)
  );

  assign hw2reg = '{
    ctrl_start:      running,
    ctrl_done_set:   run_done,
    ctrl_done_clr:   start,
    ctrl_error_set:  run_error,
    ctrl_error_clr:  start,
    cycles:          cycles,
    err_info_code:   err_code_q,
    err_info_engine: err_engine_q,
    status_lo:       status[31:0],
    default:         '0
  };

  logic clr, halt;
  assign clr  = start;
  assign halt = error;

  // The DMA read clients' requests and beats, by their AXI ID (IdFetch,
  // IdLoad, IdCompute): each has a burst splitter; the AR arbiter and the R
  // demultiplexer are below.
  logic [2:0] req_valid, req_ready, r_valid, r_ready;
  logic [2:0][AddrWidth-1:0] req_addr;
  logic [2:0][31:0] req_beats;

  // ---------------------------------------------------------------------------
  // Fetch and instruction queues.
  // ---------------------------------------------------------------------------
  logic [31:0] f_remaining;
  logic [7:0] f_pf_count;
  logic lq_in_valid, lq_in_ready, cq_in_valid, cq_in_ready, sq_in_valid, sq_in_ready;
  logic [InsnWidth-1:0] f_insn;
  logic f_err;
  err_e f_err_code;

  logic [QCntW-1:0] lq_count, cq_count, sq_count;
  logic [15:0] queued;  // instructions in the three engine queues
  assign queued = 16'(lq_count) + 16'(cq_count) + 16'(sq_count);
  vta_fetch #(.DataWidth(DataWidth), .AddrWidth(AddrWidth)) u_fetch (
    .clk_i, .rst_ni, .clr_i (1'b0), .halt_i (halt),
    .start_i (start), .insn_addr_i (insn_addr), .insn_count_i (insn_count), .queued_i (queued),
    `COSIM_DMA_READ_CLIENT_AT(IdFetch),
    .load_valid_o (lq_in_valid), .load_ready_i (lq_in_ready),
    .compute_valid_o (cq_in_valid), .compute_ready_i (cq_in_ready),
    .store_valid_o (sq_in_valid), .store_ready_i (sq_in_ready),
    .insn_o (f_insn),
    .err_o (f_err), .err_code_o (f_err_code),
    .remaining_o (f_remaining), .pf_count_o (f_pf_count)
  );

  logic lq_valid, lq_ready, cq_valid, cq_ready, sq_valid, sq_ready;
  logic [InsnWidth-1:0] lq_insn, cq_insn, sq_insn;

  cosim_fifo_sync #(.Width(InsnWidth), .Depth(InsnQueueDepth)) u_load_q (
    .clk_i, .rst_ni, .clr_i (clr),
    .valid_i (lq_in_valid), .ready_o (lq_in_ready), .data_i (f_insn),
    .valid_o (lq_valid), .ready_i (lq_ready), .data_o (lq_insn), .count_o (lq_count)
  );
  cosim_fifo_sync #(.Width(InsnWidth), .Depth(InsnQueueDepth)) u_compute_q (
    .clk_i, .rst_ni, .clr_i (clr),
    .valid_i (cq_in_valid), .ready_o (cq_in_ready), .data_i (f_insn),
    .valid_o (cq_valid), .ready_i (cq_ready), .data_o (cq_insn), .count_o (cq_count)
  );
  cosim_fifo_sync #(.Width(InsnWidth), .Depth(InsnQueueDepth)) u_store_q (
    .clk_i, .rst_ni, .clr_i (clr),
    .valid_i (sq_in_valid), .ready_o (sq_in_ready), .data_i (f_insn),
    .valid_o (sq_valid), .ready_i (sq_ready), .data_o (sq_insn), .count_o (sq_count)
  );

  // ---------------------------------------------------------------------------
  // Token queues.
  // ---------------------------------------------------------------------------
  logic l2c_push, l2c_pop, l2c_avail, c2l_push, c2l_pop, c2l_avail;
  logic c2s_push, c2s_pop, c2s_avail, s2c_push, s2c_pop, s2c_avail;
  logic [TokenCountWidth-1:0] l2c_count, c2l_count, c2s_count, s2c_count;

  vta_token_q u_tok_l2c (.clk_i, .rst_ni, .clr_i (clr), .push_i (l2c_push), .pop_i (l2c_pop),
                         .avail_o (l2c_avail), .count_o (l2c_count));
  vta_token_q u_tok_c2l (.clk_i, .rst_ni, .clr_i (clr), .push_i (c2l_push), .pop_i (c2l_pop),
                         .avail_o (c2l_avail), .count_o (c2l_count));
  vta_token_q u_tok_c2s (.clk_i, .rst_ni, .clr_i (clr), .push_i (c2s_push), .pop_i (c2s_pop),
                         .avail_o (c2s_avail), .count_o (c2s_count));
  vta_token_q u_tok_s2c (.clk_i, .rst_ni, .clr_i (clr), .push_i (s2c_push), .pop_i (s2c_pop),
                         .avail_o (s2c_avail), .count_o (s2c_count));

  // ---------------------------------------------------------------------------
  // Buffers.
  // ---------------------------------------------------------------------------
  localparam int unsigned InpChunks = InpWidth / DataWidth;
  localparam int unsigned WgtChunks = WgtWidth / DataWidth;
  localparam int unsigned AccChunks = AccWidth / DataWidth;

  logic inp_we, inp_re;
  logic [InpAw-1:0] inp_waddr, inp_raddr;
  logic [InpChunks-1:0] inp_wmask;
  logic [InpWidth-1:0] inp_wdata, inp_rdata;
  cosim_ram #(.Depth(InpDepth), .Width(InpWidth), .ChunkWidth(DataWidth), .NumRd(1)) u_inp (
    .clk_i, .we_i (inp_we), .waddr_i (inp_waddr), .wmask_i (inp_wmask), .wdata_i (inp_wdata),
    .re_i (inp_re), .raddr_i (inp_raddr), .rdata_o (inp_rdata)
  );

  logic wgt_we, wgt_re;
  logic [WgtAw-1:0] wgt_waddr, wgt_raddr;
  logic [WgtChunks-1:0] wgt_wmask;
  logic [WgtWidth-1:0] wgt_wdata, wgt_rdata;
  cosim_ram #(.Depth(WgtDepth), .Width(WgtWidth), .ChunkWidth(DataWidth), .NumRd(1)) u_wgt (
    .clk_i, .we_i (wgt_we), .waddr_i (wgt_waddr), .wmask_i (wgt_wmask), .wdata_i (wgt_wdata),
    .re_i (wgt_re), .raddr_i (wgt_raddr), .rdata_o (wgt_rdata)
  );

  // ACC read ports: 0 COMPUTE dst, 1 COMPUTE ALU src, 2 STORE.
  logic acc_we;
  logic [AccAw-1:0] acc_waddr;
  logic [AccChunks-1:0] acc_wmask;
  logic [AccWidth-1:0] acc_wdata;
  logic [2:0] acc_re;
  logic [2:0][AccAw-1:0] acc_raddr;
  logic [2:0][AccWidth-1:0] acc_rdata;
  cosim_ram #(.Depth(AccDepth), .Width(AccWidth), .ChunkWidth(DataWidth), .NumRd(3)) u_acc (
    .clk_i, .we_i (acc_we), .waddr_i (acc_waddr), .wmask_i (acc_wmask), .wdata_i (acc_wdata),
    .re_i (acc_re), .raddr_i (acc_raddr), .rdata_o (acc_rdata)
  );

  logic uop_we, uop_re;
  logic [UopAw-1:0] uop_waddr, uop_raddr;
  logic [UopWidth-1:0] uop_wdata, uop_rdata;
  cosim_ram #(.Depth(UopDepth), .Width(UopWidth), .ChunkWidth(UopWidth), .NumRd(1)) u_uop (
    .clk_i, .we_i (uop_we), .waddr_i (uop_waddr), .wmask_i (1'b1), .wdata_i (uop_wdata),
    .re_i (uop_re), .raddr_i (uop_raddr), .rdata_o (uop_rdata)
  );

  // ---------------------------------------------------------------------------
  // Engines.
  // ---------------------------------------------------------------------------
  // Their errors and status (l_ LOAD, c_ COMPUTE, s_ STORE).
  logic l_err, l_busy, l_stall, s_err, s_busy, s_stall;
  logic c_err, c_gemm_busy, c_alu_busy, c_cload_busy, c_stall_l2c, c_stall_s2c;
  err_e l_err_code, c_err_code, s_err_code;
  eng_state_e l_state, c_state, s_state;
  logic [2:0] l_op, c_op, s_op;
  logic [1:0] l_pops, c_pops, s_pops;
  logic [7:0] l_bytes, c_bytes, s_bytes;

  vta_load #(.InpDepth(InpDepth), .WgtDepth(WgtDepth), .DataWidth(DataWidth), .AddrWidth(AddrWidth)) u_load (
    .clk_i, .rst_ni, .clr_i (clr), .halt_i (halt),
    .insn_valid_i (lq_valid), .insn_ready_o (lq_ready), .insn_i (lq_insn),
    .c2l_avail_i (c2l_avail), .c2l_pop_o (c2l_pop), .l2c_push_o (l2c_push),
    .err_o (l_err), .err_code_o (l_err_code),
    `COSIM_DMA_READ_CLIENT_AT(IdLoad),
    .inp_we_o (inp_we), .inp_waddr_o (inp_waddr), .inp_wmask_o (inp_wmask), .inp_wdata_o (inp_wdata),
    .wgt_we_o (wgt_we), .wgt_waddr_o (wgt_waddr), .wgt_wmask_o (wgt_wmask), .wgt_wdata_o (wgt_wdata),
    .state_o (l_state), .op_o (l_op), .pops_o (l_pops), .busy_o (l_busy),
    .bytes_o (l_bytes), .stall_o (l_stall)
  );

  vta_compute #(
    .InpDepth(InpDepth), .WgtDepth(WgtDepth), .AccDepth(AccDepth), .UopDepth(UopDepth),
    .DataWidth(DataWidth), .AddrWidth(AddrWidth)
  ) u_compute (
    .clk_i, .rst_ni, .clr_i (clr), .halt_i (halt),
    .insn_valid_i (cq_valid), .insn_ready_o (cq_ready), .insn_i (cq_insn),
    .l2c_avail_i (l2c_avail), .s2c_avail_i (s2c_avail),
    .l2c_pop_o (l2c_pop), .s2c_pop_o (s2c_pop), .c2l_push_o (c2l_push), .c2s_push_o (c2s_push),
    .finish_o (finish), .err_o (c_err), .err_code_o (c_err_code),
    `COSIM_DMA_READ_CLIENT_AT(IdCompute),
    .uop_we_o (uop_we), .uop_waddr_o (uop_waddr), .uop_wdata_o (uop_wdata),
    .uop_re_o (uop_re), .uop_raddr_o (uop_raddr), .uop_rdata_i (uop_rdata),
    .inp_re_o (inp_re), .inp_raddr_o (inp_raddr), .inp_rdata_i (inp_rdata),
    .wgt_re_o (wgt_re), .wgt_raddr_o (wgt_raddr), .wgt_rdata_i (wgt_rdata),
    .acc_re_o (acc_re[1:0]), .acc_raddr_o (acc_raddr[1:0]), .acc_rdata_i (acc_rdata[1:0]),
    .acc_we_o (acc_we), .acc_waddr_o (acc_waddr), .acc_wmask_o (acc_wmask), .acc_wdata_o (acc_wdata),
    .state_o (c_state), .op_o (c_op), .pops_o (c_pops),
    .gemm_busy_o (c_gemm_busy), .alu_busy_o (c_alu_busy), .cload_busy_o (c_cload_busy),
    .cload_bytes_o (c_bytes), .stall_l2c_o (c_stall_l2c), .stall_s2c_o (c_stall_s2c)
  );

  vta_store #(.AccDepth(AccDepth), .DataWidth(DataWidth), .AddrWidth(AddrWidth)) u_store (
    .clk_i, .rst_ni, .clr_i (clr), .halt_i (halt),
    .insn_valid_i (sq_valid), .insn_ready_o (sq_ready), .insn_i (sq_insn),
    .c2s_avail_i (c2s_avail), .c2s_pop_o (c2s_pop), .s2c_push_o (s2c_push),
    .err_o (s_err), .err_code_o (s_err_code),
    .acc_re_o (acc_re[2]), .acc_raddr_o (acc_raddr[2]), .acc_rdata_i (acc_rdata[2]),
    .m_awvalid_o (m_axi_awvalid_o), .m_awready_i (m_axi_awready_i),
    .m_awaddr_o (m_axi_awaddr_o), .m_awlen_o (m_axi_awlen_o),
    .m_wvalid_o (m_axi_wvalid_o), .m_wready_i (m_axi_wready_i),
    .m_wdata_o (m_axi_wdata_o), .m_wstrb_o (m_axi_wstrb_o), .m_wlast_o (m_axi_wlast_o),
    .m_bvalid_i (m_axi_bvalid_i), .m_bready_o (m_axi_bready_o), .m_bresp_i (m_axi_bresp_i),
    .state_o (s_state), .op_o (s_op), .pops_o (s_pops), .busy_o (s_busy),
    .bytes_o (s_bytes), .stall_o (s_stall)
  );

  // ---------------------------------------------------------------------------
  // AXI read side: three burst splitters and the AR arbiter.
  // ---------------------------------------------------------------------------
  logic [2:0] ar_valid, ar_ready;
  logic [2:0][AddrWidth-1:0] ar_addr;
  logic [2:0][7:0] ar_len;
  logic [2:0] unused_split_idle;
  logic [2:0][31:0] unused_split_left;

  for (genvar c = 0; c < 3; c++) begin : g_split
    cosim_axi_burst_split #(.AddrWidth(AddrWidth), .DataBytes(StrbWidth)) u_split (
      .clk_i, .rst_ni, .clr_i (1'b0),
      .req_valid_i (req_valid[c]), .req_ready_o (req_ready[c]), .req_addr_i (req_addr[c]), .req_beats_i (req_beats[c]),
      .ax_valid_o (ar_valid[c]), .ax_ready_i (ar_ready[c]), .ax_addr_o (ar_addr[c]), .ax_len_o (ar_len[c]),
      .idle_o (unused_split_idle[c]), .beats_left_o (unused_split_left[c])
    );
  end

  // Round-robin for one registered AR slot (stable while ARVALID waits for
  // ARREADY); client i uses ARID i. R beats go back by RID, in order.
  logic [1:0]           ar_idx;  // cosim_arbiter index of 3 requesters
  logic [AddrWidth+7:0] ar_req [3];
  for (genvar c = 0; c < 3; c++) begin : g_ar_req
    assign ar_req[c] = {ar_addr[c], ar_len[c]};
  end
  cosim_arbiter #(.NumReq(3), .DataWidth(AddrWidth + 8), .RoundRobin(1'b1), .OutReg(1'b1)) u_arb (
    .clk_i, .rst_ni,
    .valid_i (ar_valid), .ready_o (ar_ready),
    .data_i  (ar_req),
    .valid_o (m_axi_arvalid_o), .ready_i (m_axi_arready_i),
    .data_o  ({m_axi_araddr_o, m_axi_arlen_o}), .idx_o (ar_idx)
  );
  assign m_axi_arid_o = IdWidth'(ar_idx);

  always_comb begin
    r_valid        = '0;
    m_axi_rready_o = 1'b0;
    for (int unsigned c = 0; c < 3; c++) begin
      if (m_axi_rid_i == IdWidth'(c)) begin
        r_valid[c]     = m_axi_rvalid_i;
        m_axi_rready_o = r_ready[c];
      end
    end
  end

  localparam logic [2:0] BeatSize = 3'($clog2(StrbWidth));
  assign m_axi_arsize_o  = BeatSize;
  assign m_axi_arburst_o = 2'b01;  // INCR
  assign m_axi_awsize_o  = BeatSize;
  assign m_axi_awburst_o = 2'b01;
  assign m_axi_awid_o    = '0;

  // Read error responses stop the core, attributed to the client.
  logic rd_err;
  assign rd_err = m_axi_rvalid_i && m_axi_rready_o && (m_axi_rresp_i != 2'b00);

  // ---------------------------------------------------------------------------
  // Errors, performance, status.
  // ---------------------------------------------------------------------------
  always_comb begin
    err_pulse = {s_err, c_err, l_err, f_err};
    err_code  = {s_err_code, c_err_code, l_err_code, f_err_code};
    if (rd_err) begin
      unique case (m_axi_rid_i)
        IdLoad:    begin err_pulse[EngLoad]    = 1'b1; err_code[EngLoad]    = ErrAxiResp; end
        IdCompute: begin err_pulse[EngCompute] = 1'b1; err_code[EngCompute] = ErrAxiResp; end
        default:   begin err_pulse[EngFetch]   = 1'b1; err_code[EngFetch]   = ErrAxiResp; end
      endcase
    end
  end

  always_comb begin
    perf_inc = '0;
    perf_inc[PerfGemmBusy]   = 8'(c_gemm_busy);
    perf_inc[PerfAluBusy]    = 8'(c_alu_busy);
    perf_inc[PerfLoadBytes]  = l_bytes;
    perf_inc[PerfLoadBusy]   = 8'(l_busy);
    perf_inc[PerfStoreBytes] = s_bytes;
    perf_inc[PerfStoreBusy]  = 8'(s_busy);
    perf_inc[PerfStallL2c]   = 8'(c_stall_l2c);
    perf_inc[PerfStallC2l]   = 8'(l_stall);
    perf_inc[PerfStallC2s]   = 8'(s_stall);
    perf_inc[PerfStallS2c]   = 8'(c_stall_s2c);
    perf_inc[PerfCloadBytes] = c_bytes;
    perf_inc[PerfCloadBusy]  = 8'(c_cload_busy);
  end

  assign status = '{
    load_state:      l_state,
    compute_state:   c_state,
    store_state:     s_state,
    fetch_state:     (f_remaining != '0) ? EngBusy : EngIdle,
    fetch_q:         f_pf_count,
    running:         running,
    done:            done,
    error:           error,
    err_code:        err_code_q,
    err_engine:      err_engine_q,
    load_pops:       l_pops,
    compute_pops:    c_pops,
    store_pops:      s_pops,
    load_op:         l_op,
    compute_op:      c_op,
    store_op:        s_op,
    tok_l2c:         sat8(32'(l2c_count)),
    tok_c2l:         sat8(32'(c2l_count)),
    tok_c2s:         sat8(32'(c2s_count)),
    tok_s2c:         sat8(32'(s2c_count)),
    load_q:          sat8(32'(lq_count)),
    compute_q:       sat8(32'(cq_count)),
    store_q:         sat8(32'(sq_count)),
    fetch_remaining: (f_remaining > 32'hffff) ? 16'hffff : f_remaining[15:0],
    default:         '0
  };

  assign status_o = status;
  assign done_o   = done;
  assign error_o  = error;

  // ---- Functional cover points (counted with --coverage) --------------------
  // Cycles spent running and stalled, and the back-pressure seen, so that
  // scripts/coverage_report.py can report the stall rates the tests reached.
  cov_running:     cover property (@(posedge clk_i) running);
  cov_stall_l2c:   cover property (@(posedge clk_i) running && c_stall_l2c);
  cov_stall_c2l:   cover property (@(posedge clk_i) running && l_stall);
  cov_stall_c2s:   cover property (@(posedge clk_i) running && s_stall);
  cov_stall_s2c:   cover property (@(posedge clk_i) running && c_stall_s2c);
  cov_ar_wait:     cover property (@(posedge clk_i) m_axi_arvalid_o && !m_axi_arready_i);
  cov_r_wait:      cover property (@(posedge clk_i) m_axi_rready_o && !m_axi_rvalid_i && running);
  cov_w_wait:      cover property (@(posedge clk_i) m_axi_wvalid_o && !m_axi_wready_i);
  cov_insn_q_full: cover property (@(posedge clk_i) !lq_in_ready || !cq_in_ready || !sq_in_ready);
  cov_error:       cover property (@(posedge clk_i) error && !$past(error));

endmodule
