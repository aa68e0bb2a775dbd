// Dispatch front end of a VTA engine (LOAD, COMPUTE, STORE): the head of the
// engine's instruction queue starts once the engine can take it and every
// token its pop flags ask for is there; those tokens are popped in the same
// cycle. It also flags each cycle the head waits for a token (the STALL_*
// counters) and gives the engine's view in the status vector.
//
// An engine with no token queue on one side (LOAD has none on "prev", STORE
// none on "next") ties that side's avail high and leaves its pop and stall
// unused, so that flag never holds it up, as the engine ignores it.
module vta_engine_front import vta_pkg::*; (
  input  logic       idle_i,        // the engine's FSM is idle
  input  logic       accept_i,      // it can take an instruction (idle, or COMPUTE's overlap)
  input  logic       halt_i,
  input  logic       insn_valid_i,  // an instruction heads the queue
  input  insn_hdr_t  head_i,        // its header
  input  insn_hdr_t  run_i,         // header of the running instruction
  input  logic       prev_avail_i,  // a token waits for pop_prev
  input  logic       next_avail_i,  // a token waits for pop_next
  output logic       start_o,       // the head starts: the queue's ready
  output logic       pop_prev_o,
  output logic       pop_next_o,
  output logic       stall_prev_o,  // the head could start but for its pop_prev token
  output logic       stall_next_o,  // likewise for pop_next
  output eng_state_e state_o,
  output logic [2:0] op_o,
  output logic [1:0] pops_o
);

  logic prev_ok, next_ok, tokens_ok, can_start;
  assign prev_ok   = !head_i.pop_prev || prev_avail_i;
  assign next_ok   = !head_i.pop_next || next_avail_i;
  assign tokens_ok = prev_ok && next_ok;
  assign can_start = accept_i && insn_valid_i && !halt_i;

  assign start_o      = can_start && tokens_ok;
  assign pop_prev_o   = start_o && head_i.pop_prev;
  assign pop_next_o   = start_o && head_i.pop_next;
  assign stall_prev_o = can_start && !prev_ok;
  assign stall_next_o = can_start && !next_ok;

  vta_engine_status u_status (.idle_i, .insn_valid_i, .tokens_ok_i (tokens_ok), .head_i, .run_i,
                               .state_o, .op_o, .pops_o);

endmodule
