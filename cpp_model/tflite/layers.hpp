// Operators of an imported model as workloads for the golden model and the
// accelerators: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and ADD with
// their constant tensors and TFLite int8 quantization parameters.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ops/add.hpp"
#include "ops/conv2d.hpp"
#include "ops/fully_connected.hpp"
#include "ops/pool.hpp"
#include "ops/softmax.hpp"
#include "quant/tflite_quant.hpp"
#include "tensor/tensor.hpp"
#include "tflite/model.hpp"

namespace cosim::tflite {

// Tensor index -> value, for one subgraph.
using TensorMap = std::map<int32_t, Tensor>;

// Which builtin codes to extract. Empty = all supported ones.
using OpFilter = std::set<int32_t>;

// The op names a scenario may list (`ops: [CONV_2D, ADD]`).
const std::vector<std::string>& supported_op_names();
bool is_supported_op(int32_t code);
// Names -> codes. An unknown name throws InputError naming `context` (the
// scenario file and key), the name and the accepted ones.
OpFilter parse_op_filter(const std::vector<std::string>& names, const std::string& context);

struct LayerWorkload {
  std::size_t op_index = 0;            // position in subgraph 0's operator list
  int32_t code = 0;                    // kConv2d, kDepthwiseConv2d, kFullyConnected or kAdd
  std::string op;                      // "CONV_2D", ...
  std::string name;                    // the output tensor's name
  std::vector<int32_t> input_tensors;  // activation inputs (1 for convs and FULLY_CONNECTED, 2 for ADD)
  int32_t output_tensor = -1;
  std::vector<int64_t> output_shape;

  // CONV_2D / DEPTHWISE_CONV_2D: OHWI / 1HWC int8 filter, int32 bias (or an
  // empty Tensor), and the parameters for ops::conv2d / depthwise_conv2d.
  Tensor filter;
  Tensor bias;
  ops::ConvParams conv;
  // FULLY_CONNECTED: int8 [units, depth] filter, int32 bias (or empty), and
  // the parameters for ops::fully_connected; its output is reshaped to the
  // output tensor's declared shape.
  ops::FullyConnectedParams fc;
  // ADD: parameters for ops::add.
  ops::AddParams add;

  // Filled when a golden run is given: the activation inputs and the
  // expected output of this operator.
  std::vector<Tensor> inputs;
  Tensor expected;
  bool has_data = false;

  // Runs this operator on `in` with the cosim::ops reference.
  Tensor run(const std::vector<Tensor>& in) const;
};

// The supported operators of subgraph 0 in execution order, filtered by
// `filter`, with parameters in the given rounding mode. With `golden` (a
// run_reference result) each workload also carries its inputs and expected
// output when the golden chain reached it. Unsupported quantization (not int8,
// non-zero filter zero points, a scale count that fits neither per-tensor nor
// per-channel) throws InputError naming the file and operator.
std::vector<LayerWorkload> extract_layers(const Model& model, const OpFilter& filter = {},
                                          quant::Rounding rounding = quant::Rounding::kDouble,
                                          const TensorMap* golden = nullptr);

// Operators the golden chain runs beyond the DUT workloads, with the
// quantization of operator `op` of subgraph 0 checked as the kernels need it
// (InputError naming the file and operator otherwise): AVERAGE_POOL_2D
// (ops::average_pool2d) and SOFTMAX (ops::softmax, output at 1/256, -128).
// (FULLY_CONNECTED is a LayerWorkload: ops::fully_connected, per-tensor or
// per-unit weights.)
Tensor run_average_pool2d(const Model& model, std::size_t op, const Tensor& in);
Tensor run_softmax(const Model& model, std::size_t op, const Tensor& in);

}  // namespace cosim::tflite
