#include "tflite_float/interpreter.hpp"

#include <algorithm>
#include <cstring>

#include "common/error.hpp"
#include "tflite_float/float_ops.hpp"

namespace cosim::tflite_float {

using tflite::Model;
using tflite::Operator;

namespace {

std::string where(const Model& m, std::size_t op) {
  return m.path + ": operator " + std::to_string(op) + " (" + tflite::op_name(m.subgraphs[0].operators[op].code) + ")";
}

const tflite::TensorInfo& info(const Model& m, std::size_t op, int32_t t) {
  const auto& ts = m.subgraphs[0].tensors;
  if (t < 0 || static_cast<std::size_t>(t) >= ts.size()) throw InputError(where(m, op) + ": tensor index " + std::to_string(t) + " out of range");
  return ts[static_cast<std::size_t>(t)];
}

std::vector<float> constant(const Model& m, std::size_t op, int32_t t) {
  const Tensor c = tflite::constant_tensor(m, 0, t);
  if (c.dtype() != DType::kFp32) throw InputError(where(m, op) + ": constant tensor " + std::to_string(t) + " is not float32");
  return std::vector<float>(c.data<float>(), c.data<float>() + c.numel());
}

// A weight tensor: float32, or int8 with scales and zero point 0 (the
// dynamic-range models). `channels` is the output channel count.
struct Weights {
  bool hybrid = false;
  std::vector<float> f;
  HybridWeights h;
};
Weights weights(const Model& m, std::size_t op, int32_t t) {
  const auto& ti = info(m, op, t);
  Weights w;
  if (ti.type == static_cast<int8_t>(tflite::TensorType::kFloat32)) {
    w.f = constant(m, op, t);
    return w;
  }
  const Tensor c = tflite::constant_tensor(m, 0, t);
  if (c.dtype() != DType::kInt8) throw InputError(where(m, op) + ": weight tensor " + std::to_string(t) + " is neither float32 nor int8");
  w.hybrid = true;
  w.h.q.assign(c.data<int8_t>(), c.data<int8_t>() + c.numel());
  w.h.scale = ti.quant.scale;
  return w;
}

const std::vector<float>& variable(const Model& m, std::size_t op, int32_t t, const Values& values) {
  if (t < 0 || static_cast<std::size_t>(t) >= values.size() || values[static_cast<std::size_t>(t)].empty()) {
    throw InputError(where(m, op) + ": input tensor " + std::to_string(t) + " has not been computed");
  }
  const std::vector<float>& v = values[static_cast<std::size_t>(t)];
  if (v.size() != tensor_size(m, t)) {
    throw InputError(where(m, op) + ": input tensor " + std::to_string(t) + " holds " + std::to_string(v.size()) +
                     " values, its shape " + std::to_string(tensor_size(m, t)));
  }
  return v;
}

// A rank-4 NHWC map of tensor t with the given values.
Map map_of(const Model& m, std::size_t op, int32_t t, const std::vector<float>& v) {
  const auto& s = info(m, op, t).shape;
  if (s.size() != 4 || s[0] != 1) throw InputError(where(m, op) + ": expected a [1, H, W, C] map");
  return Map{s[1], s[2], s[3], v};
}

template <class T>
const T& options(const Model& m, std::size_t op) {
  const T* o = std::get_if<T>(&m.subgraphs[0].operators[op].options);
  if (o == nullptr) throw InputError(where(m, op) + ": options table missing");
  return *o;
}

}  // namespace

std::size_t tensor_size(const Model& m, int32_t t) {
  std::size_t n = 1;
  for (int32_t d : m.subgraphs[0].tensors.at(static_cast<std::size_t>(t)).shape) n *= static_cast<std::size_t>(std::max(d, 0));
  return n;
}

int32_t input_tensor(const Model& m) {
  if (m.subgraphs.empty() || m.subgraphs[0].inputs.size() != 1) throw InputError(m.path + ": expected one input tensor in subgraph 0");
  return m.subgraphs[0].inputs[0];
}

namespace {

bool is_type(const tflite::TensorInfo& t, tflite::TensorType type) { return t.type == static_cast<int8_t>(type); }

// The weights of a CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED: float32,
// or int8 with scales and zero point 0 (a dynamic-range model).
void check_weights(const Model& m, std::size_t i, const Operator& op) {
  if (op.inputs.size() < 2 || op.inputs[1] < 0) throw InputError(where(m, i) + ": expected input and weights");
  const auto& w = info(m, i, op.inputs[1]);
  if (is_type(w, tflite::TensorType::kFloat32)) return;
  if (!is_type(w, tflite::TensorType::kInt8)) {
    throw InputError(where(m, i) + ": weights " + tflite::quoted(w.name) + " are " + tflite::tensor_type_name(w.type) +
                     ", expected FLOAT32 or INT8 (dynamic range)");
  }
  if (w.quant.scale.empty()) throw InputError(where(m, i) + ": int8 weights " + tflite::quoted(w.name) + " have no scale");
  for (int64_t zp : w.quant.zero_point) {
    if (zp != 0) throw InputError(where(m, i) + ": int8 weights " + tflite::quoted(w.name) + " have zero point " + std::to_string(zp) + ", expected 0");
  }
  const std::size_t channels = static_cast<std::size_t>(std::max(w.shape.empty() ? 0 : (op.code == tflite::kDepthwiseConv2d ? w.shape.back() : w.shape[0]), 0));
  if (op.code == tflite::kDepthwiseConv2d && w.quant.scale.size() != channels) {
    throw InputError(where(m, i) + ": int8 weights " + tflite::quoted(w.name) + " have " + std::to_string(w.quant.scale.size()) +
                     " scales; TFLite's dynamic-range depthwise kernel needs one per output channel (" + std::to_string(channels) + ")");
  }
  if (op.code == tflite::kFullyConnected && w.quant.scale.size() != 1) {
    throw InputError(where(m, i) + ": int8 weights " + tflite::quoted(w.name) + " have " + std::to_string(w.quant.scale.size()) +
                     " scales; the dynamic-range FULLY_CONNECTED supports one per tensor");
  }
  if (op.code == tflite::kConv2d && w.quant.scale.size() != 1 && w.quant.scale.size() != channels) {
    throw InputError(where(m, i) + ": int8 weights " + tflite::quoted(w.name) + " have " + std::to_string(w.quant.scale.size()) +
                     " scales, expected 1 or " + std::to_string(channels));
  }
}

void check_window(const Model& m, std::size_t i, int sh, int sw, int dh, int dw) {
  if (sh < 1 || sw < 1 || dh < 1 || dw < 1) throw InputError(where(m, i) + ": stride/dilation below 1");
}

}  // namespace

void check_supported(const Model& m) {
  (void)input_tensor(m);  // one subgraph with one input
  const auto& sg = m.subgraphs[0];
  for (std::size_t i = 0; i < sg.operators.size(); ++i) {
    const Operator& op = sg.operators[i];
    bool weighted = false;
    switch (op.code) {
      case tflite::kConv2d: {
        const auto& o = options<tflite::Conv2DOptions>(m, i);
        check_window(m, i, o.stride_h, o.stride_w, o.dilation_h, o.dilation_w);
        check_weights(m, i, op);
        if (!is_type(info(m, i, op.inputs[1]), tflite::TensorType::kFloat32) && (o.dilation_h != 1 || o.dilation_w != 1)) {
          throw InputError(where(m, i) + ": dilation with int8 weights is not supported (TFLite's dynamic-range convolution runs undilated)");
        }
        weighted = true;
        break;
      }
      case tflite::kDepthwiseConv2d: {
        const auto& o = options<tflite::DepthwiseConv2DOptions>(m, i);
        check_window(m, i, o.stride_h, o.stride_w, o.dilation_h, o.dilation_w);
        if (o.depth_multiplier < 1) throw InputError(where(m, i) + ": depth_multiplier below 1");
        check_weights(m, i, op);
        weighted = true;
        break;
      }
      case tflite::kAdd: (void)options<tflite::AddOptions>(m, i); break;
      case tflite::kAveragePool2d: {
        const auto& o = options<tflite::Pool2DOptions>(m, i);
        if (o.stride_h < 1 || o.stride_w < 1 || o.filter_height < 1 || o.filter_width < 1) throw InputError(where(m, i) + ": stride/filter below 1");
        break;
      }
      case tflite::kFullyConnected:
        if (options<tflite::FullyConnectedOptions>(m, i).weights_format != 0) throw InputError(where(m, i) + ": shuffled weights are not supported");
        check_weights(m, i, op);
        weighted = true;
        break;
      case tflite::kSoftmax: (void)options<tflite::SoftmaxOptions>(m, i); break;
      case tflite::kReshape: break;
      default:
        throw InputError(where(m, i) +
                         ": not supported by the float interpreter (CONV_2D, DEPTHWISE_CONV_2D, ADD, AVERAGE_POOL_2D, RESHAPE, "
                         "FULLY_CONNECTED, SOFTMAX)");
    }
    if (op.outputs.size() != 1 || op.inputs.empty()) throw InputError(where(m, i) + ": expected inputs and one output");
    for (std::size_t k = 0; k < op.inputs.size(); ++k) {
      const int32_t t = op.inputs[k];
      if (t < 0) continue;
      if (weighted && k == 1) continue;                  // checked above
      if (op.code == tflite::kReshape && k > 0) continue;  // the shape operand
      const auto& ti = info(m, i, t);
      if (!is_type(ti, tflite::TensorType::kFloat32)) {
        throw InputError(where(m, i) + ": tensor " + tflite::quoted(ti.name) + " is " + tflite::tensor_type_name(ti.type) + ", expected FLOAT32");
      }
    }
    const auto& out = info(m, i, op.outputs[0]);
    if (!is_type(out, tflite::TensorType::kFloat32)) {
      throw InputError(where(m, i) + ": output " + tflite::quoted(out.name) + " is " + tflite::tensor_type_name(out.type) + ", expected FLOAT32");
    }
    if (!out.shape.empty() && out.shape[0] != 1) throw InputError(where(m, i) + ": batch " + std::to_string(out.shape[0]) + ", expected 1");
  }
}

void run_op(const Model& m, std::size_t i, Values& values) {
  const Operator& op = m.subgraphs[0].operators.at(i);
  const int32_t out_t = op.outputs.at(0);
  const auto& out_shape = info(m, i, out_t).shape;
  std::vector<float> y;
  try {
    switch (op.code) {
      case tflite::kConv2d: {
        const auto& fs = info(m, i, op.inputs[1]).shape;
        if (fs.size() != 4) throw InputError("filter is not 4-D");
        const std::vector<float> bias = op.inputs.size() > 2 && op.inputs[2] >= 0 ? constant(m, i, op.inputs[2]) : std::vector<float>{};
        const Map in = map_of(m, i, op.inputs[0], variable(m, i, op.inputs[0], values));
        if (fs[3] != in.c) throw InputError("filter depth " + std::to_string(fs[3]) + " differs from the input's " + std::to_string(in.c));
        const Weights w = weights(m, i, op.inputs[1]);
        const auto& o = options<tflite::Conv2DOptions>(m, i);
        y = w.hybrid ? hybrid_conv2d(in, w.h, fs[0], fs[1], fs[2], bias, o).v : conv2d(in, w.f, fs[0], fs[1], fs[2], bias, o).v;
        break;
      }
      case tflite::kDepthwiseConv2d: {
        const auto& fs = info(m, i, op.inputs[1]).shape;
        if (fs.size() != 4 || fs[0] != 1) throw InputError("filter is not [1, H, W, C]");
        const std::vector<float> bias = op.inputs.size() > 2 && op.inputs[2] >= 0 ? constant(m, i, op.inputs[2]) : std::vector<float>{};
        const Map in = map_of(m, i, op.inputs[0], variable(m, i, op.inputs[0], values));
        const auto& o = options<tflite::DepthwiseConv2DOptions>(m, i);
        if (static_cast<int64_t>(fs[3]) != static_cast<int64_t>(in.c) * o.depth_multiplier) {
          throw InputError("filter channels " + std::to_string(fs[3]) + " differ from input channels " + std::to_string(in.c) +
                           " x depth_multiplier " + std::to_string(o.depth_multiplier));
        }
        const Weights w = weights(m, i, op.inputs[1]);
        y = w.hybrid ? hybrid_depthwise_conv2d(in, w.h, fs[1], fs[2], bias, o).v : depthwise_conv2d(in, w.f, fs[1], fs[2], bias, o).v;
        break;
      }
      case tflite::kAdd:
        if (op.inputs.size() != 2) throw InputError("expected two inputs");
        y = add(variable(m, i, op.inputs[0], values), variable(m, i, op.inputs[1], values), options<tflite::AddOptions>(m, i).activation);
        break;
      case tflite::kAveragePool2d:
        y = average_pool2d(map_of(m, i, op.inputs[0], variable(m, i, op.inputs[0], values)), options<tflite::Pool2DOptions>(m, i)).v;
        break;
      case tflite::kReshape: y = variable(m, i, op.inputs[0], values); break;
      case tflite::kFullyConnected: {
        const auto& ws = info(m, i, op.inputs[1]).shape;
        if (ws.size() != 2) throw InputError("weights are not 2-D");
        const std::vector<float> bias = op.inputs.size() > 2 && op.inputs[2] >= 0 ? constant(m, i, op.inputs[2]) : std::vector<float>{};
        const Weights w = weights(m, i, op.inputs[1]);
        const auto& o = options<tflite::FullyConnectedOptions>(m, i);
        const std::vector<float>& in = variable(m, i, op.inputs[0], values);
        y = w.hybrid ? hybrid_fully_connected(in, w.h, ws[0], bias, o.activation, o.asymmetric_quantize_inputs)
                     : fully_connected(in, w.f, ws[0], bias, o.activation);
        break;
      }
      case tflite::kSoftmax:
        if (out_shape.empty()) throw InputError("scalar output");
        y = softmax(variable(m, i, op.inputs[0], values), out_shape.back(), options<tflite::SoftmaxOptions>(m, i).beta);
        break;
      default: throw InputError("not supported by the float interpreter");
    }
  } catch (const InputError& e) {
    const std::string msg = e.what();
    if (msg.rfind(m.path, 0) == 0) throw;
    throw InputError(where(m, i) + ": " + msg);
  }
  if (y.size() != tensor_size(m, out_t)) {
    throw InputError(where(m, i) + ": computes " + std::to_string(y.size()) + " values, its output tensor holds " +
                     std::to_string(tensor_size(m, out_t)));
  }
  if (values.size() < m.subgraphs[0].tensors.size()) values.resize(m.subgraphs[0].tensors.size());
  values[static_cast<std::size_t>(out_t)] = std::move(y);
}

Values run(const Model& m, const std::vector<float>& input) {
  check_supported(m);
  const int32_t in = input_tensor(m);
  if (input.size() != tensor_size(m, in)) {
    throw InputError(m.path + ": input has " + std::to_string(input.size()) + " values, the model's input tensor " +
                     std::to_string(tensor_size(m, in)));
  }
  Values v(m.subgraphs[0].tensors.size());
  v[static_cast<std::size_t>(in)] = input;
  for (std::size_t i = 0; i < m.subgraphs[0].operators.size(); ++i) run_op(m, i, v);
  return v;
}

std::size_t argmax(const std::vector<float>& v) {
  return static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

}  // namespace cosim::tflite_float
