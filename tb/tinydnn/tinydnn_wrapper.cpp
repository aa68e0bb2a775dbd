#include "tinydnn/tinydnn_wrapper.hpp"

#include <algorithm>
#include <cstdio>

#include "axis/stream_set.hpp"
#include "common/error.hpp"
#include "common/text.hpp"
#include "tinydnn/program.hpp"

namespace cosim::tb::tinydnn {

using namespace cosim::tinydnn::dma;  // the DMA model's registers and fault codes (kDma*, kFault*)

namespace {

constexpr uint32_t kAccelEnd = 0x40;  // 16 word registers

}  // namespace

TinyDnnWrapper::TinyDnnWrapper(sc_core::sc_module_name name, const TbConfig& cfg, const TinyDnnBuilds& builds)
    : DutWrapper(name, cfg),
      core_(builds.pick(cfg.fast, !cfg.wave_file.empty()), memory(), cfg.seed, [this] { return memory().take_delay_cycles(); }, &cfg),
      build_(builds.name(cfg.fast)) {
  core_.start_timeline([this] { tick(); });
}

TinyDnnWrapper::~TinyDnnWrapper() = default;

bool TinyDnnWrapper::run(uint64_t max_cycles) {
  if (!core_.run(max_cycles)) {
    sync();
    return false;
  }
  core_.streams().check_after_done(cycles());
  sync();
  run_cycles_.push_back(cycles() - last_run_end_);
  last_run_end_ = cycles();
  return true;
}

void TinyDnnWrapper::dma_write(uint32_t offset, uint32_t value) {
  Streams& s = core_.streams();
  switch (offset) {
    case kDmaMm2sAddr: mm2s_addr_ = value; break;
    case kDmaMm2sLen:
      if (value == 0) throw InputError("tinydnn DMA: MM2S length 0 at " + hex(mm2s_addr_) + "; expected > 0 bytes");
      if (mm2s_addr_ + value > config().dram_size)
        throw InputError("tinydnn DMA: MM2S transfer [" + hex(mm2s_addr_) + ", " + hex(mm2s_addr_ + value) +
                         ") leaves DRAM [0, " + hex(config().dram_size) + ")");
      s.queue_in(mm2s_addr_, value);
      break;
    case kDmaS2mmAddr: s2mm_addr_ = value; break;
    case kDmaS2mmLen:
      if (value == 0 || value % 8 != 0)
        throw InputError("tinydnn DMA: S2MM length " + std::to_string(value) +
                         "; expected a positive multiple of 8 bytes (64-bit beats)");
      if (s2mm_addr_ + value > config().dram_size)
        throw InputError("tinydnn DMA: S2MM buffer [" + hex(s2mm_addr_) + ", " + hex(s2mm_addr_ + value) +
                         ") leaves DRAM [0, " + hex(config().dram_size) + ")");
      s.queue_out(s2mm_addr_, value);
      break;
    case kDmaInStall:
    case kDmaOutStall:
      if (value > 900000)
        throw InputError("tinydnn DMA: stall probability " + std::to_string(value) +
                         " ppm; expected at most 900000 (0.9)");
      (offset == kDmaInStall ? in_stall_ : out_stall_) = value / 1e6;
      s.set_stalls(in_stall_, out_stall_);
      break;
    case kDmaFault:
      if (value > kFaultDuplicateBeat)
        throw InputError("tinydnn DMA: fault " + std::to_string(value) + "; expected 0, 1 or 2");
      s.set_fault(value);
      break;
    default:
      throw InputError("tinydnn DMA: register " + hex(offset) + " is read-only or unmapped; writable: 0x100..0x118");
  }
}

void TinyDnnWrapper::reg_write(uint32_t offset, uint32_t value) {
  if (offset < kAccelEnd) {
    const uint32_t word = offset / 4;
    // The RTL ignores size writes while a command runs; so does the shadow.
    if (word == cosim::tinydnn::kRegOd && !core_.busy()) core_.set_od(value & 0xFF);
    if (word == cosim::tinydnn::kRegCtrl && (value & 1u) && !core_.busy()) ++commands_;
    core_.reg_write(offset, value);
    return;
  }
  if (offset >= kDmaMm2sAddr && offset < kDmaEnd) {
    dma_write(offset, value);
    core_.cycle();  // a register access costs a bus cycle like any other
    return;
  }
  throw InputError("tinydnn: register write to unmapped offset " + hex(offset) +
                   "; expected 0x0..0x3c (accelerator) or 0x100..0x118 (DMA)");
}

uint32_t TinyDnnWrapper::reg_read(uint32_t offset) {
  if (offset < kAccelEnd) return core_.reg_read(offset);
  if (offset == kDmaStatus) {
    const uint32_t v = core_.streams().status();
    core_.cycle();
    return v;
  }
  throw InputError("tinydnn: register read of unmapped offset " + hex(offset) +
                   "; expected 0x0..0x3c (accelerator) or 0x11c (DMA status)");
}

void TinyDnnWrapper::stream_send(const std::string& stream, const std::vector<uint8_t>& bytes) {
  if (stream != "s_axis")
    throw InputError("tinydnn: stream_send to '" + stream + "'; the DUT's input stream is 's_axis'");
  if (bytes.empty()) throw InputError("tinydnn: stream_send of 0 bytes to 's_axis'");
  core_.streams().queue_in_bytes(bytes);
}

std::vector<uint8_t> TinyDnnWrapper::stream_receive(const std::string& stream, std::size_t nbytes) {
  if (stream != "m_axis")
    throw InputError("tinydnn: stream_check of '" + stream + "'; the DUT's output stream is 'm_axis'");
  std::vector<uint8_t> out = core_.streams().take_captured(nbytes, &received_cycles_);
  if (out.size() < nbytes) core_.streams().error(axis::stream_shortfall("m_axis", nbytes, out.size()));
  return out;
}

std::string TinyDnnWrapper::diagnosis() const { return core_.diagnosis(); }

std::map<std::string, uint64_t> TinyDnnWrapper::perf_counters() const {
  std::map<std::string, uint64_t> p = core_.wave_stats();  // wave_*: moved to report.json "wave"
  const StreamCounters& c = core_.counters();
  p.insert({{"busy_cycles", c.busy_cycles},
            {"mac_busy_cycles", c.mac_cycles},
            {"mac_ops", c.mac_ops},
            {"commands", commands_},
            {"in_beats", c.in_beats},
            {"out_beats", c.out_beats},
            {"in_starved_cycles", c.in_starved},
            {"in_backpressure_cycles", c.in_backpressure},
            {"out_backpressure_cycles", c.out_backpressure}});
  // Every run's, even a lone one's: a split run's slice may hold one run,
  // and the merge numbers the runs on (TargetBackend::merge_perf_counters).
  for (std::size_t k = 0; k < run_cycles_.size(); ++k) p["run" + std::to_string(k) + "_cycles"] = run_cycles_[k];
  return p;
}

}  // namespace cosim::tb::tinydnn
