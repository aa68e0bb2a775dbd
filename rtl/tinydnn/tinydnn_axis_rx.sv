// AXI-Stream slave: 64-bit beats of 4 bf16 (element 0 in bits 15:0). One
// packet is a flat element sequence: first n_src elements into the source
// buffer, then n_core elements for each of the od cores (weights, dW deltas
// or one bias each). The rest of the last beat is padding and is dropped.
// Writes one element per cycle; TREADY rises again while the last element of
// the held beat is written, so a steady stream is never throttled below it.
module tinydnn_axis_rx
  import tinydnn_pkg::*;
(
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  input  rx_kind_e            kind_i,
  input  logic [CntW-1:0]     n_src_i,    // may be 0
  input  logic                core_seg_i, // a per-core segment follows
  input  logic [CntW-1:0]     n_core_i,   // elements per core, >= 1
  input  logic [DimW-1:0]     od_i,
  input  logic                bank_i,     // source bank and weight bank
  output logic                done_o,
  // Stream.
  input  logic                s_tvalid_i,
  output logic                s_tready_o,
  input  logic [63:0]         s_tdata_i,
  input  logic                s_tlast_i,
  // Writes.
  output logic                src_we_o,
  output logic [SrcAddrW-1:0] src_waddr_o,
  output logic [15:0]         wdata_o,
  output logic [NumCores-1:0] w_we_o,
  output logic [WAddrW-1:0]   w_waddr_o,
  output logic [NumCores-1:0] bias_we_o
);

  logic            active_q, beat_v_q, seg_core_q, core_seg_q, bank_q;
  rx_kind_e        kind_q;
  logic [63:0]     beat_q;
  logic [1:0]      eidx_q;
  logic [CntW-1:0] n_src_q, n_core_q, src_cnt_q, core_cnt_q;
  logic [DimW-1:0] od_q;
  logic [CoreW-1:0] core_q;

  logic write, src_end, core_end, pkt_end, take_beat;

  always_comb begin
    write     = active_q && beat_v_q;
    src_end   = (src_cnt_q == n_src_q - 1'b1);
    core_end  = (core_cnt_q == n_core_q - 1'b1);
    pkt_end   = write && (seg_core_q ? (core_end && ({4'd0, core_q} == od_q - 8'd1))
                                     : (src_end && !core_seg_q));
    // Accept the next beat when the held one is gone or leaves this cycle,
    // unless the packet ends with it (the next beat is another packet's).
    s_tready_o = active_q && (!beat_v_q || (eidx_q == 2'd3 && !pkt_end));
    take_beat  = s_tvalid_i && s_tready_o;
    wdata_o    = beat_q[{eidx_q, 4'd0} +: 16];
  end

  assign src_we_o    = write && !seg_core_q;
  assign src_waddr_o = {bank_q, src_cnt_q[SrcAddrW-2:0]};
  assign w_waddr_o   = {(kind_q == RxSample) ? bank_q : 1'b0, core_cnt_q[WAddrW-2:0]};

  always_comb begin
    w_we_o    = '0;
    bias_we_o = '0;
    if (write && seg_core_q) begin
      if (kind_q == RxBias) bias_we_o[core_q] = 1'b1;
      else                  w_we_o[core_q]    = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q   <= 1'b0;
      beat_v_q   <= 1'b0;
      seg_core_q <= 1'b0;
      core_seg_q <= 1'b0;
      bank_q     <= 1'b0;
      kind_q     <= RxSample;
      beat_q     <= '0;
      eidx_q     <= '0;
      n_src_q    <= '0;
      n_core_q   <= '0;
      src_cnt_q  <= '0;
      core_cnt_q <= '0;
      od_q       <= '0;
      core_q     <= '0;
    end else if (start_i && !active_q) begin
      active_q   <= 1'b1;
      beat_v_q   <= 1'b0;
      seg_core_q <= (n_src_i == '0);
      core_seg_q <= core_seg_i;
      bank_q     <= bank_i;
      kind_q     <= kind_i;
      n_src_q    <= n_src_i;
      n_core_q   <= n_core_i;
      od_q       <= od_i;
      src_cnt_q  <= '0;
      core_cnt_q <= '0;
      core_q     <= '0;
    end else begin
      if (write) begin
        if (!seg_core_q) begin
          src_cnt_q <= src_cnt_q + 1'b1;
          if (src_end) seg_core_q <= 1'b1;
        end else begin
          core_cnt_q <= core_end ? '0 : core_cnt_q + 1'b1;
          if (core_end) core_q <= core_q + 1'b1;
        end
        eidx_q <= eidx_q + 1'b1;
        if (eidx_q == 2'd3 || pkt_end) beat_v_q <= 1'b0;
        if (pkt_end) active_q <= 1'b0;
      end
      if (take_beat) begin
        beat_q   <= s_tdata_i;
        beat_v_q <= 1'b1;
        eidx_q   <= '0;
      end
    end
  end

  assign done_o = pkt_end;

  // Packets are framed by their element count; TLAST carries no information.
  logic unused_tlast;
  assign unused_tlast = s_tlast_i;

endmodule
