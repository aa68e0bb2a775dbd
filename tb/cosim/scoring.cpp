#include "cosim/scoring.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/text.hpp"
#include "cosim/output_format.hpp"
#include "scoreboard/check_strength.hpp"
#include "scoreboard/mismatch_map.hpp"

using nlohmann::json;

namespace cosim::tb {

namespace {

Comparison compare_check(const CheckCapture& c, std::size_t max_report, const WriteLog& log) {
  CompareOptions co;
  co.name = c.desc.name;
  co.max_report = max_report;
  co.base_addr = c.base_addr;
  co.log = &log;
  if (c.desc.strided()) co.element_offset = [&c](int64_t i) { return c.desc.memory_offset(i); };
  if (!c.stream_cycles.empty()) {
    // A stream element's cycle: when its last byte was handed over.
    const std::size_t esize = dtype_size(c.desc.dtype);
    co.element_cycle = [&c, esize](int64_t i) -> std::optional<uint64_t> {
      const std::size_t last = static_cast<std::size_t>(i + 1) * esize - 1;
      if (last >= c.stream_cycles.size()) return std::nullopt;  // past what the DUT gave
      return c.stream_cycles[last];
    };
  }
  return compare(c.expected, c.actual, co);
}

// What was checked: the check's tensor, where it lives, the counts.
json check_json(const CheckCapture& c, const Comparison& cmp) {
  json jc;
  jc["name"] = cmp.name;
  jc["dtype"] = dtype_name(c.desc.dtype);
  jc["shape"] = c.desc.shape;
  jc["layout"] = trace::layout_name(c.desc.layout);
  if (c.base_addr) jc["address"] = hex(*c.base_addr);
  if (!c.stream.empty()) jc["stream"] = c.stream;
  jc["elements"] = cmp.elements;
  jc["mismatches"] = cmp.mismatches;
  return jc;
}

}  // namespace

json value_json(const std::string& text, double value) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string digits = negative ? text.substr(1) : text;
  if (digits.empty() || digits.size() > 20 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return value;
  }
  const json exact = json::parse(text, nullptr, false);
  return exact.is_number_integer() ? exact : json(value);
}

namespace {

json mismatch_json(const Mismatch& m) {
  json jm;
  jm["index"] = m.index;
  jm["coords"] = m.coords;
  jm["expected"] = value_json(m.expected_text, m.expected);
  jm["actual"] = value_json(m.actual_text, m.actual);
  if (m.address) jm["address"] = hex(*m.address);
  jm["write_cycle"] = m.cycle ? json(*m.cycle) : json(nullptr);
  return jm;
}

std::string mismatch_line(const std::string& check, const Mismatch& m) {
  std::string line =
      "  " + check + "[" + m.coords + "]: expected " + m.expected_text + ", got " + m.actual_text;
  if (m.address) line += " at " + hex(*m.address);
  if (m.cycle) line += ", written at cycle " + std::to_string(*m.cycle);
  else if (m.address) line += ", never written by the DUT";  // a stream's element has no address, no write cycle
  return line;
}

json weak_json(const WeakCheck& w) {
  return {{"value", w.value}, {"count", w.count}, {"elements", w.elements}, {"fraction", w.fraction()},
          {"constant", w.constant()}};
}

std::string weak_line(const std::string& check, const WeakCheck& w) {
  const std::string share = w.constant() ? "all " + std::to_string(w.elements) + " expected elements are "
                                         : fixed_text(w.fraction() * 100.0, 2) + " % of " +
                                               std::to_string(w.elements) + " expected elements are ";
  return "  weak        " + check + ": " + share + value_text(w.value) + ": a DUT writing only " +
         value_text(w.value) + (w.constant() ? " would pass" : " would miss few") + "; the check proves little";
}

json mismatch_map_json(const Tensor& expected, const Tensor& actual) {
  const MismatchMap mm = mismatch_map(expected, actual);
  return {{"row_axis", mm.row_axis},     {"col_axis", mm.col_axis},     {"rows", mm.rows},
          {"cols", mm.cols},             {"row_extent", mm.row_extent}, {"col_extent", mm.col_extent},
          {"row_step", mm.row_step},     {"col_step", mm.col_step},     {"counts", mm.counts}};
}

// The workload's references of each check, in the workload's order (a
// network over many inputs has thousands of checks: one lookup each).
using ReferencesByCheck = std::unordered_map<std::string, std::vector<const Reference*>>;

ReferencesByCheck references_by_check(const Workload* workload) {
  ReferencesByCheck by_check;
  if (workload == nullptr) return by_check;
  for (const Reference& r : workload->references) by_check[r.check].push_back(&r);
  return by_check;
}

// Distance of this output to each reference semantics of the workload.
json distances_json(const CheckCapture& c, const Workload* workload, const ReferencesByCheck& references) {
  json dist = json::array();
  if (workload == nullptr) return dist;
  const auto found = references.find(c.desc.name);
  if (found == references.end()) return dist;
  for (const Reference* ref : found->second) {
    const Reference& r = *ref;
    const Distance d = distance(r.semantics, r.tensor, c.actual);
    json jd = {{"reference", d.reference}, {"exact_pct", d.exact_pct}, {"max_abs_diff", d.max_abs_diff},
               {"elements", d.elements}, {"histogram", d.histogram}};
    if (workload->output_format) jd["output_format"] = format_distance(*workload, c.desc.name, r.tensor, c.actual);
    dist.push_back(std::move(jd));
  }
  return dist;
}

// The listed mismatches of one check: into its JSON, the console lines, and
// the race for the first divergence (strictly earlier wins, so ties keep
// check order and index).
json list_mismatches(const Comparison& cmp, Scores& scores) {
  const auto write_cycle = [](const Mismatch& x) { return x.cycle.value_or(UINT64_MAX); };
  json first = json::array();
  for (const Mismatch& m : cmp.first) {
    if (!scores.first_mismatch || write_cycle(m) < write_cycle(scores.first_mismatch->mismatch)) {
      scores.first_mismatch = FirstMismatch{cmp.name, m};
    }
    first.push_back(mismatch_json(m));
    scores.mismatch_lines.push_back(mismatch_line(cmp.name, m));
  }
  return first;
}

void score_check(const CheckCapture& c, const Workload* workload, const ReferencesByCheck& references,
                 std::size_t max_report, const WriteLog& log, Scores& scores) {
  const Comparison cmp = compare_check(c, max_report, log);
  scores.mismatches += cmp.mismatches;
  scores.elements += cmp.elements;
  json jc = check_json(c, cmp);
  jc["first_mismatches"] = list_mismatches(cmp, scores);
  // Weak: a constant (or > 99 % one-value) expected tensor; still compared.
  if (const std::optional<WeakCheck> w = weak_check(c.expected)) {
    jc["weak"] = weak_json(*w);
    scores.weak_names.push_back(cmp.name);
    scores.weak_lines.push_back(weak_line(cmp.name, *w));
  } else {
    jc["weak"] = nullptr;
  }
  if (cmp.mismatches > 0) jc["mismatch_map"] = mismatch_map_json(c.expected, c.actual);
  jc["distance"] = distances_json(c, workload, references);
  if (workload != nullptr && workload->output_format) {
    jc["output_format"] = format_distance(*workload, c.desc.name, c.expected, c.actual);
  }
  scores.checks.push_back(jc);
}

// report.json "distance": every check's figures in one list, each naming its check.
json distances_by_check(const json& checks) {
  json all = json::array();
  for (const auto& jc : checks) {
    for (const auto& d : jc["distance"]) {
      json e = d;
      e["check"] = jc["name"];
      all.push_back(e);
    }
  }
  return all;
}

// Register checks (reg_check): each one a read that held or not.
void score_register_checks(const std::vector<RegCheck>& reg_checks, std::size_t max_report, Scores& scores) {
  scores.register_count = static_cast<int64_t>(reg_checks.size());
  scores.register_all_listed = reg_checks.size() <= kRegisterChecksListed;
  for (const RegCheck& r : reg_checks) {
    scores.register_failed += r.held() ? 0 : 1;
    if (!r.held() && !scores.first_register_failure) scores.first_register_failure = r;
    const bool listed = scores.register_all_listed || (!r.held() && scores.register_checks.size() < kRegisterChecksListed);
    if (listed) {
      scores.register_checks.push_back({{"name", r.name}, {"offset", hex(r.offset)}, {"value", r.value},
                                        {"expected", r.expected}, {"mask", r.mask}, {"held", r.held()},
                                        {"cycle", r.cycle}, {"line", r.line > 0 ? json(r.line) : json(nullptr)},
                                        {"text", r.text()}});
    }
    if (!r.held() && scores.register_lines.size() < max_report) {
      scores.register_lines.push_back("  " + r.text() + ", at cycle " + std::to_string(r.cycle));
    }
  }
  const int64_t unprinted = scores.register_failed - static_cast<int64_t>(scores.register_lines.size());
  if (unprinted > 0) {
    scores.register_lines.push_back("  ... " + std::to_string(unprinted) +
                                    " more failing register checks in report.json \"register_checks\"");
  }
}

}  // namespace

Scores score_checks(const PlayResult& play, const Workload* workload, std::size_t max_report, const WriteLog& log) {
  Scores scores;
  const ReferencesByCheck references = references_by_check(workload);
  for (const CheckCapture& c : play.checks) score_check(c, workload, references, max_report, log, scores);
  scores.distances = distances_by_check(scores.checks);
  score_register_checks(play.reg_checks, max_report, scores);
  return scores;
}

Verdict verdict(const Scores& scores, const PlayResult& play, const std::vector<std::string>& dut_errors) {
  Verdict v;
  // PASS rests on at least one check that held: a compared element or a
  // register read; bus protocol violations fail the run even when the bytes
  // match.
  v.checked = scores.elements > 0 || !play.reg_checks.empty();
  v.pass = v.checked && scores.mismatches == 0 && scores.register_failed == 0 && dut_errors.empty();
  v.status = v.pass                                                   ? "pass"
             : scores.mismatches > 0 || scores.register_failed > 0 ? "mismatch"
             : !dut_errors.empty()                                    ? "dut_error"
                                                                      : "no_check";
  if (!v.checked) {
    v.no_check_reason = play.checks.empty() ? "the run has no check: nothing on the DUT was compared"
                                            : "every check was empty: no element was compared";
  }
  return v;
}

}  // namespace cosim::tb
