// Float CONV_2D layers of a float .tflite model for the TF2 Transform Kit:
// the filter (OHWI float32 in the file) in the OIHW order the TF2 golden
// uses, the bias, stride / padding / fused ReLU, ready for INQ compression
// (tf2::inq_compress) and tf2::make_conv_layer.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tf2/reference.hpp"
#include "tflite/model.hpp"

namespace cosim::tf2 {

struct TfliteConv {
  std::size_t op_index = 0;
  // The layer as the TF2 device runs it: symmetric padding `conv.pad` on an
  // input extended by `extra_h` / `extra_w` zero rows / columns at the
  // bottom / right. TFLite's SAME padding puts the odd pixel after the map
  // (e.g. stride 2 on an even map: 0 before, 1 after), which the symmetric
  // descriptor reproduces this way; conv.h_in / w_in include the extension.
  FloatConv conv;
  int h_in = 0, w_in = 0;    // the model's input map (before extension)
  int h_out = 0, w_out = 0;  // the model's output map
  int extra_h = 0, extra_w = 0;
};

// Indices of the CONV_2D operators of subgraph 0.
std::vector<std::size_t> conv2d_ops(const tflite::Model& m);

// Reads CONV_2D operator `op_index` of subgraph 0 of a float model (its
// filter float32, or int8 with scales as a dynamic-range model stores it:
// their float values). Throws
// cosim::InputError naming the operator when it is not a float CONV_2D or
// uses something the TF2 layer has no form for (dilation, non-square
// kernel, unequal strides, a fused activation other than none / ReLU).
TfliteConv read_float_conv(const tflite::Model& m, std::size_t op_index);

// Reads FULLY_CONNECTED operator `op_index` of a float model as the 1x1
// convolution over a 1x1 map it equals (c_in = the input depth, c_out = the
// units). Weights float32, or int8 with scales (a dynamic-range model: their
// float values). Throws cosim::InputError naming the operator when it has no
// such form (more than one input row, shuffled weights, an activation other
// than none / ReLU).
TfliteConv read_float_fully_connected(const tflite::Model& m, std::size_t op_index);

// The layer as the device runs it on the model's own input map (no
// extension): TFLite SAME padding with one more pixel after the map than
// before (p before, p + 1 after) equals a (k+1)x(k+1) kernel whose first row
// and column are zero, with symmetric padding p + 1: the taps line up and the
// zero taps meet the extra pixel in front. Exact, and no host copy of the
// map. InputError when the extra pixel is on one axis only.
FloatConv fold_trailing_padding(const TfliteConv& c);

// Extends a CHW map by `extra_h` zero rows and `extra_w` zero columns.
std::vector<float> extend_chw(const std::vector<float>& chw, int c, int h, int w, int extra_h, int extra_w);

}  // namespace cosim::tf2
