// The golden chain: each supported operator consumes the tensors the chain
// itself produced, so every output compared downstream has its real input.
#include "tflite/reference.hpp"

#include <algorithm>
#include <cstring>
#include <random>

#include "common/error.hpp"
#include "common/text.hpp"

namespace cosim::tflite {

namespace {
const TensorInfo& first_input(const Model& model) {
  if (model.subgraphs.empty() || model.subgraphs[0].inputs.empty())
    throw InputError(model.path + ": subgraph 0 has no inputs");
  const SubGraph& sg = model.subgraphs[0];
  return sg.tensors[static_cast<std::size_t>(sg.inputs[0])];
}
// A corrupt shape must not turn into a multi-gigabyte allocation.
void check_input_size(const Model& model, const TensorInfo& ti) {
  constexpr int64_t kMaxElements = int64_t{1} << 26;
  int64_t n = 1;
  for (int32_t d : ti.shape) {
    n *= d;
    if (n > kMaxElements) throw InputError(model.path + ": input " + quoted(ti.name) + " has more than 2^26 elements");
  }
}
}  // namespace

Tensor random_input(const Model& model, uint32_t seed) {
  const TensorInfo& ti = first_input(model);
  if (ti.type != static_cast<int8_t>(TensorType::kInt8))
    throw InputError(model.path + ": input " + quoted(ti.name) + " is " + tensor_type_name(ti.type) +
                     ", expected INT8");
  check_input_size(model, ti);
  Tensor t(DType::kInt8, std::vector<int64_t>(ti.shape.begin(), ti.shape.end()), Layout::kNHWC);
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(-128, 127);
  int8_t* p = t.data<int8_t>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<int8_t>(dist(gen));
  return t;
}

namespace {

// The value of tensor `idx`: produced by the chain, or constant data (cached
// in `values`); null when neither.
const Tensor* fetch(const Model& model, TensorMap& values, int32_t idx) {
  auto it = values.find(idx);
  if (it != values.end()) return &it->second;
  const SubGraph& sg = model.subgraphs[0];
  const TensorInfo& ti = sg.tensors[static_cast<std::size_t>(idx)];
  if (ti.buffer == 0 || model.buffers[ti.buffer].empty()) return nullptr;
  return &(values[idx] = constant_tensor(model, 0, idx));
}

Tensor reshape(const Model& model, std::size_t o, const Operator& op, const Tensor& v) {
  const TensorInfo& ot = model.subgraphs[0].tensors[static_cast<std::size_t>(op.outputs[0])];
  const std::vector<int64_t> to(ot.shape.begin(), ot.shape.end());
  // The element count first: the declared shape is allocated only when it
  // holds exactly the input's elements.
  int64_t n = 1;
  bool too_many = false;
  for (int64_t d : to) {
    if (d == 0) {
      n = 0;
      break;
    }
    if (n > v.numel() / d) {
      too_many = true;
      break;
    }
    n *= d;
  }
  if (too_many || n != v.numel())
    throw InputError(model.path + ": operator " + std::to_string(o) + " (RESHAPE) from " + shape_str(v.shape()) +
                     " to " + shape_str(to) + " changes the element count");
  Tensor y(v.dtype(), to);
  std::memcpy(y.bytes().data(), v.bytes().data(), v.nbytes());
  return y;
}

}  // namespace

bool run_operator(const Model& model, std::size_t o, const std::vector<LayerWorkload>& params, TensorMap& values,
                  quant::Rounding /*rounding: already in params*/) {
  const SubGraph& sg = model.subgraphs[0];
  const Operator& op = sg.operators.at(o);
  const auto wl = std::find_if(params.begin(), params.end(), [&](const LayerWorkload& w) { return w.op_index == o; });
  if (wl != params.end()) {
    const LayerWorkload& w = *wl;
    std::vector<Tensor> ins;
    for (int32_t t : w.input_tensors) {
      const Tensor* v = fetch(model, values, t);
      if (v == nullptr) return false;  // chain broken upstream
      ins.push_back(*v);
    }
    // Check ADD's broadcast result before computing it: a corrupt shape
    // could otherwise ask for a huge tensor.
    if (w.code == kAdd && ops::broadcast_shape(ins[0].shape(), ins[1].shape()) != w.output_shape)
      throw InputError(model.path + ": operator " + std::to_string(o) + " (ADD) inputs " + shape_str(ins[0].shape()) +
                       " and " + shape_str(ins[1].shape()) + " do not give its output " + shape_str(w.output_shape));
    Tensor y;
    try {
      y = w.run(ins);
    } catch (const InputError& e) {  // the kernels' checks, placed in the model
      throw InputError(model.path + ": operator " + std::to_string(o) + " (" + w.op + "): " + e.what());
    }
    if (y.shape() != w.output_shape)
      throw InputError(model.path + ": operator " + std::to_string(o) + " (" + w.op + ") computes " +
                       shape_str(y.shape()) + " but its output tensor " + quoted(w.name) + " is " +
                       shape_str(w.output_shape));
    values[w.output_tensor] = std::move(y);
    return true;
  }
  const bool host_op = op.code == kAveragePool2d || op.code == kSoftmax || op.code == kReshape;
  if (!host_op || op.inputs.empty() || op.inputs[0] < 0 || op.outputs.size() != 1) return false;
  const Tensor* v = fetch(model, values, op.inputs[0]);
  if (v == nullptr) return false;
  values[op.outputs[0]] = op.code == kAveragePool2d    ? run_average_pool2d(model, o, *v)
                          : op.code == kSoftmax        ? run_softmax(model, o, *v)
                                                       : reshape(model, o, op, *v);
  return true;
}

TensorMap run_reference(const Model& model, const Tensor& input, quant::Rounding rounding) {
  const TensorInfo& in_info = first_input(model);
  const SubGraph& sg = model.subgraphs[0];
  const std::vector<int64_t> in_shape(in_info.shape.begin(), in_info.shape.end());
  check_input_size(model, in_info);
  if (input.dtype() != DType::kInt8 || input.shape() != in_shape)
    throw InputError(model.path + ": input must be int8 " + shape_str(in_shape) + ", got " + dtype_name(input.dtype()) +
                     " " + shape_str(input.shape()));
  TensorMap values;
  values[sg.inputs[0]] = input;
  const std::vector<LayerWorkload> params = extract_layers(model, {}, rounding);
  for (std::size_t o = 0; o < sg.operators.size(); ++o) run_operator(model, o, params, values, rounding);
  return values;
}

}  // namespace cosim::tflite
