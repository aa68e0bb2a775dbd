// DUT wrapper of the tiny-dnn accelerator (rtl/tinydnn): its own clock loop
// over the Verilated tinydnn_top, the register port behind the TLM register
// target, and the two AXI-Stream ports driven by a DMA model that moves
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
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "axis/axis_checker.hpp"
#include "axis/axis_dma.hpp"
#include "axis/axis_sink.hpp"
#include "tinydnn/dma_regs.hpp"
#include "tlm/dut_wrapper.hpp"

class Vtinydnn_top;
class VerilatedContext;
namespace cosim::wave {
template <class Model>
class WaveTracer;
}  // namespace cosim::wave

namespace cosim::tb::tinydnn {

// The DMA model's registers and fault codes (kDma*, kFault*).
using namespace cosim::tinydnn::dma;

// The debug port's controller state (rtl/tinydnn/tinydnn_pkg.sv dbg_t), decoded.
struct CtrlState {
  unsigned batch_state = 0;  // 0 idle, 1 load, 2 run
  bool rx_busy = false, cmp_busy = false, tx_busy = false, ctl_busy = false, post_busy = false;
  unsigned src_full = 0, dst_full = 0;
  unsigned rx_cnt = 0, cmp_cnt = 0, tx_cnt = 0;
  static CtrlState decode(uint64_t dbg);
  std::string str() const;
};

class TinyDnnWrapper : public DutWrapper {
 public:
  TinyDnnWrapper(sc_core::sc_module_name name, const TbConfig& cfg);
  ~TinyDnnWrapper() override;

  bool run(uint64_t max_cycles) override;
  std::string diagnosis() const override;
  std::map<std::string, uint64_t> perf_counters() const override;
  std::vector<std::string> errors() const override { return errors_; }
  void stream_send(const std::string& stream, const std::vector<uint8_t>& bytes) override;
  std::vector<uint8_t> stream_receive(const std::string& stream, std::size_t nbytes) override;

 protected:
  uint32_t reg_read(uint32_t offset) override;
  void reg_write(uint32_t offset, uint32_t value) override;

 private:
  struct InJob {
    uint64_t addr = 0, bytes = 0;
    std::vector<uint8_t> data;  // non-empty: inline (stream_send)
  };
  struct OutJob {
    uint64_t addr = 0, bytes = 0;
  };

  void cycle();  // one clock of DUT, DMA, checkers
  void dma_write(uint32_t offset, uint32_t value);
  void rebuild_dma();  // after a stall-probability change
  void error(const std::string& e);
  void check_after_done();

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vtinydnn_top> m_;
  std::unique_ptr<wave::WaveTracer<Vtinydnn_top>> wave_;  // FST window + view (tb/wave)

  // DMA model.
  double in_stall_ = 0, out_stall_ = 0;
  std::unique_ptr<axis::Mm2sDma> mm2s_;
  std::unique_ptr<axis::S2mmDma> s2mm_;
  std::unique_ptr<axis::Sink> capture_;  // result beats without an S2MM buffer
  std::deque<InJob> in_jobs_;
  std::deque<OutJob> out_jobs_;
  uint64_t mm2s_addr_ = 0, s2mm_addr_ = 0;
  std::vector<uint8_t> captured_;
  bool s2mm_owns_beat_ = false;  // this cycle the S2MM (not the capture sink) drives TREADY

  // Streams and their checkers.
  axis::Pins in_, out_;
  axis::Checker in_check_{"tinydnn.s_axis"}, out_check_{"tinydnn.m_axis"};
  bool in_check_ok_ = true, out_check_ok_ = true;
  bool in_stalled_ = false;  // last cycle: input TVALID && !TREADY

  // Register request driven during the next cycle.
  bool req_valid_ = false, req_write_ = false;
  uint8_t req_addr_ = 0;
  uint32_t req_wdata_ = 0;

  uint32_t fault_ = kFaultNone;
  bool fault_done_ = false;
  uint64_t in_fires_ = 0;
  bool dup_pending_ = false;
  axis::Beat dup_beat_;

  uint32_t od_ = 1;  // shadow of OD for the MAC count
  std::vector<std::string> errors_;
  // Perf counters.
  uint64_t busy_cycles_ = 0, mac_cycles_ = 0, mac_ops_ = 0, commands_ = 0;
  uint64_t in_beats_ = 0, out_beats_ = 0, in_starved_ = 0, in_backpressure_ = 0, out_backpressure_ = 0;
};

}  // namespace cosim::tb::tinydnn
