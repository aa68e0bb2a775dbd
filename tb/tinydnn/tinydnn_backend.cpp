// The `tinydnn` target: the bfloat16 training accelerator's convolution
// commands, as tiny-dnn's convolutional layer issues them: ops `fwd`, `bwd`,
// `dw`, `train_step` (tinydnn_layer_op.cpp, one conv layer job each) and
// `model` (model_replay over tinydnn_model_op.cpp).
//
// What is the target's, not an operator's: no `requant` (the pipeline
// computes in bfloat16), the DUT, and on replay the hardware's own MAC count
// and the unit of work named from the check.
#include <memory>

#include "cosim/backend.hpp"
#include "cosim/operator.hpp"
#include "dut/tinydnn_pins.hpp"
#include "tinydnn/tinydnn_backend.hpp"
#include "tinydnn/tinydnn_layer_op.hpp"
#include "tinydnn/tinydnn_wrapper.hpp"

namespace cosim::tb::tinydnn {

// The operators of tinydnn_ops.def (their factories: tinydnn_<op>_op.cpp each).
#define COSIM_OPS_DEF "tinydnn/tinydnn_ops.def"
#include "cosim/operator_list.inc"

namespace {

class TinyDnnBackend : public DutBackend<TinyDnnWrapper, cosim::tinydnn::pins::Top, TinyDnnBuilds> {
 public:
  explicit TinyDnnBackend(const TinyDnnBuilds& builds) : DutBackend("tinydnn", builds, listed_operators()) {}

 protected:
  void check_scenario(const scenario::Scenario& sc) const override {
    if (sc.requant) sc["requant"].fail("the tiny-dnn pipeline computes in bfloat16: requant does not apply");
  }

  // On replay there is no workload: the hardware's own MAC count stands in.
  Metrics replay_metrics(const SimOutcome& run) const override {
    const auto it = run.perf.find("mac_ops");
    return layer_run_metrics(it == run.perf.end() ? 0 : it->second, run);
  }

  std::optional<WorkUnit> replay_work_unit(const trace::Trace& tr, const std::string& check,
                                           const std::vector<int64_t>& index,
                                           std::optional<uint64_t> address) const override {
    (void)tr, (void)address;
    return layer_work_unit(check, index);
  }
};

}  // namespace
}  // namespace cosim::tb::tinydnn

class Vtinydnn_rtl;
class Vtinydnn_rtl_notrace;
class Vtinydnn_rtl_fast;

namespace cosim::backends {
// The product's variants: tinydnn_rtl_notrace (assertions), tinydnn_rtl_fast
// (no assertions) and tinydnn_rtl (assertions, FST-capable: --wave);
// libraries cosim_tinydnn_core_<variant>.
std::unique_ptr<tb::TargetBackend> make_tinydnn() {
  return make_tinydnn(
      tb::harness::builds_over<tb::tinydnn::TinyDnnCoreOver, Vtinydnn_rtl_notrace, Vtinydnn_rtl_fast, Vtinydnn_rtl>());
}
std::unique_ptr<tb::TargetBackend> make_tinydnn(const tb::tinydnn::TinyDnnBuilds& builds) {
  return std::make_unique<tb::tinydnn::TinyDnnBackend>(builds);
}
}  // namespace cosim::backends
