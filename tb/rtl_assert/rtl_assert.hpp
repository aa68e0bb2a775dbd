// RTL assertion failures as C++ exceptions naming the cycle.
//
// The RTL's SystemVerilog assertions (Verilated with --assert) print
// "[<time>] %Error: <file>:<line>: Assertion failed in <instance>: <message>"
// and then call $stop, which by default aborts the whole process. A harness
// calls catch_rtl_assertions() once on its context: $stop then only raises
// the context's error flag, and check_rtl_assertions() after each clock edge
// turns that flag into an RtlAssertionError carrying the DUT and the cycle,
// so a test fails cleanly and the next test still runs. Harnesses that set
// the context time to the cycle number get the same number in Verilator's
// own message.
#pragma once

// Verilator's headers are not -Wextra clean; they are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <verilated.h>
#pragma GCC diagnostic pop

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cosim::tb {

class RtlAssertionError : public std::runtime_error {
 public:
  RtlAssertionError(const std::string& dut, uint64_t cycle)
      : std::runtime_error(dut + ": RTL assertion failed at cycle " + std::to_string(cycle) +
                           " (Verilator's %Error line above names the file, line and property)"),
        cycle_(cycle) {}
  uint64_t cycle() const { return cycle_; }

 private:
  uint64_t cycle_;
};

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
  throw RtlAssertionError(dut, cycle);
}

}  // namespace cosim::tb
