// The TF2 engine (rtl/tf2, any Verilated variant) on the harness
// core (tb/harness): its AXI4 master bound by name to an AXI slave, the
// per-cycle event counters, the register map, the decoding of its debug
// vector dbg_o into a hang diagnosis. Shared by the bare harness (Tf2Bare)
// and the TLM wrapper (tb/tf2 Tf2Wrapper).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "timeline/timeline.hpp"
#include "dut/tf2_regs.hpp"
#include "harness/axi_master_binder.hpp"
#include "harness/core_handle.hpp"
#include "harness/variant.hpp"

namespace cosim::tb {
struct TbConfig;
}  // namespace cosim::tb

namespace cosim::tb::tf2 {

constexpr uint32_t kAxiDataBytes = 16;  // tf2_pkg::AxiDataWidth / 8

// The register map, the ERR_INFO codes and the FSM state names are the
// manifest's (rtl/tf2/tf2.yaml, generated into dut/tf2_regs.hpp).
namespace regs = cosim::tf2::regs;

// ERR_INFO as text: "code 1 (weight code 1111 in the packed filter) at descriptor 3".
std::string describe_err_info(uint32_t err_info);

// The build's parameters, from the CONFIG / depth registers.
struct HwConfig {
  uint32_t n_pe = 0, ocol3d = 0, ktap = 0, ocol2d = 0, feat_depth = 0, filt_depth = 0;
};

// Cycles counted from the events of the debug vector dbg_o, as the DUT's own
// counters see them.
struct EventCounts {
  uint64_t busy = 0, pe_busy = 0, filt_wait = 0, out_wait = 0;
  // Busy and PE-busy cycles per descriptor index (a network's layers),
  // summed over the runs.
  std::vector<uint64_t> desc_busy, desc_pe_busy;
};

// run() clocks until CTRL.done (set at the end of a run, cleared by a start).
class Tf2Core : public harness::CoreHandle {
 public:
  // The model-specific half (tf2_core_model.hpp): Tf2CoreOver<Model>'s, one
  // instantiation per Verilated variant (library cosim_tf2_core_<variant>).
  struct Impl;
  using Build = harness::ModelBuild<Impl, harness::AxiSlavePort&, const TbConfig*>;

  // Resets the engine. `build`: the Verilated variant,
  // Tf2CoreOver<V<variant>>::build(). `wave`: the waveform settings, null
  // for none; with its `timeline` the units' activity is sampled on the
  // timeline (tf2_timeline.hpp).
  Tf2Core(const Build& build, harness::AxiSlavePort& slave, const TbConfig* wave = nullptr);
  ~Tf2Core();

  HwConfig read_config();

  bool busy() const;
  bool done() const;
  bool error() const;
  uint32_t err_info() const;  // ERR_INFO
  // The units' FSM states; `desc_count` / `desc_addr` as the host wrote them.
  std::string diagnosis(uint32_t desc_count, uint32_t desc_addr) const;
  const EventCounts& events() const;
  // The index EventCounts gives the next run's first descriptor (0 by
  // default): a host that runs several descriptor lists numbers them apart.
  void number_descriptors_from(std::size_t first);
};

// The core over the Verilated model class Model (V<variant>): defined in
// tf2_core_model.hpp, instantiated once per variant by the build
// (cosim_core_over_variants in tb/tf2/core/CMakeLists.txt). Callers name the
// model class only: `class Vtf2_rtl;` is enough.
template <class Model>
struct Tf2CoreOver {
  static const Tf2Core::Build& build();
};

}  // namespace cosim::tb::tf2
