#include "cosim/backend.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace cosim::tb {

Metrics TargetBackend::metrics(const Workload* w, const SimOutcome& run) const {
  (void)run;
  Metrics m;
  if (w != nullptr) m.macs = w->macs;
  return m;
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
