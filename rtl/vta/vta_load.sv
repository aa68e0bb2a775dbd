// LOAD engine: LOAD of INP and WGT. Uses only its "next" token flags (towards
// COMPUTE): pop_next takes a compute->load token at start, push_next gives a
// load->compute token once every element has been written.
`include "cosim_assert.svh"
`include "cosim_ports.svh"
`include "vta_ports.svh"

module vta_load import vta_pkg::*; #(
  parameter int unsigned InpDepth = vta_pkg::DefInpDepth,
  parameter int unsigned WgtDepth = vta_pkg::DefWgtDepth,
  `VTA_AXI_PARAMS,
  localparam int unsigned InpAw = $clog2(InpDepth),
  localparam int unsigned WgtAw = $clog2(WgtDepth),
  localparam int unsigned InpChunks = InpWidth / DataWidth,
  localparam int unsigned WgtChunks = WgtWidth / DataWidth
) (
  `VTA_ENGINE_INSN_PORTS,

  input  logic                 c2l_avail_i,
  output logic                 c2l_pop_o,
  output logic                 l2c_push_o,

  output logic                 err_o,        // pulse: SRAM range
  output err_e                 err_code_o,

  `COSIM_DMA_READ_CLIENT_PORTS(AddrWidth, DataWidth),

  output logic                 inp_we_o,
  output logic [InpAw-1:0]     inp_waddr_o,
  output logic [InpChunks-1:0] inp_wmask_o,
  output logic [InpWidth-1:0]  inp_wdata_o,
  output logic                 wgt_we_o,
  output logic [WgtAw-1:0]     wgt_waddr_o,
  output logic [WgtChunks-1:0] wgt_wmask_o,
  output logic [WgtWidth-1:0]  wgt_wdata_o,

  `VTA_ENGINE_STATUS_PORTS,
  output logic                 busy_o,
  output logic [7:0]           bytes_o,
  output logic                 stall_o
);

  // No token queue on the "prev" side: pop_prev never waits and pops nothing.
  logic unused_pop_prev, unused_stall_prev;
  `VTA_MEM_ENGINE_FRONT(1'b1, unused_pop_prev, unused_stall_prev, c2l_avail_i, c2l_pop_o, stall_o);

  logic ld_busy, ld_done, ld_err, wr_valid, wr_zero;
  logic [2:0] wr_mt;
  logic [15:0] wr_idx;
  logic [7:0] wr_chunk;
  logic [DataWidth-1:0] wr_data;

  vta_loader #(
    .InpDepth(InpDepth), .WgtDepth(WgtDepth), .AccDepth(1), .UopDepth(1),
    .DataWidth(DataWidth), .AddrWidth(AddrWidth)
  ) u_loader (
    .clk_i, .rst_ni, .clr_i,
    .start_i (start),
    .insn_i  (head),
    .busy_o  (ld_busy),
    .done_o  (ld_done),
    .err_o   (ld_err),
    .req_valid_o, .req_ready_i, .req_addr_o, .req_beats_o,
    .rvalid_i, .rdata_i, .rready_o,
    .wr_valid_o (wr_valid),
    .wr_mt_o    (wr_mt),
    .wr_idx_o   (wr_idx),
    .wr_zero_o  (wr_zero),
    .wr_chunk_o (wr_chunk),
    .wr_data_o  (wr_data),
    .bytes_o
  );

  // Data is replicated over the chunks; the mask picks the beat's slot.
  assign inp_we_o    = wr_valid && (wr_mt == MemInp);
  assign inp_waddr_o = InpAw'(wr_idx);
  assign inp_wmask_o = wr_zero ? '1 : InpChunks'(1) << wr_chunk;
  assign inp_wdata_o = wr_zero ? '0 : {InpChunks{wr_data}};
  assign wgt_we_o    = wr_valid && (wr_mt == MemWgt);
  assign wgt_waddr_o = WgtAw'(wr_idx);
  assign wgt_wmask_o = wr_zero ? '1 : WgtChunks'(1) << wr_chunk;
  assign wgt_wdata_o = wr_zero ? '0 : {WgtChunks{wr_data}};

  // Token, error and busy, from the FSM below.
  logic err_q;
  assign l2c_push_o = (state_q == StDone) && hdr_q.push_next;
  assign err_o      = err_q;
  assign err_code_o = ErrSramRange;
  assign busy_o     = (state_q == StRun) || ld_busy;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      hdr_q   <= '0;
      err_q   <= 1'b0;
    end else if (clr_i) begin
      state_q <= StIdle;
      err_q   <= 1'b0;
    end else begin
      err_q <= 1'b0;
      unique case (state_q)
        StIdle: if (start) begin
          hdr_q   <= head.hdr;
          state_q <= StRun;
        end
        StRun: begin
          if (ld_err) begin
            err_q   <= 1'b1;
            state_q <= StHalt;
          end else if (ld_done) begin
            state_q <= StDone;
          end
        end
        StDone:  state_q <= StIdle;
        default: ;
      endcase
    end
  end

  // LOAD ignores its "prev" push flag; indices above the buffers are
  // excluded by the loader's range check.
  logic unused_bits;
  assign unused_bits = ^{hdr_q.push_prev, wr_idx[15:InpAw], unused_pop_prev, unused_stall_prev};

  // ---- Assertions (Verilated with --assert) --------------------------------
  // The engine only accepts LOAD to INP / WGT (fetch routes nothing else here).
  `COSIM_ASSERT_IF(a_legal_decode,
                   head.hdr.opcode == OpLoad && (head.memory_type == MemInp || head.memory_type == MemWgt),
                   insn_valid_i && insn_ready_o,
                   ("vta_load: accepted opcode %0d memory type %0d", head.hdr.opcode, head.memory_type))

endmodule
