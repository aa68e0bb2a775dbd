// A float32 interpreter over subgraph 0 of a float .tflite model, for the
// operators of the float MLPerf Tiny models: CONV_2D, DEPTHWISE_CONV_2D,
// ADD, AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED, SOFTMAX (kernels in
// float_ops.hpp). CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED also take
// int8 weights (a dynamic-range model) and then run TFLite's hybrid kernels.
// Tensors are batch 1, of any rank (a [1, N] input feeds FULLY_CONNECTED),
// stored flat in the file's layout (NHWC for maps).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tflite/model.hpp"

namespace cosim::tflite_float {

// One flat float vector per tensor of subgraph 0 (empty = not computed).
using Values = std::vector<std::vector<float>>;

// Throws one InputError naming the first operator (index and type) or tensor
// the interpreter cannot run: an unsupported operator or option, a tensor
// that is not float32 (weights may be int8 with scales and zero point 0),
// batch other than 1; or a subgraph 0 without exactly one input.
void check_supported(const tflite::Model& m);

// The model's input tensor index (subgraph 0 has exactly one input).
int32_t input_tensor(const tflite::Model& m);
// Elements of tensor `t` of subgraph 0.
std::size_t tensor_size(const tflite::Model& m, int32_t t);

// Runs operator `op`: reads its variable inputs from `values` (constants from
// the model), writes its output into `values`. InputError names the operator
// when an input was not computed or does not fit.
void run_op(const tflite::Model& m, std::size_t op, Values& values);

// Runs the whole subgraph on `input` (the input tensor's elements, NHWC).
Values run(const tflite::Model& m, const std::vector<float>& input);

// Index of the largest value (the first on ties).
std::size_t argmax(const std::vector<float>& v);

}  // namespace cosim::tflite_float
