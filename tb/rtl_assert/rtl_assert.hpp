// RTL assertion failures as C++ exceptions naming the cycle.
//
// The RTL's SystemVerilog assertions (Verilated with --assert) print
// "[<time>] %Error: <file>:<line>: Assertion failed in <instance>: <message>"
// and then call $stop, which by default aborts the whole process. A harness
// calls catch_rtl_assertions() once on its context: $stop then only raises
// the context's error flag, and check_rtl_assertions() after each clock edge
// turns that flag into an RtlAssertionError carrying the DUT, the cycle and
// the property (label, instance, file:line, text: Verilator's message,
// captured by vl_print_hook), so a test fails cleanly, the next test still
// runs, and `cosim` writes a report naming the assertion. Harnesses that set
// the context time to the cycle number get the same number in Verilator's
// own message.
#pragma once

// Verilator's headers are not -Wextra clean; they are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <verilated.h>
#pragma GCC diagnostic pop

#include <cstdint>
#include <string>

#include "rtl_assert/rtl_assertion_error.hpp"
#include "rtl_assert/vl_print_hook.hpp"

namespace cosim::tb {

inline void catch_rtl_assertions(VerilatedContext& ctx) { ctx.fatalOnError(false); }

// Verilator 5.006 unregisters a model's scopes (which --assert creates for
// its messages) from the thread's *current* context, the last one evaluated,
// which may belong to another model, already destroyed: a hang or a crash.
// Call this in the owner's destructor, before the model is destroyed.
inline void before_model_destruction(VerilatedContext& ctx) { Verilated::threadContextp(&ctx); }

inline void check_rtl_assertions(VerilatedContext& ctx, const char* dut, uint64_t cycle) {
  if (!ctx.gotError()) return;
  // Clear the flags so that a caller catching the error may still inspect the model.
  ctx.gotError(false);
  ctx.gotFinish(false);
  throw RtlAssertionError(dut, cycle, take_last_assertion_message());
}

}  // namespace cosim::tb
