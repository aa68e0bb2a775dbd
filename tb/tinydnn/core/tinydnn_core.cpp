#include "tinydnn/core/tinydnn_core.hpp"

#include <algorithm>
#include <sstream>

#include "harness/stall_seed.hpp"
#include "tinydnn/core/tinydnn_core_model.hpp"  // TinyDnnCore::Impl (no model class)

namespace cosim::tb::tinydnn {

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
  observe_checked(in_check_, in_check_ok_, time, in);
  observe_checked(out_check_, out_check_ok_, time, out);
}

void Streams::observe_checked(axis::Checker& check, bool& ok, uint64_t time, const axis::Pins& pins) {
  if (!ok) return;  // a stream's first violation is its only report
  try {
    check.observe(time, pins);
  } catch (const axis::ProtocolError& e) {
    ok = false;
    error(std::string("AXI-Stream protocol: ") + e.what());
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
      for (int i = 0; i < 8; ++i) captured_.push(uint8_t(out.tdata >> (8 * i)));
      captured_.end_beat(time);
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

TinyDnnCore::TinyDnnCore(const Build& build, MemoryPort& mem, uint64_t seed, axis::DelaySource delay,
                         const TbConfig* wave)
    : StreamsOwner(mem, seed, std::move(delay)), CoreHandle(build.variant, build.make(streams_, wave)) {}
TinyDnnCore::~TinyDnnCore() = default;

bool TinyDnnCore::busy() const { return seam<Impl>().busy(); }
void TinyDnnCore::set_od(uint32_t od) { seam<Impl>().set_od(od); }
const StreamCounters& TinyDnnCore::counters() const { return seam<Impl>().counters(); }
std::string TinyDnnCore::diagnosis() const { return seam<Impl>().diagnosis(); }

}  // namespace cosim::tb::tinydnn
