#include "cosim/backend.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

#include "common/error.hpp"
#include "cosim/operator.hpp"

namespace cosim::tb {

TargetBackend::TargetBackend() = default;
TargetBackend::~TargetBackend() = default;

void TargetBackend::add_operator(std::unique_ptr<Operator> op) {
  if (lookup(op->name()) != nullptr) {
    throw std::logic_error("target " + name() + ": op '" + op->name() + "' registered twice");
  }
  operators_.push_back(std::move(op));
}

void TargetBackend::add_operators(std::vector<std::unique_ptr<Operator>> ops) {
  for (auto& op : ops) add_operator(std::move(op));
}

const Operator* TargetBackend::lookup(const std::string& op) const {
  for (const auto& o : operators_) {
    if (o->name() == op) return o.get();
  }
  return nullptr;
}

const Operator& TargetBackend::find_operator(const std::string& op) const {
  if (const Operator* o = lookup(op)) return *o;
  std::string known;
  for (const auto& o : operators_) known += (known.empty() ? "" : "|") + o->name();
  throw InputError("target " + name() + " has no op '" + op + "'; expected one of " +
                   (known.empty() ? "(none registered)" : known));
}

std::vector<std::string> TargetBackend::ops() const {
  std::vector<std::string> out;
  for (const auto& o : operators_) out.push_back(o->name());
  return out;
}

scenario::Schema TargetBackend::op_schema(const std::string& op) const { return find_operator(op).schema(); }

Workload TargetBackend::prepare(const scenario::Scenario& sc) const {
  check_scenario(sc);
  return find_operator(sc.op).prepare(sc);
}

trace::Trace TargetBackend::compile(const scenario::Scenario& sc, const Workload& w) const {
  const Operator* op = w.state.owner();
  return (op != nullptr ? *op : find_operator(sc.op)).compile(sc, w);
}

std::size_t TargetBackend::independent_inputs(const scenario::Scenario& sc) const {
  return find_operator(sc.op).independent_inputs(sc);
}

std::optional<std::pair<std::size_t, std::string>> numbered_run_counter(const std::string& key) {
  if (key.size() < 6 || key.compare(0, 3, "run") != 0 || !std::isdigit(static_cast<unsigned char>(key[3]))) {
    return std::nullopt;
  }
  std::size_t end = 3;
  while (end < key.size() && std::isdigit(static_cast<unsigned char>(key[end]))) ++end;
  if (end - 3 > 9 || end + 1 >= key.size() || key[end] != '_') return std::nullopt;
  return std::make_pair(static_cast<std::size_t>(std::stoul(key.substr(3, end - 3))), key.substr(end + 1));
}

std::map<std::string, uint64_t> TargetBackend::merge_perf_counters(const std::vector<PerfSlice>& slices) const {
  std::map<std::string, uint64_t> merged;
  std::size_t runs_before = 0;  // the runs of the slices before this one
  for (const PerfSlice& s : slices) {
    std::size_t runs = 0;
    for (const auto& [k, v] : s.perf) {
      if (const auto run = numbered_run_counter(k)) {
        merged["run" + std::to_string(runs_before + run->first) + "_" + run->second] = v;
        runs = std::max(runs, run->first + 1);
      } else {
        merged[k] += v;
      }
    }
    runs_before += runs;
  }
  return merged;
}

Metrics TargetBackend::metrics(const Workload* w, const SimOutcome& run) const {
  if (w == nullptr) {
    Metrics m = replay_metrics(run);
    const auto op = run.trace_config.find("op");
    const Operator* o = op == run.trace_config.end() ? nullptr : lookup(op->second);
    if (o != nullptr) o->replay_metrics(run, m);
    return m;
  }
  if (w->state.owner() != nullptr) return w->state.owner()->metrics(*w, run);
  Metrics m;  // a workload no operator prepared
  m.macs = w->macs;
  return m;
}

std::optional<WorkUnit> TargetBackend::work_unit(const Workload* w, const trace::Trace& tr, const std::string& check,
                                                 const std::vector<int64_t>& index,
                                                 std::optional<uint64_t> address) const {
  if (w == nullptr) return replay_work_unit(tr, check, index, address);
  if (w->state.owner() == nullptr) return std::nullopt;
  return w->state.owner()->work_unit(*w, tr, check, index, address);
}

void BackendRegistry::add(std::unique_ptr<TargetBackend> backend) {
  if (find(backend->name()) != nullptr) {
    throw InputError("target '" + backend->name() + "' registered twice" +
                     (origin_.empty() ? std::string() : " (again by " + origin_ + ")"));
  }
  if (!origin_.empty()) origins_[backend->name()] = origin_;
  backends_.push_back(std::move(backend));
  std::sort(backends_.begin(), backends_.end(),
            [](const auto& a, const auto& b) { return a->name() < b->name(); });
}

std::string BackendRegistry::origin(const std::string& name) const {
  const auto it = origins_.find(name);
  return it == origins_.end() ? std::string() : it->second;
}

const TargetBackend* BackendRegistry::find(const std::string& name) const {
  for (const auto& b : backends_) {
    if (b->name() == name) return b.get();
  }
  return nullptr;
}

const TargetBackend& BackendRegistry::get(const std::string& name) const {
  const TargetBackend* b = find(name);
  if (b == nullptr) {
    std::string known;
    for (const auto& x : backends_) known += (known.empty() ? "" : "|") + x->name();
    throw InputError("unknown target '" + name + "'; expected one of " + (known.empty() ? "(none built)" : known));
  }
  return *b;
}

std::vector<const TargetBackend*> BackendRegistry::all() const {
  std::vector<const TargetBackend*> out;
  for (const auto& b : backends_) out.push_back(b.get());
  return out;
}

std::vector<scenario::TargetSchema> BackendRegistry::schemas() const {
  std::vector<scenario::TargetSchema> out;
  for (const auto& b : backends_) {
    const TargetBackend* p = b.get();
    out.push_back({p->name(), p->ops(), [p](const std::string& op) { return p->op_schema(op); }});
  }
  return out;
}

}  // namespace cosim::tb
