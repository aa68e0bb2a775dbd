// What LOAD, COMPUTE and STORE each show in the debug status vector
// (vta_pkg::status_t): EngIdle with no instruction at the head of its queue,
// EngWait while the head waits for a token, EngBusy once it runs; and the
// opcode and token pops of the instruction it runs, or else of its head.
module vta_engine_status import vta_pkg::*; (
  input  logic       idle_i,        // the engine's FSM is idle
  input  logic       insn_valid_i,  // an instruction heads its queue
  input  logic       tokens_ok_i,   // the head's pops can be served
  input  insn_hdr_t  head_i,        // header of the head instruction
  input  insn_hdr_t  run_i,         // header of the running instruction
  output eng_state_e state_o,
  output logic [2:0] op_o,
  output logic [1:0] pops_o
);

  insn_hdr_t shown;
  assign shown = idle_i ? head_i : run_i;

  always_comb begin
    if (!idle_i)           state_o = EngBusy;
    else if (!insn_valid_i) state_o = EngIdle;
    else if (!tokens_ok_i)  state_o = EngWait;
    else                    state_o = EngBusy;
  end
  assign op_o   = shown.opcode;
  assign pops_o = {shown.pop_next, shown.pop_prev};

  // The pushes happen at the end of an instruction; they show nowhere here.
  logic unused_pushes;
  assign unused_pushes = ^{shown.push_next, shown.push_prev};

endmodule
