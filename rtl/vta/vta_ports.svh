// Parameter and port lists shared by the VTA engines (LOAD, COMPUTE, STORE
// and the loader they use), and the dispatch side LOAD and STORE share, so
// that each states them once. Macros like rtl/common/cosim_ports.svh: the
// pins and signals keep their names for the waveform view, the unit tests
// and the mutants.
`ifndef VTA_PORTS_SVH_
`define VTA_PORTS_SVH_

// The AXI data and address widths.
`define VTA_AXI_PARAMS \
  parameter int unsigned DataWidth = vta_pkg::AxiDataWidth, \
  parameter int unsigned AddrWidth = vta_pkg::AxiAddrWidth

// On-chip buffer depths (entries) and the AXI data and address widths.
`define VTA_BUFFER_PARAMS \
  parameter int unsigned InpDepth  = vta_pkg::DefInpDepth, \
  parameter int unsigned WgtDepth  = vta_pkg::DefWgtDepth, \
  parameter int unsigned AccDepth  = vta_pkg::DefAccDepth, \
  parameter int unsigned UopDepth  = vta_pkg::DefUopDepth, \
  `VTA_AXI_PARAMS

// An engine's clock, reset, flush and halt, and its instruction queue's head.
`define VTA_ENGINE_INSN_PORTS \
  input  logic                 clk_i, \
  input  logic                 rst_ni, \
  input  logic                 clr_i, \
  input  logic                 halt_i, \
  input  logic                 insn_valid_i, \
  output logic                 insn_ready_o, \
  input  logic [InsnWidth-1:0] insn_i

// An engine's view in the status vector, from its vta_engine_front.
`define VTA_ENGINE_STATUS_PORTS \
  output eng_state_e           state_o, \
  output logic [2:0]           op_o, \
  output logic [1:0]           pops_o

// The dispatch side of an engine that runs one memory instruction at a time
// (LOAD, STORE): the head of its queue as a memory instruction (`head`), its
// FSM's state (`state_q`, a `state_e`: StIdle, StRun, StDone, StHalt; the
// FSM itself is the engine's) with the running instruction's header
// (`hdr_q`), and its front end
// (rtl/vta/vta_engine_front), which takes the head while the FSM is idle and
// raises `start`. Such an engine has a token queue on one side only; each
// side is given as its queue's avail, pop and stall: for the side without a
// queue, 1'b1 and two signals left unused.
`define VTA_MEM_ENGINE_FRONT(PrevAvail, PrevPop, PrevStall, NextAvail, NextPop, NextStall) \
  insn_mem_t head; \
  assign head = insn_mem_t'(insn_i); \
  typedef enum logic [1:0] {StIdle, StRun, StDone, StHalt} state_e; \
  state_e state_q; \
  insn_hdr_t hdr_q; \
  logic start; \
  vta_engine_front u_front ( \
    .idle_i (state_q == StIdle), .accept_i (state_q == StIdle), .halt_i, .insn_valid_i, \
    .head_i (head.hdr), .run_i (hdr_q), \
    .prev_avail_i (PrevAvail), .pop_prev_o (PrevPop), .stall_prev_o (PrevStall), \
    .next_avail_i (NextAvail), .pop_next_o (NextPop), .stall_next_o (NextStall), \
    .start_o (start), .state_o, .op_o, .pops_o \
  ); \
  assign insn_ready_o = start

`endif  // VTA_PORTS_SVH_
