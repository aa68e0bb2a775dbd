// DUT wrapper of @NAME@ (rtl/@NAME@): the Verilated model on the harness
// core, every pin taken from the manifest's ports (include/dut/@NAME@_pins.hpp):
// the control port behind the TLM register target, every AXI4 master the
// manifest lists served through its own TLM memory bridge on the one DRAM
// (CoreDutWrapper), every native memory port (sram) on a bridge of its own
// to the same DRAM, every AXI-Stream it lists reached by its interface name
// from the trace's stream_send / stream_check steps (axis::StreamSet), and
// the interrupt pins if it has any. Both template
// styles share it: what one kernel's insides are is said only in
// @NAME@_status.hpp. The model-specific half is a class template over the
// Verilated model class (@NAME@_wrapper_model.hpp), instantiated once per
// variant of the manifest by the build (cosim_core_over_variants /
// cosim_core_instance_source).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "axis/stream_set.hpp"
#include "harness/port.hpp"
#include "harness/sram_binder.hpp"
#include "harness/variant.hpp"
#include "tlm/core_dut_wrapper.hpp"

namespace cosim::tb::@NAME@ {

// run(): wait_done by the manifest's control (a done pin, or CTRL polled for
// ap_done); wait_irq: until an interrupt pin is high.
class Wrapper : public CoreDutWrapper {
 public:
  struct Impl;  // the model and the harness core (@NAME@_wrapper_model.hpp)
  // One Verilated variant: Over<V<variant>>::build().
  struct Build {
    const harness::Variant& variant;
    // slaves: one per AXI4 master of the manifest, in its order; mems: one per sram interface.
    std::unique_ptr<Impl> (*make)(const std::vector<harness::AxiSlavePort*>& slaves,
                                  const std::vector<MemoryPort*>& mems, const TbConfig& cfg);
    std::vector<harness::AxiMasterSpec> masters;  // the manifest's AXI4 masters, with the model's data widths
    std::vector<harness::SramSpec> srams;         // its sram interfaces (native memory ports)
  };

  Wrapper(sc_core::sc_module_name name, const TbConfig& cfg, const Build& build);
  ~Wrapper() override;

  // Without an interrupt pin in the manifest: one line, as for any target.
  bool run_until_irq(uint64_t max_cycles) override;
  // The manifest's axis_in / axis_out interfaces by name; without any, one
  // line, as for any target.
  void stream_send(const std::string& stream, const std::vector<uint8_t>& bytes) override;
  std::vector<uint8_t> stream_receive(const std::string& stream, std::size_t nbytes) override;
  // Clocks until the output holds what a check wants: a kernel without
  // ap_done (ap_ctrl_none) is checked so.
  bool stream_wait(const std::string& stream, std::size_t nbytes, uint64_t max_cycles) override;
  std::vector<uint64_t> last_receive_cycles() const override { return received_cycles_; }
  std::optional<std::vector<std::size_t>> last_receive_packet_ends() const override { return received_ends_; }

 protected:
  // Status::diagnosis (@NAME@_status.hpp), then each stream's state.
  std::string dut_diagnosis() const override;
  // busy_cycles when the kernel's BusyPort counts them.
  std::map<std::string, uint64_t> dut_counters() const override;
  // The control port's error responses, then the streams' (StreamSet::errors).
  std::vector<std::string> dut_errors() const override;

 private:
  axis::StreamSet streams_;
  std::vector<uint64_t> received_cycles_;  // of the last stream_receive's bytes
  std::vector<std::size_t> received_ends_;  // where those bytes ended packets (TLAST)
};

// The wrapper's model half over the Verilated model class Model (V<variant>):
// defined in @NAME@_wrapper_model.hpp; callers name the class only (`class V@NAME@_rtl;`).
template <class Model>
struct Over {
  static const Wrapper::Build& build();
};

}  // namespace cosim::tb::@NAME@
