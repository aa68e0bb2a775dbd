// Filter Loader: for one group of up to NPe output channels, reads the
// group's weight records into one bank of the PE filter caches. A record is
// one output channel's parameters {bias, alpha, beta, Q_out} (one beat),
// then its c_in*k*k codes (IHW order, least-significant nibble first, zero
// nibbles up to the next beat); the records of a layer follow one another,
// so a group is one read command. Code beats go out with the group-relative
// position of their nibble 0; each PE keeps the nibbles of its own output
// channel (the zero pad of a record lands on the next channel's first codes,
// which its own beats then overwrite). A 1111 code raises code_err_o.
`include "cosim_assert.svh"
`include "cosim_ports.svh"

module tf2_filter_loader
  import tf2_pkg::*;
#(
  parameter int unsigned NPe = DefNPe,
  localparam int unsigned PeW = (NPe > 1) ? $clog2(NPe) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  input  logic                    start_i,     // pulse, while idle_o
  output logic                    idle_o,
  input  logic [1:0]              bank_i,
  input  logic [DimW-1:0]         oc0_i,       // first output channel of the group
  input  logic [PeW:0]            n_i,         // channels in the group (1..NPe)
  input  logic [15:0]             ckk_i,       // c_in*k*k codes per channel
  input  logic [AddrW-1:0]        wgt_addr_i,  // the layer's first record
  output logic                    done_o,      // pulse: bank loaded
  output logic                    code_err_o,
  output logic                    axi_err_o,
  output logic [2:0]              state_o,     // FSM state, for diagnosis

  // Parameter write (one PE per beat).
  output logic                    pw_valid_o,
  output logic [1:0]              pw_bank_o,
  output logic [PeW-1:0]          pw_pe_o,
  output logic [31:0]             pw_bias_o,
  output logic [31:0]             pw_alpha_o,
  output logic [31:0]             pw_beta_o,
  output logic signed [7:0]       pw_qout_o,   // the channel's output Q
  // Code write (32 nibbles per beat, broadcast to all PEs).
  output logic                    cw_valid_o,
  output logic [1:0]              cw_bank_o,
  output logic signed [31:0]      cw_pos_o,
  output logic [AxiDataWidth-1:0] cw_codes_o,

  `COSIM_AXI_READ_CLIENT_PORTS(AddrW, AxiDataWidth)
);

  localparam int unsigned Nibbles = AxiDataWidth / 4;

  // StCmd: the group's read command; then per channel StPrm (its parameter
  // beat) and StWgt (its code beats).
  typedef enum logic [2:0] {StIdle, StCmd, StPrm, StWgt} state_e;
  state_e state_q, state_d;
  assign state_o = state_q;

  logic [1:0]         bank_q, bank_d;
  logic [PeW:0]       n_q, n_d;
  logic [PeW-1:0]     pe_q, pe_d;
  logic [AddrW-1:0]   addr_q, addr_d; // the group's first record
  logic [31:0]        base_q, base_d; // group-relative position of this channel's first code
  logic [31:0]        cbeat_q, cbeat_d;

  // Code beats per record: ceil(c_in*k*k / 32).
  logic [31:0] code_beats;
  assign code_beats = (32'(ckk_i) + 32'(Nibbles - 1)) / 32'(Nibbles);

  logic               cmd_valid, cmd_ready;
  logic [AddrW-1:0]   cmd_addr;
  logic [19:0]        cmd_beats;
  logic               beat_valid, beat_done;
  logic [AxiDataWidth-1:0] beat_data;

  tf2_rd_stream #(.BeatCntW(20)) u_stream (
    .clk_i, .rst_ni,
    .cmd_valid_i (cmd_valid),
    .cmd_ready_o (cmd_ready),
    .cmd_addr_i  (cmd_addr),
    .cmd_beats_i (cmd_beats),
    .beat_valid_o(beat_valid),
    .beat_data_o (beat_data),
    .done_o      (beat_done),
    .err_o       (axi_err_o),
    .ar_valid_o, .ar_ready_i, .ar_addr_o, .ar_len_o,
    .r_valid_i, .r_data_i, .r_last_i, .r_resp_i
  );

  assign cmd_valid = (state_q == StCmd);
  assign cmd_addr  = addr_q;
  assign cmd_beats = 20'(32'(n_q) * (code_beats + 32'd1));

  always_comb begin
    state_d = state_q;
    pe_d    = pe_q;
    base_d  = base_q;
    cbeat_d = cbeat_q;
    {bank_d, n_d, addr_d} = {bank_q, n_q, addr_q};
    unique case (state_q)
      StIdle: if (start_i) begin
        state_d = StCmd;
        bank_d  = bank_i;
        n_d     = n_i;
        addr_d  = wgt_addr_i + ((32'(oc0_i) * (code_beats + 32'd1)) << 4);
      end
      StCmd: if (cmd_ready) begin
        state_d = StPrm;
        pe_d    = '0;
        base_d  = '0;
      end
      StPrm: if (beat_valid) begin
        state_d = StWgt;
        cbeat_d = '0;
      end
      StWgt: if (beat_valid) begin
        cbeat_d = cbeat_q + 32'd1;
        if (beat_done) begin
          state_d = StIdle;
        end else if (cbeat_q + 32'd1 == code_beats) begin
          state_d = StPrm;
          pe_d    = pe_q + 1'b1;
          base_d  = base_q + 32'(ckk_i);
        end
      end
      default: state_d = StIdle;
    endcase
  end

  assign idle_o = (state_q == StIdle);
  assign done_o = (state_q == StWgt) && beat_done;

  assign pw_valid_o = (state_q == StPrm) && beat_valid;
  assign pw_bank_o  = bank_q;
  assign pw_pe_o    = pe_q;
  assign pw_bias_o  = beat_data[31:0];
  assign pw_alpha_o = beat_data[63:32];
  assign pw_beta_o  = beat_data[95:64];
  assign pw_qout_o  = beat_data[103:96];

  assign cw_valid_o = (state_q == StWgt) && beat_valid;
  assign cw_bank_o  = bank_q;
  assign cw_pos_o   = $signed(base_q + cbeat_q * 32'(Nibbles));  // code beat cbeat of this channel
  assign cw_codes_o = beat_data;

  // Only this channel's codes count: the record's pad nibbles are not codes.
  always_comb begin
    code_err_o = 1'b0;
    if (cw_valid_o) begin
      for (int unsigned j = 0; j < Nibbles; j++) begin
        if (cbeat_q * 32'(Nibbles) + 32'(j) < 32'(ckk_i) && beat_data[4*j +: 4] == 4'hf) begin
          code_err_o = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= StIdle;
      bank_q      <= '0;
      n_q         <= '0;
      pe_q        <= '0;
      addr_q      <= '0;
      base_q      <= '0;
      cbeat_q     <= '0;
    end else begin
      state_q     <= state_d;
      bank_q      <= bank_d;
      n_q         <= n_d;
      pe_q        <= pe_d;
      addr_q      <= addr_d;
      base_q      <= base_d;
      cbeat_q     <= cbeat_d;
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  `COSIM_ASSERT(a_legal_state, state_q inside {StIdle, StCmd, StPrm, StWgt},
                ("tf2_filter_loader: illegal state %0d", state_q))
  `COSIM_ASSERT_IF(a_start_idle, idle_o, start_i, ("tf2_filter_loader: started while busy"))

endmodule
