// Operator -> LayerWorkload: constant tensors and TFLite quantization
// parameters, checked against what the int8 reference kernels accept.
#include "tflite/layers.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "common/text.hpp"

namespace cosim::tflite {

namespace {

struct Ctx {
  const Model& model;
  const SubGraph& sg;
  std::string where;  // "file: operator N (CONV_2D)"
  [[noreturn]] void fail(const std::string& what) const { throw InputError(where + ": " + what); }

  const TensorInfo& tensor(const Operator& op, std::size_t i, const char* role) const {
    if (i >= op.inputs.size() || op.inputs[i] < 0)
      fail(std::string("missing ") + role + " (input " + std::to_string(i) + ")");
    return sg.tensors[static_cast<std::size_t>(op.inputs[i])];
  }

  // Per-tensor int8 activation quantization.
  void per_tensor(const TensorInfo& t, const char* role, float& scale, int32_t& zp) const {
    const std::string r = std::string(role) + " " + quoted(t.name);
    if (t.type != static_cast<int8_t>(TensorType::kInt8))
      fail(r + " is " + tensor_type_name(t.type) + ", only INT8 activations are supported");
    if (t.quant.scale.size() != 1)
      fail(r + " needs one quantization scale, has " + std::to_string(t.quant.scale.size()));
    scale = t.quant.scale[0];
    if (!(scale > 0.0f)) fail(r + " has a non-positive scale " + std::to_string(scale));
    const int64_t z = t.quant.zero_point.empty() ? 0 : t.quant.zero_point[0];
    if (z < -128 || z > 127) fail(r + " zero point " + std::to_string(z) + " outside int8");
    zp = static_cast<int32_t>(z);
  }

  // Per-channel (or per-tensor) symmetric int8 filter scales along `dim`.
  std::vector<float> filter_scales(const TensorInfo& f, int dim) const {
    const std::string r = "filter " + quoted(f.name);
    if (f.type != static_cast<int8_t>(TensorType::kInt8))
      fail(r + " is " + tensor_type_name(f.type) + ", expected INT8");
    if (f.shape.size() != 4) fail(r + " must have rank 4");
    const std::vector<float>& s = f.quant.scale;
    if (s.size() != 1 && !(s.size() == static_cast<std::size_t>(f.shape[static_cast<std::size_t>(dim)]) &&
                           f.quant.quantized_dimension == dim))
      fail(r + " has " + std::to_string(s.size()) + " scales on dimension " +
           std::to_string(f.quant.quantized_dimension) + ", expected 1 or " +
           std::to_string(f.shape[static_cast<std::size_t>(dim)]) + " on dimension " + std::to_string(dim));
    for (int64_t z : f.quant.zero_point)
      if (z != 0) fail(r + " has a non-zero zero point " + std::to_string(z));
    for (float v : s)
      if (!(v > 0.0f)) fail(r + " has a non-positive scale " + std::to_string(v));
    return s;
  }

  quant::Activation activation(FusedActivation a) const {
    switch (a) {
      case FusedActivation::kNone:
        return quant::Activation::kNone;
      case FusedActivation::kRelu:
        return quant::Activation::kRelu;
      case FusedActivation::kRelu6:
        return quant::Activation::kRelu6;
      default:
        fail("fused activation " + std::to_string(static_cast<int>(a)) + " is not supported (NONE, RELU, RELU6)");
    }
  }

  ops::Padding padding(PaddingType p) const {
    return p == PaddingType::kSame ? ops::Padding::kSame : ops::Padding::kValid;
  }

  Tensor bias(const Operator& op, std::size_t sg_index, int64_t channels) const {
    if (op.inputs.size() < 3 || op.inputs[2] < 0) return Tensor();
    const TensorInfo& b = sg.tensors[static_cast<std::size_t>(op.inputs[2])];
    if (b.type != static_cast<int8_t>(TensorType::kInt32))
      fail("bias " + quoted(b.name) + " is " + tensor_type_name(b.type) + ", expected INT32");
    Tensor t = constant_tensor(model, sg_index, op.inputs[2]);
    if (t.rank() != 1 || t.dim(0) != channels)
      fail("bias " + quoted(b.name) + " has shape " + shape_str(t.shape()) + ", expected [" + std::to_string(channels) +
           "]");
    return t;
  }
};

}  // namespace

const std::vector<std::string>& supported_op_names() {
  static const std::vector<std::string> names{"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD"};
  return names;
}

bool is_supported_op(int32_t code) {
  return code == kConv2d || code == kDepthwiseConv2d || code == kFullyConnected || code == kAdd;
}

OpFilter parse_op_filter(const std::vector<std::string>& names, const std::string& context) {
  OpFilter f;
  for (const std::string& n : names) {
    if (n == "CONV_2D")
      f.insert(kConv2d);
    else if (n == "DEPTHWISE_CONV_2D")
      f.insert(kDepthwiseConv2d);
    else if (n == "FULLY_CONNECTED")
      f.insert(kFullyConnected);
    else if (n == "ADD")
      f.insert(kAdd);
    else
      throw InputError(context + ": unknown op " + quoted(n) +
                       " in ops: list, expected CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED or ADD");
  }
  return f;
}

Tensor LayerWorkload::run(const std::vector<Tensor>& in) const {
  const std::size_t need = code == kAdd ? 2 : 1;
  if (in.size() != need)
    throw InputError(op + " " + quoted(name) + ": needs " + std::to_string(need) + " input tensors, got " +
                     std::to_string(in.size()));
  if (code == kConv2d) return ops::conv2d(in[0], filter, bias, conv);
  if (code == kDepthwiseConv2d) return ops::depthwise_conv2d(in[0], filter, bias, conv);
  if (code == kFullyConnected) {
    const Tensor y = ops::fully_connected(in[0], filter, bias, fc);
    // [rows, units] in the output tensor's declared shape (keep_num_dims);
    // as computed when the counts differ, for the caller to report.
    int64_t n = 1;  // the declared count, without allocating a corrupt shape
    for (int64_t d : output_shape) {
      if (d <= 0 || n > y.numel() / d) return y;
      n *= d;
    }
    if (n != y.numel()) return y;
    Tensor shaped(DType::kInt8, output_shape);
    std::copy(y.bytes().begin(), y.bytes().end(), shaped.bytes().begin());
    return shaped;
  }
  return ops::add(in[0], in[1], add);
}

namespace {
Ctx op_context(const Model& model, std::size_t o) {
  if (model.subgraphs.empty()) throw InputError(model.path + ": model has no subgraphs");
  const SubGraph& sg = model.subgraphs[0];
  return Ctx{model, sg, model.path + ": operator " + std::to_string(o) + " (" + op_name(sg.operators.at(o).code) + ")"};
}

const TensorInfo& output_of(const Ctx& c, const Operator& op) {
  if (op.outputs.size() != 1 || op.outputs[0] < 0) c.fail("expected 1 output, has " + std::to_string(op.outputs.size()));
  return c.sg.tensors[static_cast<std::size_t>(op.outputs[0])];
}

template <class Options>
const Options& options_of(const Ctx& c, const Operator& op, const char* name) {
  const auto* o = std::get_if<Options>(&op.options);
  if (o == nullptr)
    c.fail(std::string("builtin_options are not ") + name + " (union tag " + std::to_string(op.options_type) + ")");
  return *o;
}

// Per-tensor int8 quantization of the operator's first input and its output.
struct InOut {
  float s_in = 0, s_out = 0;
  int32_t zp_in = 0, zp_out = 0;
};
InOut in_out_quant(const Ctx& c, const Operator& op) {
  InOut q;
  c.per_tensor(c.tensor(op, 0, "input"), "input", q.s_in, q.zp_in);
  c.per_tensor(output_of(c, op), "output", q.s_out, q.zp_out);
  return q;
}
}  // namespace

Tensor run_average_pool2d(const Model& model, std::size_t o, const Tensor& in) {
  const Ctx c = op_context(model, o);
  const Operator& op = c.sg.operators[o];
  const auto& opt = options_of<Pool2DOptions>(c, op, "Pool2DOptions");
  const InOut q = in_out_quant(c, op);
  const float s_in = q.s_in, s_out = q.s_out;
  const int32_t zp_in = q.zp_in, zp_out = q.zp_out;
  // The int8 kernel averages the stored values: it needs the output in the
  // input's quantization, as TFLite's converter emits it.
  if (s_in != s_out || zp_in != zp_out) c.fail("input and output quantization differ");
  ops::PoolParams p;
  p.padding = c.padding(opt.padding);
  p.stride_h = opt.stride_h;
  p.stride_w = opt.stride_w;
  p.filter_h = opt.filter_height;
  p.filter_w = opt.filter_width;
  p.act = quant::activation_range(c.activation(opt.activation), s_out, zp_out);
  try {
    return ops::average_pool2d(in, p);
  } catch (const InputError& e) {
    c.fail(e.what());
  }
}

Tensor run_softmax(const Model& model, std::size_t o, const Tensor& in) {
  const Ctx c = op_context(model, o);
  const Operator& op = c.sg.operators[o];
  const auto& opt = options_of<SoftmaxOptions>(c, op, "SoftmaxOptions");
  const InOut q = in_out_quant(c, op);
  // TFLite's int8 kernel writes probabilities at 1/256 from -128.
  if (q.zp_out != -128 || std::fabs(q.s_out - 1.0f / 256) > 0.001f / 256)
    c.fail("output must be at scale 1/256, zero point -128 (has " + std::to_string(q.s_out) + ", " +
           std::to_string(q.zp_out) + ")");
  try {
    return ops::softmax(in, ops::make_softmax_params(opt.beta, q.s_in));
  } catch (const InputError& e) {
    c.fail(e.what());
  }
}

namespace {
// A FULLY_CONNECTED's constants and parameters, checked as the int8 kernel
// needs them (DEFAULT weights, symmetric per-tensor or per-unit int8 filter).
struct FullyConnectedParts {
  Tensor filter;  // [units, depth]
  Tensor bias;
  ops::FullyConnectedParams params;
};
FullyConnectedParts fully_connected_parts(const Ctx& c, const Operator& op, quant::Rounding rounding) {
  const auto& opt = options_of<FullyConnectedOptions>(c, op, "FullyConnectedOptions");
  if (opt.weights_format != 0) c.fail("only the DEFAULT weights format is supported");
  const InOut q = in_out_quant(c, op);
  const TensorInfo& ft = c.tensor(op, 1, "filter");
  if (ft.type != static_cast<int8_t>(TensorType::kInt8) || ft.shape.size() != 2)
    c.fail("filter " + quoted(ft.name) + " must be INT8 [units, depth]");
  const std::vector<float>& fs = ft.quant.scale;
  if (fs.size() != 1 && !(fs.size() == static_cast<std::size_t>(ft.shape[0]) && ft.quant.quantized_dimension == 0))
    c.fail("filter " + quoted(ft.name) + " has " + std::to_string(fs.size()) + " scales, expected 1 or " +
           std::to_string(ft.shape[0]) + " on dimension 0");
  for (int64_t z : ft.quant.zero_point)
    if (z != 0) c.fail("filter " + quoted(ft.name) + " has a non-zero zero point " + std::to_string(z));
  for (float v : fs)
    if (!(v > 0.0f)) c.fail("filter " + quoted(ft.name) + " has a non-positive scale " + std::to_string(v));
  FullyConnectedParts parts;
  parts.filter = constant_tensor(c.model, 0, op.inputs[1]);
  parts.bias = c.bias(op, 0, ft.shape[0]);
  parts.params =
      ops::make_fully_connected_params(q.s_in, q.zp_in, fs, q.s_out, q.zp_out, c.activation(opt.activation), rounding);
  return parts;
}
// The window options CONV_2D and DEPTHWISE_CONV_2D share, into w.conv.
template <class Options>
void set_window(const Ctx& c, const Options& o, const InOut& q, const std::vector<float>& fs,
                quant::Rounding rounding, LayerWorkload& w) {
  w.conv = ops::make_conv_params(q.s_in, q.zp_in, fs, q.s_out, q.zp_out, c.activation(o.activation), rounding);
  w.conv.padding = c.padding(o.padding);
  w.conv.stride_w = o.stride_w;
  w.conv.stride_h = o.stride_h;
  w.conv.dilation_w = o.dilation_w;
  w.conv.dilation_h = o.dilation_h;
}

// DEPTHWISE_CONV_2D: its options, and the channel multiplier. The kernels
// derive the multiplier from the shapes (newer converters may write 0); the
// stored value must agree when it is set.
void set_depthwise(const Ctx& c, const Operator& op, const TensorInfo& it, int64_t channels, const InOut& q,
                   const std::vector<float>& fs, quant::Rounding rounding, LayerWorkload& w) {
  const auto* o2 = std::get_if<DepthwiseConv2DOptions>(&op.options);
  if (o2 == nullptr)
    c.fail("builtin_options are not DepthwiseConv2DOptions (union tag " + std::to_string(op.options_type) + ")");
  set_window(c, *o2, q, fs, rounding, w);
  const int64_t ic = it.shape.size() == 4 ? it.shape[3] : 0;
  if (ic <= 0 || channels % ic != 0)
    c.fail("filter channels " + std::to_string(channels) + " are not a multiple of input channels " +
           std::to_string(ic));
  if (o2->depth_multiplier != 0 && o2->depth_multiplier != channels / ic)
    c.fail("depth_multiplier " + std::to_string(o2->depth_multiplier) + " does not match filter " +
           std::to_string(channels) + " / input " + std::to_string(ic) + " channels");
  w.conv.depth_multiplier = static_cast<int>(channels / ic);
}

// CONV_2D and DEPTHWISE_CONV_2D: input, filter, bias and the window.
void set_conv(const Ctx& c, const Operator& op, float s_out, int32_t zp_out, quant::Rounding rounding,
              LayerWorkload& w) {
  const bool dw = op.code == kDepthwiseConv2d;
  const TensorInfo& it = c.tensor(op, 0, "input");
  const TensorInfo& ft = c.tensor(op, 1, "filter");
  InOut q;
  q.s_out = s_out;
  q.zp_out = zp_out;
  c.per_tensor(it, "input", q.s_in, q.zp_in);
  const std::vector<float> fs = c.filter_scales(ft, dw ? 3 : 0);
  w.input_tensors = {op.inputs[0]};
  w.filter = constant_tensor(c.model, 0, op.inputs[1]);
  const int64_t channels = dw ? w.filter.dim(3) : w.filter.dim(0);
  w.bias = c.bias(op, 0, channels);
  if (dw) {
    set_depthwise(c, op, it, channels, q, fs, rounding, w);
  } else {
    const auto* o2 = std::get_if<Conv2DOptions>(&op.options);
    if (o2 == nullptr)
      c.fail("builtin_options are not Conv2DOptions (union tag " + std::to_string(op.options_type) + ")");
    set_window(c, *o2, q, fs, rounding, w);
  }
  if (w.conv.stride_w < 1 || w.conv.stride_h < 1 || w.conv.dilation_w < 1 || w.conv.dilation_h < 1)
    c.fail("strides and dilations must be >= 1");
}

void set_add(const Ctx& c, const Operator& op, float s_out, int32_t zp_out, quant::Rounding rounding,
             LayerWorkload& w) {
  const TensorInfo& a = c.tensor(op, 0, "input 1");
  const TensorInfo& b = c.tensor(op, 1, "input 2");
  float s1 = 0, s2 = 0;
  int32_t z1 = 0, z2 = 0;
  c.per_tensor(a, "input 1", s1, z1);
  c.per_tensor(b, "input 2", s2, z2);
  const auto* o2 = std::get_if<AddOptions>(&op.options);
  const FusedActivation act = o2 ? o2->activation : FusedActivation::kNone;
  if (o2 == nullptr && op.options_type != 0)
    c.fail("builtin_options are not AddOptions (union tag " + std::to_string(op.options_type) + ")");
  w.input_tensors = {op.inputs[0], op.inputs[1]};
  w.add = ops::make_add_params(s1, z1, s2, z2, s_out, zp_out, c.activation(act), rounding);
}

// The layer's inputs and expected output from a reference run, when it has
// all of them (has_data).
void attach_golden(const TensorMap& golden, LayerWorkload& w) {
  bool all = true;
  for (int32_t t : w.input_tensors) {
    auto it = golden.find(t);
    if (it == golden.end()) {
      all = false;
      break;
    }
    w.inputs.push_back(it->second);
  }
  auto e = golden.find(w.output_tensor);
  if (all && e != golden.end()) {
    w.expected = e->second;
    w.has_data = true;
  } else {
    w.inputs.clear();
  }
}

}  // namespace

std::vector<LayerWorkload> extract_layers(const Model& model, const OpFilter& filter, quant::Rounding rounding,
                                          const TensorMap* golden) {
  std::vector<LayerWorkload> out;
  if (model.subgraphs.empty()) throw InputError(model.path + ": model has no subgraphs");
  const SubGraph& sg = model.subgraphs[0];
  for (std::size_t o = 0; o < sg.operators.size(); ++o) {
    const Operator& op = sg.operators[o];
    if (!is_supported_op(op.code) || (!filter.empty() && filter.count(op.code) == 0)) continue;
    Ctx c{model, sg, model.path + ": operator " + std::to_string(o) + " (" + op_name(op.code) + ")"};
    if (op.outputs.size() != 1) c.fail("expected 1 output, has " + std::to_string(op.outputs.size()));
    LayerWorkload w;
    w.op_index = o;
    w.code = op.code;
    w.op = op_name(op.code);
    w.output_tensor = op.outputs[0];
    const TensorInfo& ot = sg.tensors[static_cast<std::size_t>(w.output_tensor)];
    w.name = ot.name;
    w.output_shape.assign(ot.shape.begin(), ot.shape.end());
    float s_out = 0;
    int32_t zp_out = 0;
    c.per_tensor(ot, "output", s_out, zp_out);

    if (op.code == kConv2d || op.code == kDepthwiseConv2d) {
      set_conv(c, op, s_out, zp_out, rounding, w);
    } else if (op.code == kFullyConnected) {
      FullyConnectedParts parts = fully_connected_parts(c, op, rounding);
      w.input_tensors = {op.inputs[0]};
      w.filter = std::move(parts.filter);
      w.bias = std::move(parts.bias);
      w.fc = parts.params;
    } else {  // ADD
      set_add(c, op, s_out, zp_out, rounding, w);
    }
    if (golden != nullptr) attach_golden(*golden, w);
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace cosim::tflite
