#include "tinydnn/core/tinydnn_core.hpp"

#include <algorithm>
#include <sstream>

// Verilator's headers are not -Wextra clean; they are not ours to fix.
#include "Vtinydnn_top.h"
#include "verilated.h"
#include "dut/tinydnn_pins.hpp"
#include "harness/control.hpp"
#include "harness/core.hpp"
#include "harness/stall_seed.hpp"
#include "timeline/timeline_port.hpp"
#include "tinydnn/core/tinydnn_timeline.hpp"

namespace cosim::tb::tinydnn {

namespace pins = cosim::tinydnn::pins;  // the generated binding (manifest ports)
using namespace cosim::tinydnn::dma;     // the fault codes (kFault*)

namespace {

constexpr std::size_t kMaxErrors = 20;  // a broken stream would flood the report

}  // namespace

CtrlState CtrlState::decode(uint64_t dbg) {
  const uint32_t words[2] = {static_cast<uint32_t>(dbg), static_cast<uint32_t>(dbg >> 32)};
  CtrlState s;
  static_cast<cosim::tinydnn::regs::Dbg&>(s) = cosim::tinydnn::regs::decode_dbg(words);
  return s;
}

std::string CtrlState::str() const {
  std::ostringstream os;
  os << "batch controller " << cosim::tinydnn::regs::batch_state_e::show(batch_state) << " (received " << rx_cnt << ", computed "
     << cmp_cnt << ", sent " << tx_cnt << " samples; receiver " << (rx_busy ? "busy" : "idle") << ", compute "
     << (cmp_busy ? "busy" : "idle") << ", sender " << (tx_busy ? "busy" : "idle") << "; source banks full 0b"
     << (src_full >> 1) << (src_full & 1) << ", destination banks full 0b" << (dst_full >> 1) << (dst_full & 1)
     << "), sample controller " << (ctl_busy ? "busy" : "idle") << ", normaliser "
     << (post_busy ? "busy" : "idle");
  return os.str();
}

// ---- Streams ----------------------------------------------------------------

Streams::Streams(MemoryPort& mem, uint64_t seed, axis::DelaySource delay)
    : mem_(mem), seed_(seed), delay_(std::move(delay)) {
  rebuild();
}

void Streams::rebuild() {
  using harness::StallStream;
  mm2s_ = std::make_unique<axis::Mm2sDma>(mem_, harness::stall_seed(seed_, StallStream::kStreamIn), in_stall_);
  s2mm_ = std::make_unique<axis::S2mmDma>(mem_, harness::stall_seed(seed_, StallStream::kStreamOut), out_stall_);
  capture_ = std::make_unique<axis::Sink>(harness::stall_seed(seed_, StallStream::kStreamCapture), out_stall_);
  // Both DMAs take their access's memory time right after the access.
  if (delay_) {
    mm2s_->set_delay_source(delay_);
    s2mm_->set_delay_source(delay_);
  }
  mm2s_->set_beat_hook([this](const axis::Beat& b) { in_check_.expect_beat(b); });
}

void Streams::set_stalls(double in_stall, double out_stall) {
  if (!idle()) throw InputError("tinydnn DMA: stall probability changed while a transfer is queued or running");
  in_stall_ = in_stall;
  out_stall_ = out_stall;
  rebuild();
}

void Streams::set_fault(uint32_t fault) {
  fault_ = fault;
  fault_done_ = false;
  dup_pending_ = false;
  in_fires_ = 0;
}

void Streams::queue_in(uint64_t addr, uint64_t bytes) { in_jobs_.push_back(InJob{addr, bytes, {}}); }

void Streams::queue_in_bytes(std::vector<uint8_t> bytes) {
  const uint64_t n = bytes.size();
  in_jobs_.push_back(InJob{0, n, std::move(bytes)});
}

void Streams::queue_out(uint64_t addr, uint64_t bytes) {
  out_jobs_.push_back(OutJob{addr, bytes});
  out_check_.expect_packet(bytes / 8);
}

void Streams::expect_captured_packet(uint64_t beats) { out_check_.expect_packet(beats); }

std::vector<uint8_t> Streams::take_captured(std::size_t n) {
  n = std::min(n, captured_.size());
  std::vector<uint8_t> out(captured_.begin(), captured_.begin() + static_cast<std::ptrdiff_t>(n));
  captured_.erase(captured_.begin(), captured_.begin() + static_cast<std::ptrdiff_t>(n));
  return out;
}

bool Streams::input_idle() const { return !mm2s_->busy() && in_jobs_.empty(); }
bool Streams::idle() const { return input_idle() && !s2mm_->busy() && out_jobs_.empty(); }

uint32_t Streams::status() const {
  return (mm2s_->busy() ? 1u : 0u) | (s2mm_->busy() ? 2u : 0u) |
         (uint32_t(std::min<std::size_t>(in_jobs_.size(), 255)) << 8) |
         (uint32_t(std::min<std::size_t>(out_jobs_.size(), 255)) << 16);
}

void Streams::error(const std::string& e) {
  if (errors_.size() < kMaxErrors) errors_.push_back(e);
  else if (errors_.size() == kMaxErrors) errors_.push_back("(further errors not listed)");
}

void Streams::drive(axis::Pins& in, axis::Pins& out) {
  if (!mm2s_->busy() && !in_jobs_.empty()) {
    InJob j = std::move(in_jobs_.front());
    in_jobs_.pop_front();
    if (j.data.empty()) mm2s_->start(j.addr, j.bytes);
    else mm2s_->start_inline(std::move(j.data));
  }
  if (!s2mm_->busy() && !out_jobs_.empty()) {
    s2mm_->start(out_jobs_.front().addr, out_jobs_.front().bytes);
    out_jobs_.pop_front();
  }
  s2mm_owns_beat_ = s2mm_->busy();
  mm2s_->drive(in);
  if (s2mm_owns_beat_) s2mm_->drive(out);
  else capture_->drive(out);

  // Fault injection (testbench tests of the protocol checker).
  injected_ = false;
  if (fault_ == kFaultDuplicateBeat && dup_pending_) {
    in.tvalid = true;
    in.tdata = dup_beat_.data;
    in.tlast = dup_beat_.last;
    injected_ = true;
  }
  if (fault_ == kFaultTdataChange && !fault_done_ && in_stalled_ && in.tvalid) {
    in.tdata ^= 1;
    fault_done_ = true;
  }
}

void Streams::observe(uint64_t time, const axis::Pins& in, const axis::Pins& out) {
  // What the rising edge samples, on both streams.
  if (in_check_ok_) {
    try {
      in_check_.observe(time, in);
    } catch (const axis::ProtocolError& e) {
      in_check_ok_ = false;
      error(std::string("AXI-Stream protocol: ") + e.what());
    }
  }
  if (out_check_ok_) {
    try {
      out_check_.observe(time, out);
    } catch (const axis::ProtocolError& e) {
      out_check_ok_ = false;
      error(std::string("AXI-Stream protocol: ") + e.what());
    }
  }
}

void Streams::update(uint64_t time, const axis::Pins& in, const axis::Pins& out) {
  if (injected_) {
    // The source never saw its turn: the duplicate went in its place.
    if (in.fire()) {
      dup_pending_ = false;
      fault_done_ = true;
    }
  } else {
    mm2s_->update(in);
    if (in.fire() && fault_ == kFaultDuplicateBeat && !fault_done_ && ++in_fires_ == 3) {
      dup_pending_ = true;
      dup_beat_ = axis::Beat{in.tdata, in.tlast};
    }
  }
  if (s2mm_owns_beat_) {
    try {
      s2mm_->update(out);
    } catch (const axis::ProtocolError& e) {
      error("cycle " + std::to_string(time) + ": " + e.what());
    }
  } else {
    capture_->update(out);
    if (out.fire()) {
      for (int i = 0; i < 8; ++i) captured_.push_back(uint8_t(out.tdata >> (8 * i)));
    }
  }
  in_stalled_ = in.tvalid && !in.tready;
}

void Streams::check_after_done(uint64_t now) {
  if (mm2s_->busy() || !in_jobs_.empty()) {
    error("cycle " + std::to_string(now) + ": command done but the DUT left input unread (" +
          std::to_string(mm2s_->pending_beats()) + " beats in the stream, " + std::to_string(mm2s_->remaining()) +
          " bytes still to fetch, " + std::to_string(in_jobs_.size()) + " transfers queued)");
  }
  if (s2mm_->busy() || !out_jobs_.empty()) {
    error("cycle " + std::to_string(now) + ": command done but result buffers were not filled (S2MM " +
          (s2mm_->busy() ? "waiting after " + std::to_string(s2mm_->bytes_written()) + " bytes" : "idle") + ", " +
          std::to_string(out_jobs_.size()) + " buffers queued)");
  }
  if (out_check_ok_) {
    try {
      out_check_.finish(now);
    } catch (const axis::ProtocolError& e) {
      out_check_ok_ = false;
      error(std::string("AXI-Stream protocol: ") + e.what());
    }
  }
}

std::string Streams::describe(const axis::Pins& in, const axis::Pins& out) const {
  std::ostringstream os;
  os << "MM2S "
     << (mm2s_->busy() ? "busy (" + std::to_string(mm2s_->pending_beats()) + " beats offered, " +
                             std::to_string(mm2s_->remaining()) + " bytes to fetch)"
                       : "idle")
     << ", " << in_jobs_.size() << " transfers queued; S2MM "
     << (s2mm_->busy() ? "busy (" + std::to_string(s2mm_->bytes_written()) + " bytes written)" : "idle") << ", "
     << out_jobs_.size() << " buffers queued; s_axis TVALID=" << int(in.tvalid) << " TREADY=" << int(in.tready)
     << ", m_axis TVALID=" << int(out.tvalid) << " TREADY=" << int(out.tready);
  return os.str();
}

// ---- TinyDnnCore ------------------------------------------------------------

namespace {

// The event pins and the stream handshakes, counted at each rising edge.
class CounterPort final : public harness::Port<Vtinydnn_top> {
 public:
  explicit CounterPort(const harness::AxisBinder<Vtinydnn_top, pins::In, pins::Out>& axis) : axis_(axis) {}
  void drive(Vtinydnn_top& m) override { (void)m; }
  void sample(const Vtinydnn_top& m, uint64_t time) override {
    (void)time;
    const axis::Pins& in = axis_.in();
    const axis::Pins& out = axis_.out();
    if (m.busy_o) ++c.busy_cycles;
    if (m.mac_step_o) {
      ++c.mac_cycles;
      c.mac_ops += od;
    }
    if (in.fire()) ++c.in_beats;
    if (out.fire()) ++c.out_beats;
    if (in.tready && !in.tvalid && m.busy_o) ++c.in_starved;
    if (in.tvalid && !in.tready) ++c.in_backpressure;
    if (out.tvalid && !out.tready) ++c.out_backpressure;
  }
  StreamCounters c;
  uint32_t od = 1;

 private:
  const harness::AxisBinder<Vtinydnn_top, pins::In, pins::Out>& axis_;
};

struct TinyDnnStatus : harness::NoErrorPin {
  // The done pin is CTRL's sticky done bit: cleared by a start, set at the end.
  static bool done(const Vtinydnn_top& m) { return m.done_o && !m.busy_o; }
  static std::string diagnosis(const Vtinydnn_top& m) {
    std::ostringstream os;
    const CtrlState st = CtrlState::decode(m.dbg_o);
    os << "tinydnn CTRL busy=" << int(m.busy_o) << " done=" << int(m.done_o) << "; " << st.str();
    if (st.batch_state == cosim::tinydnn::regs::batch_state_e::kStIdle && !m.done_o) os << " [idle and not done: no command was started]";
    return os.str();
  }
};

}  // namespace

struct TinyDnnCore::Impl {
  harness::ControlBinder<Vtinydnn_top, pins::Top> ctrl;  // the register port
  Streams streams;
  harness::AxisBinder<Vtinydnn_top, pins::In, pins::Out> axis;
  CounterPort counters;
  harness::Core<Vtinydnn_top, TinyDnnStatus, pins::Top> core;
  bool sample_timeline;
  std::unique_ptr<timeline::Timeline> timeline;
  std::unique_ptr<timeline::TimelinePort<Vtinydnn_top, TimelineProbe>> timeline_port;

  Impl(MemoryPort& mem, uint64_t seed, axis::DelaySource delay, const TbConfig* wave)
      : streams(mem, seed, std::move(delay)),
        axis(streams),
        counters(axis),
        core("tinydnn", wave, {&ctrl}),
        sample_timeline(wave != nullptr && wave->timeline) {
    core.add_port(axis);
    core.add_port(counters);
  }
};

TinyDnnCore::TinyDnnCore(MemoryPort& mem, uint64_t seed, axis::DelaySource delay, const TbConfig* wave)
    : impl_(std::make_unique<Impl>(mem, seed, std::move(delay), wave)) {}
TinyDnnCore::~TinyDnnCore() = default;

void TinyDnnCore::start_timeline(std::function<void()> after_cycle) {
  impl_->core.start_timeline(std::move(after_cycle));
  // Sampled from here: the timeline's cycles are the DUT's timeline.
  if (impl_->sample_timeline && !impl_->timeline) {
    Impl& i = *impl_;
    i.timeline = std::make_unique<timeline::Timeline>(timeline_lanes());
    i.timeline_port = std::make_unique<timeline::TimelinePort<Vtinydnn_top, TimelineProbe>>(
        *i.timeline, TimelineProbe{&i.axis.in(), &i.axis.out()});
    i.core.add_port(*i.timeline_port);
  }
}
const timeline::Timeline* TinyDnnCore::timeline() const { return impl_->timeline.get(); }
void TinyDnnCore::cycle() { impl_->core.cycle(); }
uint32_t TinyDnnCore::reg_read(uint32_t offset) { return impl_->ctrl.read(impl_->core, offset); }
void TinyDnnCore::reg_write(uint32_t offset, uint32_t value) { impl_->ctrl.write(impl_->core, offset, value); }
bool TinyDnnCore::run(uint64_t max_cycles) { return impl_->core.run(max_cycles); }
bool TinyDnnCore::busy() const { return impl_->core.model().busy_o; }
void TinyDnnCore::set_od(uint32_t od) { impl_->counters.od = od; }
Streams& TinyDnnCore::streams() { return impl_->streams; }
const Streams& TinyDnnCore::streams() const { return impl_->streams; }
const StreamCounters& TinyDnnCore::counters() const { return impl_->counters.c; }
uint64_t TinyDnnCore::time() const { return impl_->core.time(); }
std::map<std::string, uint64_t> TinyDnnCore::wave_stats() const { return impl_->core.wave_stats(); }

std::string TinyDnnCore::diagnosis() const {
  const Impl& i = *impl_;
  const CtrlState st = CtrlState::decode(i.core.model().dbg_o);
  std::string d = i.core.diagnosis() + "; " + i.streams.describe(i.axis.in(), i.axis.out());
  if (st.batch_state == cosim::tinydnn::regs::batch_state_e::kStRun && st.rx_busy && !i.axis.in().tvalid && i.streams.input_idle())
    d += " [the receiver waits for input that no MM2S transfer provides]";
  return d;
}

}  // namespace cosim::tb::tinydnn
