// The binder of a block-level control port (`kind: ap_ctrl`): an HLS kernel
// whose ap_start, ap_done, ap_idle, ap_ready (and ap_continue) are pins and
// whose scalar arguments are input ports, as HLS makes a top function
// without an AXI4-Lite interface. The binder is the control adapter HLS
// would otherwise add: the host sees the Vitis control map (CTRL at 0x00,
// GIE 0x04, IER 0x08, ISR 0x0c; the manifest's argument registers from
// 0x10, each a 32-bit word of a pin), so the op `call` and run_to_done work
// on it unchanged, and the kernel needs no shell.
//
//   CTRL bit 0 ap_start      written 1: the ap_start pin is held high until the
//                            kernel takes it (ap_ready, or ap_done without
//                            one); auto_restart (bit 7) keeps it high
//        bit 1 ap_done       set when the ap_done pin is high, cleared by a read;
//                            ap_ctrl_chain (Bus::kChain): the pin's level, which
//                            the kernel holds until ap_continue
//        bit 2 ap_idle       the pin, live
//        bit 3 ap_ready      set when the kernel takes a start, cleared by a read
//        bit 4 ap_continue   written 1: the ap_continue pin high for one cycle
//   ISR  bit 0 done, bit 1 ready, when enabled in IER; a write toggles
//   an argument register   written: its word of the pin, driven from the next
//                          cycle and held; read: what was written, or for an
//                          output pin (access ro) its word as of the last
//                          cycle its `valid` strobe was high (an ap_vld), or
//                          without one of the last ap_done (the adapter
//                          latches a returned value so)
//
// Every access takes one cycle of the port's clock (an AXI4-Lite adapter
// takes a few); an offset the map lacks is recorded as an error of the run.
// It counts the kernel's calls and their latency, in the port's cycles from
// the first one ap_start is high in to the one ap_done is high in, HLS's
// definition (counters(): <port>.calls, .latency_min, .latency_max,
// .latency_total), to set beside what HLS reports (HLS_SYN_LAT). Not from
// ap_ready: a dataflow kernel raises it once its inputs are read, late.
// And the interval between the starts it takes, ap_ready to ap_ready
// (.interval_min, .interval_max: HLS's initiation interval when ap_start is
// held high, auto_restart), and how many were taken while an earlier call
// still ran (.overlapped: a pipelined or dataflow kernel's).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "common/text.hpp"
#include "harness/ap_ctrl.hpp"
#include "harness/bus.hpp"
#include "harness/control_port.hpp"

namespace cosim::tb::harness {

template <class Model, class Bus>
class ApCtrlBinder final : public ControlPort<Model, ApCtrlBinder<Model, Bus>> {
 public:
  void drive(Model& m) override {
    set_pin(Bus::start(m), start_ ? 1 : 0);
    if constexpr (COSIM_HAS(Bus, continue_, Model)) set_pin(Bus::continue_(m), continue_pulse_ ? 1 : 0);
    for (const auto& [offset, value] : pending_) Bus::write_arg(m, offset, value);
    pending_.clear();
  }
  void sample(const Model& m, uint64_t cycle) override {
    const bool continuing = continue_pulse_;
    continue_pulse_ = false;  // a one-cycle pulse: the edge after this sample takes it
    const bool done = Bus::done(m);
    bool taken = false;
    if constexpr (COSIM_HAS(Bus, ready, Model)) taken = start_ && Bus::ready(m);
    else taken = start_ && done;
    if (start_ && !start_seen_) {  // the first cycle ap_start is high for this call
      start_seen_ = true;
      start_cycle_ = cycle;
    }
    if (taken) {
      ready_ = true;
      start_ = auto_restart_;
      if (ier_ & 2) isr_ |= 2;
      if (takes_ > 0) {
        const uint64_t interval = cycle - last_take_;
        interval_min_ = takes_ == 1 ? interval : std::min(interval_min_, interval);
        interval_max_ = std::max(interval_max_, interval);
      }
      last_take_ = cycle;
      ++takes_;
      if (!started_.empty()) ++overlapped_;
      started_.push_back(start_cycle_);
      start_seen_ = false;
    }
    // A call completes in each cycle ap_done is high (a pipelined kernel's completions may follow
    // each other), under ap_ctrl_chain in the first of them before its ap_continue.
    if (done && !(Bus::kChain && done_)) complete(cycle);
    if constexpr (Bus::kChain) done_ = done && !continuing;
    else done_ = done_ || done;
    if (done && (ier_ & 1)) isr_ |= 1;
    Bus::for_each_output(m, done, [this](uint32_t offset, uint32_t v) { outputs_[offset] = v; });
    if constexpr (COSIM_HAS(Bus, idle, Model)) idle_ = Bus::idle(m);
    else idle_ = !start_;
    model_ = &m;
  }
  int clock() const override { return bus_clock<Bus>; }

  template <class Clock>
  uint32_t access(Clock& core, bool write, uint32_t addr, uint32_t wdata) {
    const uint32_t value = write ? (write_reg(addr, wdata), 0u) : read_reg(addr);
    core.cycle();
    return value;
  }

  const std::vector<std::string>& errors() const { return errors_; }

  std::map<std::string, uint64_t> counters() const {
    const std::string p = std::string(Bus::kName) + ".";
    if (calls_ == 0) return {{p + "calls", 0}};
    std::map<std::string, uint64_t> c = {{p + "calls", calls_},
                                         {p + "latency_min", latency_min_},
                                         {p + "latency_max", latency_max_},
                                         {p + "latency_total", latency_total_},
                                         {p + "overlapped", overlapped_}};
    if (takes_ > 1) {
      c[p + "interval_min"] = interval_min_;
      c[p + "interval_max"] = interval_max_;
    }
    return c;
  }

 private:
  void write_reg(uint32_t addr, uint32_t v) {
    switch (addr) {
      case ap_ctrl::kCtrl:
        start_ = start_ || (v & ap_ctrl::kApStart);
        continue_pulse_ = v & ap_ctrl::kApContinue;
        auto_restart_ = v & ap_ctrl::kAutoRestart;
        return;
      case ap_ctrl::kGie: gie_ = v & 1; return;
      case ap_ctrl::kIer: ier_ = v & 3; return;
      case ap_ctrl::kIsr: isr_ ^= v & 3; return;
      default: break;
    }
    if (!Bus::is_arg(addr)) {
      errors_.push_back("control (ap_ctrl): write of " + hex(v) + " at " + hex(addr) + ", where no register is");
      return;
    }
    args_[addr] = v;
    pending_[addr] = v;
  }

  uint32_t read_reg(uint32_t addr) {
    switch (addr) {
      case ap_ctrl::kCtrl: {
        const uint32_t v = (start_ ? ap_ctrl::kApStart : 0u) | (done_ ? ap_ctrl::kApDone : 0u) |
                           (idle_ ? ap_ctrl::kApIdle : 0u) | (ready_ ? ap_ctrl::kApReady : 0u) |
                           (auto_restart_ ? ap_ctrl::kAutoRestart : 0u);
        done_ = ready_ = false;  // clear on read, as HLS's adapter does
        return v;
      }
      case ap_ctrl::kGie: return gie_ ? 1 : 0;
      case ap_ctrl::kIer: return ier_;
      case ap_ctrl::kIsr: return isr_;
      default: break;
    }
    if (const auto it = outputs_.find(addr); it != outputs_.end()) return it->second;
    uint32_t out = 0;
    if (model_ && Bus::read_arg(*model_, addr, out)) return out;  // an output pin's word, before any ap_done
    if (Bus::is_arg(addr)) return args_[addr];
    errors_.push_back("control (ap_ctrl): read at " + hex(addr) + ", where no register is");
    return 0;
  }

  void complete(uint64_t cycle) {
    if (started_.empty()) return;  // a done without a start taken: not a call of ours
    const uint64_t latency = cycle - started_.front();
    started_.pop_front();
    latency_min_ = calls_ == 0 ? latency : std::min(latency_min_, latency);
    latency_max_ = std::max(latency_max_, latency);
    latency_total_ += latency;
    ++calls_;
  }

  std::vector<std::string> errors_;
  std::deque<uint64_t> started_;  // the first ap_start cycles of the calls taken and not completed
  bool start_seen_ = false;       // the pending start's first cycle is recorded (start_cycle_)
  uint64_t start_cycle_ = 0;
  uint64_t calls_ = 0, latency_min_ = 0, latency_max_ = 0, latency_total_ = 0;
  uint64_t takes_ = 0, last_take_ = 0, interval_min_ = 0, interval_max_ = 0, overlapped_ = 0;
  std::map<uint32_t, uint32_t> args_, pending_;  // what each argument word holds; those not yet on the pins
  std::map<uint32_t, uint32_t> outputs_;         // output pins' words as last latched
  const Model* model_ = nullptr;
  bool start_ = false, continue_pulse_ = false, auto_restart_ = false, done_ = false, ready_ = false, idle_ = true;
  bool gie_ = false;
  uint32_t ier_ = 0, isr_ = 0;
};

}  // namespace cosim::tb::harness
