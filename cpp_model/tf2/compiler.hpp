// TF2 target compiler: layers -> descriptors + one DRAM image the RTL
// (rtl/tf2) reads through its AXI4 master.
//
// Descriptor: 64 bytes, sixteen little-endian 32-bit words, 64-byte aligned,
// consecutive descriptors run in order (register DESC_COUNT of them):
//   w0  [7:0] op (1 = CONV)  [8] relu  [9] batch-norm (informational)
//       [10] residual: add the map at w10 (HC16W, output shape and Q) with
//       int8 saturation after requantization; relu then applies after the add
//       [11] wide requantization (ConvLayer::wide_requant: no 32-bit wrap)
//   w1  [15:0] c_in          [31:16] c_out
//   w2  [15:0] h_in          [31:16] w_in
//   w3  [15:0] h_out         [31:16] w_out
//   w4  [7:0] k  [15:8] stride  [23:16] pad (symmetric zero padding)
//   w5  [7:0] min_exp (int8)
//   w6  input map address     w7  weight records address
//   w8  reserved, zero        w9  output map address
//   w10 residual map address (when w0[10])
//   w11 input-Q table address
//   w12..w15 reserved, zero
// Feature maps (input, output and residual): "HC16W" int8,
// [H][ceil(C/16)][W][16]: row by row, each row holding its channel groups
// one after another, each group the row's W pixel words of 16 channels.
// With CG = ceil(C/16), channel c of pixel (y, x) is the byte at
// ((y*CG + c/16)*W + x)*16 + c%16; channels >= C are zero.
// Weight records: one per output channel, in channel order, each
// record_bytes(c_in, k) long: 16 bytes of parameters {int32 bias,
// int32 alpha, int32 beta, int8 Q_out and three zero bytes}, then the
// channel's c_in*k*k 4-bit codes in IHW order, four per 16-bit word,
// least-significant nibble first (pack_codes), zero bytes up to the next
// 16-byte boundary. A group of output channels is then one contiguous read,
// parameters next to codes (the codes are decoded to shift codes on chip
// from min_exp and the Q of the weight's input and output channel).
// Input-Q table: one int8 Q per input channel in C16 order (one 16-byte word
// per channel group, channel c at byte c % 16, zeros past c_in). Feature maps
// have one Q per channel (spec/tf2.md); a shared Q repeats it.
// All regions are 64-byte aligned; the output region is pre-filled with
// kOutputFill so unwritten bytes show.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensor/tensor.hpp"
#include "tf2/sac.hpp"

namespace cosim::tf2 {

constexpr uint32_t kOpConv = 1;
constexpr uint32_t kDescRelu = 1u << 8, kDescBatchNorm = 1u << 9, kDescResidual = 1u << 10, kDescWideRequant = 1u << 11;
constexpr std::size_t kDescBytes = 64;
constexpr uint8_t kOutputFill = 0xA5;

// Capacities of the RTL build (rtl/tf2/tf2_pkg.sv defaults); the compiler
// rejects layers that do not fit with an InputError naming the limit.
struct DeviceConfig {
  int n_pe = 16;                  // output channels per group
  int feat_cache_words = 4096;    // 16-byte words: ceil(c_in/16)*h_in*w_in
  int filter_nibbles = 2048;      // per PE: c_in*k*k
  int max_k = 7;
  int max_dim = 1024;             // h, w
};

// The capacity part of the compiler's checks, on the shape alone: callers
// run it before computing anything of that size (InputError naming `what`).
void check_capacity(int64_t c_in, int64_t h_in, int64_t w_in, int64_t k, const DeviceConfig& cfg,
                    const std::string& what);

// Bytes of one output channel's weight record.
inline uint32_t record_bytes(int c_in, int k) {
  return 16 + (static_cast<uint32_t>(c_in) * k * k + 31) / 32 * 16;
}

struct LayerRegions {
  uint32_t desc_addr = 0, in_addr = 0, weight_addr = 0, out_addr = 0;
  uint32_t res_addr = 0;  // residual map, 0 when none
  uint32_t qin_addr = 0;  // input-Q table
  uint32_t in_bytes = 0, weight_bytes = 0, out_bytes = 0;
};

struct Program {
  std::vector<uint8_t> dram;  // byte i is at DRAM address i
  uint32_t desc_addr = 0;
  uint32_t desc_count = 0;
  std::vector<LayerRegions> layers;
};

// HC16W packing of a CHW int8 map and back.
std::vector<uint8_t> to_hc16w(const std::vector<int8_t>& chw, int c, int h, int w);
std::vector<int8_t> from_hc16w(const uint8_t* bytes, int c, int h, int w);
inline uint32_t hc16w_bytes(int c, int h, int w) { return static_cast<uint32_t>((c + 15) / 16) * h * w * 16; }
// Channel group `g` (channels 16g..16g+15) of an HC16W map of h x w pixels
// (the whole map: its size gives the number of groups) as an int8 NHWC
// [1, h, w, 16] tensor, the group's pixel words in row-major pixel order:
// coordinate c is the channel in the group. In the map those words are not
// contiguous: the group's row y starts at byte
// hc16w_group_offset(g, w) + y * hc16w_row_pitch(groups, w).
Tensor hc16w_group(const std::vector<uint8_t>& hc16w, int g, int h, int w);
inline uint64_t hc16w_group_offset(int g, int w) { return static_cast<uint64_t>(g) * w * 16; }
inline uint64_t hc16w_row_pitch(int groups, int w) { return static_cast<uint64_t>(groups) * w * 16; }

// One descriptor's bytes.
std::vector<uint8_t> encode_descriptor(const ConvLayer& layer, const LayerRegions& r);

// Compiles a chain of layers: layer 0 reads `input_chw`, layer i reads the
// output region of layer i-1, or of the map its input_from names (c_in, h_in,
// w_in and the channel Qs must match); a layer's
// residual_from names the region its residual ADD reads (the input region or
// an earlier output region). Throws
// InputError naming the layer and the field when a layer is malformed or
// does not fit `cfg`. The program's regions start at `first_address` (64-byte
// aligned; the bytes below stay zero in Program::dram), so that programs run
// one after another (a network's segments) can live in DRAM together.
Program compile(const std::vector<ConvLayer>& layers, const std::vector<int8_t>& input_chw,
                const DeviceConfig& cfg = DeviceConfig{}, uint32_t first_address = 64);

// The expected HC16W bytes of every layer's output region (golden model,
// sac_chain).
std::vector<std::vector<uint8_t>> expected_outputs(const std::vector<ConvLayer>& layers,
                                                   const std::vector<int8_t>& input_chw);

}  // namespace cosim::tf2
