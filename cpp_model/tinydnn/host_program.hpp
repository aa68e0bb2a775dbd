// The tiny-dnn host program as a trace: what tiny-dnn's convolutional layer
// does through the driver on the Zynq. Per command it writes the layer sizes
// and MODE, places each packet (weights, bias, one per sample) in DRAM, queues
// one MM2S transfer per packet and one S2MM buffer per result packet on the
// DMA model, starts the accelerator and waits; the results are then checked
// in DRAM against the golden model. Shared by the `tinydnn` backend and the
// TLM tests, so both play exactly what the CLI plays. The DMA's registers:
// dma_regs.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tensor/tensor.hpp"
#include "tinydnn/conv.hpp"
#include "trace/trace.hpp"

namespace cosim::tinydnn {

// train_step = forward, backward and dW in sequence, as tiny-dnn's
// convolutional layer calls them (forward_propagation, then
// back_propagation: prev_delta and dW over the mini-batch).
enum class Mode { kForward, kBackward, kWeightGrad, kTrainStep };
const char* mode_name(Mode m);

struct LayerJob {
  Mode mode = Mode::kForward;
  ConvShape shape;
  int batch = 1;
  bool bias = false;                      // forward (and train_step's forward): bias[out_c]; backward: bias[in_c]
  std::vector<bf16> w;                    // [out_c][in_c][k_h][k_w]; not used by dW
  std::vector<bf16> bias_v;               // see `bias`
  std::vector<std::vector<bf16>> x;       // per sample [in_c][in_h][in_w]: forward, dW, train_step
  std::vector<std::vector<bf16>> delta;   // per sample [out_c][out_h][out_w]: backward, dW, train_step
};

// One checked output: the golden bits (fp32 tensor) and the float32
// reference of the same inputs. y and dx are [batch][c][h][w] (nchw); when a
// sample's result packet has an odd element count the packets do not abut
// in DRAM, so each sample is its own output ("y_s0", "y_s1", ...).
struct Output {
  std::string name;
  std::string kind;  // y, dx, dW
  Tensor golden;
  Tensor reference;
  int packets = 1;   // result packets (one per sample, dW one)
};

struct Golden {
  std::vector<Output> outputs;
  std::map<std::string, ErrorStats> error;  // by kind, over all samples: golden vs float32
  uint64_t macs = 0;
};

// Throws cosim::InputError when the job does not fit the hardware or its
// tensors have the wrong sizes.
// The shape, batch and every command's hardware limits, without the data:
// callers check this before taking memory for the job's tensors.
void check_hardware_fit(const LayerJob& j);
void validate(const LayerJob& j);
// WithReference::kNone leaves Output::reference empty and Golden::error
// without the kind (forward only): for callers that measure against another
// reference, e.g. a float model's own tensors.
enum class WithReference { kFloat32, kNone };
Golden golden(const LayerJob& j, WithReference reference = WithReference::kFloat32);
// MAC steps x active cores the hardware issues for the job, counted from the
// layer definition (taps outside delta in backward are no MAC step).
uint64_t count_macs(const LayerJob& j);

struct ProgramOptions {
  uint64_t in_base = 0x10000;    // packets are placed from here
  uint64_t out_base = 0x1000000; // result buffers from here
  uint64_t in_limit = 0x1000000; // the packet region ends here (exclusive)
  uint64_t out_limit = 64ull << 20;
  double in_stall = 0.0;         // TVALID stall probability of the MM2S stream
  double out_stall = 0.0;        // TREADY stall probability of the S2MM stream
  uint32_t fault = 0;            // kDma fault register value (testbench tests)
  bool start = true;             // false: never write CTRL start (hang test)
  uint64_t timeout_cycles = 10000000;
};

// Appends the host program of `j` and one mem_check per golden output to
// `t`. `opt.in_base` / `opt.out_base` advance past what was used, so several
// jobs can follow each other in one trace. Throws cosim::InputError when the
// packets or results do not fit their regions.
void emit_program(trace::Trace& t, const LayerJob& j, const Golden& g, ProgramOptions& opt);

}  // namespace cosim::tinydnn
