// A bare C++ harness for the tiny-dnn accelerator (no SystemC): the
// accelerator on the harness core (TinyDnnCore, shared with the TLM wrapper),
// its slave stream fed by the MM2S DMA model (from memory, or packets it
// holds), its master stream drained by the S2MM DMA model into memory (or by
// the capture sink), stalls seeded as in the TLM testbench, a protocol
// checker on both streams.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "axis/axis_types.hpp"
#include "tinydnn/program.hpp"
#include "tinydnn/core/tinydnn_core.hpp"

class Vtinydnn_rtl;

namespace cosim::tb::tinydnn {

struct BareOptions {
  uint64_t seed = 1;
  double source_stall = 0.0;  // chance per cycle a ready input beat is held back
  double sink_stall = 0.0;    // chance per cycle TREADY is low on the results
  // (the streams' stall seeds come from `seed` as in the TLM testbench:
  // tb/harness/stall_seed.hpp)
  uint64_t cycle_budget = 20'000'000;  // per command; beyond it: TimeoutError
  std::string fst_path;       // non-empty: dump a waveform
  // Non-null: packets are written to memory at dma_in_base, an MM2S
  // transfer per packet feeds the slave port (reprogrammed per sample, as
  // the host does) and an S2MM transfer per result packet lands at
  // dma_out_base, packet after packet. Null: the MM2S model holds the
  // packets itself and the results are captured from the stream.
  MemoryPort* memory = nullptr;
  uint64_t dma_in_base = 0;
  uint64_t dma_out_base = 0x100000;
  // The Verilated variant: by default tinydnn_rtl (link cosim_tinydnn_core_tinydnn_rtl).
  const TinyDnnCore::Build* build = &TinyDnnCoreOver<Vtinydnn_rtl>::build();
};

class TinyDnnBare {
 public:
  explicit TinyDnnBare(const BareOptions& opt = {});
  ~TinyDnnBare();
  TinyDnnBare(const TinyDnnBare&) = delete;
  TinyDnnBare& operator=(const TinyDnnBare&) = delete;

  // Registers by word index (cpp_model/tinydnn/program.hpp kReg*).
  void write_reg(uint32_t word, uint32_t value);
  uint32_t read_reg(uint32_t word);

  // Configure the layer and load weights (core-major elements) / biases.
  void load_weights(const cosim::tinydnn::HwLayer& l, const std::vector<uint16_t>& elems);
  void load_bias(const cosim::tinydnn::HwLayer& l, const std::vector<uint16_t>& elems);
  // One run over samples (sample_elements() each). Returns the result packets:
  // one per sample (forward / backward), or for dW one if last_sample else none.
  std::vector<std::vector<uint32_t>> run(const cosim::tinydnn::HwLayer& l,
                                         const std::vector<std::vector<uint16_t>>& samples, bool last_sample);

  uint64_t cycle() const { return core_->time(); }
  uint64_t last_command_cycles() const { return last_cycles_; }  // from the CYCLES register
  uint64_t last_command_macs() const { return last_macs_; }      // from the MACS register

 private:
  // Writes config, starts a command with the given mode, streams the input
  // packets and waits for done; returns the result beats.
  std::vector<axis::Beat> command(const cosim::tinydnn::HwLayer& l, int samples, uint32_t mode,
                                  const std::vector<std::vector<uint64_t>>& packets,
                                  const std::vector<uint64_t>& out_packet_beats);

  BareOptions opt_;
  std::vector<uint8_t> no_memory_;  // what the DMA reaches without opt_.memory: nothing
  VectorMemory fallback_{no_memory_};
  std::unique_ptr<TinyDnnCore> core_;
  uint64_t last_cycles_ = 0;
  uint64_t last_macs_ = 0;
};

}  // namespace cosim::tb::tinydnn
