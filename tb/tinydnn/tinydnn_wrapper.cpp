// Verilator's headers go first: seen after <systemc> they switch to their
// SystemC mode, which the Verilated library was not built for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"  // inside Verilator's headers
#include <verilated.h>
#include <verilated_fst_c.h>

#include "Vtinydnn_top.h"
#pragma GCC diagnostic pop
#include "wave/wave_tracer.hpp"
// (blank line keeps include sorters from moving the above)

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "common/error.hpp"
#include "tinydnn/program.hpp"
#include "tinydnn/tinydnn_wrapper.hpp"

namespace cosim::tb::tinydnn {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

constexpr uint32_t kAccelEnd = 0x40;  // 16 word registers
constexpr std::size_t kMaxErrors = 20;  // a broken stream would flood the report

const char* batch_state_name(unsigned s) {
  switch (s) {
    case 0: return "StIdle";
    case 1: return "StLoad";
    case 2: return "StRun";
  }
  return "StUnknown";
}

}  // namespace

// Bit positions of dbg_t (first field = most significant).
CtrlState CtrlState::decode(uint64_t dbg) {
  CtrlState s;
  s.tx_cnt = unsigned(dbg & 0xFFFF);
  s.cmp_cnt = unsigned((dbg >> 16) & 0xFFFF);
  s.rx_cnt = unsigned((dbg >> 32) & 0xFFFF);
  s.dst_full = unsigned((dbg >> 48) & 3);
  s.src_full = unsigned((dbg >> 50) & 3);
  s.post_busy = (dbg >> 52) & 1;
  s.ctl_busy = (dbg >> 53) & 1;
  s.tx_busy = (dbg >> 54) & 1;
  s.cmp_busy = (dbg >> 55) & 1;
  s.rx_busy = (dbg >> 56) & 1;
  s.batch_state = unsigned((dbg >> 57) & 3);
  return s;
}

std::string CtrlState::str() const {
  std::ostringstream os;
  os << "batch controller " << batch_state_name(batch_state) << " (received " << rx_cnt << ", computed "
     << cmp_cnt << ", sent " << tx_cnt << " samples; receiver " << (rx_busy ? "busy" : "idle") << ", compute "
     << (cmp_busy ? "busy" : "idle") << ", sender " << (tx_busy ? "busy" : "idle") << "; source banks full 0b"
     << (src_full >> 1) << (src_full & 1) << ", destination banks full 0b" << (dst_full >> 1) << (dst_full & 1)
     << "), sample controller " << (ctl_busy ? "busy" : "idle") << ", normaliser "
     << (post_busy ? "busy" : "idle");
  return os.str();
}

TinyDnnWrapper::TinyDnnWrapper(sc_core::sc_module_name name, const TbConfig& cfg)
    : DutWrapper(name, cfg), ctx_(std::make_unique<VerilatedContext>()) {
  wave_ = std::make_unique<wave::WaveTracer<Vtinydnn_top>>(*ctx_, cfg, "tinydnn");
  m_ = std::make_unique<Vtinydnn_top>(ctx_.get(), "tinydnn");
  wave_->attach(*m_);
  rebuild_dma();
  // Reset: two cycles with rst_ni low (not counted as DUT cycles).
  m_->rst_ni = 0;
  m_->reg_valid_i = 0;
  m_->s_axis_tvalid_i = 0;
  m_->m_axis_tready_i = 0;
  for (int i = 0; i < 2; ++i) {
    m_->clk_i = 0;
    m_->eval();
    m_->clk_i = 1;
    m_->eval();
  }
  m_->rst_ni = 1;
  m_->clk_i = 0;
  m_->eval();
}

TinyDnnWrapper::~TinyDnnWrapper() {
  wave_->close();
  m_->final();
}

void TinyDnnWrapper::rebuild_dma() {
  const uint64_t s = config().seed;
  mm2s_ = std::make_unique<axis::Mm2sDma>(memory(), s * 4 + 1, in_stall_);
  s2mm_ = std::make_unique<axis::S2mmDma>(memory(), s * 4 + 2, out_stall_);
  capture_ = std::make_unique<axis::Sink>(s * 4 + 3, out_stall_);
  // Both DMAs take their access's memory time right after the access.
  mm2s_->set_delay_source([this] { return memory().take_delay_cycles(); });
  s2mm_->set_delay_source([this] { return memory().take_delay_cycles(); });
  mm2s_->set_beat_hook([this](const axis::Beat& b) { in_check_.expect_beat(b); });
}

void TinyDnnWrapper::error(const std::string& e) {
  if (errors_.size() < kMaxErrors) errors_.push_back(e);
  else if (errors_.size() == kMaxErrors) errors_.push_back("(further errors not listed)");
}

void TinyDnnWrapper::cycle() {
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
  mm2s_->drive(in_);
  if (s2mm_owns_beat_) s2mm_->drive(out_);
  else capture_->drive(out_);

  // Fault injection (testbench tests of the protocol checker).
  bool injected = false;
  if (fault_ == kFaultDuplicateBeat && dup_pending_) {
    in_.tvalid = true;
    in_.tdata = dup_beat_.data;
    in_.tlast = dup_beat_.last;
    injected = true;
  }
  if (fault_ == kFaultTdataChange && !fault_done_ && in_stalled_ && in_.tvalid) {
    in_.tdata ^= 1;
    fault_done_ = true;
  }

  Vtinydnn_top& m = *m_;
  m.s_axis_tvalid_i = in_.tvalid;
  m.s_axis_tdata_i = in_.tdata;
  m.s_axis_tlast_i = in_.tlast;
  m.m_axis_tready_i = out_.tready;
  m.reg_valid_i = req_valid_;
  m.reg_write_i = req_write_;
  m.reg_addr_i = req_addr_;
  m.reg_wdata_i = req_wdata_;
  m.clk_i = 0;
  m.eval();
  const uint64_t now = cycles();
  wave_->sample(now, 0);
  in_.tready = m.s_axis_tready_o;
  out_.tvalid = m.m_axis_tvalid_o;
  out_.tdata = m.m_axis_tdata_o;
  out_.tlast = m.m_axis_tlast_o;
  // What the rising edge samples, on both streams.
  if (in_check_ok_) {
    try {
      in_check_.observe(now, in_);
    } catch (const axis::ProtocolError& e) {
      in_check_ok_ = false;
      error(std::string("AXI-Stream protocol: ") + e.what());
    }
  }
  if (out_check_ok_) {
    try {
      out_check_.observe(now, out_);
    } catch (const axis::ProtocolError& e) {
      out_check_ok_ = false;
      error(std::string("AXI-Stream protocol: ") + e.what());
    }
  }
  if (m.busy_o) ++busy_cycles_;
  if (m.mac_step_o) {
    ++mac_cycles_;
    mac_ops_ += od_;
  }
  if (in_.fire()) ++in_beats_;
  if (out_.fire()) ++out_beats_;
  if (in_.tready && !in_.tvalid && m.busy_o) ++in_starved_;
  if (in_.tvalid && !in_.tready) ++in_backpressure_;
  if (out_.tvalid && !out_.tready) ++out_backpressure_;
  m.clk_i = 1;
  m.eval();
  wave_->sample(now, 1);

  if (injected) {
    // The source never saw its turn: the duplicate went in its place.
    if (in_.fire()) {
      dup_pending_ = false;
      fault_done_ = true;
    }
  } else {
    mm2s_->update(in_);
    if (in_.fire() && fault_ == kFaultDuplicateBeat && !fault_done_ && ++in_fires_ == 3) {
      dup_pending_ = true;
      dup_beat_ = axis::Beat{in_.tdata, in_.tlast};
    }
  }
  if (s2mm_owns_beat_) {
    try {
      s2mm_->update(out_);
    } catch (const axis::ProtocolError& e) {
      error("cycle " + std::to_string(now) + ": " + e.what());
    }
  } else {
    capture_->update(out_);
    if (out_.fire()) {
      for (int i = 0; i < 8; ++i) captured_.push_back(uint8_t(out_.tdata >> (8 * i)));
    }
  }
  in_stalled_ = in_.tvalid && !in_.tready;
  tick();
}

void TinyDnnWrapper::check_after_done() {
  const uint64_t now = cycles();
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

bool TinyDnnWrapper::run(uint64_t max_cycles) {
  const uint64_t end = cycles() + max_cycles;
  // The done pin is CTRL's sticky done bit: cleared by a start, set at the end.
  while (!m_->done_o || m_->busy_o) {
    if (cycles() >= end) {
      sync();
      return false;
    }
    cycle();
  }
  check_after_done();
  sync();
  return true;
}

void TinyDnnWrapper::dma_write(uint32_t offset, uint32_t value) {
  const bool idle = !mm2s_->busy() && !s2mm_->busy() && in_jobs_.empty() && out_jobs_.empty();
  switch (offset) {
    case kDmaMm2sAddr: mm2s_addr_ = value; break;
    case kDmaMm2sLen:
      if (value == 0) throw InputError("tinydnn DMA: MM2S length 0 at " + hex(mm2s_addr_) + "; expected > 0 bytes");
      if (mm2s_addr_ + value > config().dram_size)
        throw InputError("tinydnn DMA: MM2S transfer [" + hex(mm2s_addr_) + ", " + hex(mm2s_addr_ + value) +
                         ") leaves DRAM [0, " + hex(config().dram_size) + ")");
      in_jobs_.push_back(InJob{mm2s_addr_, value, {}});
      break;
    case kDmaS2mmAddr: s2mm_addr_ = value; break;
    case kDmaS2mmLen:
      if (value == 0 || value % 8 != 0)
        throw InputError("tinydnn DMA: S2MM length " + std::to_string(value) +
                         "; expected a positive multiple of 8 bytes (64-bit beats)");
      if (s2mm_addr_ + value > config().dram_size)
        throw InputError("tinydnn DMA: S2MM buffer [" + hex(s2mm_addr_) + ", " + hex(s2mm_addr_ + value) +
                         ") leaves DRAM [0, " + hex(config().dram_size) + ")");
      out_jobs_.push_back(OutJob{s2mm_addr_, value});
      out_check_.expect_packet(value / 8);
      break;
    case kDmaInStall:
    case kDmaOutStall:
      if (value > 900000)
        throw InputError("tinydnn DMA: stall probability " + std::to_string(value) +
                         " ppm; expected at most 900000 (0.9)");
      if (!idle) throw InputError("tinydnn DMA: stall probability changed while a transfer is queued or running");
      (offset == kDmaInStall ? in_stall_ : out_stall_) = value / 1e6;
      rebuild_dma();
      break;
    case kDmaFault:
      if (value > kFaultDuplicateBeat)
        throw InputError("tinydnn DMA: fault " + std::to_string(value) + "; expected 0, 1 or 2");
      fault_ = value;
      fault_done_ = false;
      dup_pending_ = false;
      in_fires_ = 0;
      break;
    default:
      throw InputError("tinydnn DMA: register " + hex(offset) + " is read-only or unmapped; writable: 0x100..0x118");
  }
}

void TinyDnnWrapper::reg_write(uint32_t offset, uint32_t value) {
  if (offset < kAccelEnd) {
    const uint32_t word = offset / 4;
    // The RTL ignores size writes while a command runs; so does the shadow.
    if (word == cosim::tinydnn::kRegOd && !m_->busy_o) od_ = value & 0xFF;
    if (word == cosim::tinydnn::kRegCtrl && (value & 1u) && !m_->busy_o) ++commands_;
    req_valid_ = true;
    req_write_ = true;
    req_addr_ = static_cast<uint8_t>(word);
    req_wdata_ = value;
    cycle();
    req_valid_ = false;
    req_write_ = false;
    return;
  }
  if (offset >= kDmaMm2sAddr && offset < kDmaEnd) {
    dma_write(offset, value);
    cycle();  // a register access costs a bus cycle like any other
    return;
  }
  throw InputError("tinydnn: register write to unmapped offset " + hex(offset) +
                   "; expected 0x0..0x3c (accelerator) or 0x100..0x118 (DMA)");
}

uint32_t TinyDnnWrapper::reg_read(uint32_t offset) {
  if (offset < kAccelEnd) {
    req_valid_ = true;
    req_write_ = false;
    req_addr_ = static_cast<uint8_t>(offset / 4);
    cycle();
    req_valid_ = false;
    if (!m_->reg_rvalid_o) error("cycle " + std::to_string(cycles()) + ": register read of " + hex(offset) +
                                 " got no rvalid");
    return m_->reg_rdata_o;
  }
  if (offset == kDmaStatus) {
    const uint32_t v = (mm2s_->busy() ? 1u : 0u) | (s2mm_->busy() ? 2u : 0u) |
                       (uint32_t(std::min<std::size_t>(in_jobs_.size(), 255)) << 8) |
                       (uint32_t(std::min<std::size_t>(out_jobs_.size(), 255)) << 16);
    cycle();
    return v;
  }
  throw InputError("tinydnn: register read of unmapped offset " + hex(offset) +
                   "; expected 0x0..0x3c (accelerator) or 0x11c (DMA status)");
}

void TinyDnnWrapper::stream_send(const std::string& stream, const std::vector<uint8_t>& bytes) {
  if (stream != "s_axis")
    throw InputError("tinydnn: stream_send to '" + stream + "'; the DUT's input stream is 's_axis'");
  if (bytes.empty()) throw InputError("tinydnn: stream_send of 0 bytes to 's_axis'");
  in_jobs_.push_back(InJob{0, bytes.size(), bytes});
}

std::vector<uint8_t> TinyDnnWrapper::stream_receive(const std::string& stream, std::size_t nbytes) {
  if (stream != "m_axis")
    throw InputError("tinydnn: stream_check of '" + stream + "'; the DUT's output stream is 'm_axis'");
  const std::size_t n = std::min(nbytes, captured_.size());
  std::vector<uint8_t> out(captured_.begin(), captured_.begin() + static_cast<std::ptrdiff_t>(n));
  captured_.erase(captured_.begin(), captured_.begin() + static_cast<std::ptrdiff_t>(n));
  if (n < nbytes)
    error("stream m_axis: a check wanted " + std::to_string(nbytes) + " bytes, the DUT had produced " +
          std::to_string(n));
  return out;
}

std::string TinyDnnWrapper::diagnosis() const {
  std::ostringstream os;
  const CtrlState st = CtrlState::decode(m_->dbg_o);
  os << "tinydnn CTRL busy=" << int(m_->busy_o) << " done=" << int(m_->done_o) << "; " << st.str();
  if (st.batch_state == 0 && !m_->done_o) os << " [idle and not done: no command was started]";
  os << "; MM2S "
     << (mm2s_->busy() ? "busy (" + std::to_string(mm2s_->pending_beats()) + " beats offered, " +
                             std::to_string(mm2s_->remaining()) + " bytes to fetch)"
                       : "idle")
     << ", " << in_jobs_.size() << " transfers queued; S2MM "
     << (s2mm_->busy() ? "busy (" + std::to_string(s2mm_->bytes_written()) + " bytes written)" : "idle") << ", "
     << out_jobs_.size() << " buffers queued; s_axis TVALID=" << int(in_.tvalid) << " TREADY=" << int(in_.tready)
     << ", m_axis TVALID=" << int(out_.tvalid) << " TREADY=" << int(out_.tready);
  if (st.batch_state == 2 && st.rx_busy && !in_.tvalid && !mm2s_->busy() && in_jobs_.empty())
    os << " [the receiver waits for input that no MM2S transfer provides]";
  return os.str();
}

std::map<std::string, uint64_t> TinyDnnWrapper::perf_counters() const {
  std::map<std::string, uint64_t> p = wave_->stats();  // wave_*: moved to report.json "wave"
  p.insert({{"busy_cycles", busy_cycles_},
          {"mac_busy_cycles", mac_cycles_},
          {"mac_ops", mac_ops_},
          {"commands", commands_},
          {"in_beats", in_beats_},
          {"out_beats", out_beats_},
          {"in_starved_cycles", in_starved_},
          {"in_backpressure_cycles", in_backpressure_},
          {"out_backpressure_cycles", out_backpressure_}});
  return p;
}

}  // namespace cosim::tb::tinydnn
