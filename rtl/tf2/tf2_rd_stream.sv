// One read client of the AXI master: a command (16-byte aligned address,
// beat count) becomes INCR bursts of at most 256 beats that never cross a
// 4 KB boundary, issued one at a time through the read arbiter; the beats
// come back in order on beat_valid_o / beat_data_o (the sink is always
// ready). done_o pulses after the last beat of the command.
module tf2_rd_stream
  import tf2_pkg::*;
#(
  parameter int unsigned BeatCntW = 20
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  input  logic                    cmd_valid_i,
  output logic                    cmd_ready_o,
  /* verilator lint_off UNUSEDSIGNAL */  // bits 3:0: beats are 16-byte aligned
  input  logic [AddrW-1:0]        cmd_addr_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [BeatCntW-1:0]     cmd_beats_i,   // >= 1

  output logic                    beat_valid_o,
  output logic [AxiDataWidth-1:0] beat_data_o,
  output logic                    done_o,
  output logic                    err_o,         // pulses on a beat with RRESP != OKAY

  // Towards the arbiter.
  output logic                    ar_valid_o,
  input  logic                    ar_ready_i,
  output logic [AddrW-1:0]        ar_addr_o,
  output logic [7:0]              ar_len_o,
  input  logic                    r_valid_i,
  input  logic [AxiDataWidth-1:0] r_data_i,
  input  logic                    r_last_i,
  input  logic [1:0]              r_resp_i
);

  typedef enum logic [1:0] {StIdle, StAr, StR} state_e;
  state_e state_q, state_d;

  logic [AddrW-1:0]    addr_q, addr_d;
  logic [BeatCntW-1:0] left_q, left_d;   // beats not yet requested
  logic [8:0]          burst_beats;

  // Beats to the next 4 KB boundary (16-byte beats: at most 256).
  logic [8:0] to_boundary;
  assign to_boundary = 9'd256 - {1'b0, addr_q[11:4]};
  always_comb begin
    burst_beats = to_boundary;
    if (left_q < BeatCntW'(burst_beats)) burst_beats = 9'(left_q);
  end

  assign cmd_ready_o  = (state_q == StIdle);
  assign ar_valid_o   = (state_q == StAr);
  assign ar_addr_o    = addr_q;
  assign ar_len_o     = 8'(burst_beats - 9'd1);
  assign beat_valid_o = (state_q == StR) && r_valid_i;
  assign beat_data_o  = r_data_i;
  assign err_o        = beat_valid_o && (r_resp_i != 2'b00);
  assign done_o       = beat_valid_o && r_last_i && (left_q == '0);

  always_comb begin
    state_d = state_q;
    addr_d  = addr_q;
    left_d  = left_q;
    unique case (state_q)
      StIdle: if (cmd_valid_i) begin
        addr_d  = {cmd_addr_i[AddrW-1:4], 4'b0};
        left_d  = cmd_beats_i;
        state_d = StAr;
      end
      StAr: if (ar_ready_i) begin
        addr_d  = addr_q + (AddrW'(burst_beats) << 4);
        left_d  = left_q - BeatCntW'(burst_beats);
        state_d = StR;
      end
      StR: if (r_valid_i && r_last_i) begin
        state_d = (left_q == '0) ? StIdle : StAr;
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      addr_q  <= '0;
      left_q  <= '0;
    end else begin
      state_q <= state_d;
      addr_q  <= addr_d;
      left_q  <= left_d;
    end
  end

endmodule
