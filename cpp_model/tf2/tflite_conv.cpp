#include "tf2/tflite_conv.hpp"

#include <algorithm>
#include <cstring>

#include "common/error.hpp"

namespace cosim::tf2 {

namespace {

// TFLite padding for one spatial dimension: (before, after).
std::pair<int, int> same_padding(int in, int out, int k, int stride) {
  const int total = std::max((out - 1) * stride + k - in, 0);
  return {total / 2, total - total / 2};
}

// Operator `op_index` of subgraph 0, which must be a `code`, and its options.
template <class Options>
std::pair<const tflite::Operator&, const Options&> operator_at(const tflite::Model& m, std::size_t op_index,
                                                               int32_t code, const std::string& where) {
  if (m.subgraphs.empty() || op_index >= m.subgraphs[0].operators.size()) {
    throw InputError(where + ": no such operator in subgraph 0");
  }
  const tflite::Operator& op = m.subgraphs[0].operators[op_index];
  if (op.code != code) throw InputError(where + " is " + tflite::op_name(op.code) + ", expected " + tflite::op_name(code));
  const auto* opt = std::get_if<Options>(&op.options);
  if (opt == nullptr) throw InputError(where + ": " + tflite::op_name(code) + " without its options");
  return {op, *opt};
}

// A weight tensor's values in file order as float: float32 as stored, or the
// int8 weights of a dynamic-range model times their scale (zero point 0; one
// scale per tensor or per slice of dimension 0, the output channel): the
// float weights they stand for, which the Transform Kit then compresses.
std::vector<float> float_weights(const tflite::Model& m, int32_t index, const std::string& where) {
  const tflite::TensorInfo& t = m.subgraphs[0].tensors[static_cast<std::size_t>(index)];
  const Tensor w = tflite::constant_tensor(m, 0, index);
  if (w.dtype() == DType::kFp32) return std::vector<float>(w.data<float>(), w.data<float>() + w.numel());
  if (w.dtype() != DType::kInt8 || t.shape.empty()) throw InputError(where + ": weights are neither float32 nor int8");
  const std::size_t outer = static_cast<std::size_t>(t.shape[0]), n = static_cast<std::size_t>(w.numel());
  const std::vector<float>& scale = t.quant.scale;
  if (scale.size() != 1 && scale.size() != outer) {
    throw InputError(where + ": int8 weights with " + std::to_string(scale.size()) + " scales, expected 1 or " +
                     std::to_string(outer));
  }
  for (int64_t z : t.quant.zero_point) {
    if (z != 0) throw InputError(where + ": int8 weights with a zero point, expected symmetric (dynamic-range) weights");
  }
  std::vector<float> out(n);
  const int8_t* q = w.data<int8_t>();
  for (std::size_t i = 0; i < n; ++i) out[i] = scale[scale.size() == 1 ? 0 : i / (n / outer)] * static_cast<float>(q[i]);
  return out;
}

std::vector<float> float_bias(const tflite::Model& m, int32_t index, int c_out, const std::string& where) {
  const Tensor b = tflite::constant_tensor(m, 0, index);
  if (b.dtype() != DType::kFp32 || b.numel() != c_out) throw InputError(where + ": bias is not float32 [c_out]");
  return std::vector<float>(b.data<float>(), b.data<float>() + c_out);
}

bool float_or_weights(const tflite::TensorInfo& t, bool weights) {
  return t.type == static_cast<int8_t>(tflite::TensorType::kFloat32) ||
         (weights && t.type == static_cast<int8_t>(tflite::TensorType::kInt8));
}

}  // namespace

std::vector<std::size_t> conv2d_ops(const tflite::Model& m) {
  std::vector<std::size_t> out;
  if (m.subgraphs.empty()) return out;
  const auto& ops = m.subgraphs[0].operators;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].code == tflite::kConv2d) out.push_back(i);
  }
  return out;
}

std::vector<float> extend_chw(const std::vector<float>& chw, int c, int h, int w, int extra_h, int extra_w) {
  const int h2 = h + extra_h, w2 = w + extra_w;
  std::vector<float> out(static_cast<std::size_t>(c) * h2 * w2, 0.0f);
  for (int ch = 0; ch < c; ++ch)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        out[(static_cast<std::size_t>(ch) * h2 + y) * w2 + x] = chw[(static_cast<std::size_t>(ch) * h + y) * w + x];
  return out;
}

FloatConv fold_trailing_padding(const TfliteConv& c) {
  FloatConv f = c.conv;
  f.h_in = c.h_in;
  f.w_in = c.w_in;
  if (c.extra_h == 0 && c.extra_w == 0) return f;
  if (c.extra_h != 1 || c.extra_w != 1) {
    throw InputError("operator " + std::to_string(c.op_index) + ": SAME padding with an extra pixel on one axis only");
  }
  const int k = c.conv.k, k2 = k + 1;
  f.k = k2;
  f.pad = c.conv.pad + 1;
  f.weights.assign(static_cast<std::size_t>(f.c_out) * f.c_in * k2 * k2, 0.0f);
  for (std::size_t oc = 0; oc < static_cast<std::size_t>(f.c_out) * f.c_in; ++oc)
    for (int y = 0; y < k; ++y)
      for (int x = 0; x < k; ++x)
        f.weights[(oc * k2 + y + 1) * k2 + x + 1] = c.conv.weights[(oc * k + y) * k + x];
  return f;
}

TfliteConv read_float_conv(const tflite::Model& m, std::size_t op_index) {
  const std::string where = m.path + ": operator " + std::to_string(op_index);
  const auto [op, opt] = operator_at<tflite::Conv2DOptions>(m, op_index, tflite::kConv2d, where);
  const tflite::SubGraph& sg = m.subgraphs[0];
  if (op.inputs.size() < 2 || op.outputs.empty()) throw InputError(where + ": expected input, filter and output tensors");
  auto tensor = [&](int32_t idx, const char* role) -> const tflite::TensorInfo& {
    if (idx < 0 || static_cast<std::size_t>(idx) >= sg.tensors.size()) {
      throw InputError(where + ": " + role + " tensor index " + std::to_string(idx) + " out of range");
    }
    const tflite::TensorInfo& t = sg.tensors[static_cast<std::size_t>(idx)];
    if (!float_or_weights(t, std::string(role) == "filter")) {
      throw InputError(where + ": " + role + " tensor " + tflite::quoted(t.name) + " is " +
                       tflite::tensor_type_name(t.type) + ", expected FLOAT32 (a float model)");
    }
    if (t.shape.size() != 4 && std::string(role) != "bias") {
      throw InputError(where + ": " + role + " tensor " + tflite::quoted(t.name) + " is not 4-D");
    }
    return t;
  };
  const tflite::TensorInfo& in = tensor(op.inputs[0], "input");
  const tflite::TensorInfo& filt = tensor(op.inputs[1], "filter");
  const tflite::TensorInfo& out = tensor(op.outputs[0], "output");
  if (in.shape[0] != 1) throw InputError(where + ": expected batch 1");
  const int o = filt.shape[0], kh = filt.shape[1], kw = filt.shape[2], ci = filt.shape[3];
  if (kh != kw) throw InputError(where + ": " + std::to_string(kh) + "x" + std::to_string(kw) + " kernel, TF2 layers are square");
  if (opt.stride_h != opt.stride_w) throw InputError(where + ": unequal strides");
  if (opt.dilation_h != 1 || opt.dilation_w != 1) throw InputError(where + ": dilation, TF2 layers have none");
  if (opt.activation != tflite::FusedActivation::kNone && opt.activation != tflite::FusedActivation::kRelu) {
    throw InputError(where + ": fused activation other than none / ReLU");
  }
  if (ci != in.shape[3] || o != out.shape[3]) throw InputError(where + ": filter channels do not match input / output");

  TfliteConv r;
  r.op_index = op_index;
  r.h_in = in.shape[1];
  r.w_in = in.shape[2];
  r.h_out = out.shape[1];
  r.w_out = out.shape[2];
  const int s = opt.stride_h;
  int pad = 0;
  if (opt.padding == tflite::PaddingType::kSame) {
    const auto ph = same_padding(r.h_in, r.h_out, kh, s), pw = same_padding(r.w_in, r.w_out, kw, s);
    if (ph.first != pw.first) throw InputError(where + ": different padding before rows and columns");
    pad = ph.first;
    r.extra_h = ph.second - ph.first;
    r.extra_w = pw.second - pw.first;
  }
  FloatConv& f = r.conv;
  f.c_in = ci;
  f.c_out = o;
  f.h_in = r.h_in + r.extra_h;
  f.w_in = r.w_in + r.extra_w;
  f.k = kh;
  f.stride = s;
  f.pad = pad;
  f.relu = opt.activation == tflite::FusedActivation::kRelu;
  if ((f.h_in + 2 * pad - kh) / s + 1 != r.h_out || (f.w_in + 2 * pad - kw) / s + 1 != r.w_out) {
    throw InputError(where + ": output shape does not follow from input, kernel, stride and padding");
  }

  // OHWI -> OIHW.
  const std::vector<float> wv = float_weights(m, op.inputs[1], where);
  const float* wp = wv.data();
  f.weights.resize(static_cast<std::size_t>(o) * ci * kh * kw);
  for (int oc = 0; oc < o; ++oc)
    for (int y = 0; y < kh; ++y)
      for (int x = 0; x < kw; ++x)
        for (int ic = 0; ic < ci; ++ic)
          f.weights[((static_cast<std::size_t>(oc) * ci + ic) * kh + y) * kw + x] =
              wp[((static_cast<std::size_t>(oc) * kh + y) * kw + x) * ci + ic];
  if (op.inputs.size() > 2 && op.inputs[2] >= 0) {
    tensor(op.inputs[2], "bias");
    f.bias = float_bias(m, op.inputs[2], o, where);
  }
  return r;
}

TfliteConv read_float_fully_connected(const tflite::Model& m, std::size_t op_index) {
  const std::string where = m.path + ": operator " + std::to_string(op_index);
  const auto [op, opt] = operator_at<tflite::FullyConnectedOptions>(m, op_index, tflite::kFullyConnected, where);
  const tflite::SubGraph& sg = m.subgraphs[0];
  if (opt.weights_format != 0) throw InputError(where + ": shuffled weights");
  if (opt.activation != tflite::FusedActivation::kNone && opt.activation != tflite::FusedActivation::kRelu) {
    throw InputError(where + ": fused activation other than none / ReLU");
  }
  if (op.inputs.size() < 2 || op.outputs.empty()) throw InputError(where + ": expected input, weights and output tensors");
  for (int32_t t : {op.inputs[0], op.inputs[1], op.outputs[0]}) {
    if (t < 0 || static_cast<std::size_t>(t) >= sg.tensors.size()) throw InputError(where + ": tensor index out of range");
  }
  const tflite::TensorInfo& in = sg.tensors[static_cast<std::size_t>(op.inputs[0])];
  const tflite::TensorInfo& wt = sg.tensors[static_cast<std::size_t>(op.inputs[1])];
  const tflite::TensorInfo& out = sg.tensors[static_cast<std::size_t>(op.outputs[0])];
  if (!float_or_weights(in, false) || !float_or_weights(out, false) || !float_or_weights(wt, true)) {
    throw InputError(where + ": expected a float32 input and output and float32 or int8 weights (a float model)");
  }
  if (wt.shape.size() != 2) throw InputError(where + ": weights are not 2-D [units, depth]");
  const int units = wt.shape[0], depth = wt.shape[1];
  int64_t in_n = 1, out_n = 1;
  for (int32_t d : in.shape) in_n *= d;
  for (int32_t d : out.shape) out_n *= d;
  if (in_n != depth || out_n != units) {
    throw InputError(where + ": expected one input row of " + std::to_string(depth) + " values and " +
                     std::to_string(units) + " outputs (batch 1)");
  }
  // A dense layer is a 1x1 convolution over a 1x1 map with `depth` input
  // channels: [units, depth] is already OIHW with H = W = 1.
  TfliteConv r;
  r.op_index = op_index;
  r.h_in = r.w_in = r.h_out = r.w_out = 1;
  FloatConv& f = r.conv;
  f.c_in = depth;
  f.c_out = units;
  f.h_in = f.w_in = 1;
  f.relu = opt.activation == tflite::FusedActivation::kRelu;
  f.weights = float_weights(m, op.inputs[1], where);
  if (op.inputs.size() > 2 && op.inputs[2] >= 0) f.bias = float_bias(m, op.inputs[2], units, where);
  return r;
}

}  // namespace cosim::tf2
