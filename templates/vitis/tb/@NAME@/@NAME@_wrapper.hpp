// DUT wrapper of @NAME@ (rtl/@NAME@), a Vitis-style kernel: the Verilated
// model on the harness core, with every pin taken from the manifest's ports
// (include/dut/@NAME@_pins.hpp): the AXI4-Lite control port behind the TLM
// register target, every AXI4 master the manifest lists (gmem0 and gmem1
// here) each served through its own TLM memory bridge on the one DRAM, and
// the interrupt pin: a kernel with other masters changes its manifest, not
// this code. The
// model-specific half is a class template over the Verilated model class
// (@NAME@_wrapper_model.hpp), instantiated once per variant of the manifest by the
// build (cosim_core_over_variants / cosim_core_instance_source).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/port.hpp"
#include "harness/variant.hpp"
#include "tlm/core_dut_wrapper.hpp"

namespace cosim::tb::@NAME@ {

// run(): wait_done, polling CTRL for ap_done (the Vitis host flow).
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

  // wait_irq: clocks until the interrupt pin is high.
  bool run_until_irq(uint64_t max_cycles) override;

 protected:
  // The kernel's state and the beats left.
  std::string dut_diagnosis() const override;
  std::map<std::string, uint64_t> dut_counters() const override;
  std::vector<std::string> dut_errors() const override;
};

// The wrapper's model half over the Verilated model class Model (V<variant>):
// defined in @NAME@_wrapper_model.hpp; callers name the class only (`class V@NAME@_rtl;`).
template <class Model>
struct Over {
  static const Wrapper::Build& build();
};

}  // namespace cosim::tb::@NAME@
