// Float32 kernels of the TFLite operators a float ResNet-8 uses, on batch-1
// NHWC maps, with TFLite's semantics: SAME padding puts the odd pixel after
// the map, average pooling divides by the taps inside the map, fused
// activations clamp after the operator. Sums accumulate in double.
#pragma once

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
// Softmax over the last dimension of size `depth`: exp(beta (x - max)) / sum.
std::vector<float> softmax(const std::vector<float>& in, int depth, float beta);

}  // namespace cosim::tflite_float
