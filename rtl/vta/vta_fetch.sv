// Fetch: reads INSN_COUNT instructions from INSN_ADDR and routes each to the
// LOAD, COMPUTE or STORE instruction queue. Reads are issued only for
// instructions that fit in the prefetch buffer (credits), so R beats for the
// fetch are always accepted and never block the other clients' data on the
// shared R channel, whatever the engine queues hold.
// The fetch also stays at most MaxAhead instructions ahead of the engines
// (queued, buffered or requested): fetching a long stream all at once would
// take the memory from the first instructions' data loads just when they
// are needed, for instructions that run much later.
// Routing: LOAD of INP / WGT -> LOAD; LOAD of UOP / ACC / ACC_8BIT, GEMM, ALU,
// FINISH -> COMPUTE; STORE of OUT -> STORE. Anything else is an error.
`include "cosim_assert.svh"
`include "cosim_ports.svh"

module vta_fetch import vta_pkg::*; #(
  parameter int unsigned DataWidth  = vta_pkg::AxiDataWidth,
  parameter int unsigned AddrWidth  = vta_pkg::AxiAddrWidth,
  parameter int unsigned PfDepth    = 32,   // prefetch buffer, instructions
  parameter int unsigned ReqInsns   = 16,   // instructions per read request
  parameter int unsigned MaxAhead   = 48    // instructions fetched and not yet taken by an engine
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 clr_i,
  input  logic                 halt_i,

  input  logic                 start_i,
  input  logic [31:0]          insn_addr_i,
  input  logic [31:0]          insn_count_i,
  input  logic [15:0]          queued_i,      // instructions in the engine queues

  `COSIM_DMA_READ_CLIENT_PORTS(AddrWidth, DataWidth),

  output logic                 load_valid_o,
  input  logic                 load_ready_i,
  output logic                 compute_valid_o,
  input  logic                 compute_ready_i,
  output logic                 store_valid_o,
  input  logic                 store_ready_i,
  output logic [InsnWidth-1:0] insn_o,

  output logic                 err_o,
  output err_e                 err_code_o,
  output logic [31:0]          remaining_o,   // not yet routed
  output logic [7:0]           pf_count_o
);

  localparam int unsigned BeatsPerInsn = InsnWidth / DataWidth;
  localparam int unsigned CntW = $clog2(PfDepth + 1);

  logic [31:0] to_request_q, to_route_q;
  logic [AddrWidth-1:0] addr_q;
  logic [CntW-1:0] outstanding_q;   // requested, not yet in the buffer
  logic [CntW-1:0] pf_count;
  logic err_q;
  err_e err_code_q;

  // ---- Requests -------------------------------------------------------------
  logic [31:0] n_req;
  always_comb begin
    n_req = (to_request_q > 32'(ReqInsns)) ? 32'(ReqInsns) : to_request_q;
  end
  assign req_valid_o = !halt_i && (to_request_q != '0) &&
                       (32'(pf_count) + 32'(outstanding_q) + n_req <= 32'(PfDepth)) &&
                       (32'(queued_i) + 32'(pf_count) + 32'(outstanding_q) + n_req <= 32'(MaxAhead));
  assign req_addr_o  = addr_q;
  assign req_beats_o = n_req * 32'(BeatsPerInsn);

  // ---- Beat assembly ----------------------------------------------------------
  logic [InsnWidth-1:0] asm_q;
  logic [7:0] beat_q;
  logic insn_done;
  logic [InsnWidth-1:0] insn_full;
  assign rready_o = 1'b1;
  always_comb begin
    insn_full = asm_q;
    insn_full[DataWidth*beat_q +: DataWidth] = rdata_i;
    insn_done = rvalid_i && (beat_q == 8'(BeatsPerInsn - 1));
  end

  // ---- Prefetch buffer --------------------------------------------------------
  logic pf_valid, pf_ready;
  logic [InsnWidth-1:0] pf_data;
  logic unused_pf_in_ready;  // always set when a beat completes an instruction (credits)
  cosim_fifo_sync #(.Width(InsnWidth), .Depth(PfDepth)) u_pf (
    .clk_i, .rst_ni, .clr_i,
    .valid_i (insn_done), .ready_o (unused_pf_in_ready), .data_i (insn_full),
    .valid_o (pf_valid), .ready_i (pf_ready), .data_o (pf_data),
    .count_o (pf_count)
  );

  // ---- Routing ----------------------------------------------------------------
  insn_mem_t head;
  logic to_load, to_compute, to_store, bad_op, bad_mem;
  always_comb begin
    head       = insn_mem_t'(pf_data);
    to_load    = 1'b0;
    to_compute = 1'b0;
    to_store   = 1'b0;
    bad_op     = 1'b0;
    bad_mem    = 1'b0;
    unique case (head.hdr.opcode)
      OpLoad: begin
        unique case (head.memory_type)
          MemInp, MemWgt:          to_load = 1'b1;
          MemUop, MemAcc, MemAcc8: to_compute = 1'b1;
          default:                 bad_mem = 1'b1;
        endcase
      end
      OpStore: begin
        if (head.memory_type == MemOut) to_store = 1'b1;
        else                             bad_mem = 1'b1;
      end
      OpGemm, OpAlu, OpFinish: to_compute = 1'b1;
      default:                 bad_op = 1'b1;
    endcase
  end

  logic route_ok;
  assign route_ok        = pf_valid && !halt_i && !err_q;
  assign load_valid_o    = route_ok && to_load;
  assign compute_valid_o = route_ok && to_compute;
  assign store_valid_o   = route_ok && to_store;
  assign insn_o          = pf_data;
  assign pf_ready        = (load_valid_o && load_ready_i) || (compute_valid_o && compute_ready_i) ||
                           (store_valid_o && store_ready_i);

  // Routing looks at the opcode and memory type only.
  logic unused_head;
  assign unused_head = ^head[InsnWidth-1:10];

  assign err_o       = err_q;
  assign err_code_o  = err_code_q;
  assign remaining_o = to_route_q;
  assign pf_count_o  = sat8(32'(pf_count));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      to_request_q  <= '0;
      to_route_q    <= '0;
      addr_q        <= '0;
      outstanding_q <= '0;
      asm_q         <= '0;
      beat_q        <= '0;
      err_q         <= 1'b0;
      err_code_q    <= ErrNone;
    end else if (clr_i || start_i) begin
      to_request_q  <= insn_count_i;
      to_route_q    <= insn_count_i;
      addr_q        <= AddrWidth'(insn_addr_i);
      outstanding_q <= '0;
      beat_q        <= '0;
      err_q         <= 1'b0;
      err_code_q    <= ErrNone;
      if (start_i && insn_addr_i[3:0] != 4'd0) begin
        err_q         <= 1'b1;
        err_code_q    <= ErrInsnAlign;
        to_request_q  <= '0;
      end
      if (!start_i) begin
        to_request_q <= '0;
        to_route_q   <= '0;
      end
    end else begin
      if (req_valid_o && req_ready_i) begin
        to_request_q <= to_request_q - n_req;
        addr_q       <= addr_q + (AddrWidth'(n_req) << 4);
      end
      outstanding_q <= outstanding_q
                       + ((req_valid_o && req_ready_i) ? CntW'(n_req) : '0)
                       - (insn_done ? CntW'(1) : '0);
      if (rvalid_i) begin
        asm_q  <= insn_full;
        beat_q <= insn_done ? 8'd0 : beat_q + 8'd1;
      end
      if (pf_ready) to_route_q <= to_route_q - 32'd1;
      if (pf_valid && !halt_i && !err_q && (bad_op || bad_mem)) begin
        err_q      <= 1'b1;
        err_code_q <= bad_op ? ErrOpcode : ErrMemType;
      end
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  // Requests are sized by prefetch credits, so a completed instruction always
  // finds room: a push into a full prefetch buffer would lose it (overflow).
  `COSIM_ASSERT_IF(a_pf_no_overflow, unused_pf_in_ready, insn_done,
                   ("vta_fetch: instruction arrived with the prefetch buffer full"),
                   clk_i, !rst_ni || clr_i || start_i)
  // The fetch never runs more than MaxAhead instructions ahead of the engines.
  `COSIM_ASSERT(a_ahead_bound, 32'(queued_i) + 32'(pf_count) + 32'(outstanding_q) <= 32'(MaxAhead),
                ("vta_fetch: more than MaxAhead instructions fetched ahead of the engines"),
                clk_i, !rst_ni || clr_i || start_i)
  // Read request and queue handshakes: valid held with a stable payload until
  // ready (halt, on an error, withdraws them on purpose).
  logic held_dis;
  assign held_dis = !rst_ni || clr_i || start_i || halt_i;
  `COSIM_ASSERT_HELD(a_req_stable, req_valid_o, req_ready_i, {req_addr_o, req_beats_o},
                     ("vta_fetch: request dropped or changed before ready"), clk_i, held_dis)
  `COSIM_ASSERT_HELD(a_load_q_stable, load_valid_o, load_ready_i, insn_o,
                     ("vta_fetch: load queue push dropped or changed before ready"), clk_i, held_dis)
  `COSIM_ASSERT_HELD(a_compute_q_stable, compute_valid_o, compute_ready_i, insn_o,
                     ("vta_fetch: compute queue push dropped or changed before ready"), clk_i, held_dis)
  `COSIM_ASSERT_HELD(a_store_q_stable, store_valid_o, store_ready_i, insn_o,
                     ("vta_fetch: store queue push dropped or changed before ready"), clk_i, held_dis)
  // Only one queue is offered an instruction at a time (legal routing).
  `COSIM_ASSERT(a_one_route, $onehot0({load_valid_o, compute_valid_o, store_valid_o}),
                ("vta_fetch: instruction offered to more than one queue"))

  // ---- Functional cover points (counted with --coverage) --------------------
  // What the programs that ran contained, instruction by instruction as
  // routed; scripts/coverage_report.py reads them back by name.
  /* verilator lint_off UNUSEDSIGNAL */  // only the ALU opcode and immediate are covered
  insn_alu_t head_alu;
  /* verilator lint_on UNUSEDSIGNAL */
  assign head_alu = insn_alu_t'(pf_data);
  logic routed;
  assign routed = pf_ready;
  cov_op_load:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpLoad);
  cov_op_store:  cover property (@(posedge clk_i) routed && head.hdr.opcode == OpStore);
  cov_op_gemm:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpGemm);
  cov_op_finish: cover property (@(posedge clk_i) routed && head.hdr.opcode == OpFinish);
  cov_op_alu:    cover property (@(posedge clk_i) routed && head.hdr.opcode == OpAlu);
  cov_bad_op:    cover property (@(posedge clk_i) pf_valid && !halt_i && !err_q && bad_op);
  cov_mem_inp:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpLoad && head.memory_type == MemInp);
  cov_mem_wgt:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpLoad && head.memory_type == MemWgt);
  cov_mem_uop:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpLoad && head.memory_type == MemUop);
  cov_mem_acc:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpLoad && head.memory_type == MemAcc);
  cov_mem_acc8:  cover property (@(posedge clk_i) routed && head.hdr.opcode == OpLoad && head.memory_type == MemAcc8);
  cov_alu_min:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpAlu && head_alu.alu_opcode == AluMin);
  cov_alu_max:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpAlu && head_alu.alu_opcode == AluMax);
  cov_alu_add:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpAlu && head_alu.alu_opcode == AluAdd);
  cov_alu_shr:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpAlu && head_alu.alu_opcode == AluShr);
  cov_alu_mul:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpAlu && head_alu.alu_opcode == AluMul);
  cov_alu_imm:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpAlu && head_alu.use_imm);
  cov_alu_shl:   cover property (@(posedge clk_i) routed && head.hdr.opcode == OpAlu &&
                                                  head_alu.alu_opcode == AluShr && head_alu.use_imm && head_alu.imm[15]);
  cov_pad_x0:    cover property (@(posedge clk_i) routed && head.hdr.opcode == OpLoad && head.x_pad_0 != '0);
  cov_pad_x1:    cover property (@(posedge clk_i) routed && head.hdr.opcode == OpLoad && head.x_pad_1 != '0);
  cov_pad_y0:    cover property (@(posedge clk_i) routed && head.hdr.opcode == OpLoad && head.y_pad_0 != '0);
  cov_pad_y1:    cover property (@(posedge clk_i) routed && head.hdr.opcode == OpLoad && head.y_pad_1 != '0);
  cov_stride_gap: cover property (@(posedge clk_i) routed && (head.hdr.opcode == OpLoad || head.hdr.opcode == OpStore) &&
                                                  head.x_stride > head.x_size);
  cov_pop_prev:  cover property (@(posedge clk_i) routed && head.hdr.pop_prev);
  cov_pop_next:  cover property (@(posedge clk_i) routed && head.hdr.pop_next);
  cov_push_prev: cover property (@(posedge clk_i) routed && head.hdr.push_prev);
  cov_push_next: cover property (@(posedge clk_i) routed && head.hdr.push_next);

endmodule
