// Layer-by-layer golden run of an int8 model with the cosim::ops reference.
#pragma once

#include "quant/tflite_quant.hpp"
#include "tflite/layers.hpp"
#include "tflite/model.hpp"

namespace cosim::tflite {

// Runs subgraph 0 on `input` (int8, the shape of the model's first input).
// CONV_2D, DEPTHWISE_CONV_2D, ADD, AVERAGE_POOL_2D, FULLY_CONNECTED and
// SOFTMAX are computed; RESHAPE passes its bytes through with the new shape;
// any other operator is skipped, and so is every operator whose inputs the
// chain did not produce. The result holds the input and every produced
// tensor by index. Bad input throws InputError.
TensorMap run_reference(const Model& model, const Tensor& input, quant::Rounding rounding);

// One step of that run: operator `o` of subgraph 0 on the tensors in
// `values` (constants are fetched into it), its output stored there.
// `params`: extract_layers(model, {}, rounding). False when an input is
// missing or the operator is not one the golden model computes. Lets a
// caller replace some operators' outputs (a delegate's) between steps.
bool run_operator(const Model& model, std::size_t o, const std::vector<LayerWorkload>& params, TensorMap& values,
                  quant::Rounding rounding);

// A seeded uniform int8 tensor of the model's first input shape.
Tensor random_input(const Model& model, uint32_t seed);

}  // namespace cosim::tflite
