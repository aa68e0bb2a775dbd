// The `tf2` target: the TF2 shift-accumulate engine (rtl/tf2), ops `conv`
// (tf2_conv_op.cpp), `resnet_block` (tf2_resnet_block_op.cpp), both on
// tf2_layers_op.hpp, and `model` (model_replay over tf2_model_op.cpp).
//
// What is the target's, not an operator's: the `requant` modes (absent: the
// original's 32-bit requantization; saturate: the same without its wrap),
// the DUT, the engine's counters in every run's metrics, and the unit of
// work behind an element, named from the check alone (on replay too).
#include <algorithm>
#include <cstdlib>
#include <memory>

#include "cosim/backend.hpp"
#include "cosim/operator.hpp"
#include "dut/tf2_pins.hpp"
#include "tf2/tf2_backend.hpp"
#include "tf2/tf2_layers_op.hpp"
#include "tf2/tf2_wrapper.hpp"

namespace cosim::tb::tf2 {

// The operators of tf2_ops.def (their factories: tf2_<op>_op.cpp each).
#define COSIM_OPS_DEF "tf2/tf2_ops.def"
#include "cosim/operator_list.inc"

namespace {

class Tf2Backend : public DutBackend<Tf2Wrapper, cosim::tf2::pins::Top, Tf2Builds> {
 public:
  explicit Tf2Backend(const Tf2Builds& builds) : DutBackend("tf2", builds, listed_operators()) {}

  // The engine's configuration (cfg_*) is the same in every slice of a
  // split run: one slice's; every other counter as the default merges it.
  std::map<std::string, uint64_t> merge_perf_counters(const std::vector<PerfSlice>& slices) const override {
    std::map<std::string, uint64_t> merged = TargetBackend::merge_perf_counters(slices);
    for (auto& [k, v] : merged) {
      if (k.rfind("cfg_", 0) == 0) v = slices.front().perf.at(k);
    }
    return merged;
  }

  // Checks are named <layer output>[_c<first>_<last>] (one per 16-channel
  // group), NHWC [1, H, W, 16]; the layer is the output's rank among the
  // distinct check names in trace order (conv: output; resnet_block: conv1,
  // output). Works on replay too (names only).
  std::optional<tb::WorkUnit> work_unit(const tb::Workload* w, const trace::Trace& tr, const std::string& check,
                                        const std::vector<int64_t>& index,
                                        std::optional<uint64_t> address) const override {
    (void)w, (void)address;
    if (index.size() != 4) return std::nullopt;
    auto base_of = [](const std::string& n, int* first) {
      const auto p = n.rfind("_c");
      if (p != std::string::npos && n.find('_', p + 2) != std::string::npos) {
        *first = std::atoi(n.c_str() + p + 2);
        return n.substr(0, p);
      }
      *first = 0;
      return n;
    };
    int first = 0;
    const std::string base = base_of(check, &first);
    std::vector<std::string> bases;
    for (const auto& st : tr.steps) {
      if (st.op != trace::Op::kMemCheck) continue;
      int f = 0;
      const std::string b = base_of(st.tensor.name, &f);
      if (std::find(bases.begin(), bases.end(), b) == bases.end()) bases.push_back(b);
    }
    const auto it = std::find(bases.begin(), bases.end(), base);
    const int64_t layer = it == bases.end() ? 0 : it - bases.begin();
    tb::WorkUnit u;
    u.fields = {{"layer", layer}, {"channel", first + index[3]}, {"y", index[1]}, {"x", index[2]}};
    u.text = "layer " + std::to_string(layer) + " (" + base + "), output channel " + std::to_string(first + index[3]) +
             ", pixel (y " + std::to_string(index[1]) + ", x " + std::to_string(index[2]) + ")";
    return u;
  }

  // The operator's figures (none on replay), and the engine's counters.
  tb::Metrics metrics(const tb::Workload* w, const tb::SimOutcome& run) const override {
    tb::Metrics m = TargetBackend::metrics(w, run);
    auto perf = [&](const char* k) -> double {
      const auto it = run.perf.find(k);
      return it == run.perf.end() ? 0.0 : static_cast<double>(it->second);
    };
    const double busy = perf("busy_cycles"), pe_busy = perf("pe_busy_cycles");
    if (busy > 0) {
      m.extra["pe_busy_fraction"] = pe_busy / busy;
      m.extra["filter_wait_fraction"] = perf("filter_wait_cycles") / busy;
      m.extra["output_wait_fraction"] = perf("output_wait_cycles") / busy;
    }
    return m;
  }

 protected:
  // requant: absent = the original's 32-bit requantization, saturate = the
  // same without its wrap (for designs that fixed that overflow).
  void check_scenario(const scenario::Scenario& sc) const override {
    if (sc.requant && sc.requant != scenario::Requant::kSaturate) {
      sc["requant"].fail("expected saturate (or no requant key: the original engine's 32-bit requantization)");
    }
  }
};

}  // namespace
}  // namespace cosim::tb::tf2

class Vtf2_rtl;
class Vtf2_rtl_notrace;
class Vtf2_rtl_fast;

namespace cosim::backends {
// The product's variants: tf2_rtl_notrace (assertions), tf2_rtl_fast (no
// assertions) and tf2_rtl (assertions, FST-capable: --wave); libraries
// cosim_tf2_core_<variant>.
std::unique_ptr<tb::TargetBackend> make_tf2() {
  return make_tf2(tb::harness::builds_over<tb::tf2::Tf2CoreOver, Vtf2_rtl_notrace, Vtf2_rtl_fast, Vtf2_rtl>());
}
std::unique_ptr<tb::TargetBackend> make_tf2(const tb::tf2::Tf2Builds& builds) {
  return std::make_unique<tb::tf2::Tf2Backend>(builds);
}
}  // namespace cosim::backends
