// COMPUTE engine: GEMM, ALU, LOAD UOP / ACC / ACC_8BIT and FINISH.
//
// GEMM and ALU run a three-stage pipeline, one micro-op per cycle:
//   S0  loop counters (i, j, u) and index offsets; read UOP[u]
//   S1  indices = uop fields + offsets, range checks; read INP, WGT, ACC
//   S2  multiply-accumulate or ALU op; write ACC
// A read in S1 and the write of the previous micro-op in S2 hit the ACC on
// the same clock edge, and the read then returns the old entry. wr_q keeps
// the write of the last edge, and S2 takes its data instead of the SRAM's when
// the indices match: exact with no stall, so consecutive micro-ops on the
// same accumulator run back to back.
//
// Tokens: pop_prev = load->compute, pop_next = store->compute, consumed when
// the instruction starts; push_prev = compute->load, push_next =
// compute->store, pushed once the instruction's work is written (its last
// micro-op's ACC write, or the loader's last write).
//
// A GEMM or ALU instruction with micro-ops lets the next GEMM or ALU
// instruction start in the cycle its last micro-op leaves S0: each micro-op
// carries its instruction's operation through S1 and S2, so the two overlap
// in the pipeline exactly as two micro-ops of one instruction do (the same
// forwarding covers the hand-over), and back-to-back instructions cost no
// drain. The last micro-op also carries its instruction's push flags: the
// tokens go out the cycle after it has written the ACC, whatever started
// behind it. LOAD and FINISH, and an instruction after an empty loop, wait
// until the pipeline is empty; those push from StDone.
`include "cosim_assert.svh"
`include "cosim_ports.svh"
`include "vta_ports.svh"

module vta_compute import vta_pkg::*; #(
  `VTA_BUFFER_PARAMS,
  localparam int unsigned InpAw = $clog2(InpDepth),
  localparam int unsigned WgtAw = $clog2(WgtDepth),
  localparam int unsigned AccAw = $clog2(AccDepth),
  localparam int unsigned UopAw = $clog2(UopDepth),
  localparam int unsigned AccChunks = AccWidth / DataWidth
) (
  `VTA_ENGINE_INSN_PORTS,

  input  logic                 l2c_avail_i,
  input  logic                 s2c_avail_i,
  output logic                 l2c_pop_o,
  output logic                 s2c_pop_o,
  output logic                 c2l_push_o,
  output logic                 c2s_push_o,

  output logic                 finish_o,     // pulse: FINISH executed
  output logic                 err_o,        // pulse
  output err_e                 err_code_o,

  // DMA for LOAD UOP / ACC / ACC_8BIT.
  `COSIM_DMA_READ_CLIENT_PORTS(AddrWidth, DataWidth),

  // Buffers.
  output logic                 uop_we_o,
  output logic [UopAw-1:0]     uop_waddr_o,
  output logic [UopWidth-1:0]  uop_wdata_o,
  output logic                 uop_re_o,
  output logic [UopAw-1:0]     uop_raddr_o,
  input  logic [UopWidth-1:0]  uop_rdata_i,

  output logic                 inp_re_o,
  output logic [InpAw-1:0]     inp_raddr_o,
  input  logic [InpWidth-1:0]  inp_rdata_i,

  output logic                 wgt_re_o,
  output logic [WgtAw-1:0]     wgt_raddr_o,
  input  logic [WgtWidth-1:0]  wgt_rdata_i,

  output logic [1:0]           acc_re_o,     // 0: dst, 1: ALU src
  output logic [1:0][AccAw-1:0] acc_raddr_o,
  input  logic [1:0][AccWidth-1:0] acc_rdata_i,
  output logic                 acc_we_o,
  output logic [AccAw-1:0]     acc_waddr_o,
  output logic [AccChunks-1:0] acc_wmask_o,
  output logic [AccWidth-1:0]  acc_wdata_o,

  // Status and performance.
  `VTA_ENGINE_STATUS_PORTS,
  output logic                 gemm_busy_o,
  output logic                 alu_busy_o,
  output logic                 cload_busy_o,
  output logic [7:0]           cload_bytes_o,
  output logic                 stall_l2c_o,
  output logic                 stall_s2c_o
);

  typedef enum logic [2:0] {StIdle, StExec, StLoad, StDone, StHalt} state_e;
  state_e state_q;

  insn_mem_t  head_mem;
  insn_gemm_t head_gemm;
  insn_alu_t  head_alu;
  assign head_mem  = insn_mem_t'(insn_i);
  assign head_gemm = insn_gemm_t'(insn_i);
  assign head_alu  = insn_alu_t'(insn_i);

  // Latched instruction.
  insn_hdr_t   hdr_q;
  logic        is_alu_q, reset_q, use_imm_q;
  logic [2:0]  alu_op_q;
  logic [31:0] imm_q;
  logic [13:0] uop_bgn_q, uop_end_q, iter_in_q, iter_out_q;
  logic [10:0] dfo_q, dfi_q, sfo_q, sfi_q;
  logic [9:0]  wfo_q, wfi_q;

  // ---------------------------------------------------------------------------
  // Issue: wait for tokens, consume them at start.
  // ---------------------------------------------------------------------------
  logic start, head_loop, overlap_ok;
  logic has_uops_q;  // the running GEMM / ALU instruction issues micro-ops
  logic gen_last;    // S0 issues its last micro-op this cycle
  assign head_loop  = (head_mem.hdr.opcode == OpGemm || head_mem.hdr.opcode == OpAlu);
  assign overlap_ok = (state_q == StExec) && has_uops_q && head_loop && (!gen_q || gen_last);
  vta_engine_front u_front (
    .idle_i (state_q == StIdle), .accept_i (state_q == StIdle || overlap_ok), .halt_i, .insn_valid_i,
    .head_i (head_mem.hdr), .run_i (hdr_q),
    .prev_avail_i (l2c_avail_i), .next_avail_i (s2c_avail_i),
    .start_o (start), .pop_prev_o (l2c_pop_o), .pop_next_o (s2c_pop_o),
    .stall_prev_o (stall_l2c_o), .stall_next_o (stall_s2c_o),
    .state_o, .op_o, .pops_o
  );
  assign insn_ready_o = start;

  logic start_load, start_loop, loop_empty, uop_bad;
  always_comb begin
    start_load = start && (head_mem.hdr.opcode == OpLoad);
    start_loop = start && head_loop;
    loop_empty = (head_gemm.uop_end <= 14'(head_gemm.uop_bgn)) || (head_gemm.iter_in == '0) ||
                 (head_gemm.iter_out == '0);
    uop_bad    = !loop_empty && (32'(head_gemm.uop_end) > 32'(UopDepth));
  end

  // ---------------------------------------------------------------------------
  // Loader (LOAD UOP / ACC / ACC_8BIT).
  // ---------------------------------------------------------------------------
  logic                 ld_busy, ld_done, ld_err;
  logic                 ld_wr_valid, ld_wr_zero;
  logic [2:0]           ld_wr_mt;
  logic [15:0]          ld_wr_idx;
  logic [7:0]           ld_wr_chunk;
  logic [DataWidth-1:0] ld_wr_data;

  vta_loader #(
    .InpDepth(InpDepth), .WgtDepth(WgtDepth), .AccDepth(AccDepth), .UopDepth(UopDepth),
    .DataWidth(DataWidth), .AddrWidth(AddrWidth)
  ) u_loader (
    .clk_i, .rst_ni, .clr_i,
    .start_i     (start_load),
    .insn_i      (head_mem),
    .busy_o      (ld_busy),
    .done_o      (ld_done),
    .err_o       (ld_err),
    .req_valid_o, .req_ready_i, .req_addr_o, .req_beats_o,
    .rvalid_i, .rdata_i, .rready_o,
    .wr_valid_o  (ld_wr_valid),
    .wr_mt_o     (ld_wr_mt),
    .wr_idx_o    (ld_wr_idx),
    .wr_zero_o   (ld_wr_zero),
    .wr_chunk_o  (ld_wr_chunk),
    .wr_data_o   (ld_wr_data),
    .bytes_o     (cload_bytes_o)
  );

  // ---------------------------------------------------------------------------
  // S0: loop counters.
  // ---------------------------------------------------------------------------
  logic        gen_q;
  logic [13:0] u_q, i_q, j_q;
  logic [31:0] dst_out_q, src_out_q, wgt_out_q;  // i * factor_out
  logic [31:0] dst_q, src_q, wgt_q;              // + j * factor_in

  logic gen_fire, last_u, last_j, last_i;
  always_comb begin
    gen_fire = gen_q && !halt_i;
    last_u   = (u_q == uop_end_q - 14'd1);
    last_j   = (j_q == iter_in_q - 14'd1);
    last_i   = (i_q == iter_out_q - 14'd1);
    gen_last = gen_fire && last_u && last_j && last_i;
  end
  assign uop_re_o    = gen_fire;
  assign uop_raddr_o = UopAw'(u_q);

  // The operation of a micro-op, carried with it through S1 and S2.
  typedef struct packed {
    logic        is_alu;
    logic        reset;
    logic        use_imm;
    logic [2:0]  alu_op;
    logic [31:0] imm;
  } uop_op_t;
  uop_op_t cur_op, p1_op_q, p2_op_q;
  // Push flags {push_prev, push_next} riding on an instruction's last
  // micro-op, and the tokens they give once it has written the ACC.
  logic [1:0] p1_push_q, p2_push_q, wb_push_q;
  assign cur_op = '{is_alu: is_alu_q, reset: reset_q, use_imm: use_imm_q, alu_op: alu_op_q, imm: imm_q};

  // S1 / S2 pipeline registers.
  logic        p1_q, p2_q;
  logic [31:0] p1_dst_q, p1_src_q, p1_wgt_q;
  logic [AccAw-1:0] p2_dst_q, p2_src_q;

  // ---------------------------------------------------------------------------
  // S1: indices and reads.
  // ---------------------------------------------------------------------------
  uop_t        uop;
  logic [31:0] s1_acc, s1_src, s1_wgt;
  logic        s1_bad;
  err_e        s1_err;
  logic        gemm_mac;   // GEMM that reads (not reset_reg)
  logic        alu_src;    // ALU with a register source
  always_comb begin
    uop      = uop_t'(uop_rdata_i);
    s1_acc   = 32'(uop.dst_idx) + p1_dst_q;
    s1_src   = 32'(uop.src_idx) + p1_src_q;
    s1_wgt   = 32'(uop.wgt_idx) + p1_wgt_q;
    gemm_mac = !p1_op_q.is_alu && !p1_op_q.reset;
    alu_src  = p1_op_q.is_alu && !p1_op_q.use_imm;
    s1_bad   = 1'b0;
    s1_err   = ErrNone;
    if (s1_acc >= 32'(AccDepth)) begin
      s1_bad = 1'b1;  s1_err = ErrAccRange;
    end else if (alu_src && s1_src >= 32'(AccDepth)) begin
      s1_bad = 1'b1;  s1_err = ErrAccRange;
    end else if (gemm_mac && s1_src >= 32'(InpDepth)) begin
      s1_bad = 1'b1;  s1_err = ErrInpRange;
    end else if (gemm_mac && s1_wgt >= 32'(WgtDepth)) begin
      s1_bad = 1'b1;  s1_err = ErrWgtRange;
    end
  end

  logic s1_go;
  assign s1_go       = p1_q && !s1_bad && !halt_i;
  assign inp_re_o    = s1_go && gemm_mac;
  assign inp_raddr_o = InpAw'(s1_src);
  assign wgt_re_o    = s1_go && gemm_mac;
  assign wgt_raddr_o = WgtAw'(s1_wgt);
  assign acc_re_o    = {s1_go && alu_src, s1_go && (p1_op_q.is_alu || !p1_op_q.reset)};
  assign acc_raddr_o = {AccAw'(s1_src), AccAw'(s1_acc)};

  // ---------------------------------------------------------------------------
  // S2: compute and write back, with forwarding from the last write.
  // ---------------------------------------------------------------------------
  logic                wr_valid_q;
  logic [AccAw-1:0]    wr_idx_q;
  logic [AccWidth-1:0] wr_data_q;

  logic [AccWidth-1:0] a_vec, b_vec, res;
  always_comb begin
    a_vec = (wr_valid_q && wr_idx_q == p2_dst_q) ? wr_data_q : acc_rdata_i[0];
    b_vec = (wr_valid_q && wr_idx_q == p2_src_q) ? wr_data_q : acc_rdata_i[1];
  end

  // 16x16 int8 dot products into the int32 lanes. The MAC and ALU logic are
  // evaluated only while a micro-op of their kind is in S2: Verilator then
  // skips them in every other cycle.
  logic do_mac, do_alu;
  assign do_mac = p2_q && !p2_op_q.is_alu && !p2_op_q.reset;
  assign do_alu = p2_q && p2_op_q.is_alu;

  logic [AccWidth-1:0] mac;
  logic [31:0] mac_sum;
  always_comb begin
    mac     = '0;
    mac_sum = '0;
    if (do_mac) begin
      for (int unsigned o = 0; o < BlockOut; o++) begin
        mac_sum = a_vec[o*32 +: 32];
        for (int unsigned k = 0; k < BlockIn; k++) begin
          mac_sum = mac_sum + 32'($signed(inp_rdata_i[k*8 +: 8]) * $signed(wgt_rdata_i[(o*BlockIn+k)*8 +: 8]));
        end
        mac[o*32 +: 32] = mac_sum;
      end
    end
  end

  // ALU lanes.
  logic [AccWidth-1:0] alu;
  logic signed [31:0] alu_x, alu_y;
  always_comb begin
    alu   = '0;
    alu_x = '0;
    alu_y = '0;
    if (do_alu) begin
      for (int unsigned o = 0; o < BlockOut; o++) begin
        alu_x = $signed(a_vec[o*32 +: 32]);
        alu_y = p2_op_q.use_imm ? $signed(p2_op_q.imm) : $signed(b_vec[o*32 +: 32]);
        unique case (p2_op_q.alu_op)
          AluMin:  alu[o*32 +: 32] = (alu_x < alu_y) ? alu_x : alu_y;
          AluMax:  alu[o*32 +: 32] = (alu_x > alu_y) ? alu_x : alu_y;
          AluAdd:  alu[o*32 +: 32] = alu_x + alu_y;
          AluShr:  alu[o*32 +: 32] = (alu_y >= 0) ? (alu_x >>> alu_y) : (alu_x << (-alu_y));
          default: alu[o*32 +: 32] = alu_x * alu_y;   // AluMul (others rejected at start)
        endcase
      end
    end
  end

  always_comb begin
    if (p2_op_q.is_alu)     res = alu;
    else if (p2_op_q.reset) res = '0;
    else                    res = mac;
  end

  // ---------------------------------------------------------------------------
  // Buffer write ports: the pipeline (S2) or the loader, never both at once.
  // ---------------------------------------------------------------------------
  logic s2_we;
  assign s2_we = p2_q && !halt_i;

  logic [AccWidth-1:0] acc8_data;
  always_comb begin
    for (int unsigned l = 0; l < AccWidth / 32; l++) begin
      acc8_data[l*32 +: 32] = 32'($signed(ld_wr_data[(l % (DataWidth / 8))*8 +: 8]));
    end
  end

  always_comb begin
    uop_we_o    = 1'b0;
    uop_waddr_o = UopAw'(ld_wr_idx);
    uop_wdata_o = ld_wr_zero ? '0 : ld_wr_data[UopWidth-1:0];
    acc_we_o    = 1'b0;
    acc_waddr_o = p2_dst_q;
    acc_wmask_o = '1;
    acc_wdata_o = res;
    if (s2_we) begin
      acc_we_o = 1'b1;
    end else if (ld_wr_valid) begin
      acc_waddr_o = AccAw'(ld_wr_idx);
      unique case (ld_wr_mt)
        MemUop: uop_we_o = 1'b1;
        MemAcc: begin
          acc_we_o    = 1'b1;
          acc_wmask_o = ld_wr_zero ? '1 : AccChunks'(1) << ld_wr_chunk;
          acc_wdata_o = ld_wr_zero ? '0 : {AccChunks{ld_wr_data}};
        end
        MemAcc8: begin
          acc_we_o    = 1'b1;
          acc_wmask_o = ld_wr_zero ? '1 : AccChunks'(4'hf) << (ld_wr_chunk * 8'd4);
          acc_wdata_o = ld_wr_zero ? '0 : acc8_data;
        end
        default: ;
      endcase
    end
  end

  // ---------------------------------------------------------------------------
  // Control: the FSM and the S0 loop counters (next state in always_comb, the
  // flops below only register it), the latched instruction, the pipeline.
  // ---------------------------------------------------------------------------
  logic pipe_empty;
  assign pipe_empty = !gen_q && !p1_q && !p2_q;

  // An S1 range error halts the engine; it takes precedence over a start in
  // the same cycle, and a flush over both.
  logic s1_fault, insn_take;
  assign s1_fault  = p1_q && s1_bad && !halt_i;
  assign insn_take = start && !s1_fault && !clr_i;

  state_e      state_d;
  logic        gen_d, has_uops_d;
  logic [13:0] u_d, i_d, j_d;
  logic [31:0] dst_out_d, src_out_d, wgt_out_d, dst_d, src_d, wgt_d;
  logic        finish_q, finish_d, err_q, err_d;
  err_e        err_code_q, err_code_d;

  // S0 loop counters: stepped by each micro-op issued, restarted by a taken
  // instruction, held by a flush.
  always_comb begin
    {u_d, i_d, j_d} = {u_q, i_q, j_q};
    {dst_out_d, src_out_d, wgt_out_d, dst_d, src_d, wgt_d} = {dst_out_q, src_out_q, wgt_out_q, dst_q, src_q, wgt_q};
    if (gen_fire && !clr_i) begin
      if (!last_u) begin
        u_d = u_q + 14'd1;
      end else begin
        u_d = uop_bgn_q;
        if (!last_j) begin
          j_d   = j_q + 14'd1;
          dst_d = dst_q + 32'(dfi_q);
          src_d = src_q + 32'(sfi_q);
          wgt_d = wgt_q + 32'(wfi_q);
        end else begin
          j_d = '0;
          if (!last_i) begin
            i_d       = i_q + 14'd1;
            dst_out_d = dst_out_q + 32'(dfo_q);
            src_out_d = src_out_q + 32'(sfo_q);
            wgt_out_d = wgt_out_q + 32'(wfo_q);
            dst_d     = dst_out_q + 32'(dfo_q);
            src_d     = src_out_q + 32'(sfo_q);
            wgt_d     = wgt_out_q + 32'(wfo_q);
          end
        end
      end
    end
    if (insn_take) begin
      u_d = 14'(head_gemm.uop_bgn);
      {i_d, j_d, dst_out_d, src_out_d, wgt_out_d, dst_d, src_d, wgt_d} = '0;
    end
  end

  // The FSM. Hold by default; the last micro-op ends the loop, finish and err
  // are one-cycle pulses.
  always_comb begin
    state_d    = state_q;
    err_code_d = err_code_q;
    {gen_d, has_uops_d, finish_d, err_d} = {gen_q && !gen_last, has_uops_q, 1'b0, 1'b0};
    if (clr_i) begin
      state_d    = StIdle;
      gen_d      = 1'b0;
      err_code_d = ErrNone;
    end else if (s1_fault) begin
      err_d      = 1'b1;
      err_code_d = s1_err;
      gen_d      = 1'b0;
      state_d    = StHalt;
    end else if (start) begin
      has_uops_d = 1'b0;  // LOAD and FINISH push from StDone
      if (start_load) begin
        state_d = StLoad;
      end else if (start_loop) begin
        if (uop_bad || (head_mem.hdr.opcode == OpAlu && head_alu.alu_opcode > AluMul)) begin
          err_d      = 1'b1;
          err_code_d = uop_bad ? ErrUopRange : ErrOpcode;
          state_d    = StHalt;
        end else begin
          gen_d      = !loop_empty;
          has_uops_d = !loop_empty;
          state_d    = StExec;
        end
      end else begin
        // FINISH
        finish_d = 1'b1;
        state_d  = StDone;
      end
    end else begin
      unique case (state_q)
        StExec: if (pipe_empty) state_d = StDone;
        StLoad: begin
          if (ld_err) begin
            err_d      = 1'b1;
            err_code_d = ErrSramRange;
            state_d    = StHalt;
          end else if (ld_done) begin
            state_d = StDone;
          end
        end
        StDone:  state_d = StIdle;
        default: ;  // StIdle, or StHalt until the next start
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      gen_q      <= 1'b0;
      has_uops_q <= 1'b0;
      u_q        <= '0;
      i_q        <= '0;
      j_q        <= '0;
      dst_out_q  <= '0;
      src_out_q  <= '0;
      wgt_out_q  <= '0;
      dst_q      <= '0;
      src_q      <= '0;
      wgt_q      <= '0;
      finish_q   <= 1'b0;
      err_q      <= 1'b0;
      err_code_q <= ErrNone;
    end else begin
      state_q    <= state_d;
      gen_q      <= gen_d;
      has_uops_q <= has_uops_d;
      u_q        <= u_d;
      i_q        <= i_d;
      j_q        <= j_d;
      dst_out_q  <= dst_out_d;
      src_out_q  <= src_out_d;
      wgt_out_q  <= wgt_out_d;
      dst_q      <= dst_d;
      src_q      <= src_d;
      wgt_q      <= wgt_d;
      finish_q   <= finish_d;
      err_q      <= err_d;
      err_code_q <= err_code_d;
    end
  end

  // The started instruction's fields, kept while it runs.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hdr_q <= '0;  is_alu_q <= 1'b0;  reset_q <= 1'b0;  use_imm_q <= 1'b0;
      alu_op_q <= '0;  imm_q <= '0;
      uop_bgn_q <= '0;  uop_end_q <= '0;  iter_in_q <= '0;  iter_out_q <= '0;
      dfo_q <= '0;  dfi_q <= '0;  sfo_q <= '0;  sfi_q <= '0;  wfo_q <= '0;  wfi_q <= '0;
    end else if (insn_take) begin
      hdr_q      <= head_mem.hdr;
      is_alu_q   <= (head_mem.hdr.opcode == OpAlu);
      reset_q    <= head_gemm.reset_reg;
      use_imm_q  <= head_alu.use_imm;
      alu_op_q   <= head_alu.alu_opcode;
      imm_q      <= 32'($signed(head_alu.imm));
      uop_bgn_q  <= 14'(head_gemm.uop_bgn);
      uop_end_q  <= head_gemm.uop_end;
      iter_in_q  <= head_gemm.iter_in;
      iter_out_q <= head_gemm.iter_out;
      dfo_q <= head_gemm.dst_factor_out;  dfi_q <= head_gemm.dst_factor_in;
      sfo_q <= head_gemm.src_factor_out;  sfi_q <= head_gemm.src_factor_in;
      wfo_q <= head_gemm.wgt_factor_out;  wfi_q <= head_gemm.wgt_factor_in;
    end
  end

  // Pipeline and forwarding registers (the ACC write of this edge); a flush
  // drops the micro-ops in flight and their tokens.
  logic [1:0] p1_push_d, p2_push_d, wb_push_d;
  assign p1_push_d = gen_last ? {hdr_q.push_prev, hdr_q.push_next} : 2'b00;
  assign p2_push_d = s1_go ? p1_push_q : 2'b00;
  assign wb_push_d = s2_we ? p2_push_q : 2'b00;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p1_q <= 1'b0;  p2_q <= 1'b0;  p1_op_q <= '0;  p2_op_q <= '0;
      p1_push_q <= '0;  p2_push_q <= '0;  wb_push_q <= '0;
      p1_dst_q <= '0;  p1_src_q <= '0;  p1_wgt_q <= '0;
      p2_dst_q <= '0;  p2_src_q <= '0;
      wr_valid_q <= 1'b0;  wr_idx_q <= '0;  wr_data_q <= '0;
    end else if (clr_i) begin
      p1_q <= 1'b0;  p2_q <= 1'b0;  wr_valid_q <= 1'b0;
      p1_push_q <= '0;  p2_push_q <= '0;  wb_push_q <= '0;
    end else begin
      p1_q       <= gen_fire;
      p1_op_q    <= cur_op;
      p1_push_q  <= p1_push_d;
      p1_dst_q   <= dst_q;
      p1_src_q   <= src_q;
      p1_wgt_q   <= wgt_q;
      p2_q       <= s1_go;  // never set on an S1 range error: s1_go is low then
      p2_op_q    <= p1_op_q;
      p2_push_q  <= p2_push_d;
      p2_dst_q   <= AccAw'(s1_acc);
      p2_src_q   <= AccAw'(s1_src);
      wb_push_q  <= wb_push_d;
      wr_valid_q <= s2_we;
      wr_idx_q   <= p2_dst_q;
      wr_data_q  <= res;
    end
  end

  // Unused instruction bits, and loader index bits above the largest buffer
  // (excluded by its range check).
  logic unused_bits;
  assign unused_bits = ^{head_gemm.unused, head_gemm.hdr, head_alu[107:0], ld_busy, ld_wr_idx[15:UopAw]};

  // StDone pushes for LOAD, FINISH and empty loops; a loop with micro-ops has
  // pushed from its last one (wb_push_q) by the time it reaches StDone.
  logic done_push;
  assign done_push  = (state_q == StDone) && !has_uops_q;
  assign c2l_push_o = (done_push && hdr_q.push_prev) || wb_push_q[1];
  assign c2s_push_o = (done_push && hdr_q.push_next) || wb_push_q[0];
  assign finish_o   = finish_q;
  assign err_o      = err_q;
  assign err_code_o = err_code_q;

  // Status.
  assign gemm_busy_o  = (state_q == StExec) && !is_alu_q;
  assign alu_busy_o   = (state_q == StExec) && is_alu_q;
  assign cload_busy_o = (state_q == StLoad);

  // ---- Assertions (Verilated with --assert) --------------------------------
  // The engine only accepts GEMM, ALU, FINISH and LOAD to UOP / ACC / ACC_8BIT.
  `COSIM_ASSERT_IF(a_legal_decode,
                   head_mem.hdr.opcode inside {OpGemm, OpAlu, OpFinish} ||
                   (head_mem.hdr.opcode == OpLoad && head_mem.memory_type inside {MemUop, MemAcc, MemAcc8}),
                   insn_valid_i && insn_ready_o,
                   ("vta_compute: accepted opcode %0d memory type %0d", head_mem.hdr.opcode,
                    head_mem.memory_type))

endmodule
