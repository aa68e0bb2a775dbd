#include "model_replay/delegate_inputs.hpp"

#include <algorithm>
#include <stdexcept>

#include "model_replay/anomaly_score.hpp"
#include "model_replay/model_replay.hpp"
#include "tflite/reference.hpp"

namespace cosim::tb::model_replay {

using scenario::Value;

namespace {

// `t`'s bytes under `shape` when it has as many elements (else `t`, for the
// shape checks downstream to report).
Tensor in_shape(const Tensor& t, const std::vector<int64_t>& shape) {
  if (t.shape() == shape) return t;
  Tensor r(t.dtype(), shape);
  if (r.numel() != t.numel()) return t;
  std::copy(t.bytes().begin(), t.bytes().end(), r.bytes().begin());
  return r;
}

// Operator o's workload on the delegate chain's tensors; its expected output
// stays the CPU chain's (the drift reference).
tflite::LayerWorkload on_delegate_chain(const Chain& chain, const tflite::TensorMap& chain_values,
                                        const LayerContext& ctx) {
  tflite::LayerWorkload on_chain = *chain.find(chain.dbl, ctx.op_index);
  for (std::size_t k = 0; k < on_chain.input_tensors.size(); ++k) {
    const auto it = chain_values.find(on_chain.input_tensors[k]);
    if (it == chain_values.end()) {
      ctx.sc["model"].fail("operator " + std::to_string(ctx.op_index) + " (" + ctx.type +
                           "): the delegate chain does not reach it");
    }
    on_chain.inputs[k] = it->second;
  }
  return on_chain;
}

// An int8 tensor's values: (q - zero_point) * scale, as tensor t declares them.
std::vector<float> dequantized(const tflite::Model& m, int32_t t, const Tensor& q) {
  const tflite::Quantization& qp = m.subgraphs[0].tensors.at(static_cast<std::size_t>(t)).quant;
  const float scale = qp.scale.empty() ? 1.0f : qp.scale[0];
  const int64_t zp = qp.zero_point.empty() ? 0 : qp.zero_point[0];
  std::vector<float> v(static_cast<std::size_t>(q.numel()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(q.data<int8_t>()[i] - zp) * scale;
  return v;
}

// The network output the delegate chain reached, against TFLite's on the CPU.
NetworkOutput network_output(const Value& model_key, const tflite::Model& m, const Chain& chain,
                             const tflite::TensorMap& chain_values) {
  const int32_t out = m.subgraphs[0].outputs.at(0);
  const auto reached = chain_values.find(out);
  if (reached == chain_values.end() || !chain.values_double.count(out) || !chain.values_single.count(out)) {
    model_key.fail("the network output is not reached: an operator on the way is one the golden model lacks");
  }
  NetworkOutput n{reached->second, chain.values_double.at(out), chain.values_single.at(out), std::nullopt};
  const int32_t in = m.subgraphs[0].inputs.at(0);
  if (is_autoencoder(m) && chain.values_double.count(in)) {
    const std::vector<float> x = dequantized(m, in, chain.values_double.at(in));
    n.anomaly = {reconstruction_error(x, dequantized(m, out, n.delegate)),
                 reconstruction_error(x, dequantized(m, out, n.cpu_double))};
  }
  return n;
}

// Tensors of one shape stacked along their first dimension, in order.
Tensor stack_rows(const std::vector<Tensor>& parts) {
  std::vector<int64_t> shape = parts.at(0).shape();
  shape.at(0) *= static_cast<int64_t>(parts.size());
  Tensor s(parts[0].dtype(), shape, parts[0].layout());
  auto at = s.bytes().begin();
  for (const Tensor& p : parts) {
    if (p.shape() != parts[0].shape()) throw std::logic_error("stack_rows: tensors of different shapes");
    at = std::copy(p.bytes().begin(), p.bytes().end(), at);
  }
  return s;
}

// Operator o's workload over every input at once: one chain's parameters,
// the inputs' activations and expected outputs stacked as rows.
tflite::LayerWorkload stacked_workload(const std::vector<Chain>& chains, const std::vector<tflite::LayerWorkload> Chain::*v,
                                       std::size_t o) {
  std::vector<const tflite::LayerWorkload*> per_input;
  for (const Chain& c : chains) {
    per_input.push_back(c.find(c.*v, o));
    if (per_input.back() == nullptr) throw std::logic_error("a batched operator the golden chain does not reach");
  }
  tflite::LayerWorkload s = *per_input.at(0);
  for (std::size_t i = 0; i < s.inputs.size(); ++i) {
    std::vector<Tensor> parts;
    for (const tflite::LayerWorkload* l : per_input) parts.push_back(l->inputs.at(i));
    s.inputs[i] = stack_rows(parts);
  }
  std::vector<Tensor> outs;
  for (const tflite::LayerWorkload* l : per_input) outs.push_back(l->expected);
  s.expected = stack_rows(outs);
  s.output_shape = s.expected.shape();
  return s;
}

// `ctx` lowered on the DUT, its errors naming the operator; a delegate
// layer has exactly one check (its output, which the chain reads on).
const Layer& lower_one_check(const Value& model_key, const LayerContext& ctx,
                             const std::function<const Layer&(const LayerContext&)>& lower_on_dut) {
  const Layer& layer = model_key.rethrow_here([&]() -> const Layer& { return lower_on_dut(ctx); },
                                              "operator " + std::to_string(ctx.op_index) + " (" + ctx.type + "): ");
  if (layer.checks.size() != 1) {
    throw std::logic_error("mode delegate needs one check per DUT layer, " + ctx.check + " has " +
                           std::to_string(layer.checks.size()));
  }
  return layer;
}

}  // namespace

Tensor input_rows(const Tensor& batch, std::size_t k, std::size_t n) {
  if (n == 1) return batch;
  // The rows are the first dimension of a dense layer's [rows, units]; a
  // target's view may put them elsewhere ([1, 1, rows, units]): the parts
  // are equal runs of bytes either way.
  std::vector<int64_t> shape = batch.shape();
  std::size_t axis = 0;
  while (axis + 1 < shape.size() && shape[axis] == 1) ++axis;
  shape.at(axis) /= static_cast<int64_t>(n);
  Tensor part(batch.dtype(), shape, batch.layout());
  const auto first = batch.bytes().begin() + static_cast<std::ptrdiff_t>(k * part.nbytes());
  std::copy(first, first + static_cast<std::ptrdiff_t>(part.nbytes()), part.bytes().begin());
  return part;
}

bool batches_over_inputs(const scenario::Scenario& sc) {
  if (!sc.has("batch") || sc["inputs"].as_int() < 2 || sc["batch"].as_string() != "auto") return false;
  try {
    const tflite::Model m = tflite::load_model(resolve_model(sc, sc["model"]));
    const auto& ops = m.subgraphs.at(0).operators;
    return !ops.empty() && std::all_of(ops.begin(), ops.end(),
                                       [](const tflite::Operator& o) { return o.code == tflite::kFullyConnected; });
  } catch (const std::exception&) {
    return false;
  }
}

DelegateInputs::DelegateInputs(const ModelTargetBase& target, const ModelSelection& sel, ReplayRun& run)
    : sel_(sel), run_(run) {
  run_.tflite_rounding = target.tflite_rounding(sel.sc);
  cpu_rounding_ = run_.tflite_rounding.value_or(quant::Rounding::kDouble);
  count_ = sel.inputs.size();  // `inputs:`, or the slice of them this process runs
  first_ = sel.sc.input_slice ? static_cast<std::size_t>(sel.sc.input_slice->first) : 0;
  const tflite::SubGraph& sg = sel.model.subgraphs[0];
  batched_ = count_ > 1 && sel.sc["batch"].as_string() == "auto" && sel.contexts.size() == sg.operators.size() &&
             std::all_of(sel.contexts.begin(), sel.contexts.end(),
                         [](const LayerContext& c) { return c.type == "FULLY_CONNECTED"; });
}

void DelegateInputs::lower_batched(const std::function<const Layer&(const LayerContext&)>& lower_on_dut) {
  run_.batched = true;
  const tflite::Model& m = sel_.model;
  const Value& model_key = sel_.sc["model"];
  std::vector<Chain> chains;
  for (std::size_t k = 0; k < count_; ++k) {
    progress_.update(k, count_, "");
    chains.push_back(k == 0 ? sel_.chain : golden_chain(model_key, m, sel_.inputs.at(k)));
  }
  // Every operator is on the DUT: each one's input is the batch's, or the
  // output the DUT must have written for the operator before it.
  tflite::TensorMap batch_values;
  for (const LayerContext& selected : sel_.contexts) {
    LayerContext ctx = selected;
    tflite::LayerWorkload on_chain = stacked_workload(chains, &Chain::dbl, ctx.op_index);
    for (std::size_t i = 0; i < on_chain.input_tensors.size(); ++i) {
      const auto it = batch_values.find(on_chain.input_tensors[i]);
      if (it != batch_values.end()) on_chain.inputs[i] = it->second;
    }
    const tflite::LayerWorkload single = stacked_workload(chains, &Chain::sgl_own, ctx.op_index);
    ctx.chain = &on_chain;
    ctx.chain_single = &single;
    const Layer& layer = lower_one_check(model_key, ctx, lower_on_dut);
    batch_values[on_chain.output_tensor] = in_shape(layer.checks[0].expected, on_chain.output_shape);
  }
  for (std::size_t k = 0; k < count_; ++k) {
    tflite::TensorMap values;
    for (const auto& [t, v] : batch_values) values[t] = input_rows(v, k, count_);
    run_.networks.push_back(network_output(model_key, m, chains[k], values));
  }
}

void DelegateInputs::lower(std::size_t k, const std::function<const Layer&(const LayerContext&)>& lower_on_dut) {
  if (count_ > 1) progress_.update(k, count_, "");
  const tflite::Model& m = sel_.model;
  const tflite::SubGraph& sg = m.subgraphs[0];
  const Value& model_key = sel_.sc["model"];
  const Chain chain = k == 0 ? sel_.chain : golden_chain(model_key, m, sel_.inputs.at(k));
  tflite::TensorMap chain_values;
  chain_values[sg.inputs.at(0)] = chain.values_double.at(sg.inputs.at(0));
  const std::vector<tflite::LayerWorkload> cpu_params =
      model_key.rethrow_here([&] { return tflite::extract_layers(m, {}, cpu_rounding_); });
  run_.networks.emplace_back();
  std::size_t next = 0;  // the next selected operator (contexts are in operator order)
  for (std::size_t o = 0; o < sg.operators.size(); ++o) {
    if (next == sel_.contexts.size() || sel_.contexts[next].op_index != o) {
      model_key.rethrow_here([&] { return tflite::run_operator(m, o, cpu_params, chain_values, cpu_rounding_); },
                             "operator " + std::to_string(o) + " (CPU): ");
      continue;
    }
    LayerContext ctx = sel_.contexts[next++];  // input k's layer: checks named opNN_type_inK
    if (first_ + k > 0) ctx.check += "_in" + std::to_string(first_ + k);  // K counts over all `inputs:`
    const tflite::LayerWorkload on_chain = on_delegate_chain(chain, chain_values, ctx);
    ctx.chain = &on_chain;
    ctx.chain_single = chain.find(chain.sgl_own, o);
    const Layer& layer = lower_one_check(model_key, ctx, lower_on_dut);
    // What the DUT must write, in the tensor's declared shape (a target may
    // compute an operator in another view: FULLY_CONNECTED as a 1x1 CONV_2D).
    chain_values[on_chain.output_tensor] = in_shape(layer.checks[0].expected, on_chain.output_shape);
  }
  run_.networks.back() = network_output(model_key, m, chain, chain_values);
}

}  // namespace cosim::tb::model_replay
