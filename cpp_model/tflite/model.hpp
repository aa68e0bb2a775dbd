// The parts of a TensorFlow Lite model (.tflite flatbuffer) the co-simulation
// reads: subgraphs, tensors with their quantization, constant buffers,
// operators with the options of CONV_2D, DEPTHWISE_CONV_2D, ADD,
// AVERAGE_POOL_2D / MAX_POOL_2D, FULLY_CONNECTED and SOFTMAX.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "tensor/tensor.hpp"

namespace cosim::tflite {

// The most elements any one tensor of a model may declare (64 Mi; the
// largest in the shipped models is far below). Checked when the model is
// read, so no operator of the reference allocates a crafted size.
constexpr int64_t kMaxTensorElements = int64_t{1} << 26;

// BuiltinOperator values of the TFLite schema (the ones we name).
enum BuiltinCode : int32_t {
  kAdd = 0,
  kAveragePool2d = 1,
  kConcatenation = 2,
  kConv2d = 3,
  kDepthwiseConv2d = 4,
  kFullyConnected = 9,
  kMaxPool2d = 17,
  kMul = 18,
  kRelu = 19,
  kRelu6 = 21,
  kReshape = 22,
  kSoftmax = 25,
  kPad = 34,
  kMean = 40,
  kQuantize = 114,
  kDequantize = 6,
};
// "CONV_2D", ... or "BUILTIN_<n>" for codes we do not name.
std::string op_name(int32_t code);

// TensorType values of the TFLite schema.
enum class TensorType : int8_t {
  kFloat32 = 0,
  kFloat16 = 1,
  kInt32 = 2,
  kUint8 = 3,
  kInt64 = 4,
  kString = 5,
  kBool = 6,
  kInt16 = 7,
  kInt8 = 9,
};
std::string tensor_type_name(int8_t type);

// ActivationFunctionType and Padding of the schema.
enum class FusedActivation : int8_t { kNone = 0, kRelu = 1, kReluN1To1 = 2, kRelu6 = 3, kTanh = 4, kSignBit = 5 };
enum class PaddingType : int8_t { kSame = 0, kValid = 1 };

struct Quantization {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;
  bool empty() const { return scale.empty(); }
};

struct TensorInfo {
  std::string name;
  std::vector<int32_t> shape;
  int8_t type = 0;      // TensorType value as stored
  uint32_t buffer = 0;  // 0 = no constant data (the schema's empty sentinel)
  Quantization quant;
};

struct Conv2DOptions {
  PaddingType padding = PaddingType::kSame;
  int32_t stride_w = 1, stride_h = 1;
  FusedActivation activation = FusedActivation::kNone;
  int32_t dilation_w = 1, dilation_h = 1;
};
struct DepthwiseConv2DOptions {
  PaddingType padding = PaddingType::kSame;
  int32_t stride_w = 1, stride_h = 1;
  int32_t depth_multiplier = 1;
  FusedActivation activation = FusedActivation::kNone;
  int32_t dilation_w = 1, dilation_h = 1;
};
struct AddOptions {
  FusedActivation activation = FusedActivation::kNone;
};
struct Pool2DOptions {
  PaddingType padding = PaddingType::kSame;
  int32_t stride_w = 1, stride_h = 1;
  int32_t filter_width = 1, filter_height = 1;
  FusedActivation activation = FusedActivation::kNone;
};
struct FullyConnectedOptions {
  FusedActivation activation = FusedActivation::kNone;
  int8_t weights_format = 0;  // 0 = DEFAULT (the only one with float weights)
  bool keep_num_dims = false;
  bool asymmetric_quantize_inputs = false;  // dynamic-range kernel: quantize each input row asymmetrically
};
struct SoftmaxOptions {
  float beta = 1.0f;
};
using BuiltinOptions = std::variant<std::monostate, Conv2DOptions, DepthwiseConv2DOptions, AddOptions, Pool2DOptions,
                                    FullyConnectedOptions, SoftmaxOptions>;

struct Operator {
  uint32_t opcode_index = 0;
  int32_t code = 0;             // resolved builtin code of operator_codes[opcode_index]
  std::vector<int32_t> inputs;  // tensor indices; -1 = optional input absent
  std::vector<int32_t> outputs;
  uint8_t options_type = 0;  // BuiltinOptions union tag as stored
  BuiltinOptions options;    // filled for the option tables named above
};

struct SubGraph {
  std::string name;
  std::vector<TensorInfo> tensors;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<Operator> operators;
  // Byte offset in the file of outputs[0] (the int32 elements of the outputs
  // vector are contiguous from there); lets a tool repoint an output in place.
  std::size_t outputs_file_offset = 0;
};

struct Model {
  std::string path;  // for error messages
  uint32_t version = 0;
  std::vector<int32_t> operator_codes;  // max(builtin_code, deprecated_builtin_code)
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<SubGraph> subgraphs;
};

// Reads and verifies a .tflite file. Malformed or unsupported input throws
// cosim::InputError with one line naming the file, the problem and the byte
// offset or index where known.
Model load_model(const std::string& path);
// Same for bytes already in memory; `name` stands for the file in messages.
Model parse_model(const uint8_t* data, std::size_t size, const std::string& name);

// The constant data of tensor `index` of subgraph `sg` as a cosim::Tensor
// (int8, int16, int32 or float32). Throws InputError when the tensor has no
// buffer, the buffer's size does not match the shape, or the type is not one
// of those.
Tensor constant_tensor(const Model& model, std::size_t sg, int32_t index);

// 'name' for messages: names come from the file, so control characters and
// quotes are escaped (\xNN) and very long names shortened, keeping every
// error message one line.
std::string quoted(const std::string& name);

// The cosim::DType of a TFLite tensor type; InputError for other types.
DType to_dtype(int8_t type, const std::string& context);

}  // namespace cosim::tflite
