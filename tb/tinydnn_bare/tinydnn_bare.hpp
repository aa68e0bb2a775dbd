// A bare C++ harness for the tiny-dnn accelerator: owns the Verilated
// tinydnn_top, clocks it in a plain loop (no SystemC), drives the register
// port, feeds the slave stream from a stalling Source and drains the master
// stream into a stalling Sink, with a protocol checker on both streams.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "axis/axis_checker.hpp"
#include "axis/axis_dma.hpp"
#include "axis/axis_sink.hpp"
#include "axis/axis_source.hpp"
#include "tinydnn/program.hpp"

class Vtinydnn_top;
class VerilatedContext;
class VerilatedFstC;

namespace cosim::tb::tinydnn {

struct BareOptions {
  uint64_t seed = 1;
  double source_stall = 0.0;  // chance per cycle a ready input beat is held back
  double sink_stall = 0.0;    // chance per cycle TREADY is low on the results
  uint64_t cycle_budget = 20'000'000;  // per command; beyond it: TimeoutError
  std::string fst_path;       // non-empty: dump a waveform
  // Non-null: streams go through DMA models instead: packets are written to
  // memory at dma_in_base, an MM2S transfer per packet feeds the slave port
  // (reprogrammed per sample, as the host does) and an S2MM transfer per
  // result packet lands at dma_out_base, packet after packet.
  MemoryPort* memory = nullptr;
  uint64_t dma_in_base = 0;
  uint64_t dma_out_base = 0x100000;
};

class TinyDnnBare {
 public:
  explicit TinyDnnBare(const BareOptions& opt = {});
  ~TinyDnnBare();
  TinyDnnBare(const TinyDnnBare&) = delete;
  TinyDnnBare& operator=(const TinyDnnBare&) = delete;

  void write_reg(uint32_t addr, uint32_t value);
  uint32_t read_reg(uint32_t addr);

  // Configure the layer and load weights (core-major elements) / biases.
  void load_weights(const cosim::tinydnn::HwLayer& l, const std::vector<uint16_t>& elems);
  void load_bias(const cosim::tinydnn::HwLayer& l, const std::vector<uint16_t>& elems);
  // One run over samples (sample_elements() each). Returns the result packets:
  // one per sample (forward / backward), or for dW one if last_sample else none.
  std::vector<std::vector<uint32_t>> run(const cosim::tinydnn::HwLayer& l,
                                         const std::vector<std::vector<uint16_t>>& samples, bool last_sample);

  uint64_t cycle() const { return cycle_; }
  uint64_t last_command_cycles() const { return last_cycles_; }  // from the CYCLES register
  uint64_t last_command_macs() const { return last_macs_; }      // from the MACS register

 private:
  void tick();
  // Writes config, starts a command with the given mode, streams the input
  // packets and waits for done; returns the result beats.
  std::vector<axis::Beat> command(const cosim::tinydnn::HwLayer& l, int samples, uint32_t mode,
                                  const std::vector<std::vector<uint64_t>>& packets,
                                  const std::vector<uint64_t>& out_packet_beats);

  BareOptions opt_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vtinydnn_top> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  axis::Source source_;
  axis::Sink sink_;
  // Checkers watch both streams on every cycle, fed fresh expectations per command.
  std::unique_ptr<axis::Checker> in_check_, out_check_;
  // DMA mode: transfers still to start, as (address, bytes).
  std::unique_ptr<axis::Mm2sDma> mm2s_;
  std::unique_ptr<axis::S2mmDma> s2mm_;
  std::vector<std::pair<uint64_t, uint64_t>> in_jobs_, out_jobs_;
  std::size_t next_in_ = 0, next_out_ = 0;
  axis::Pins in_, out_;
  uint64_t cycle_ = 0;
  uint64_t last_cycles_ = 0;
  uint64_t last_macs_ = 0;
  // Register request driven during the next tick.
  bool req_valid_ = false, req_write_ = false;
  uint32_t req_addr_ = 0, req_wdata_ = 0;
};

}  // namespace cosim::tb::tinydnn
