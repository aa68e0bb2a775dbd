// Shift-accumulate (SAC) convolution, bit-exact with the TF2 device and the
// RTL in rtl/tf2: 8-bit shift codes, int32 accumulation from the bias, folded
// batch-norm (alpha, beta) and round-half-up requantization to int8.
//
// Integer wrap: products int32(x') << s and the accumulator are computed
// modulo 2^32 (two's complement), as the 32-bit datapath does. Shift codes
// follow the original loader (spec/tf2.md): an exponent outside 0 .. -14
// acts as 2^0, s is computed in 8 bits, the PE shifts by s & 31 and a code
// with bit 6 set (s >= 64) is zero.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cosim::tf2 {

// Device shift code: bit 7 negative, bit 6 zero, bits 4:0 the shift s.
constexpr uint8_t kShiftNegBit = 0x80;
constexpr uint8_t kShiftZeroBit = 0x40;
constexpr int kMaxShift = 31;
constexpr int kAlphaOne = 1 << 20;  // alpha without batch-norm

// The original loader's exponent of an INQ weight value w: the first n in
// 0 .. 14 with |w| within 1 % of 2^-n, 0 when none matches (so +-2^1 and
// +-2^-15 act as +-2^0); -1 for |w| < 1e-5 (the zero code).
int loader_exponent(double w);

// s = 15 + q_out - q_in - n computed in 8 bits (int8 wrap), a negative s
// becomes 0; values above 31 are kept (0 .. 127). `n` as loader_exponent.
int shift_amount(int n, int q_in, int q_out);

// The 8-bit device shift code of a weight value: 0x40 for |w| < 1e-5, else
// bit 7 = negative, bits 6:0 = shift_amount (bit 6 set means zero, bits 4:0
// are the shift the PE uses).
uint8_t device_shift_code_of(double w, int q_in, int q_out);

// 4-bit INQ code of a layer -> 8-bit device shift code (its weight value is
// +-2^(min_exp + index), or zero).
uint8_t device_shift_code(uint8_t code, int min_exp, int q_in, int q_out);

// One product: zero code gives 0, else x' = negative ? -x : x in 8 bits
// (so -(-128) stays -128), then int32(x') << s (mod 2^32).
int32_t sac_product(int8_t x, uint8_t shift_code);

// Requantization: t = (int64(acc) * alpha) >> 20 kept in 32 bits (the bits
// above 31 drop, as in the original's int), y = (((t + beta) >> 14) + 1) >> 1
// in 32-bit wrapping arithmetic, saturated to int8, then max(y, 0) when relu.
// `wide`: t and t + beta keep all their bits and only y saturates (the
// scenario key requant: saturate, for designs that fixed that overflow).
int8_t requantize(int32_t acc, int32_t alpha, int32_t beta, bool relu, bool wide = false);

// Residual ADD of two int8 maps with the same Q: saturating add, optional ReLU.
int8_t residual_add(int8_t a, int8_t b, bool relu);
std::vector<int8_t> residual_add(const std::vector<int8_t>& a, const std::vector<int8_t>& b, bool relu);

// Map sources in a chain: the chain's input map, or j >= 0 for layer j's output.
constexpr int kChainInput = -1;
// Residual source of a layer in a chain (ConvLayer::residual_from).
constexpr int kNoResidual = -2;
constexpr int kResidualFromInput = kChainInput;
// Input source of a layer (ConvLayer::input_from): the previous layer's output
// (layer 0: the chain's input), else kChainInput or an earlier layer j.
constexpr int kPreviousLayer = -3;

// A compiled convolution layer (batch 1, CHW maps, OIHW weights).
// Padding: symmetric zero padding `pad` on every side, 0 <= pad < k
// ("same" for odd k is pad = (k-1)/2); out = (in + 2*pad - k) / stride + 1.
struct ConvLayer {
  int c_in = 0, c_out = 0, h_in = 0, w_in = 0;
  int k = 1, stride = 1, pad = 0;
  int min_exp = 0;
  std::vector<uint8_t> codes;  // OIHW 4-bit codes (0..14)
  // Feature-map Q (spec/tf2.md: one Q per channel). q_in / q_out is the Q
  // of every channel unless the per-channel vectors are given: q_in_ch[c]
  // for input channel c (c_in entries), q_out_ch[o] for output channel o
  // (c_out entries). Use qi() / qo(), which pick the right one.
  int q_in = 0, q_out = 0;
  std::vector<int> q_in_ch, q_out_ch;
  std::vector<int32_t> bias;   // trunc(bias_f * 2^(15+qo(o))), per output channel
  std::vector<int32_t> alpha;  // trunc(alpha_f * 2^20), 2^20 without batch-norm
  std::vector<int32_t> beta;   // round_half_away(beta_f * 2^(15+qo(o))), 0 without
  bool batch_norm = false;     // informational (alpha/beta always applied)
  bool relu = false;
  bool wide_requant = false;   // requantize without the 32-bit wrap (requant: saturate)
  // Residual ADD after requantization (chains only): the map added with
  // saturation (same shape and Q as this layer's output); ReLU then applies
  // after the add. kNoResidual, kResidualFromInput or an earlier layer index.
  int residual_from = kNoResidual;
  // The map the layer reads in a chain: kPreviousLayer, kChainInput or an
  // earlier layer index (a network's shortcut convolution reads a block's input).
  int input_from = kPreviousLayer;

  int h_out() const { return (h_in + 2 * pad - k) / stride + 1; }
  int w_out() const { return (w_in + 2 * pad - k) / stride + 1; }
  int qi(int c) const { return q_in_ch.empty() ? q_in : q_in_ch[static_cast<std::size_t>(c)]; }
  int qo(int o) const { return q_out_ch.empty() ? q_out : q_out_ch[static_cast<std::size_t>(o)]; }
  // Every channel's Q of the input (c_in entries) and output (c_out) map.
  std::vector<int> input_q() const;
  std::vector<int> output_q() const;
  // The largest requantization shift the layer needs, 15 + max qo - min qi
  // + min_exp + 6 (the top INQ exponent). Above kMaxShift the PE drops bits
  // (s & 31); the compilers choose Q_out so that it stays within.
  int largest_shift() const;
  // Throws InputError naming `what` and the field when the layer is malformed
  // (sizes, codes, vector lengths).
  void validate(const std::string& what = "tf2 layer") const;
};

// Bias / batch-norm constants from float values (q_out: the channel's Q).
int32_t bias_to_int(double bias_f, int q_out);
int32_t alpha_to_int(double alpha_f);
int32_t beta_to_int(double beta_f, int q_out);

// Raw int32 accumulators (bias included), CHW [c_out][h_out][w_out].
std::vector<int32_t> sac_accumulate(const ConvLayer& layer, const std::vector<int8_t>& input_chw);

// Full layer: accumulate, requantize, ReLU. Output CHW int8, channel o at Q qo(o).
// (Ignores residual_from: a single layer has no earlier maps.)
std::vector<int8_t> sac_conv2d(const ConvLayer& layer, const std::vector<int8_t>& input_chw);

// The map layer i of a chain reads, input_from resolved: kChainInput or an
// earlier layer. Throws InputError when input_from names no earlier map.
int input_source(const std::vector<ConvLayer>& layers, std::size_t i);

// A chain: layer i reads layer i-1's output (layer 0 the input) unless its
// input_from names another earlier map; a layer
// with a residual source requantizes without ReLU, adds the source map with
// saturation, then applies its ReLU. Returns every layer's CHW output.
// Throws InputError when a residual source is not an earlier map or differs
// in shape or Q.
std::vector<std::vector<int8_t>> sac_chain(const std::vector<ConvLayer>& layers, const std::vector<int8_t>& input_chw);

// Checks the residual sources of a chain (see sac_chain).
void validate_residuals(const std::vector<ConvLayer>& layers);

}  // namespace cosim::tf2
