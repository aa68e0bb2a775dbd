// The assertion layer of every RTL file in this tree (like OpenTitan's
// prim_assert.sv): one macro per kind of check, their bodies chosen here and
// nowhere else. `include "cosim_assert.svh" (rtl/common is on every include
// path: the build, scripts/lint.sh, tests/manifest/check_rtl.py).
//
//   `COSIM_ASSERT(name, cond, msg [, clk [, dis]])
//       cond holds at every rising edge of clk while dis is low.
//   `COSIM_ASSERT_IF(name, cond, enable, msg [, clk [, dis]])
//       cond holds at every edge where enable is high (enable |-> cond).
//   `COSIM_ASSERT_HELD(name, valid, ready, payload, msg [, clk [, dis]])
//       a valid/ready handshake: once valid is up and ready is not, valid
//       stays up and payload stays the same at the next edge
//       (valid && !ready |=> valid && $stable(payload)).
//   `COSIM_ASSERT_KNOWN(name, sig [, clk [, dis]])
//       sig has no X or Z bit (always true in a two-state Verilated model;
//       for four-state simulators).
//
// name is the assertion's label: a failure prints Verilator's
//   "[<cycle>] %Error: <file>:<line>: Assertion failed in <instance>.<name>: <text>"
// with the file and line of the macro's use, which tb/rtl_assert parses into
// report.json (name, instance, file, line, cycle). msg is the parenthesised
// argument list of $error: ("vta_token_q: pushed at count %0d", count_q).
// clk defaults to clk_i; dis (the disable condition, as `disable iff`)
// defaults to !rst_ni.
//
// Bodies:
//  - default: immediate assertions in an always_ff @(posedge clk). They see
//    the values just before the edge (registers before their update, inputs
//    and combinational signals as settled), the values a concurrent property
//    samples, so they fail at the same cycle. Verilator 5.006 keeps a sampled
//    copy of every signal a concurrent assertion names and refreshes it on
//    every evaluation, which cost the VTA core about 12 % of its simulation
//    speed (rtl/README.md); HELD copies its payload only while stalled.
//  - COSIM_ASSERT_CONCURRENT defined: the same checks as concurrent
//    `assert property`, for formal tools and simulators that prefer them.
//  - SYNTHESIS defined: nothing.
// Assertions are compiled only with Verilator's --assert (every DUT variant's
// default); without it the bodies cost nothing.
`ifndef COSIM_ASSERT_SVH
`define COSIM_ASSERT_SVH

`ifdef SYNTHESIS

`define COSIM_ASSERT(__name, __cond, __msg, __clk = clk_i, __dis = !rst_ni)
`define COSIM_ASSERT_IF(__name, __cond, __enable, __msg, __clk = clk_i, __dis = !rst_ni)
`define COSIM_ASSERT_HELD(__name, __valid, __ready, __payload, __msg, __clk = clk_i, __dis = !rst_ni)
`define COSIM_ASSERT_KNOWN(__name, __sig, __clk = clk_i, __dis = !rst_ni)

`elsif COSIM_ASSERT_CONCURRENT

`define COSIM_ASSERT(__name, __cond, __msg, __clk = clk_i, __dis = !rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (__dis) (__cond)) \
    else $error __msg;

`define COSIM_ASSERT_IF(__name, __cond, __enable, __msg, __clk = clk_i, __dis = !rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (__dis) (__enable) |-> (__cond)) \
    else $error __msg;

`define COSIM_ASSERT_HELD(__name, __valid, __ready, __payload, __msg, __clk = clk_i, __dis = !rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (__dis) \
    (__valid) && !(__ready) |=> (__valid) && $stable(__payload)) \
    else $error __msg;

`define COSIM_ASSERT_KNOWN(__name, __sig, __clk = clk_i, __dis = !rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (__dis) !$isunknown(__sig)) \
    else $error("an X or Z bit in the checked signal");

`else  // immediate assertions in clocked blocks (the default)

`define COSIM_ASSERT(__name, __cond, __msg, __clk = clk_i, __dis = !rst_ni) \
  always_ff @(posedge __clk) begin \
    if (!(__dis)) begin \
      __name: assert (__cond) else $error __msg; \
    end \
  end

`define COSIM_ASSERT_IF(__name, __cond, __enable, __msg, __clk = clk_i, __dis = !rst_ni) \
  always_ff @(posedge __clk) begin \
    if (!(__dis) && (__enable)) begin \
      __name: assert (__cond) else $error __msg; \
    end \
  end

// <name>_stall_q: the handshake was stalled at the last edge (and the check
// was not disabled then); <name>_payload_q: its payload at that edge. A
// disabled edge forgets the stall, as a disable ends a concurrent attempt
// (Verilator's `disable iff` ignores an attempt that began at a disabled
// edge). The disable condition usually holds the asynchronous reset, so the
// checker's own flop uses that net synchronously (SYNCASYNCNET, waived here
// for that one assignment).
`define COSIM_ASSERT_HELD(__name, __valid, __ready, __payload, __msg, __clk = clk_i, __dis = !rst_ni) \
  logic                        __name``_stall_q; \
  logic [$bits(__payload)-1:0] __name``_payload_q; \
  always_ff @(posedge __clk) begin \
    if (!(__dis) && __name``_stall_q) begin \
      __name: assert ((__valid) && (__payload) == __name``_payload_q) else $error __msg; \
    end \
    /* verilator lint_off SYNCASYNCNET */ \
    __name``_stall_q <= !(__dis) && (__valid) && !(__ready); \
    /* verilator lint_on SYNCASYNCNET */ \
    if ((__valid) && !(__ready)) __name``_payload_q <= __payload; \
  end

`define COSIM_ASSERT_KNOWN(__name, __sig, __clk = clk_i, __dis = !rst_ni) \
  always_ff @(posedge __clk) begin \
    if (!(__dis)) begin \
      __name: assert (!$isunknown(__sig)) else $error("an X or Z bit in the checked signal"); \
    end \
  end

`endif

`endif  // COSIM_ASSERT_SVH
