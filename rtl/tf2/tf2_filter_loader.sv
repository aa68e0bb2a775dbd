// Filter Loader: for one group of up to NPe output channels, reads the
// per-channel parameters {bias, alpha, beta} (one beat each) and then the
// group's slice of the packed OIHW weight codes (a contiguous nibble range,
// least-significant nibble first) into one bank of the PE filter caches.
// Code beats go out with the group-relative position of their nibble 0
// (negative for a start inside a beat); each PE keeps the nibbles of its own
// output channel. A 1111 code inside the range raises code_err_o.
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
  input  logic [AddrW-1:0]        wgt_addr_i,
  input  logic [AddrW-1:0]        prm_addr_i,
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

  typedef enum logic [2:0] {StIdle, StPrmCmd, StPrm, StWgtCmd, StWgt} state_e;
  state_e state_q, state_d;
  assign state_o = state_q;

  logic [1:0]         bank_q;
  logic [PeW:0]       n_q;
  logic [PeW-1:0]     pe_q, pe_d;
  logic [31:0]        nib_start_q;   // absolute nibble address of the group's first code
  logic [31:0]        total_q;       // codes in the group
  logic [AddrW-1:0]   prm_q;
  logic signed [31:0] pos_q, pos_d;

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

  logic [4:0] first_off;
  assign first_off = nib_start_q[4:0];

  always_comb begin
    cmd_valid = 1'b0;
    cmd_addr  = prm_q;
    cmd_beats = 20'(n_q);
    if (state_q == StPrmCmd) begin
      cmd_valid = 1'b1;
    end else if (state_q == StWgtCmd) begin
      cmd_valid = 1'b1;
      cmd_addr  = AddrW'(nib_start_q[31:5]) << 4;
      cmd_beats = 20'((32'(first_off) + total_q + 32'(Nibbles - 1)) / 32'(Nibbles));
    end
  end

  always_comb begin
    state_d = state_q;
    pe_d    = pe_q;
    pos_d   = pos_q;
    unique case (state_q)
      StIdle:   if (start_i) state_d = StPrmCmd;
      StPrmCmd: if (cmd_ready) begin
        state_d = StPrm;
        pe_d    = '0;
      end
      StPrm: if (beat_valid) begin
        pe_d = pe_q + 1'b1;
        if (beat_done) state_d = StWgtCmd;
      end
      StWgtCmd: if (cmd_ready) begin
        state_d = StWgt;
        pos_d   = -$signed(32'(first_off));
      end
      StWgt: if (beat_valid) begin
        pos_d = pos_q + 32'(Nibbles);
        if (beat_done) state_d = StIdle;
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
  assign cw_pos_o   = pos_q;
  assign cw_codes_o = beat_data;

  always_comb begin
    code_err_o = 1'b0;
    if (cw_valid_o) begin
      for (int unsigned j = 0; j < Nibbles; j++) begin
        if (pos_q + $signed(32'(j)) >= 0 && pos_q + $signed(32'(j)) < $signed(total_q) &&
            beat_data[4*j +: 4] == 4'hf) begin
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
      nib_start_q <= '0;
      total_q     <= '0;
      prm_q       <= '0;
      pos_q       <= '0;
    end else begin
      state_q <= state_d;
      pe_q    <= pe_d;
      pos_q   <= pos_d;
      if (state_q == StIdle && start_i) begin
        bank_q      <= bank_i;
        n_q         <= n_i;
        nib_start_q <= (wgt_addr_i << 1) + 32'(oc0_i) * 32'(ckk_i);
        total_q     <= 32'(n_i) * 32'(ckk_i);
        prm_q       <= prm_addr_i + (32'(oc0_i) << 4);
      end
    end
  end

  // ---- Assertions (Verilated with --assert) --------------------------------
  a_legal_state: assert property (@(posedge clk_i) disable iff (!rst_ni)
    state_q inside {StIdle, StPrmCmd, StPrm, StWgtCmd, StWgt})
    else $error("tf2_filter_loader: illegal state %0d", state_q);
  a_start_idle: assert property (@(posedge clk_i) disable iff (!rst_ni)
    start_i |-> idle_o)
    else $error("tf2_filter_loader: started while busy");

endmodule
