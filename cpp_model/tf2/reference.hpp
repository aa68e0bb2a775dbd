// Float reference for a TF2 layer and the cost of the device arithmetic:
// INQ weight compression and int8 feature quantization, per layer, as SNR
// (dB) and max abs error against the float result.
#pragma once

#include <vector>

#include "tf2/sac.hpp"

namespace cosim::tf2 {

// A float convolution layer: out = relu(alpha * (conv(x, w) + bias) + beta).
// Without batch-norm alpha = 1 and beta = 0 (empty vectors).
struct FloatConv {
  int c_in = 0, c_out = 0, h_in = 0, w_in = 0;
  int k = 1, stride = 1, pad = 0;
  std::vector<float> weights;  // OIHW
  std::vector<float> bias;     // c_out (empty = zero)
  std::vector<float> bn_alpha; // c_out (empty = no batch-norm)
  std::vector<float> bn_beta;  // c_out (empty = no batch-norm)
  bool relu = false;
};

// Float convolution on a CHW map (double accumulation).
std::vector<float> float_conv2d(const FloatConv& f, const std::vector<float>& input_chw);

// Compiles a float layer for the device: INQ weights, bias trunc, alpha trunc,
// beta round_half_away, at the given input/output Q.
ConvLayer make_conv_layer(const FloatConv& f, int q_in, int q_out);
// The same with one Q per channel: q_in has c_in entries and q_out c_out,
// or one entry for a Q shared by every channel of that map.
ConvLayer make_conv_layer(const FloatConv& f, const std::vector<int>& q_in, const std::vector<int>& q_out);

// make_conv_layer, with the output channels of the highest Q lowered one
// step at a time until the layer's largest shift fits the PE's 5 bits (above
// it the PE drops bit 5). Throws InputError when no Q down to -128 fits.
ConvLayer make_fitting_conv_layer(const FloatConv& f, const std::vector<int>& q_in, std::vector<int> q_out);

struct ErrorStats {
  double snr_db = 0;       // 10 log10(sum ref^2 / sum (ref - x)^2); +inf when exact
  double max_abs_err = 0;  // in float units
};
ErrorStats compare(const std::vector<float>& reference, const std::vector<float>& approx);

struct LayerCost {
  int q_in = 0, q_out = 0;
  ErrorStats compression;  // float conv with INQ weights vs float weights
  ErrorStats total;        // device path (int8 in, SAC, int8 out) dequantized vs float
  ConvLayer layer;         // the compiled layer
  std::vector<int8_t> input_q;   // quantized input (shared Q)
  std::vector<int8_t> output_q;  // device output
};

// Chooses Q_in from the input and Q_out from the float output (layer-shared
// Q: the smallest per-channel Q), compiles and runs the layer both ways.
LayerCost layer_cost(const FloatConv& f, const std::vector<float>& input_chw);

}  // namespace cosim::tf2
