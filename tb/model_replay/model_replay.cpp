#include "model_replay/model_replay.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <optional>
#include <sstream>

#include "common/error.hpp"
#include "cosim/operator.hpp"
#include "ops/distance.hpp"
#include "scenario/resolved_yaml.hpp"
#include "scoreboard/scoreboard.hpp"
#include "tlm/progress_line.hpp"
#include "tflite/reference.hpp"

namespace cosim::tb::model_replay {

namespace fs = std::filesystem;
using scenario::Schema;
using scenario::Value;

namespace {

// An operator of the model the target does not run, and why.
struct NotRun {
  std::size_t op_index = 0;
  std::string type;
  std::string reason;  // "DEPTHWISE_CONV_2D" or "CONV_2D: stride 2"
  std::string shapes;  // "1x8x8x64 -> 1x1x1x64"
};

// mode: delegate: the network's output as the delegate computed it (the
// DUT's operators chained, the rest on the CPU) and as TFLite computes it
// entirely on the CPU, in both roundings.
struct NetworkOutput {
  Tensor delegate, cpu_double, cpu_single;
};

struct ModelState {
  std::string model_path;  // resolved
  std::vector<ReplayedLayer> layers;
  std::vector<NotRun> not_run;  // `ops: all`: the operators left out
  std::vector<NetworkOutput> networks;  // mode: delegate, one per input (`inputs:`)
  // ModelTarget::tflite_rounding: the rounding the whole delegate chain runs
  // in, whose network output must equal TFLite's on the CPU bit for bit.
  std::optional<quant::Rounding> tflite_rounding;
};

const char* rounding_name(quant::Rounding r) { return r == quant::Rounding::kDouble ? "double" : "single"; }

bool is_delegate(const ModelTarget& target, const scenario::Scenario& sc) {
  return target.uses_golden_chain() && sc["mode"].as_string() == "delegate";
}

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

// The selected operator indices, ascending. `all` = every operator the
// target supports (the others go to `not_run`); a list names operators that
// must exist, appear once, and be supported.
std::vector<std::size_t> select(const ModelTarget& target, const scenario::Scenario& sc, const tflite::Model& m,
                                std::vector<NotRun>& not_run) {
  const std::size_t n = m.subgraphs[0].operators.size();
  const Value& v = sc["ops"];
  const std::vector<OpSupport> supported = target.supported_ops_for(sc);
  std::vector<std::size_t> out;
  if (v.is_string()) {
    for (std::size_t i = 0; i < n; ++i) {
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

// The golden chain: layers (double and single rounding) by operator index.
// dbl and sgl carry the double-rounding run's inputs; values_* are the whole
// runs, sgl_own the single-rounding layers on the single-rounding run.
struct Chain {
  std::vector<tflite::LayerWorkload> dbl, sgl, sgl_own;
  tflite::TensorMap values_double, values_single;
  const tflite::LayerWorkload* find(const std::vector<tflite::LayerWorkload>& v, std::size_t op) const {
    for (const auto& l : v) {
      if (l.op_index == op) return &l;
    }
    return nullptr;
  }
};

// The network inputs: `inputs:` of them (1 in mode layers). `input: random`
// gives seeded random ones (seed, seed + 1, ...); `input: {npy}` a batch
// [inputs, ...] of the model input's shape, one per row.
std::vector<Tensor> chain_inputs(const scenario::Scenario& sc, const tflite::Model& m) {
  const Value& in_v = sc["input"];
  const int64_t n = sc["inputs"].as_int();
  std::vector<Tensor> out;
  if (in_v.is_string()) {
    for (int64_t k = 0; k < n; ++k) {
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
  for (int64_t k = 0; k < n; ++k) {
    Tensor t(DType::kInt8, one, Layout::kNHWC);
    std::copy_n(all.bytes().begin() + static_cast<std::ptrdiff_t>(bytes * static_cast<std::size_t>(k)), bytes,
                t.bytes().begin());
    out.push_back(std::move(t));
  }
  return out;
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

// `t`'s bytes under `shape` when it has as many elements (else `t`, for the
// shape checks downstream to report).
Tensor in_shape(const Tensor& t, const std::vector<int64_t>& shape) {
  if (t.shape() == shape) return t;
  Tensor r(t.dtype(), shape);
  if (r.numel() != t.numel()) return t;
  std::copy(t.bytes().begin(), t.bytes().end(), r.bytes().begin());
  return r;
}

// mode: delegate, as a TFLite delegate runs the network: the selected
// operators on the DUT, each fed the tensors the delegate chain itself
// produced (the DUT's golden output of earlier DUT operators, the CPU's of the
// others), every other operator on the CPU in TFLite int8 semantics on the
// same chain, in `cpu_rounding` (double, or the rounding of the TFLite
// requantization the DUT computes). Each DUT layer keeps the TFLite CPU
// chain's outputs as its references (drift, double and single rounding).
std::vector<Layer> lower_delegate(const ModelTarget& target, const tflite::Model& m, const Chain& chain,
                                  quant::Rounding cpu_rounding, std::vector<LayerContext>& ctxs,
                                  NetworkOutput& net) {
  const tflite::SubGraph& sg = m.subgraphs[0];
  const Value& model_key = ctxs.front().sc["model"];
  tflite::TensorMap chain_values;
  chain_values[sg.inputs.at(0)] = chain.values_double.at(sg.inputs.at(0));
  const std::vector<tflite::LayerWorkload> cpu_params =
      model_key.rethrow_here([&] { return tflite::extract_layers(m, {}, cpu_rounding); });
  std::vector<Layer> layers;
  std::any network;      // the target's scratch over this network run
  std::size_t next = 0;  // the next selected operator (ctxs are in operator order)
  for (std::size_t o = 0; o < sg.operators.size(); ++o) {
    if (next == ctxs.size() || ctxs[next].op_index != o) {
      model_key.rethrow_here([&] { return tflite::run_operator(m, o, cpu_params, chain_values, cpu_rounding); },
                             "operator " + std::to_string(o) + " (CPU): ");
      continue;
    }
    LayerContext& ctx = ctxs[next++];
    // This operator's workload on the delegate chain's tensors; its expected
    // output stays the CPU chain's (the drift reference).
    tflite::LayerWorkload on_chain = *chain.find(chain.dbl, o);
    for (std::size_t k = 0; k < on_chain.input_tensors.size(); ++k) {
      const auto it = chain_values.find(on_chain.input_tensors[k]);
      if (it == chain_values.end()) {
        model_key.fail("operator " + std::to_string(o) + " (" + ctx.type + "): the delegate chain does not reach it");
      }
      on_chain.inputs[k] = it->second;
    }
    ctx.chain = &on_chain;
    ctx.chain_single = chain.find(chain.sgl_own, o);
    ctx.network = &network;
    Layer layer = model_key.rethrow_here([&] { return target.lower(ctx); },
                                         "operator " + std::to_string(o) + " (" + ctx.type + "): ");
    if (layer.checks.size() != 1) {
      throw std::logic_error("mode delegate needs one check per DUT layer, " + ctx.check + " has " +
                             std::to_string(layer.checks.size()));
    }
    // What the DUT must write, in the tensor's declared shape (a target may
    // compute an operator in another view: FULLY_CONNECTED as a 1x1 CONV_2D).
    chain_values[on_chain.output_tensor] = in_shape(layer.checks[0].expected, on_chain.output_shape);
    ctx.chain = nullptr;  // on_chain and network go out of scope
    ctx.chain_single = nullptr;
    ctx.network = nullptr;
    layers.push_back(std::move(layer));
  }
  const int32_t out = sg.outputs.at(0);
  const auto reached = chain_values.find(out);
  if (reached == chain_values.end() || !chain.values_double.count(out) || !chain.values_single.count(out)) {
    model_key.fail("the network output is not reached: an operator on the way is one the golden model lacks");
  }
  net.delegate = reached->second;
  net.cpu_double = chain.values_double.at(out);
  net.cpu_single = chain.values_single.at(out);
  return layers;
}

// Index of the largest element (the first of equal ones): the class.
int64_t top1(const Tensor& t) {
  const int8_t* p = t.data<int8_t>();
  return std::max_element(p, p + t.numel()) - p;
}

std::string left(const std::string& s, int w);
std::string right(const std::string& s, int w);

const CheckCapture* capture_of(const SimOutcome& run, const std::string& check) {
  for (const auto& pc : run.play.checks) {
    if (pc.desc.name == check) return &pc;
  }
  return nullptr;
}

// "ops 0-11" / "ops 0, 2-4": the indices as ranges.
std::string op_ranges(const std::vector<std::size_t>& ops) {
  std::string s;
  for (std::size_t i = 0; i < ops.size();) {
    std::size_t j = i;
    while (j + 1 < ops.size() && ops[j + 1] == ops[j] + 1) ++j;
    s += (s.empty() ? "" : ", ") + std::to_string(ops[i]) + (j > i ? "-" + std::to_string(ops[j]) : "");
    i = j + 1;
  }
  return (ops.size() == 1 ? "op " : "ops ") + s;
}

// The partition, as TFLite reports it when a delegate takes nodes: how many
// operators the DUT runs, in how many partitions (runs of consecutive DUT
// operators), and how many stay on the CPU. `placed`: op index -> on the DUT.
std::string partition_line(const ModelTarget& target, std::vector<std::pair<std::size_t, bool>> placed) {
  std::sort(placed.begin(), placed.end());
  std::vector<std::size_t> on_dut, on_cpu;
  std::size_t partitions = 0;
  bool prev_dut = false;
  for (const auto& [op, dut] : placed) {
    (dut ? on_dut : on_cpu).push_back(op);
    partitions += dut && !prev_dut ? 1 : 0;
    prev_dut = dut;
  }
  std::string line = "partition   " + std::to_string(on_dut.size()) + " of " + std::to_string(placed.size()) +
                     " operators on " + target.name() + " (" + (on_dut.empty() ? "none" : op_ranges(on_dut)) +
                     ") in " + std::to_string(partitions) + " partition" + (partitions == 1 ? "" : "s");
  if (!on_cpu.empty()) line += "; " + std::to_string(on_cpu.size()) + " on the CPU (" + op_ranges(on_cpu) + ")";
  return line;
}

// Min / median / max of a sample, "12.5/50.0/99.1".
std::string spread(std::vector<double> v, int precision) {
  if (v.empty()) return "-";
  std::sort(v.begin(), v.end());
  std::ostringstream o;
  o << std::fixed << std::setprecision(precision) << v.front() << "/" << v[v.size() / 2] << "/" << v.back();
  return o.str();
}

// mode delegate with several inputs: per DUT operator, the spread of its
// distance to each reference over the inputs (the drift distribution).
void drift_over_inputs(const ModelState& st, std::size_t per_input, const SimOutcome& run, Metrics& m) {
  m.table.push_back("  drift over " + std::to_string(st.networks.size()) +
                    " inputs (exact % min/median/max, largest |diff|), per DUT operator:");
  for (std::size_t i = 0; i < per_input; ++i) {
    std::map<std::string, std::pair<std::vector<double>, double>> by_sem;  // semantics -> exact %s, max |diff|
    for (std::size_t k = i; k < st.layers.size(); k += per_input) {
      for (const LayerCheck& c : st.layers[k].layer.checks) {
        const CheckCapture* cap = capture_of(run, c.name);
        if (cap == nullptr) continue;
        for (const Reference& r : c.references) {
          const Distance d = distance(r.semantics, r.tensor, cap->actual);
          auto& e = by_sem[r.semantics];
          e.first.push_back(d.exact_pct);
          e.second = std::max(e.second, d.max_abs_diff);
        }
      }
    }
    const ReplayedLayer& l = st.layers[i];
    std::string line = "    " + left(std::to_string(l.op_index), 5) + left(l.type, 18);
    for (const auto& [sem, e] : by_sem) {
      std::ostringstream o;
      o << sem << " " << spread(e.first, 2) << ", " << e.second << "; ";
      line += o.str();
      m.extra[l.check + "." + sem + ".exact_pct_min"] = *std::min_element(e.first.begin(), e.first.end());
    }
    m.table.push_back(line);
  }
}

std::string left(const std::string& s, int w) {
  std::ostringstream o;
  o << std::left << std::setw(w) << s;
  return o.str();
}
std::string right(const std::string& s, int w) {
  std::ostringstream o;
  o << std::right << std::setw(w) << s;
  return o.str();
}

}  // namespace

std::string resolve_model(const scenario::Scenario& sc, const scenario::Value& key) {
  // Written in the scenario: from the scenario file's folder, like `npy:`
  // paths, so a scenario and its models move together. Typed on the command
  // line (--set model=...): from the current folder, like any shell path.
  return scenario::resolve_path(sc, key);
}

std::string check_name(std::size_t op_index, const std::string& type) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "op%02zu_", op_index);
  std::string t;
  for (char ch : type) t += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const auto p = t.rfind("_2d");
  if (p != std::string::npos && p + 3 == t.size()) t.erase(p, 1);  // conv_2d -> conv2d
  return buf + t;
}

std::string dims(const std::vector<int64_t>& s) {
  std::string t;
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? "x" : "") + std::to_string(s[i]);
  return t;
}

std::string op_shapes(const tflite::Model& m, std::size_t op, bool keep_batch) {
  const auto& o = m.subgraphs[0].operators[op];
  auto of = [&](int32_t t) {
    std::vector<int64_t> s;
    for (int32_t d : m.subgraphs[0].tensors.at(static_cast<std::size_t>(t)).shape) s.push_back(d);
    if (!keep_batch && s.size() == 4 && s[0] == 1) s.erase(s.begin());
    return dims(s);
  };
  if (o.inputs.empty() || o.inputs[0] < 0 || o.outputs.empty()) return "-";
  return of(o.inputs[0]) + " -> " + of(o.outputs[0]);
}

Schema op_schema(const ModelTarget& target) {
  Schema s = Schema::map()
                 .required("model", Schema::string())
                 .optional("ops", Schema::any_of({Schema::one_of({"all"}), Schema::list(Schema::integer(), 1)}),
                           "all");
  if (target.uses_golden_chain()) {
    s.optional("input", scenario::schemas::data_source(), "random");
    // delegate: the network as a TFLite delegate runs it (chained); layers:
    // each selected operator alone on the TFLite chain's input.
    s.optional("mode", Schema::one_of({"delegate", "layers"}), "delegate");
    // mode delegate: the network on this many inputs (seeded random ones,
    // or the rows of an `input: {npy}` batch [inputs, ...]), the top-1
    // agreement over them.
    s.optional("inputs", Schema::integer(1, 256), "1");
  }
  target.add_keys(s);
  return s;
}

namespace {

ModelState prepare(const ModelTarget& target, const scenario::Scenario& sc, Workload& w) {
  const Value& model_key = sc["model"];
  ModelState st;
  st.model_path = resolve_model(sc, model_key);
  std::error_code ec;
  if (!fs::exists(st.model_path, ec)) {
    // A SKIP only for the path written in the scenario file whose folder is
    // absent (the shared models are not on this machine). A path the user
    // gave (--set model=..., Python set=) or a file missing from a folder
    // that exists is a typo: bad input, exit 2.
    const fs::path folder = fs::path(st.model_path).parent_path();
    if (model_key.loc.override.empty() && !fs::exists(folder, ec)) {
      throw ScenarioSkipped("model " + model_key.as_string() + " not found (looked for " + st.model_path +
                            "; its folder " + folder.string() +
                            " is absent); put the .tflite file there, or pass one with --set model=PATH");
    }
    model_key.fail("no such model file: " + st.model_path);
  }
  const tflite::Model m = model_key.rethrow_here([&] { return tflite::load_model(st.model_path); });
  if (m.subgraphs.empty()) model_key.fail("expected a model with a subgraph");
  const std::vector<std::size_t> selected = select(target, sc, m, st.not_run);

  Chain chain;
  std::vector<Tensor> net_inputs;
  if (target.uses_golden_chain()) {
    if (sc["mode"].as_string() != "delegate" && sc["inputs"].as_int() != 1) sc["inputs"].fail("applies to mode: delegate");
    net_inputs = chain_inputs(sc, m);
    w.inputs["input"] = net_inputs.at(0);
    chain = golden_chain(model_key, m, w.inputs["input"]);
  }
  std::map<std::string, int> per_type;
  std::vector<LayerContext> ctxs;
  for (const std::size_t op : selected) {
    const std::string type = tflite::op_name(m.subgraphs[0].operators[op].code);
    LayerContext ctx{sc, m, op, type, check_name(op, type)};
    if (target.uses_golden_chain()) {
      ctx.chain = chain.find(chain.dbl, op);
      ctx.chain_single = chain.find(chain.sgl, op);
      if (ctx.chain == nullptr || ctx.chain_single == nullptr || !ctx.chain->has_data) {
        model_key.fail("operator " + std::to_string(op) + " (" + type + "): the golden chain does not reach it");
      }
    }
    ctxs.push_back(ctx);
  }
  std::vector<Layer> network;
  bool network_lowered = false;  // by the target, CPU operators included
  if (is_delegate(target, sc)) {
    st.tflite_rounding = target.tflite_rounding(sc);
    const quant::Rounding cpu_rounding = st.tflite_rounding.value_or(quant::Rounding::kDouble);
    const int64_t inputs = sc["inputs"].as_int();
    const std::vector<LayerContext> first = ctxs;
    ProgressLine progress("compiling the network for input");
    for (int64_t k = 0; k < inputs; ++k) {
      if (inputs > 1) progress.update(static_cast<std::size_t>(k), static_cast<std::size_t>(inputs), "");
      std::vector<LayerContext> run = first;  // input k's layers: checks named opNN_type_inK
      if (k > 0) {
        for (LayerContext& c : run) c.check += "_in" + std::to_string(k);
      }
      const Chain chain_k = k == 0 ? chain : golden_chain(model_key, m, net_inputs.at(static_cast<std::size_t>(k)));
      st.networks.emplace_back();
      std::vector<Layer> layers = lower_delegate(target, m, chain_k, cpu_rounding, run, st.networks.back());
      if (k > 0) {
        for (const LayerContext& c : run) ctxs.push_back(c);
      }
      for (Layer& l : layers) network.push_back(std::move(l));
    }
  } else {
    network = target.lower_network(ctxs);  // its errors name their key
    network_lowered = !network.empty();
  }
  if (!network.empty() && network.size() != ctxs.size()) {
    throw std::logic_error("lower_network: " + std::to_string(network.size()) + " layers for " +
                           std::to_string(ctxs.size()) + " operators");
  }
  for (std::size_t k = 0; k < ctxs.size(); ++k) {
    const LayerContext& ctx = ctxs[k];
    ReplayedLayer rl{ctx.op_index, ctx.type, ctx.check,
                     !network.empty() ? std::move(network[k])
                                      : model_key.rethrow_here([&] { return target.lower(ctx); },
                                                               "operator " + std::to_string(ctx.op_index) + " (" +
                                                                   ctx.type + "): ")};
    for (const LayerCheck& c : rl.layer.checks) {
      w.expected[c.name] = c.expected;
      for (const Reference& r : c.references) w.references.push_back(r);
    }
    w.macs += rl.layer.macs;
    ++per_type[ctx.type];
    st.layers.push_back(std::move(rl));
  }
  const std::size_t per_input = st.layers.size() / std::max<std::size_t>(1, st.networks.size());
  if (st.networks.size() > 1) {
    for (auto& [t, n] : per_type) n /= static_cast<int>(st.networks.size());
  }
  std::string types;
  for (const auto& [t, n] : per_type) types += (types.empty() ? "" : ", ") + std::to_string(n) + " " + t;
  // A target lowering the whole network places some of its operators on the
  // CPU itself: the partition line of the report says which.
  const std::string cpu_rounding = rounding_name(st.tflite_rounding.value_or(quant::Rounding::kDouble));
  w.summary = "model " + fs::path(st.model_path).filename().string() + ": " + std::to_string(per_input) +
              " of " + std::to_string(m.subgraphs[0].operators.size()) + " operators " +
              (network_lowered ? "in the " + target.name() + " network, the partition below says where each runs"
                               : "on " + target.name()) +
              " (" + types + ")" +
              (st.not_run.empty() ? "" : ", " + std::to_string(st.not_run.size()) + " not supported") + "; " +
              target.summary(sc) +
              (st.networks.empty() ? ""
                                   : "; delegate on " + std::to_string(st.networks.size()) +
                                         " input(s): each DUT operator reads the chain's own tensors, the others run "
                                         "on the CPU (TFLite int8, " + cpu_rounding + " rounding)");
  return st;
}

trace::Trace compile(const ModelTarget& target, const scenario::Scenario& sc, const ModelState& st) {
  trace::Trace t;
  t.target = target.name();
  if (target.emit_network(t, sc, st.layers)) return t;
  for (const ReplayedLayer& l : st.layers) target.emit(t, sc, l);
  return t;
}

Metrics metrics(const ModelTarget& target, const Workload& w, const ModelState& st, const SimOutcome& run) {
  Metrics m;
  m.macs = w.macs;
  const std::vector<Column> cols = target.columns_for(st.layers);
  const bool delegate = !st.networks.empty();
  // With several inputs the table shows the first input's layers; the drift
  // over all of them follows it.
  const std::size_t per_input = st.layers.size() / std::max<std::size_t>(1, st.networks.size());
  std::string head = left("op", 5) + left("type", 18) + left("shapes", 40) + right("exact", 7) + right("where", 9);
  for (const Column& c : cols) head += right(c.name, c.width);
  m.table.push_back("  layers" + std::string(st.networks.size() > 1 ? " (input 0)" : ""));
  m.table.push_back("    " + head);
  nlohmann::json layers = nlohmann::json::array();
  std::size_t exact_n = 0;
  std::vector<std::pair<std::size_t, std::string>> rows;  // op index, row
  std::vector<std::pair<std::size_t, bool>> placed;        // op index, on the DUT
  for (std::size_t k = 0; k < st.layers.size(); ++k) {
    const ReplayedLayer& l = st.layers[k];
    LayerRun lr{k, st.layers.size(), {}, &st.layers};
    bool exact = !l.layer.checks.empty(), any = false;
    for (const LayerCheck& c : l.layer.checks) {
      const CheckCapture* cap = capture_of(run, c.name);
      lr.captures.push_back(cap);
      any = any || cap != nullptr;
      exact = exact && cap != nullptr && cap->expected == cap->actual;
    }
    exact_n += exact ? 1 : 0;
    const Figures f = target.figures(l, lr, run);
    const std::string where = f.where.empty() ? target.name() : f.where;
    // bit_exact: null when nothing of this layer was checked (an operator on
    // the CPU, or one fused into another's check): neither passed nor failed.
    nlohmann::json j{{"op_index", l.op_index}, {"type", l.type},   {"check", l.check},
                     {"shapes", l.layer.shapes}, {"status", target.name()}, {"where", where},
                     {"bit_exact", any ? nlohmann::json(exact) : nlohmann::json(nullptr)}, {"macs", l.layer.macs}};
    if (st.networks.size() > 1) j["input"] = k / per_input;
    for (const auto& [key, value] : f.json.items()) j[key] = value;
    layers.push_back(j);
    if (any) m.extra[l.check + ".bit_exact"] = exact ? 1.0 : 0.0;
    for (const auto& [key, value] : f.metrics) m.extra[l.check + "." + key] = value;
    if (k >= per_input) continue;
    placed.push_back({l.op_index, where != "cpu"});
    std::string row = left(std::to_string(l.op_index), 5) + left(l.type, 18) + left(l.layer.shapes, 40) +
                      right(!any ? "-" : exact ? "yes" : "NO", 7) + right(where, 9);
    for (std::size_t c = 0; c < cols.size(); ++c) row += right(c < f.cells.size() ? f.cells[c] : "-", cols[c].width);
    rows.push_back({l.op_index, row});
  }
  // mode delegate: the operators on the CPU take their place in the table.
  if (delegate) {
    for (const NotRun& n : st.not_run) {
      std::string row = left(std::to_string(n.op_index), 5) + left(n.type, 18) + left(n.shapes, 40) + right("-", 7) +
                        right("cpu", 9);
      for (const Column& c : cols) row += right("-", c.width);
      rows.push_back({n.op_index, row});
      placed.push_back({n.op_index, false});
    }
  }
  // Whole networks (a delegate, a target's chain): the partition first.
  const bool on_cpu = std::any_of(placed.begin(), placed.end(), [](const auto& p) { return !p.second; });
  if (delegate || on_cpu) m.table.insert(m.table.begin(), "  " + partition_line(target, placed));
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& r : rows) m.table.push_back("    " + r.second);
  // Operators `ops: all` left out, one line per reason.
  nlohmann::json not_run = nlohmann::json::array();
  std::vector<std::pair<std::string, std::string>> by_reason;  // reason, op list
  for (const NotRun& n : st.not_run) {
    not_run.push_back({{"op_index", n.op_index}, {"type", n.type}, {"shapes", n.shapes}, {"reason", n.reason}});
    auto it = std::find_if(by_reason.begin(), by_reason.end(), [&](const auto& p) { return p.first == n.reason; });
    if (it == by_reason.end()) by_reason.push_back({n.reason, std::to_string(n.op_index)});
    else it->second += ", " + std::to_string(n.op_index);
  }
  for (const auto& [reason, ops] : by_reason) {
    m.table.push_back(std::string("    ") + (delegate ? "on the CPU, " : "") + "not supported by " + target.name() +
                      ": " + reason + " (op" + (ops.find(',') != std::string::npos ? "s " : " ") + ops + ")");
  }
  if (st.networks.size() > 1) drift_over_inputs(st, per_input, run, m);
  // The network's output per input: the delegate against TFLite run
  // entirely on the CPU; then the agreement over all inputs.
  nlohmann::json nets = nlohmann::json::array();
  int agree_d = 0, agree_s = 0, bit_exact = 0;
  for (std::size_t k = 0; k < st.networks.size(); ++k) {
    const NetworkOutput& n = st.networks[k];
    const int64_t cls = top1(n.delegate), cls_d = top1(n.cpu_double), cls_s = top1(n.cpu_single);
    agree_d += cls == cls_d ? 1 : 0;
    agree_s += cls == cls_s ? 1 : 0;
    nlohmann::json net_json;
    std::string line = "    network output" + (st.networks.size() > 1 ? " " + std::to_string(k) : std::string()) +
                       " (delegate vs TFLite on the CPU):";
    for (const auto& [sem, ref] : {std::pair<const char*, const Tensor*>{"double", &n.cpu_double},
                                   std::pair<const char*, const Tensor*>{"single", &n.cpu_single}}) {
      const ops::Distance d = ops::int8_distance(*ref, n.delegate);
      std::ostringstream o;
      o << std::fixed << std::setprecision(2) << d.exact_pct();
      line += std::string(" ") + sem + " exact " + o.str() + " %, max |diff| " + std::to_string(d.max_abs_diff) + ";";
      net_json[std::string("tflite_") + sem] = {{"exact_pct", d.exact_pct()}, {"max_abs_diff", d.max_abs_diff}};
      if (k == 0) m.extra[std::string("network.tflite_") + sem + ".exact_pct"] = d.exact_pct();
    }
    line += " top-1 " + std::to_string(cls) + " vs " + std::to_string(cls_d) + " (double) / " + std::to_string(cls_s) +
            " (single): " + (cls == cls_d && cls == cls_s ? "agree" : "DIFFERENT");
    if (st.networks.size() <= 8) m.table.push_back(line);
    if (st.tflite_rounding) {
      // The chain is TFLite's end to end: nothing short of every element is right.
      const char* sem = rounding_name(*st.tflite_rounding);
      const ops::Distance d =
          ops::int8_distance(*st.tflite_rounding == quant::Rounding::kDouble ? n.cpu_double : n.cpu_single, n.delegate);
      const bool exact = d.exact == d.count;
      bit_exact += exact ? 1 : 0;
      if (st.networks.size() <= 8) {
        m.table.push_back("    network output" + (st.networks.size() > 1 ? " " + std::to_string(k) : std::string()) +
                          ": " + (exact ? "bit-exact" : "NOT bit-exact") + " vs TFLite CPU (" + sem + " rounding), " +
                          std::to_string(d.exact) + " of " + std::to_string(d.count) + " elements" +
                          (exact ? "" : " equal"));
      }
      net_json["bit_exact_vs_tflite"] = {
          {"rounding", sem}, {"equal", d.exact}, {"elements", d.count}, {"bit_exact", exact}};
    }
    net_json["top1"] = {{"delegate", cls}, {"tflite_double", cls_d}, {"tflite_single", cls_s}};
    net_json["top1_agree"] = cls == cls_d && cls == cls_s;
    nets.push_back(net_json);
  }
  if (!st.networks.empty()) {
    const std::string n = std::to_string(st.networks.size());
    if (st.networks.size() > 1) {
      std::vector<double> pct_d, pct_s;
      int max_d = 0, max_s = 0;
      for (const NetworkOutput& o : st.networks) {
        const ops::Distance dd = ops::int8_distance(o.cpu_double, o.delegate);
        const ops::Distance ds = ops::int8_distance(o.cpu_single, o.delegate);
        pct_d.push_back(dd.exact_pct());
        pct_s.push_back(ds.exact_pct());
        max_d = std::max(max_d, dd.max_abs_diff);
        max_s = std::max(max_s, ds.max_abs_diff);
      }
      m.table.push_back("    network output vs TFLite on the CPU over " + n + " inputs: exact % min/median/max " +
                        spread(pct_d, 2) + " (double), " + spread(pct_s, 2) + " (single); largest |diff| " +
                        std::to_string(max_d) + " / " + std::to_string(max_s));
    }
    m.table.push_back("    top-1 agreement with TFLite on the CPU over " + n + " input(s): " + std::to_string(agree_d) +
                      "/" + n + " (double rounding), " + std::to_string(agree_s) + "/" + n + " (single)");
    m.extra["network.top1_agree_double"] = agree_d;
    if (st.tflite_rounding && st.networks.size() > 1) {
      m.table.push_back("    network outputs bit-exact vs TFLite CPU (" + std::string(rounding_name(*st.tflite_rounding)) +
                        " rounding): " + std::to_string(bit_exact) + " of " + n + " input(s)");
    }
    if (st.tflite_rounding) m.extra["network.bit_exact_inputs"] = bit_exact;
    m.extra["network.top1_agree_single"] = agree_s;
    m.extra["network.inputs"] = static_cast<double>(st.networks.size());
  }
  m.extra["layers_on_" + target.name()] = static_cast<double>(st.layers.size());
  m.extra["layers_bit_exact"] = static_cast<double>(exact_n);
  m.extra["ops_not_supported"] = static_cast<double>(st.not_run.size());
  target.totals(st.layers, run, m);
  nlohmann::json rep{{"model", st.model_path}, {"layers", layers}, {"not_supported", not_run}};
  if (!st.networks.empty()) {
    rep["mode"] = "delegate";
    rep["network_output"] = nets.at(0);  // the first input's
    rep["network_outputs"] = nets;
    rep["top1_agreement"] = {{"inputs", st.networks.size()}, {"tflite_double", agree_d}, {"tflite_single", agree_s}};
  }
  if (!m.report_json.empty()) rep.update(nlohmann::json::parse(m.report_json));  // the target's run-wide fields
  m.report_json = rep.dump();
  return m;
}

std::optional<WorkUnit> work_unit(const ModelTarget& target, const ModelState& st, const std::string& check,
                                  const std::vector<int64_t>& index) {
  for (const ReplayedLayer& l : st.layers) {
    for (const LayerCheck& c : l.layer.checks) {
      if (c.name == check) return target.work_unit(l, check, index);
    }
  }
  return std::nullopt;
}

// The `model` op: the front end above over one target.
class ModelOperator : public TypedOperator<ModelState> {
 public:
  ModelOperator(std::unique_ptr<ModelTarget> target, std::function<void(const scenario::Scenario&)> check)
      : target_(std::move(target)), check_(std::move(check)) {}
  std::string name() const override { return "model"; }
  Schema schema() const override { return op_schema(*target_); }
  ModelState prepare(const scenario::Scenario& sc, Workload& w) const override {
    if (check_) check_(sc);
    return model_replay::prepare(*target_, sc, w);
  }
  trace::Trace compile(const scenario::Scenario& sc, const Workload& w, const ModelState& st) const override {
    (void)w;
    return model_replay::compile(*target_, sc, st);
  }
  Metrics metrics(const Workload& w, const ModelState& st, const SimOutcome& run) const override {
    return model_replay::metrics(*target_, w, st, run);
  }
  std::optional<WorkUnit> work_unit(const Workload& w, const ModelState& st, const trace::Trace& tr,
                                    const std::string& check, const std::vector<int64_t>& index,
                                    std::optional<uint64_t> address) const override {
    (void)w, (void)tr, (void)address;
    return model_replay::work_unit(*target_, st, check, index);
  }

 private:
  std::unique_ptr<ModelTarget> target_;
  std::function<void(const scenario::Scenario&)> check_;
};

}  // namespace

std::unique_ptr<Operator> model_operator(std::unique_ptr<ModelTarget> target,
                                         std::function<void(const scenario::Scenario&)> check) {
  return std::make_unique<ModelOperator>(std::move(target), std::move(check));
}

}  // namespace cosim::tb::model_replay
