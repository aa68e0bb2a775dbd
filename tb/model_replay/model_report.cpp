#include "model_replay/model_report.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "common/text.hpp"
#include "model_replay/anomaly_score.hpp"
#include "model_replay/delegate_inputs.hpp"
#include "ops/distance.hpp"
#include "scoreboard/scoreboard.hpp"

namespace cosim::tb::model_replay {

namespace {

const char* rounding_name(quant::Rounding r) { return r == quant::Rounding::kDouble ? "double" : "single"; }

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

// Index of the largest element (the first of equal ones): the class.
int64_t top1(const Tensor& t) {
  const int8_t* p = t.data<int8_t>();
  return std::max_element(p, p + t.numel()) - p;
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
std::string partition_line(const ModelTargetBase& target, std::vector<std::pair<std::size_t, bool>> placed) {
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
  const Spread s = spread_of(std::move(v));
  return fixed_text(s.min, precision) + "/" + fixed_text(s.median, precision) + "/" + fixed_text(s.max, precision);
}

}  // namespace

ModelReport::ModelReport(const ModelTargetBase& target, const Workload& w, const ReplayRun& run, LayerList layers,
                         std::vector<Column> columns, const SimOutcome& out)
    : target_(target),
      run_(run),
      layers_(std::move(layers)),
      columns_(std::move(columns)),
      out_(out),
      delegate_(!run.networks.empty()),
      per_input_(run.batched ? layers_.size() : layers_.size() / std::max<std::size_t>(1, run.networks.size())) {
  for (const CheckCapture& pc : out_.play.checks) captures_.emplace(pc.desc.name, &pc);  // the first of a name
  m_.macs = w.macs;
  std::string head = left("op", 5) + left("type", 18) + left("shapes", 40) + right("exact", 7) + right("where", 9);
  for (const Column& c : columns_) head += right(c.name, c.width);
  const std::string which = run_.batched ? " (the " + std::to_string(run_.networks.size()) + " inputs as one batch)"
                            : run_.networks.size() > 1 ? " (input 0)" : "";
  m_.table.push_back("  layers" + which);
  m_.table.push_back("    " + head);
}

std::vector<const CheckCapture*> ModelReport::captures(const ReplayedLayer& l) const {
  std::vector<const CheckCapture*> out;
  for (const LayerCheck& c : l.layer.checks) out.push_back(capture_of(c.name));
  return out;
}

void ModelReport::add_layer(std::size_t k, const std::vector<const CheckCapture*>& caps, const Figures& f) {
  const ReplayedLayer& l = *layers_[k];
  bool exact = !l.layer.checks.empty(), any = false;
  for (const CheckCapture* cap : caps) {
    any = any || cap != nullptr;
    exact = exact && cap != nullptr && cap->expected == cap->actual;
  }
  exact_n_ += exact ? 1 : 0;
  const std::string where = f.where.empty() ? target_.name() : f.where;
  // bit_exact: null when nothing of this layer was checked (an operator on
  // the CPU, or one fused into another's check): neither passed nor failed.
  nlohmann::json j{{"op_index", l.op_index}, {"type", l.type},   {"check", l.check},
                   {"shapes", l.layer.shapes}, {"status", target_.name()}, {"where", where},
                   {"bit_exact", any ? nlohmann::json(exact) : nlohmann::json(nullptr)}, {"macs", l.layer.macs}};
  if (run_.networks.size() > 1 && !run_.batched) j["input"] = k / per_input_;
  for (const auto& [key, value] : f.json.items()) j[key] = value;
  layer_json_.push_back(j);
  if (any) m_.extra[l.check + ".bit_exact"] = exact ? 1.0 : 0.0;
  for (const auto& [key, value] : f.metrics) m_.extra[l.check + "." + key] = value;
  if (k >= per_input_) return;
  placed_.push_back({l.op_index, where != "cpu"});
  std::string row = left(std::to_string(l.op_index), 5) + left(l.type, 18) + left(l.layer.shapes, 40) +
                    right(!any ? "-" : exact ? "yes" : "NO", 7) + right(where, 9);
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    row += right(c < f.cells.size() ? f.cells[c] : "-", columns_[c].width);
  }
  rows_.push_back({l.op_index, row});
}

// mode delegate: the operators on the CPU take their place in the table.
void ModelReport::cpu_rows() {
  if (!delegate_) return;
  for (const NotRun& n : run_.not_run) {
    std::string row = left(std::to_string(n.op_index), 5) + left(n.type, 18) + left(n.shapes, 40) + right("-", 7) +
                      right("cpu", 9);
    for (const Column& c : columns_) row += right("-", c.width);
    rows_.push_back({n.op_index, row});
    placed_.push_back({n.op_index, false});
  }
}

// Whole networks (a delegate, a target's chain): the partition first.
void ModelReport::partition() {
  const bool on_cpu = std::any_of(placed_.begin(), placed_.end(), [](const auto& p) { return !p.second; });
  if (delegate_ || on_cpu) m_.table.insert(m_.table.begin(), "  " + partition_line(target_, placed_));
}

// Operators `ops: all` left out, one line per reason.
void ModelReport::not_run_lines() {
  std::vector<std::pair<std::string, std::string>> by_reason;  // reason, op list
  for (const NotRun& n : run_.not_run) {
    not_run_json_.push_back({{"op_index", n.op_index}, {"type", n.type}, {"shapes", n.shapes}, {"reason", n.reason}});
    auto it = std::find_if(by_reason.begin(), by_reason.end(), [&](const auto& p) { return p.first == n.reason; });
    if (it == by_reason.end()) by_reason.push_back({n.reason, std::to_string(n.op_index)});
    else it->second += ", " + std::to_string(n.op_index);
  }
  for (const auto& [reason, ops] : by_reason) {
    m_.table.push_back(std::string("    ") + (delegate_ ? "on the CPU, " : "") + "not supported by " + target_.name() +
                       ": " + reason + " (op" + (ops.find(',') != std::string::npos ? "s " : " ") + ops + ")");
  }
}

const CheckCapture* ModelReport::capture_of(const std::string& check) const {
  const auto it = captures_.find(check);
  return it == captures_.end() ? nullptr : it->second;
}

// mode delegate with several inputs: per DUT operator, the spread of its
// distance to each reference over the inputs (the drift distribution).
void ModelReport::drift_over_inputs() {
  m_.table.push_back("  drift over " + std::to_string(run_.networks.size()) +
                     " inputs (exact % min/median/max, largest |diff|), per DUT operator:");
  for (std::size_t i = 0; i < per_input_; ++i) {
    std::map<std::string, std::pair<std::vector<double>, double>> by_sem;  // semantics -> exact %s, max |diff|
    for (std::size_t k = i; k < layers_.size(); k += per_input_) {
      for (const LayerCheck& c : layers_[k]->layer.checks) {
        const CheckCapture* cap = capture_of(c.name);
        if (cap == nullptr) continue;
        // A batched layer's check holds every input: its rows, input by input.
        const std::size_t parts = run_.batched ? run_.networks.size() : 1;
        for (const Reference& r : c.references) {
          for (std::size_t in = 0; in < parts; ++in) {
            const Distance d = distance(r.semantics, input_rows(r.tensor, in, parts), input_rows(cap->actual, in, parts));
            auto& e = by_sem[r.semantics];
            e.first.push_back(d.exact_pct);
            e.second = std::max(e.second, d.max_abs_diff);
          }
        }
      }
    }
    const ReplayedLayer& l = *layers_[i];
    std::string line = "    " + left(std::to_string(l.op_index), 5) + left(l.type, 18);
    for (const auto& [sem, e] : by_sem) {
      std::ostringstream o;
      o << sem << " " << spread(e.first, 2) << ", " << e.second << "; ";
      line += o.str();
      m_.extra[l.check + "." + sem + ".exact_pct_min"] = *std::min_element(e.first.begin(), e.first.end());
    }
    m_.table.push_back(line);
  }
}

// Input k's network output: the delegate against TFLite run entirely on the CPU.
void ModelReport::network_output(std::size_t k, const NetworkOutput& n) {
  const std::size_t inputs = run_.networks.size();
  const int64_t cls = top1(n.delegate), cls_d = top1(n.cpu_double), cls_s = top1(n.cpu_single);
  agree_d_ += cls == cls_d ? 1 : 0;
  agree_s_ += cls == cls_s ? 1 : 0;
  nlohmann::json net_json;
  std::string line = "    network output" + (inputs > 1 ? " " + std::to_string(k) : std::string()) +
                     " (delegate vs TFLite on the CPU):";
  for (const auto& [sem, ref] : {std::pair<const char*, const Tensor*>{"double", &n.cpu_double},
                                 std::pair<const char*, const Tensor*>{"single", &n.cpu_single}}) {
    const ops::Distance d = ops::int8_distance(*ref, n.delegate);
    line += std::string(" ") + sem + " exact " + fixed_text(d.exact_pct()) + " %, max |diff| " +
            std::to_string(d.max_abs_diff) + ";";
    net_json[std::string("tflite_") + sem] = {{"exact_pct", d.exact_pct()}, {"max_abs_diff", d.max_abs_diff}};
    if (k == 0) m_.extra[std::string("network.tflite_") + sem + ".exact_pct"] = d.exact_pct();
  }
  line += " top-1 " + std::to_string(cls) + " vs " + std::to_string(cls_d) + " (double) / " + std::to_string(cls_s) +
          " (single): " + (cls == cls_d && cls == cls_s ? "agree" : "DIFFERENT");
  if (inputs <= 8) m_.table.push_back(line);
  if (run_.tflite_rounding) {
    // The chain is TFLite's end to end: nothing short of every element is right.
    const char* sem = rounding_name(*run_.tflite_rounding);
    const ops::Distance d =
        ops::int8_distance(*run_.tflite_rounding == quant::Rounding::kDouble ? n.cpu_double : n.cpu_single, n.delegate);
    const bool exact = d.exact == d.count;
    bit_exact_ += exact ? 1 : 0;
    if (inputs <= 8) {
      m_.table.push_back("    network output" + (inputs > 1 ? " " + std::to_string(k) : std::string()) + ": " +
                         (exact ? "bit-exact" : "NOT bit-exact") + " vs TFLite CPU (" + sem + " rounding), " +
                         std::to_string(d.exact) + " of " + std::to_string(d.count) + " elements" +
                         (exact ? "" : " equal"));
    }
    net_json["bit_exact_vs_tflite"] = {{"rounding", sem}, {"equal", d.exact}, {"elements", d.count}, {"bit_exact", exact}};
  }
  net_json["top1"] = {{"delegate", cls}, {"tflite_double", cls_d}, {"tflite_single", cls_s}};
  net_json["top1_agree"] = cls == cls_d && cls == cls_s;
  nets_.push_back(net_json);
}

// The agreement of the network outputs with TFLite over all inputs.
void ModelReport::network_agreement() {
  const std::string n = std::to_string(run_.networks.size());
  if (run_.networks.size() > 1) {
    std::vector<double> pct_d, pct_s;
    int max_d = 0, max_s = 0;
    for (const NetworkOutput& o : run_.networks) {
      const ops::Distance dd = ops::int8_distance(o.cpu_double, o.delegate);
      const ops::Distance ds = ops::int8_distance(o.cpu_single, o.delegate);
      pct_d.push_back(dd.exact_pct());
      pct_s.push_back(ds.exact_pct());
      max_d = std::max(max_d, dd.max_abs_diff);
      max_s = std::max(max_s, ds.max_abs_diff);
    }
    m_.table.push_back("    network output vs TFLite on the CPU over " + n + " inputs: exact % min/median/max " +
                       spread(pct_d, 2) + " (double), " + spread(pct_s, 2) + " (single); largest |diff| " +
                       std::to_string(max_d) + " / " + std::to_string(max_s));
  }
  m_.table.push_back("    top-1 agreement with TFLite on the CPU over " + n + " input(s): " + std::to_string(agree_d_) +
                     "/" + n + " (double rounding), " + std::to_string(agree_s_) + "/" + n + " (single)");
  m_.extra["network.top1_agree_double"] = agree_d_;
  if (run_.tflite_rounding && run_.networks.size() > 1) {
    m_.table.push_back("    network outputs bit-exact vs TFLite CPU (" + std::string(rounding_name(*run_.tflite_rounding)) +
                       " rounding): " + std::to_string(bit_exact_) + " of " + n + " input(s)");
  }
  if (run_.tflite_rounding) m_.extra["network.bit_exact_inputs"] = bit_exact_;
  AnomalyScores scores{target_.name(), "tflite_double", {}, {}};
  for (const NetworkOutput& o : run_.networks) {
    if (!o.anomaly) break;
    scores.dut.push_back(o.anomaly->first);
    scores.reference.push_back(o.anomaly->second);
  }
  if (!scores.dut.empty()) {
    m_.table.push_back("  " + anomaly_line(scores));
    anomaly_json_ = anomaly_json(scores);
  }
  m_.extra["network.top1_agree_single"] = agree_s_;
  m_.extra["network.inputs"] = static_cast<double>(run_.networks.size());
}

void ModelReport::close_table() {
  cpu_rows();
  partition();
  std::stable_sort(rows_.begin(), rows_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& r : rows_) m_.table.push_back("    " + r.second);
  not_run_lines();
  if (run_.networks.size() > 1) drift_over_inputs();
  for (std::size_t k = 0; k < run_.networks.size(); ++k) network_output(k, run_.networks[k]);
  if (!run_.networks.empty()) network_agreement();
  m_.extra["layers_on_" + target_.name()] = static_cast<double>(layers_.size());
  m_.extra["layers_bit_exact"] = static_cast<double>(exact_n_);
  m_.extra["ops_not_supported"] = static_cast<double>(run_.not_run.size());
}

Metrics ModelReport::finish() {
  nlohmann::json rep{{"model", run_.model_path}, {"layers", layer_json_}, {"not_supported", not_run_json_}};
  if (!run_.networks.empty()) {
    rep["mode"] = "delegate";
    rep["network_output"] = nets_.at(0);  // the first input's
    rep["network_outputs"] = nets_;
    rep["top1_agreement"] = {{"inputs", run_.networks.size()}, {"tflite_double", agree_d_}, {"tflite_single", agree_s_}};
    if (!anomaly_json_.is_null()) rep["anomaly_score"] = anomaly_json_;
  }
  if (!m_.report_json.empty()) rep.update(nlohmann::json::parse(m_.report_json));  // the target's run-wide fields
  m_.report_json = rep.dump();
  return m_;
}

}  // namespace cosim::tb::model_replay
