#include "report_html/layer_table.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "report_html/html.hpp"

namespace cosim::tb::report_html {

namespace {

// Shown first, in this order, when present; "distance" becomes one column
// per reference semantics.
const std::vector<std::string> kLeading = {"op_index", "type", "shapes", "where", "bit_exact", "input_from"};
const std::vector<std::string> kTrailing = {"cycles", "utilization", "macs", "instructions"};

std::string cell(const std::string& key, const nlohmann::json& v) {
  if (key == "utilization" && v.is_number()) return percent(v.get<double>());
  if (key == "input_from" && v.is_object()) {
    if (v.value("dram", false)) return "DRAM" + (v.contains("op_index") ? " op " + value_text(v["op_index"]) : std::string());
    return "host";
  }
  return value_text(v);
}

}  // namespace

std::string layer_table(const nlohmann::json& r) {
  nlohmann::json layers = r.value("layers", nlohmann::json::array());
  if (!layers.is_array() || layers.empty()) return "";
  // The operators the target does not run ("not_supported"), as the console lists them: on the CPU.
  for (const auto& n : r.value("not_supported", nlohmann::json::array())) {
    if (!n.is_object() || !n.contains("op_index")) continue;
    const bool listed = std::any_of(layers.begin(), layers.end(), [&](const nlohmann::json& l) {
      return l.is_object() && l.value("op_index", nlohmann::json()) == n["op_index"];
    });
    if (!listed) layers.push_back({{"op_index", n["op_index"]}, {"type", n.value("type", nlohmann::json())}, {"where", "cpu"}});
  }
  std::vector<std::string> refs, extra;
  for (const auto& l : layers) {
    if (!l.is_object()) continue;
    for (const auto& [k, v] : l.items()) {
      if (k == "distance" && v.is_object()) {
        for (const auto& [ref, unused] : v.items()) {
          (void)unused;
          if (std::find(refs.begin(), refs.end(), ref) == refs.end()) refs.push_back(ref);
        }
      } else if (!v.is_object() && !v.is_array() && std::find(kLeading.begin(), kLeading.end(), k) == kLeading.end() &&
                 std::find(kTrailing.begin(), kTrailing.end(), k) == kTrailing.end() &&
                 std::find(extra.begin(), extra.end(), k) == extra.end()) {
        extra.push_back(k);
      }
    }
  }
  auto present = [&](const std::string& k) {
    return std::any_of(layers.begin(), layers.end(), [&](const nlohmann::json& l) { return l.is_object() && l.contains(k); });
  };
  std::vector<std::string> lead, trail;
  for (const auto& k : kLeading) if (present(k)) lead.push_back(k);
  for (const auto& k : kTrailing) if (present(k)) trail.push_back(k);
  std::ostringstream o;
  o << "<table class=\"layers\" id=\"layers\"><tr>";
  for (const auto& k : lead) o << "<th>" << escape(k == "op_index" ? "op" : k == "bit_exact" ? "bit-exact" : k) << "</th>";
  for (const auto& ref : refs) o << "<th>vs " << escape(ref) << "<br>exact % / max |diff|</th>";
  for (const auto& k : trail) o << "<th>" << escape(k) << "</th>";
  for (const auto& k : extra) o << "<th>" << escape(k) << "</th>";
  o << "</tr>\n";
  for (const auto& l : layers) {
    if (!l.is_object()) continue;
    const bool bad = l.contains("bit_exact") && l["bit_exact"].is_boolean() && !l["bit_exact"].get<bool>();
    o << "<tr class=\"layer" << (bad ? " bad" : "") << "\">";
    for (const auto& k : lead) o << "<td>" << escape(l.contains(k) ? cell(k, l[k]) : "-") << "</td>";
    for (const auto& ref : refs) {
      const nlohmann::json d = l.contains("distance") && l["distance"].is_object() ? l["distance"].value(ref, nlohmann::json())
                                                                                   : nlohmann::json();
      o << "<td>"
        << (d.is_object() ? number(d.value("exact_pct", 0.0), 2) + " % / " + value_text(d.value("max_abs_diff", nlohmann::json()))
                          : "-")
        << "</td>";
    }
    for (const auto& k : trail) o << "<td class=\"num\">" << escape(l.contains(k) ? cell(k, l[k]) : "-") << "</td>";
    for (const auto& k : extra) o << "<td>" << escape(l.contains(k) ? cell(k, l[k]) : "-") << "</td>";
    o << "</tr>\n";
  }
  o << "</table>\n";
  return o.str();
}

}  // namespace cosim::tb::report_html
