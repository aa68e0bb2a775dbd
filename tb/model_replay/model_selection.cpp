#include "model_replay/model_selection.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "common/error.hpp"
#include "scenario/resolved_yaml.hpp"
#include "tflite/reference.hpp"

namespace cosim::tb::model_replay {

namespace fs = std::filesystem;
using scenario::Value;

namespace {

const char* rounding_name(quant::Rounding r) { return r == quant::Rounding::kDouble ? "double" : "single"; }

// Empty when the target runs operator `i`, else the reason ("TYPE" or "TYPE: why").
std::string unsupported(const std::vector<OpSupport>& supported, const tflite::Model& m, std::size_t i) {
  const int32_t code = m.subgraphs[0].operators[i].code;
  const std::string type = tflite::op_name(code);
  for (const OpSupport& s : supported) {
    if (s.code != code) continue;
    const std::string why = s.check ? s.check(m, i) : std::string();
    return why.empty() ? std::string() : type + ": " + why;
  }
  return type;
}

std::string supported_list(const std::vector<OpSupport>& supported) {
  std::string s;
  for (const OpSupport& o : supported) {
    s += (s.empty() ? "" : ", ") + tflite::op_name(o.code);
    if (!o.constraints.empty()) s += " [" + o.constraints + "]";
  }
  return s;
}

// `ops: all`: every operator the target supports, the others into `not_run`.
std::vector<std::size_t> select_all(const ModelTargetBase& target, const Value& v,
                                    const std::vector<OpSupport>& supported, const tflite::Model& m,
                                    std::vector<NotRun>& not_run) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < m.subgraphs[0].operators.size(); ++i) {
    const std::string why = unsupported(supported, m, i);
    if (why.empty()) out.push_back(i);
    else not_run.push_back({i, tflite::op_name(m.subgraphs[0].operators[i].code), why, op_shapes(m, i, true)});
  }
  if (out.empty()) {
    v.fail("expected a model with an operator target " + target.name() + " supports (" + supported_list(supported) +
           "); this one has none");
  }
  return out;
}

// `ops: [i, ...]`: operators that exist, appear once, and are supported.
std::vector<std::size_t> select_listed(const ModelTargetBase& target, const Value& v,
                                       const std::vector<OpSupport>& supported, const tflite::Model& m) {
  const std::size_t n = m.subgraphs[0].operators.size();
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < v.items.size(); ++k) {
    const int64_t i = v[k].as_int();
    if (i < 0 || static_cast<std::size_t>(i) >= n) {
      v[k].fail("expected an operator index in [0, " + std::to_string(n == 0 ? 0 : n - 1) + "] (the model has " +
                std::to_string(n) + " operators), got " + std::to_string(i));
    }
    if (std::find(out.begin(), out.end(), static_cast<std::size_t>(i)) != out.end()) {
      v[k].fail("operator " + std::to_string(i) + " is listed twice");
    }
    out.push_back(static_cast<std::size_t>(i));
  }
  std::sort(out.begin(), out.end());
  std::vector<std::string> bad;
  for (std::size_t i : out) {
    const std::string why = unsupported(supported, m, i);
    if (!why.empty()) bad.push_back(std::to_string(i) + " (" + why + ")");
  }
  if (!bad.empty()) {
    std::string msg = bad.size() == 1 ? "op " : "ops ";
    for (std::size_t k = 0; k < bad.size(); ++k) msg += (k ? ", " : "") + bad[k];
    v.fail(msg + ": not supported by target " + target.name() + " (supports " + supported_list(supported) + ")");
  }
  return out;
}

// The selected operator indices, ascending. `all` = every operator the
// target supports (the others go to `not_run`); a list names operators that
// must exist, appear once, and be supported.
std::vector<std::size_t> select(const ModelTargetBase& target, const scenario::Scenario& sc, const tflite::Model& m,
                                std::vector<NotRun>& not_run) {
  const Value& v = sc["ops"];
  const std::vector<OpSupport> supported = target.supported_ops_for(sc);
  return v.is_string() ? select_all(target, v, supported, m, not_run) : select_listed(target, v, supported, m);
}

// The network inputs: `inputs:` of them (1 in mode layers). `input: random`
// gives seeded random ones (seed, seed + 1, ...); `input: {npy}` a batch
// [inputs, ...] of the model input's shape, one per row.
std::vector<Tensor> chain_inputs(const scenario::Scenario& sc, const tflite::Model& m) {
  const Value& in_v = sc["input"];
  const int64_t n = sc["inputs"].as_int();
  // A slice of them (Scenario::input_slice): inputs first .. last - 1.
  const auto [first, last] = sc.input_range(n);
  std::vector<Tensor> out;
  if (in_v.is_string()) {
    for (int64_t k = first; k < last; ++k) {
      out.push_back(
          sc["model"].rethrow_here([&] { return tflite::random_input(m, static_cast<uint32_t>(sc.seed + k)); }));
    }
    return out;
  }
  const auto& ti = m.subgraphs[0].tensors.at(static_cast<std::size_t>(m.subgraphs[0].inputs.at(0)));
  std::vector<int64_t> one(ti.shape.begin(), ti.shape.end());
  if (one.empty() || one[0] != 1) sc["model"].fail("expected a model input of batch 1, got " + dims(one));
  std::vector<int64_t> batch = one;
  batch[0] = n;
  const Tensor all = scenario::make_tensor(sc, in_v, DType::kInt8, batch, Layout::kAny, "input");
  const std::size_t bytes = all.bytes().size() / static_cast<std::size_t>(n);
  for (int64_t k = first; k < last; ++k) {
    Tensor t(DType::kInt8, one, Layout::kNHWC);
    std::copy_n(all.bytes().begin() + static_cast<std::ptrdiff_t>(bytes * static_cast<std::size_t>(k)), bytes,
                t.bytes().begin());
    out.push_back(std::move(t));
  }
  return out;
}

// The model file, loaded. A SKIP only for the path written in the scenario
// file whose folder is absent (the shared models are not on this machine).
// A path the user gave (--set model=..., Python set=) or a file missing from
// a folder that exists is a typo: bad input, exit 2.
tflite::Model load(const scenario::Scenario& sc, const std::string& path) {
  const Value& model_key = sc["model"];
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    const fs::path folder = fs::path(path).parent_path();
    if (model_key.loc.override.empty() && !fs::exists(folder, ec)) {
      throw ScenarioSkipped("model " + model_key.as_string() + " not found (looked for " + path + "; its folder " +
                            folder.string() +
                            " is absent); put the .tflite file there, or pass one with --set model=PATH");
    }
    model_key.fail("no such model file: " + path);
  }
  tflite::Model m = model_key.rethrow_here([&] { return tflite::load_model(path); });
  if (m.subgraphs.empty()) model_key.fail("expected a model with a subgraph");
  return m;
}

}  // namespace

const tflite::LayerWorkload* Chain::find(const std::vector<tflite::LayerWorkload>& v, std::size_t op) const {
  for (const auto& l : v) {
    if (l.op_index == op) return &l;
  }
  return nullptr;
}

Chain golden_chain(const Value& model_key, const tflite::Model& m, const Tensor& input) {
  const tflite::TensorMap golden =
      model_key.rethrow_here([&] { return tflite::run_reference(m, input, quant::Rounding::kDouble); });
  Chain c;
  c.dbl = model_key.rethrow_here([&] { return tflite::extract_layers(m, {}, quant::Rounding::kDouble, &golden); });
  c.sgl = model_key.rethrow_here([&] { return tflite::extract_layers(m, {}, quant::Rounding::kSingle, &golden); });
  c.values_single = model_key.rethrow_here([&] { return tflite::run_reference(m, input, quant::Rounding::kSingle); });
  c.sgl_own = model_key.rethrow_here(
      [&] { return tflite::extract_layers(m, {}, quant::Rounding::kSingle, &c.values_single); });
  c.values_double = golden;
  return c;
}

ModelSelection::ModelSelection(const ModelTargetBase& target, const scenario::Scenario& scenario, ReplayRun& run,
                               Workload& w)
    : sc(scenario) {
  const Value& model_key = sc["model"];
  run.model_path = resolve_model(sc, model_key);
  model = load(sc, run.model_path);
  const std::vector<std::size_t> selected = select(target, sc, model, run.not_run);
  delegate_ = target.uses_golden_chain() && sc["mode"].as_string() == "delegate";
  if (target.uses_golden_chain()) {
    if (sc["mode"].as_string() != "delegate" && sc["inputs"].as_int() != 1) sc["inputs"].fail("applies to mode: delegate");
    inputs = chain_inputs(sc, model);
    w.inputs["input"] = inputs.at(0);
    chain = golden_chain(model_key, model, w.inputs["input"]);
  }
  for (const std::size_t op : selected) {
    const std::string type = tflite::op_name(model.subgraphs[0].operators[op].code);
    LayerContext ctx{sc, model, op, type, check_name(op, type)};
    if (target.uses_golden_chain()) {
      ctx.chain = chain.find(chain.dbl, op);
      ctx.chain_single = chain.find(chain.sgl, op);
      if (ctx.chain == nullptr || ctx.chain_single == nullptr || !ctx.chain->has_data) {
        model_key.fail("operator " + std::to_string(op) + " (" + type + "): the golden chain does not reach it");
      }
    }
    contexts.push_back(ctx);
  }
}

void describe_workload(const ModelTargetBase& target, const ModelSelection& sel, const ReplayRun& run,
                       const LayerList& layers, bool network_lowered, Workload& w) {
  std::map<std::string, int> per_type;
  for (const ReplayedLayer* l : layers) {
    for (const LayerCheck& c : l->layer.checks) {
      w.expected[c.name] = c.expected;
      for (const Reference& r : c.references) w.references.push_back(r);
    }
    w.macs += l->layer.macs;
    ++per_type[l->type];
  }
  // Layers per input (a batch lowers each operator once for every input).
  const std::size_t inputs_apart = run.batched ? 1 : std::max<std::size_t>(1, run.networks.size());
  const std::size_t per_input = layers.size() / inputs_apart;
  if (inputs_apart > 1) {
    for (auto& [t, n] : per_type) n /= static_cast<int>(run.networks.size());
  }
  std::string types;
  for (const auto& [t, n] : per_type) types += (types.empty() ? "" : ", ") + std::to_string(n) + " " + t;
  // A target lowering the whole network places some of its operators on the
  // CPU itself: the partition line of the report says which.
  const std::string cpu_rounding = rounding_name(run.tflite_rounding.value_or(quant::Rounding::kDouble));
  w.summary = "model " + fs::path(run.model_path).filename().string() + ": " + std::to_string(per_input) + " of " +
              std::to_string(sel.model.subgraphs[0].operators.size()) + " operators " +
              (network_lowered ? "in the " + target.name() + " network, the partition below says where each runs"
                               : "on " + target.name()) +
              " (" + types + ")" +
              (run.not_run.empty() ? "" : ", " + std::to_string(run.not_run.size()) + " not supported") + "; " +
              target.summary(sel.sc) +
              (run.networks.empty() ? ""
                                    : "; delegate on " + std::to_string(run.networks.size()) + " input(s)" +
                                          (run.batched ? " as one batch" : "") + ": each DUT operator reads the chain's own tensors, the others "
                                          "run on the CPU (TFLite int8, " + cpu_rounding + " rounding)");
}

}  // namespace cosim::tb::model_replay
