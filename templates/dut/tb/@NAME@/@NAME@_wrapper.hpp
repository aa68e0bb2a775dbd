// DUT wrapper of @NAME@ (rtl/@NAME@): the Verilated model on the harness
// core (tb/harness), the register port behind the TLM register target, and
// the AXI4 master served through the TLM memory bridge (CoreDutWrapper). The
// model-specific half is a class template over the Verilated model class
// (@NAME@_wrapper_model.hpp), instantiated once per variant of the manifest by the
// build (cosim_core_over_variants / cosim_core_instance_source).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/port.hpp"
#include "harness/variant.hpp"
#include "tlm/core_dut_wrapper.hpp"

namespace cosim::tb::@NAME@ {

class Wrapper : public CoreDutWrapper {
 public:
  struct Impl;  // the model and the harness core (@NAME@_wrapper_model.hpp)
  // One Verilated variant: Over<V<variant>>::build().
  struct Build {
    const harness::Variant& variant;
    // slaves: one per AXI4 master of the manifest, in its order.
    std::unique_ptr<Impl> (*make)(const std::vector<harness::AxiSlavePort*>& slaves, const TbConfig& cfg);
    std::vector<harness::AxiMasterSpec> masters;  // the manifest's AXI4 masters, with the model's data widths
  };

  Wrapper(sc_core::sc_module_name name, const TbConfig& cfg, const Build& build);
  ~Wrapper() override;

 protected:
  // The FSM state and the beats left (Status in @NAME@_status.hpp).
  std::string dut_diagnosis() const override;
  // busy_cycles: cycles out of the idle state.
  std::map<std::string, uint64_t> dut_counters() const override;
};

// The wrapper's model half over the Verilated model class Model (V<variant>):
// defined in @NAME@_wrapper_model.hpp; callers name the class only (`class V@NAME@_rtl;`).
template <class Model>
struct Over {
  static const Wrapper::Build& build();
};

}  // namespace cosim::tb::@NAME@
