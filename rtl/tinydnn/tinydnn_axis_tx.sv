// AXI-Stream master: streams count float32 results (2 per 64-bit beat,
// element 0 in bits 31:0) from one destination bank, TLAST on the last beat.
// An odd count pads the last beat's upper half with zeros. TDATA and TVALID
// only change when the beat is taken or none is offered.
`include "cosim_assert.svh"
module tinydnn_axis_tx
  import tinydnn_pkg::*;
(
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  input  logic                bank_i,
  input  logic [CntW-1:0]     count_i,   // >= 1
  output logic                done_o,
  output logic [DstAddrW-2:0] rd_addr_o,
  input  logic [63:0]         rd_data_i,
  output logic                m_tvalid_o,
  input  logic                m_tready_i,
  output logic [63:0]         m_tdata_o,
  output logic                m_tlast_o
);

  logic              active_q, tvalid_q, tlast_q, odd_q, bank_q;
  logic [63:0]       tdata_q;
  logic [CntW-1:0]   word_q, nwords_q;
  logic              load, last_word;

  always_comb begin
    last_word = (word_q == nwords_q - 1'b1);
    load      = active_q && (word_q != nwords_q) && (!tvalid_q || m_tready_i);
  end

  assign rd_addr_o = {bank_q, word_q[DstAddrW-3:0]};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= 1'b0;
      tvalid_q <= 1'b0;
      tlast_q  <= 1'b0;
      odd_q    <= 1'b0;
      bank_q   <= 1'b0;
      tdata_q  <= '0;
      word_q   <= '0;
      nwords_q <= '0;
    end else begin
      if (start_i && !active_q) begin
        active_q <= 1'b1;
        bank_q   <= bank_i;
        word_q   <= '0;
        nwords_q <= (count_i + 1'b1) >> 1;
        odd_q    <= count_i[0];
      end else if (load) begin
        tvalid_q <= 1'b1;
        tdata_q  <= (last_word && odd_q) ? {32'd0, rd_data_i[31:0]} : rd_data_i;
        tlast_q  <= last_word;
        word_q   <= word_q + 1'b1;
      end else if (tvalid_q && m_tready_i) begin
        tvalid_q <= 1'b0;
        tlast_q  <= 1'b0;
        if (tlast_q) active_q <= 1'b0;
      end
    end
  end

  assign done_o     = tvalid_q && m_tready_i && tlast_q;
  assign m_tvalid_o = tvalid_q;
  assign m_tdata_o  = tdata_q;
  assign m_tlast_o  = tlast_q;

  // ---- Assertions (Verilated with --assert) --------------------------------
  `COSIM_ASSERT_IF(a_start_idle, !active_q, start_i, ("tinydnn_axis_tx: started while streaming"))

endmodule
