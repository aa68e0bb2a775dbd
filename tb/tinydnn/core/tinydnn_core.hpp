// The tiny-dnn accelerator (rtl/tinydnn, Vtinydnn_top) on the harness core
// (tb/harness), shared by the bare harness (TinyDnnBare) and the TLM wrapper
// (tb/tinydnn TinyDnnWrapper): the register port, the two AXI-Stream ports
// bound by name to a DMA model (MM2S: memory or held bytes -> s_axis; S2MM:
// m_axis -> memory, or a capture sink when no buffer is queued), seeded
// TVALID / TREADY stalls (tb/harness/stall_seed.hpp), an AXI-Stream protocol
// checker on both streams, fault injection for testbench tests, the
// performance counters and the hang diagnosis.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "timeline/timeline.hpp"
#include "axi/memory_port.hpp"
#include "axis/axis_checker.hpp"
#include "axis/axis_dma.hpp"
#include "axis/axis_sink.hpp"
#include "axis/captured_bytes.hpp"
#include "dut/tinydnn_regs.hpp"
#include "harness/axis_binder.hpp"
#include "harness/core_handle.hpp"
#include "harness/variant.hpp"
#include "tinydnn/dma_regs.hpp"

namespace cosim::tb {
struct TbConfig;
}  // namespace cosim::tb

namespace cosim::tb::tinydnn {

namespace dma = cosim::tinydnn::dma;  // the DMA registers and fault codes (dma::kFault*)

// The debug port's controller state (rtl/tinydnn/tinydnn_pkg.sv dbg_t), decoded.
// The fields and the batch states are the manifest's (rtl/tinydnn/tinydnn.yaml,
// generated into dut/tinydnn_regs.hpp).
struct CtrlState : cosim::tinydnn::regs::Dbg {
  static CtrlState decode(uint64_t dbg);
  std::string str() const;
};

// What the streams carried, counted per cycle.
struct StreamCounters {
  uint64_t busy_cycles = 0, mac_cycles = 0, mac_ops = 0;
  uint64_t in_beats = 0, out_beats = 0, in_starved = 0, in_backpressure = 0, out_backpressure = 0;
};

// The testbench end of both streams: the DMA model, the capture sink and the
// checkers. Protocol violations are collected in errors(), never thrown.
class Streams final : public harness::AxisEnds {
 public:
  // `mem`: what the DMA reads and writes; `delay`: the memory time of the
  // last access (the TLM bridge's take_delay_cycles), empty = one cycle.
  Streams(MemoryPort& mem, uint64_t seed, axis::DelaySource delay = {});

  // Stall chances per cycle; only while idle (rebuilds the DMA models).
  void set_stalls(double in_stall, double out_stall);
  void set_fault(uint32_t fault);

  void queue_in(uint64_t addr, uint64_t bytes);       // one MM2S packet from memory
  void queue_in_bytes(std::vector<uint8_t> bytes);    // one MM2S packet of held bytes
  void queue_out(uint64_t addr, uint64_t bytes);      // one S2MM buffer; its packet must fill it
  void expect_captured_packet(uint64_t beats);        // a packet the capture sink takes
  void expect_no_packets() { out_check_.expect_no_packets(); }
  // Up to n bytes the capture sink took, oldest first; with `cycles`, the
  // cycle each one's beat was handed over.
  std::vector<uint8_t> take_captured(std::size_t n, std::vector<uint64_t>* cycles = nullptr) {
    return captured_.take(n, cycles);
  }
  std::size_t captured() const { return captured_.size(); }

  bool idle() const;
  bool input_idle() const;  // no MM2S transfer running or queued
  uint32_t status() const;  // bit0 MM2S busy, bit1 S2MM busy, 15:8 / 23:16 queued jobs
  // After a command's done: input left unread, buffers not filled, packets
  // still expected become errors.
  void check_after_done(uint64_t time);
  void error(const std::string& e);
  const std::vector<std::string>& errors() const { return errors_; }
  std::string describe(const axis::Pins& in, const axis::Pins& out) const;

  void drive(axis::Pins& in, axis::Pins& out) override;
  void observe(uint64_t time, const axis::Pins& in, const axis::Pins& out) override;
  void update(uint64_t time, const axis::Pins& in, const axis::Pins& out) override;

 private:
  struct InJob {
    uint64_t addr = 0, bytes = 0;
    std::vector<uint8_t> data;  // non-empty: held bytes
  };
  struct OutJob {
    uint64_t addr = 0, bytes = 0;
  };
  void rebuild();
  // One stream's protocol check at a sampling edge, while it has found nothing.
  void observe_checked(axis::Checker& check, bool& ok, uint64_t time, const axis::Pins& pins);

  MemoryPort& mem_;
  uint64_t seed_;
  axis::DelaySource delay_;
  double in_stall_ = 0, out_stall_ = 0;
  std::unique_ptr<axis::Mm2sDma> mm2s_;
  std::unique_ptr<axis::S2mmDma> s2mm_;
  std::unique_ptr<axis::Sink> capture_;  // result beats without an S2MM buffer
  std::deque<InJob> in_jobs_;
  std::deque<OutJob> out_jobs_;
  axis::CapturedBytes captured_;
  bool s2mm_owns_beat_ = false;  // this cycle the S2MM (not the capture sink) drives TREADY

  axis::Checker in_check_{"tinydnn.s_axis"}, out_check_{"tinydnn.m_axis"};
  bool in_check_ok_ = true, out_check_ok_ = true;
  bool in_stalled_ = false;  // last cycle: input TVALID && !TREADY

  uint32_t fault_ = dma::kFaultNone;
  bool fault_done_ = false, injected_ = false, dup_pending_ = false;
  uint64_t in_fires_ = 0;
  axis::Beat dup_beat_;

  std::vector<std::string> errors_;
};

// Holds TinyDnnCore's Streams ahead of its handle (a base constructed
// first, destroyed last): the model's half uses them from its construction
// to its destruction.
class StreamsOwner {
 protected:
  StreamsOwner(MemoryPort& mem, uint64_t seed, axis::DelaySource delay) : streams_(mem, seed, std::move(delay)) {}
  Streams streams_;
};

// run() clocks until CTRL.done with the accelerator idle.
class TinyDnnCore : private StreamsOwner, public harness::CoreHandle {
 public:
  // The model-specific half (tinydnn_core_model.hpp): TinyDnnCoreOver<Model>'s,
  // one instantiation per Verilated variant (library cosim_tinydnn_core_<variant>).
  struct Impl;
  using Build = harness::ModelBuild<Impl, Streams&, const TbConfig*>;

  // Resets the accelerator. `build`: the Verilated variant,
  // TinyDnnCoreOver<V<variant>>::build(). `wave`: the waveform settings, null
  // for none; with its `timeline` the streams and units are sampled on the
  // timeline (tinydnn_timeline.hpp).
  TinyDnnCore(const Build& build, MemoryPort& mem, uint64_t seed, axis::DelaySource delay = {},
              const TbConfig* wave = nullptr);
  ~TinyDnnCore();

  bool busy() const;
  // The active core count (OD) for the MAC count, as the host wrote it.
  void set_od(uint32_t od);

  Streams& streams() { return streams_; }
  const Streams& streams() const { return streams_; }
  const StreamCounters& counters() const;
  std::string diagnosis() const;
};

// The core over the Verilated model class Model (V<variant>): defined in
// tinydnn_core_model.hpp, instantiated once per variant by the build
// (cosim_core_over_variants in tb/tinydnn/core/CMakeLists.txt). Callers name
// the model class only: `class Vtinydnn_rtl;` is enough.
template <class Model>
struct TinyDnnCoreOver {
  static const TinyDnnCore::Build& build();
};

}  // namespace cosim::tb::tinydnn
