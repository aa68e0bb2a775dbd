// Coverage dump for a Verilated model, called by every harness once its run
// is over. When the RTL was Verilated with coverage (-DCOSIM_RTL_COVERAGE=ON)
// and COSIM_COVERAGE_DIR is set, the context's counters are written to
// $COSIM_COVERAGE_DIR/<dut>-<pid>-<n>.dat (unique per process and per call,
// since tests create many models); otherwise this does nothing.
//
// Call it before the model is destroyed: the context's coverage database
// points into the model's counters.
#pragma once

// Verilator's headers are not -Wextra clean; they are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <verilated.h>
#pragma GCC diagnostic pop

#ifdef COSIM_RTL_COVERAGE
#include <unistd.h>
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <verilated_cov.h>
#pragma GCC diagnostic pop

#include <atomic>
#include <cstdlib>
#include <string>
#endif

namespace cosim::tb {

inline void write_rtl_coverage(VerilatedContext& ctx, const char* dut) {
#ifdef COSIM_RTL_COVERAGE
  const char* dir = std::getenv("COSIM_COVERAGE_DIR");
  if (dir == nullptr || *dir == '\0') return;
  static std::atomic<unsigned> serial{0};
  const std::string path = std::string(dir) + "/" + dut + "-" + std::to_string(::getpid()) + "-" +
                           std::to_string(serial++) + ".dat";
  ctx.coveragep()->write(path.c_str());
#else
  (void)ctx;
  (void)dut;
#endif
}

}  // namespace cosim::tb
