#include "cosim/backend.hpp"

#include <algorithm>

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

std::map<std::string, uint64_t> TargetBackend::merge_perf_counters(const std::vector<PerfSlice>& slices) const {
  std::map<std::string, uint64_t> sum;
  for (const PerfSlice& s : slices) {
    for (const auto& [k, v] : s.perf) sum[k] += v;
  }
  return sum;
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
