// DUT wrapper of the tiny-dnn accelerator (rtl/tinydnn): the accelerator on
// the harness core (TinyDnnCore, shared with the bare harness in
// tb/tinydnn/core), the register port behind the TLM register target, and
// the two AXI-Stream ports driven by a DMA model that moves
// DRAM -> slave stream (MM2S) and master stream -> DRAM (S2MM) through the
// TLM memory bridge, so DRAM latency, bandwidth and stalls show up in the
// cycle count. Seeded TVALID / TREADY stalls on the streams and an
// AXI-Stream protocol checker on each (a violation becomes a DUT error
// naming the cycle).
//
// Register target (byte offsets):
//   0x000..0x03c  the accelerator's registers, word w at 4*w
//                 (cpp_model/tinydnn/program.hpp: CTRL, MODE, KW ... MACS)
//   0x100..0x11c  the DMA model next to it (what the host's AXI DMA is on
//                 a Zynq), see cpp_model/tinydnn/dma_regs.hpp.
// Streams for stream_send / stream_check: "s_axis" (pushed inline, no
// memory) and "m_axis" (result beats that no S2MM buffer took).
// When the trace waits more than once, the perf counters add run<k>_cycles:
// the cycles from the end of wait k-1 (or reset) to the end of wait k, so a
// target can give each of its jobs its own cycle count.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tinydnn/dma_regs.hpp"
#include "tinydnn/core/tinydnn_core.hpp"
#include "tlm/dut_wrapper.hpp"

namespace cosim::tb::tinydnn {

// The Verilated variants the wrapper runs: checked (the default) and fast
// (no assertions, TbConfig::fast). The product's: tinydnn_rtl and
// tinydnn_rtl_fast (tinydnn_backend.hpp).
using TinyDnnBuilds = harness::Builds<TinyDnnCore::Build>;

class TinyDnnWrapper : public DutWrapper {
 public:
  // Over builds.pick(cfg.fast, a waveform asked for).
  TinyDnnWrapper(sc_core::sc_module_name name, const TbConfig& cfg, const TinyDnnBuilds& builds);
  ~TinyDnnWrapper() override;

  bool run(uint64_t max_cycles) override;
  const timeline::Timeline* timeline() const override { return core_.timeline(); }
  std::string build() const override { return build_; }
  std::string diagnosis() const override;
  std::map<std::string, uint64_t> perf_counters() const override;
  std::vector<std::string> errors() const override { return core_.streams().errors(); }
  void stream_send(const std::string& stream, const std::vector<uint8_t>& bytes) override;
  std::vector<uint8_t> stream_receive(const std::string& stream, std::size_t nbytes) override;
  std::vector<uint64_t> last_receive_cycles() const override { return received_cycles_; }

 protected:
  uint32_t reg_read(uint32_t offset) override;
  void reg_write(uint32_t offset, uint32_t value) override;

 private:
  void dma_write(uint32_t offset, uint32_t value);

  TinyDnnCore core_;
  const char* build_;  // TinyDnnBuilds::name
  uint64_t mm2s_addr_ = 0, s2mm_addr_ = 0;
  double in_stall_ = 0, out_stall_ = 0;
  uint64_t commands_ = 0;
  std::vector<uint64_t> run_cycles_;  // per finished wait_done
  uint64_t last_run_end_ = 0;
  std::vector<uint64_t> received_cycles_;  // of the last stream_receive's bytes
};

}  // namespace cosim::tb::tinydnn
