// Float32 kernels of the TFLite operators the float MLPerf Tiny models use
// (ResNet-8, MobileNetV1 VWW, DS-CNN KWS, the anomaly-detection autoencoder),
// on batch-1 NHWC maps, with TFLite's semantics: SAME padding puts the odd
// pixel after the map, average pooling divides by the taps inside the map,
// fused activations clamp after the operator. Float sums accumulate in double.
//
// The dynamic-range ("hybrid") kernels take int8 weights (zero point 0) in a
// float model and follow TFLite's own arithmetic, so their results agree with
// the TFLite runtime to the float rounding of the last multiply and add:
// each activation row is quantized to int8 on the fly (symmetric or
// asymmetric, see quantize_*), the int8 x int8 products are summed in int32,
// and y = float(acc) * (input_scale * weight_scale[c]) + bias[c], clamped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tflite/model.hpp"

namespace cosim::tflite_float {

// A batch-1 map, NHWC: v[(y * w + x) * c + ch].
struct Map {
  int h = 0, w = 0, c = 0;
  std::vector<float> v;
};

// Output size and leading padding of one spatial dimension (TFLite's rule).
int output_size(int in, int k, int stride, int dilation, tflite::PaddingType p);
int padding_before(int in, int k, int stride, int dilation, tflite::PaddingType p);

// Applies NONE / RELU / RELU6 / RELU_N1_TO_1 in place; InputError for others.
void activate(std::vector<float>& v, tflite::FusedActivation a);

// filter OHWI [o][kh][kw][in.c], bias [o] or empty.
Map conv2d(const Map& in, const std::vector<float>& filter, int o, int kh, int kw, const std::vector<float>& bias,
           const tflite::Conv2DOptions& opt);
// Elementwise, same shape.
std::vector<float> add(const std::vector<float>& a, const std::vector<float>& b, tflite::FusedActivation act);
Map average_pool2d(const Map& in, const tflite::Pool2DOptions& opt);
// in: [batch][depth] flattened rows; weights [units][depth]; bias [units] or empty.
std::vector<float> fully_connected(const std::vector<float>& in, const std::vector<float>& weights, int units,
                                   const std::vector<float>& bias, tflite::FusedActivation act);
// filter 1HWC [1][kh][kw][in.c * depth_multiplier]: output channel
// oc = ic * depth_multiplier + m reads input channel ic; bias [oc] or empty.
Map depthwise_conv2d(const Map& in, const std::vector<float>& filter, int kh, int kw, const std::vector<float>& bias,
                     const tflite::DepthwiseConv2DOptions& opt);

// One activation row quantized to int8: real = scale * (q - zero_point).
struct QuantizedRow {
  std::vector<int8_t> q;
  float scale = 1.0f;
  int32_t zero_point = 0;
};
// TFLite's symmetric on-the-fly quantization: range = max |x| (float);
// scale = range / 127, q = round(x * (127 / range)) (float, half away from
// zero), clamped to [-127, 127]; an all-zero row gives q = 0, scale 1.
QuantizedRow quantize_symmetric(const float* x, std::size_t n);
// TFLite's asymmetric one: the range [min(0, min x), max(0, max x)] in
// double over 255 steps, the zero point taken from the end with the smaller
// error and rounded into [-128, 127]; scale stored as float and
// q = round(zp + x * float(1 / scale)) in float, clamped to [-128, 127]; an
// all-zero row gives q = 0, scale 1, zero point 0.
QuantizedRow quantize_asymmetric(const float* x, std::size_t n);

// int8 weights with one scale (per tensor) or one per output channel.
struct HybridWeights {
  std::vector<int8_t> q;
  std::vector<float> scale;
};
// CONV_2D with int8 filter OHWI. TFLite's rule: scales that are all equal
// (or one) take the per-tensor kernel (symmetric input, padding 0,
// y = float(acc) * (s_in * s_w) + bias); differing per-channel scales take
// the per-channel kernel (asymmetric input, padding at the zero point,
// y = float(sum w (q - zp)) * (s_w[c] * s_in) + bias). Dilation must be 1
// (TFLite's hybrid convolution ignores it).
Map hybrid_conv2d(const Map& in, const HybridWeights& filter, int o, int kh, int kw, const std::vector<float>& bias,
                  const tflite::Conv2DOptions& opt);
// DEPTHWISE_CONV_2D with int8 filter 1HWC and one scale per output channel
// (TFLite's only hybrid depthwise kernel): asymmetric input,
// y = (float(sum w (q - zp)) * s_in) * s_w[c] + bias: the runtime multiplies
// in this order (bit-exact against the referee; s_w[c] * s_in first is not).
Map hybrid_depthwise_conv2d(const Map& in, const HybridWeights& filter, int kh, int kw, const std::vector<float>& bias,
                            const tflite::DepthwiseConv2DOptions& opt);
// FULLY_CONNECTED with int8 weights [units][depth] and one scale: each input
// row quantized on its own (asymmetric when `asymmetric`, the option
// asymmetric_quantize_inputs), y = bias + float(acc - rowsum(w) zp) * (s_in * s_w).
std::vector<float> hybrid_fully_connected(const std::vector<float>& in, const HybridWeights& weights, int units,
                                          const std::vector<float>& bias, tflite::FusedActivation act,
                                          bool asymmetric);

// Softmax over the last dimension of size `depth`: exp(beta (x - max)) / sum.
std::vector<float> softmax(const std::vector<float>& in, int depth, float beta);

}  // namespace cosim::tflite_float
