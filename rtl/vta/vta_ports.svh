// Parameter and port lists shared by the VTA engines (LOAD, COMPUTE, STORE
// and the loader they use), so that each states them once. Macros like
// rtl/common/cosim_ports.svh: the pins keep their names for the waveform
// view, the unit tests and the mutants.
`ifndef VTA_PORTS_SVH_
`define VTA_PORTS_SVH_

// On-chip buffer depths (entries) and the AXI data and address widths.
`define VTA_BUFFER_PARAMS \
  parameter int unsigned InpDepth  = vta_pkg::DefInpDepth, \
  parameter int unsigned WgtDepth  = vta_pkg::DefWgtDepth, \
  parameter int unsigned AccDepth  = vta_pkg::DefAccDepth, \
  parameter int unsigned UopDepth  = vta_pkg::DefUopDepth, \
  parameter int unsigned DataWidth = vta_pkg::AxiDataWidth, \
  parameter int unsigned AddrWidth = vta_pkg::AxiAddrWidth

// An engine's clock, reset, flush and halt, and its instruction queue's head.
`define VTA_ENGINE_INSN_PORTS \
  input  logic                 clk_i, \
  input  logic                 rst_ni, \
  input  logic                 clr_i, \
  input  logic                 halt_i, \
  input  logic                 insn_valid_i, \
  output logic                 insn_ready_o, \
  input  logic [InsnWidth-1:0] insn_i

`endif  // VTA_PORTS_SVH_
