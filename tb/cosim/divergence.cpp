#include "cosim/divergence.hpp"

#include "common/text.hpp"

using nlohmann::json;

namespace cosim::tb {

Divergence first_divergence(const TargetBackend& backend, const Workload* workload, const trace::Trace& tr,
                            const std::optional<FirstMismatch>& first) {
  Divergence d;
  if (!first) return d;
  const Mismatch& m = first->mismatch;
  d.found = true;
  d.cycle = m.cycle;
  d.report = {{"check", first->check},   {"index", m.index},   {"coords", m.coords},
              {"cycle", m.cycle ? json(*m.cycle) : json(nullptr)},
              {"expected", value_json(m.expected_text, m.expected)},  {"actual", value_json(m.actual_text, m.actual)},
              {"write_cycle", m.cycle ? json(*m.cycle) : json(nullptr)}};
  if (m.address) d.report["address"] = hex(*m.address);
  d.line = first->check + "[" + m.coords + "]";
  // Only memory is logged by write: a stream's element has no address and no write cycle.
  if (m.cycle) d.line += " written at cycle " + std::to_string(*m.cycle);
  else if (m.address) d.line += " never written";
  if (const std::optional<WorkUnit> unit = backend.work_unit(workload, tr, first->check, m.index, m.address)) {
    d.report["unit"] = {{"text", unit->text}, {"fields", unit->fields}};
    d.line += " by " + unit->text;
  }
  return d;
}

Divergence register_divergence(const RegCheck& failed) {
  Divergence d;
  d.found = true;
  d.cycle = failed.cycle;
  d.report = {{"register", failed.name}, {"offset", hex(failed.offset)}, {"expected", failed.expected},
              {"actual", failed.value},  {"mask", failed.mask},          {"cycle", failed.cycle}};
  d.line = "register " + failed.name + " read at cycle " + std::to_string(failed.cycle);
  return d;
}

}  // namespace cosim::tb
