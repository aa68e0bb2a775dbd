// DRAM -> SRAM mover for one LOAD instruction (shared by the LOAD engine for
// INP / WGT and by COMPUTE for UOP / ACC / ACC_8BIT).
//
// Two decoupled halves:
//  - the address generator requests one DRAM row (x_size elements) after the
//    other from the burst splitter, ahead of the data;
//  - the writer walks the destination densely from sram_base: y_pad_0 rows of
//    zeros, then per row x_pad_0 zeros, x_size elements from the R stream,
//    x_pad_1 zeros, then y_pad_1 rows of zeros. One write per cycle: a whole
//    zero element, one beat (chunk) of a data element, or one micro-op.
// Micro-ops (4 bytes) are narrower than a beat: each row is read from the
// enclosing beat-aligned range and unpacked one word per cycle.
// The R stream is taken only when the writer is at a data element, so rready
// depends on the writer's state alone.
`include "cosim_assert.svh"
`include "cosim_ports.svh"
`include "vta_ports.svh"

module vta_loader import vta_pkg::*; #(
  `VTA_BUFFER_PARAMS,
  localparam int unsigned DataBytes = DataWidth / 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 clr_i,

  input  logic                 start_i,   // with insn_i, while !busy_o
  input  insn_mem_t            insn_i,
  output logic                 busy_o,
  output logic                 done_o,    // pulse: all writes issued
  output logic                 err_o,     // pulse: SRAM range out of the buffer (nothing moved)

  // Row requests to the burst splitter.
  `COSIM_DMA_READ_CLIENT_PORTS(AddrWidth, DataWidth),

  // SRAM writes.
  output logic                 wr_valid_o,
  output logic [2:0]           wr_mt_o,
  output logic [15:0]          wr_idx_o,
  output logic                 wr_zero_o,   // whole element = 0
  output logic [7:0]           wr_chunk_o,  // beat index inside the element
  output logic [DataWidth-1:0] wr_data_o,   // the beat, or the micro-op in bits 31:0
  output logic [7:0]           bytes_o      // DRAM payload bytes consumed this cycle
);

  localparam int unsigned BeatShift = $clog2(DataBytes);
  localparam int unsigned WordsPerBeat = DataBytes / 4;
  localparam int unsigned WoffW = $clog2(WordsPerBeat);

  // Latched instruction.
  logic        run_q;
  logic [2:0]  mt_q;
  logic        uop_mode_q;
  logic [3:0]  elog2_q;       // log2 DRAM element bytes
  logic [7:0]  bpe_m1_q;      // beats per element - 1 (beat mode)
  logic [16:0] ypad0_q, ydata_end_q, ytot_m1_q;
  logic [16:0] xpad0_q, xdata_end_q, xt_m1_q;
  logic [15:0] x_size_q, x_stride_q, y_size_q;

  // Writer.
  logic [16:0] y_q, x_q;
  logic [7:0]  c_q;
  logic [15:0] idx_q;
  logic [39:0] row_elem_q;    // DRAM element index of the current data row
  logic [WoffW-1:0] woff_q;

  // Address generator.
  logic        ag_active_q;
  logic [15:0] ag_y_q;
  logic [39:0] ag_row_q;

  logic done_q, err_q;

  // ---------------------------------------------------------------------------
  // Start: range check and setup.
  // ---------------------------------------------------------------------------
  logic [16:0] s_xt, s_ytot;
  logic [35:0] s_total, s_end;
  logic [31:0] s_depth;
  logic        s_empty, s_bad;
  always_comb begin
    s_xt    = 17'(insn_i.x_pad_0) + 17'(insn_i.x_size) + 17'(insn_i.x_pad_1);
    s_ytot  = 17'(insn_i.y_pad_0) + 17'(insn_i.y_size) + 17'(insn_i.y_pad_1);
    s_total = 36'(s_xt) * 36'(s_ytot);
    s_end   = 36'(insn_i.sram_base) + s_total;
    unique case (insn_i.memory_type)
      MemUop:          s_depth = 32'(UopDepth);
      MemWgt:          s_depth = 32'(WgtDepth);
      MemInp:          s_depth = 32'(InpDepth);
      MemAcc, MemAcc8: s_depth = 32'(AccDepth);
      default:         s_depth = 32'd0;
    endcase
    s_empty = (insn_i.x_size == '0) || (s_ytot == '0);
    s_bad   = !s_empty && (s_end > 36'(s_depth));
  end

  // ---------------------------------------------------------------------------
  // Writer.
  // ---------------------------------------------------------------------------
  logic data_row, in_data, last_x, last_y, last_in_row, beat_done, adv;
  logic [WoffW-1:0] woff_eff;
  always_comb begin
    data_row    = (y_q >= ypad0_q) && (y_q < ydata_end_q);
    in_data     = data_row && (x_q >= xpad0_q) && (x_q < xdata_end_q);
    last_x      = (x_q == xt_m1_q);
    last_y      = (y_q == ytot_m1_q);
    last_in_row = (x_q == xdata_end_q - 17'd1);
    woff_eff    = (x_q == xpad0_q) ? row_elem_q[WoffW-1:0] : woff_q;
    beat_done   = (woff_eff == WoffW'(WordsPerBeat - 1)) || last_in_row;
    if (uop_mode_q) begin
      adv      = run_q && (!in_data || rvalid_i);
      rready_o = run_q && in_data && beat_done;
    end else begin
      adv      = run_q && (!in_data || (rvalid_i && c_q == bpe_m1_q));
      rready_o = run_q && in_data;
    end
  end

  assign wr_valid_o = run_q && (!in_data || rvalid_i);
  assign wr_mt_o    = mt_q;
  assign wr_idx_o   = idx_q;
  assign wr_zero_o  = !in_data;
  assign wr_chunk_o = c_q;
  assign wr_data_o  = uop_mode_q ? DataWidth'(rdata_i[32*woff_eff +: 32]) : rdata_i;
  assign bytes_o    = (run_q && in_data && rvalid_i) ? (uop_mode_q ? 8'd4 : 8'(DataBytes)) : 8'd0;

  // ---------------------------------------------------------------------------
  // Address generator.
  // ---------------------------------------------------------------------------
  logic [47:0] ag_byte;
  logic [31:0] ag_uop_beats;
  always_comb begin
    ag_byte      = 48'(ag_row_q) << elog2_q;
    ag_uop_beats = (32'(ag_byte[BeatShift-1:0]) + (32'(x_size_q) << 2) + 32'(DataBytes - 1)) >> BeatShift;
  end
  assign req_valid_o = ag_active_q;
  assign req_addr_o  = uop_mode_q ? AddrWidth'({ag_byte[47:BeatShift], {BeatShift{1'b0}}})
                                  : AddrWidth'(ag_byte);
  assign req_beats_o = uop_mode_q ? ag_uop_beats : (32'(x_size_q) * (32'(bpe_m1_q) + 32'd1));

  assign busy_o = run_q || ag_active_q || done_q || err_q;

  // Opcode and token flags belong to the engine; bits 63:58 are unused.
  logic unused_insn;
  assign unused_insn = ^{insn_i.unused, insn_i.hdr};
  assign done_o = done_q;
  assign err_o  = err_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q <= 1'b0;  ag_active_q <= 1'b0;  done_q <= 1'b0;  err_q <= 1'b0;
      mt_q <= '0;  uop_mode_q <= 1'b0;  elog2_q <= '0;  bpe_m1_q <= '0;
      ypad0_q <= '0;  ydata_end_q <= '0;  ytot_m1_q <= '0;
      xpad0_q <= '0;  xdata_end_q <= '0;  xt_m1_q <= '0;
      x_size_q <= '0;  x_stride_q <= '0;  y_size_q <= '0;
      y_q <= '0;  x_q <= '0;  c_q <= '0;  idx_q <= '0;  row_elem_q <= '0;  woff_q <= '0;
      ag_y_q <= '0;  ag_row_q <= '0;
    end else if (clr_i) begin
      run_q <= 1'b0;  ag_active_q <= 1'b0;  done_q <= 1'b0;  err_q <= 1'b0;
    end else begin
      done_q <= 1'b0;
      err_q  <= 1'b0;
      if (start_i && !busy_o) begin
        mt_q        <= insn_i.memory_type;
        uop_mode_q  <= (insn_i.memory_type == MemUop);
        elog2_q     <= elem_bytes_log2(insn_i.memory_type);
        bpe_m1_q    <= (insn_i.memory_type == MemUop) ? 8'd0
                       : 8'((9'd1 << (elem_bytes_log2(insn_i.memory_type) - 4'(BeatShift))) - 9'd1);
        ypad0_q     <= 17'(insn_i.y_pad_0);
        ydata_end_q <= 17'(insn_i.y_pad_0) + 17'(insn_i.y_size);
        ytot_m1_q   <= s_ytot - 17'd1;
        xpad0_q     <= 17'(insn_i.x_pad_0);
        xdata_end_q <= 17'(insn_i.x_pad_0) + 17'(insn_i.x_size);
        xt_m1_q     <= s_xt - 17'd1;
        x_size_q    <= insn_i.x_size;
        x_stride_q  <= insn_i.x_stride;
        y_size_q    <= insn_i.y_size;
        y_q <= '0;  x_q <= '0;  c_q <= '0;  woff_q <= '0;
        idx_q       <= insn_i.sram_base;
        row_elem_q  <= 40'(insn_i.dram_base);
        ag_y_q      <= '0;
        ag_row_q    <= 40'(insn_i.dram_base);
        if (s_bad) begin
          err_q <= 1'b1;
        end else if (s_empty) begin
          done_q <= 1'b1;
        end else begin
          run_q       <= 1'b1;
          ag_active_q <= (insn_i.y_size != '0);
        end
      end else begin
        // Address generator.
        if (ag_active_q && req_ready_i) begin
          ag_row_q <= ag_row_q + 40'(x_stride_q);
          ag_y_q   <= ag_y_q + 16'd1;
          if (ag_y_q == y_size_q - 16'd1) ag_active_q <= 1'b0;
        end
        // Writer.
        if (run_q && in_data && rvalid_i) begin
          if (uop_mode_q) begin
            woff_q <= beat_done ? '0 : woff_eff + 1'b1;
          end else begin
            c_q <= (c_q == bpe_m1_q) ? 8'd0 : c_q + 8'd1;
          end
        end
        if (adv) begin
          idx_q <= idx_q + 16'd1;
          if (last_x) begin
            x_q <= '0;
            if (data_row) row_elem_q <= row_elem_q + 40'(x_stride_q);
            if (last_y) begin
              run_q  <= 1'b0;
              done_q <= 1'b1;
            end else begin
              y_q <= y_q + 17'd1;
            end
          end else begin
            x_q <= x_q + 17'd1;
          end
        end
      end
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  // Read request handshake: valid held with a stable address / length until ready.
  `COSIM_ASSERT_HELD(a_req_stable, req_valid_o, req_ready_i, {req_addr_o, req_beats_o},
                     ("vta_loader: request dropped or changed before ready"), clk_i, !rst_ni || clr_i)

endmodule
