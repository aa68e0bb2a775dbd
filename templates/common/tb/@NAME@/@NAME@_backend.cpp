// The `@NAME@` target: its operators (one file each, @NAME@_<op>_op.cpp,
// listed in @NAME@_ops.def), its DUT (@NAME@_wrapper.hpp) and the figures
// of a run that are the target's, not an operator's.
#include <memory>

#include "@NAME@/@NAME@_wrapper.hpp"
#include "cosim/backend.hpp"
#include "cosim/operator.hpp"
#include "dut/@NAME@_pins.hpp"

class V@NAME@_rtl;  // the manifest's variant (rtl/@NAME@/@NAME@.yaml), its own model class

namespace cosim::tb::@NAME@ {

// The operators of @NAME@_ops.def (their factories: @NAME@_<op>_op.cpp each).
#define COSIM_OPS_DEF "@NAME@/@NAME@_ops.def"
#include "cosim/operator_list.inc"

namespace {

class Backend : public tb::TargetBackend {
 public:
  Backend() { add_operators(listed_operators()); }

  std::string name() const override { return "@NAME@"; }
  std::string description() const override { return cosim::@NAME@::pins::Top::kDescription; }  // the manifest's
  std::string clocks() const override { return cosim::@NAME@::pins::Top::kClocks; }  // its ports.clocks, "" for none

  std::unique_ptr<tb::DutWrapper> make_dut(const char* name, const tb::TbConfig& cfg) const override {
    return std::make_unique<Wrapper>(name, cfg, Over<V@NAME@_rtl>::build());
  }

  // The operator's figures (none on replay), and the adder's throughput.
  tb::Metrics metrics(const tb::Workload* w, const tb::SimOutcome& run) const override {
    tb::Metrics m = TargetBackend::metrics(w, run);
    const auto it = run.perf.find("busy_cycles");
    if (it != run.perf.end() && it->second > 0) {
      m.extra["bytes_per_busy_cycle"] =
          static_cast<double>(run.memory.write_bytes) / static_cast<double>(it->second);
    }
    return m;
  }
};

}  // namespace
}  // namespace cosim::tb::@NAME@

namespace cosim::backends {
std::unique_ptr<tb::TargetBackend> make_@NAME@() { return std::make_unique<tb::@NAME@::Backend>(); }
}  // namespace cosim::backends
