// The TF2 engine (rtl/tf2, Vtf2_top of any parameter variant) on the harness
// core (tb/harness): its AXI4 master bound by name to an AXI slave, the
// per-cycle event counters, the register map, the decoding of its debug
// pins into a hang diagnosis. Shared by the bare harness (Tf2Bare) and the
// TLM wrapper (tb/tf2 Tf2Wrapper).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "harness/axi_master_binder.hpp"

namespace cosim::tb {
struct TbConfig;

// Register byte offsets (rtl/tf2/tf2_pkg.sv).
namespace tf2_reg {
constexpr uint32_t kCtrl = 0x00, kCycles = 0x04, kDescCount = 0x08, kDescAddr = 0x0c, kErrInfo = 0x10,
                   kConfig = 0x14, kPeBusy = 0x18, kFiltWait = 0x1c, kOutWait = 0x20, kFeatDepth = 0x24,
                   kFiltDepth = 0x28;
constexpr uint32_t kCtrlStart = 1, kCtrlDone = 2, kCtrlError = 4, kCtrlBusy = 8;
}  // namespace tf2_reg

}  // namespace cosim::tb

namespace cosim::tb::tf2 {

constexpr uint32_t kAxiDataBytes = 16;  // tf2_pkg::AxiDataWidth / 8

// Names of the RTL FSM states (tf2_controller, tf2_filter_loader, tf2_writer).
const char* controller_state_name(unsigned state);
const char* filter_loader_state_name(unsigned state);
const char* writer_state_name(unsigned state);
const char* error_code_name(unsigned code);

// The build's parameters, from the CONFIG / depth registers.
struct HwConfig {
  uint32_t n_pe = 0, ocol3d = 0, ktap = 0, ocol2d = 0, feat_depth = 0, filt_depth = 0;
};

// Cycles counted from the DUT's event pins, as its own counters see them.
struct EventCounts {
  uint64_t busy = 0, pe_busy = 0, filt_wait = 0, out_wait = 0;
};

class Tf2Core {
 public:
  // Resets the engine. `wave`: the waveform settings, null for none.
  explicit Tf2Core(harness::AxiSlavePort& slave, const TbConfig* wave = nullptr);
  ~Tf2Core();
  Tf2Core(const Tf2Core&) = delete;
  Tf2Core& operator=(const Tf2Core&) = delete;

  // From now on cycles are DUT time (harness::Core::start_timeline).
  void start_timeline(std::function<void()> after_cycle = {});
  void cycle();
  uint32_t reg_read(uint32_t offset);
  void reg_write(uint32_t offset, uint32_t value);
  // Clocks until CTRL.done (set at the end of a run, cleared by a start);
  // false when `max_cycles` more cycles passed first.
  bool run(uint64_t max_cycles);
  HwConfig read_config();

  bool busy() const;
  bool done() const;
  bool error() const;
  uint32_t err_info() const;  // ERR_INFO
  // The units' FSM states; `desc_count` / `desc_addr` as the host wrote them.
  std::string diagnosis(uint32_t desc_count, uint32_t desc_addr) const;
  const EventCounts& events() const;
  uint64_t time() const;  // cycles on the DUT's timeline
  std::map<std::string, uint64_t> wave_stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cosim::tb::tf2
