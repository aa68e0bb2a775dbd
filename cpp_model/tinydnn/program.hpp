// What the host hands the accelerator (the "target compiler" of tiny-dnn):
// the register map, the mapping of a layer operation onto the hardware's
// generic loop, and the AXI-Stream packets (weights, bias, samples, results).
//
// The hardware runs one generic loop per sample; the registers name its sizes:
//   KW, KH  the kernel it slides (dW: the delta plane oh x ow)
//   IW, IH, ID  the source buffer plane and channel count
//   OW, OH  the output plane; OD  active cores = output channels (<= 16)
// forward : src x[ID][IH][IW], core oc holds w[oc][ic][ky][kx], out y[OD][OH][OW]
// backward: src delta, core ic holds w[oc][ic][ky][kx] for all oc (ID = layer
//           out_c); the hardware reads the kernel rotated and skips taps
//           outside delta; out dx[OD][OH][OW]
// dW      : src x, then delta[oc] streams into core oc's weight bank (sample
//           parity picks the bank); out dW[OD][ID][OH][OW] after the last sample
// Streams: slave beats carry 4 bf16 (element 0 in bits 15:0), a packet is the
// flat element sequence zero-padded to whole beats; master beats carry 2
// float32 (element 0 in bits 31:0), TLAST on a packet's last beat.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "dut/tinydnn_regs.hpp"
#include "tinydnn/bf16.hpp"
#include "tinydnn/conv.hpp"

namespace cosim::tinydnn {

// Hardware limits (must match rtl/tinydnn/tinydnn_pkg.sv).
constexpr int kCores = 16;
constexpr int kWeightBankDepth = 1024;  // bf16 per bank per core, 2 banks
constexpr int kSrcBankDepth = 4096;     // bf16 per source bank, 2 banks
constexpr int kDstBankDepth = 4096;     // float32 per destination bank, 2 banks
constexpr int kMaxDim = 255;            // size registers are 8 bits wide

// Register word indices (register w sits at byte offset 4*w on the register
// port) and the MODE bits, from the manifest rtl/tinydnn/tinydnn.yaml
// (generated header dut/tinydnn_regs.hpp).
enum Reg : uint32_t {
  kRegCtrl = regs::kCtrl / 4,  // W: bit0 start.  R: bit0 busy, bit1 done (sticky)
  kRegMode = regs::kMode / 4,  // mode bits below
  kRegKw = regs::kKw / 4,
  kRegKh = regs::kKh / 4,
  kRegIw = regs::kIw / 4,
  kRegIh = regs::kIh / 4,
  kRegId = regs::kId / 4,
  kRegOw = regs::kOw / 4,
  kRegOh = regs::kOh / 4,
  kRegOd = regs::kOd / 4,
  kRegSamples = regs::kSamples / 4,  // samples per run (mini-batch part), >= 1
  kRegCycles = regs::kCycles / 4,    // R: cycles from start to done of the last command
  kRegMacs = regs::kMacs / 4,        // R: MAC steps issued x active cores in the last command
};

enum ModeBit : uint32_t {
  kModeWriteWeights = regs::mode::kWrWeightsMask,
  kModeWriteBias = regs::mode::kWrBiasMask,
  kModeRun = regs::mode::kRunMask,
  kModeEnableBias = regs::mode::kEnBiasMask,
  kModeBackward = regs::mode::kBackwardMask,
  kModeWeightGrad = regs::mode::kDwMask,
  kModeLastSample = regs::mode::kLastSampleMask,  // dW: this run ends the mini-batch, stream dW out
};

enum class Op { kForward, kBackward, kWeightGrad };

struct HwLayer {
  Op op = Op::kForward;
  int kw = 1, kh = 1, iw = 1, ih = 1, id = 1, ow = 1, oh = 1, od = 1;
  bool bias = false;

  int weights_per_core() const { return op == Op::kWeightGrad ? kh * kw : id * kh * kw; }
  int src_elems() const { return id * ih * iw; }
  int sample_elems() const { return src_elems() + (op == Op::kWeightGrad ? od * kh * kw : 0); }
  int out_per_core() const { return op == Op::kWeightGrad ? id * oh * ow : oh * ow; }
  int out_elems() const { return od * out_per_core(); }
  // Throws cosim::InputError naming the size that does not fit the hardware.
  void validate() const;
};

HwLayer map_layer(Op op, const ConvShape& s, bool bias);

// Register writes (address, value) that configure a layer; mode excludes the
// command bits (weights / bias / run), which the caller ORs in.
std::vector<std::pair<uint32_t, uint32_t>> config_writes(const HwLayer& l, int samples);
uint32_t mode_bits(const HwLayer& l, bool last_sample);

// Element streams (bf16 bits). weights: core-major, weights_per_core() each.
std::vector<uint16_t> weight_elements(const HwLayer& l, const ConvShape& s, const std::vector<bf16>& w);
std::vector<uint16_t> bias_elements(const std::vector<bf16>& bias);
// One sample: forward x, backward delta, dW x followed by delta.
std::vector<uint16_t> sample_elements(const HwLayer& l, const std::vector<bf16>& src,
                                      const std::vector<bf16>* delta = nullptr);

std::vector<uint64_t> pack_bf16_beats(const std::vector<uint16_t>& elems);
// Throws cosim::InputError when the beats hold fewer than count values.
std::vector<uint32_t> unpack_fp32_beats(const std::vector<uint64_t>& beats, std::size_t count);

}  // namespace cosim::tinydnn
