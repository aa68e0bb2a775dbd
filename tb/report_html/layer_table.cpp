#include "report_html/layer_table.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

#include "report_html/html.hpp"

namespace cosim::tb::report_html {

namespace {

using nlohmann::json;

// A number field; "inf" (an exact SNR, as model_replay::snr_db_json writes
// it) is +inf, "-inf" (a reference of zeros) -inf.
std::optional<double> num(const json& l, const std::string& key) {
  if (!l.contains(key)) return std::nullopt;
  const json& v = l[key];
  if (v.is_number()) return v.get<double>();
  if (v.is_string() && v.get<std::string>() == "inf") return std::numeric_limits<double>::infinity();
  if (v.is_string() && v.get<std::string>() == "-inf") return -std::numeric_limits<double>::infinity();
  return std::nullopt;
}

std::string db_text(double v) { return std::isinf(v) ? (v > 0 ? "\u221e" : "-\u221e") : number(v, 1); }

struct Cell {
  std::string html;   // already escaped
  std::string cls;    // extra class of the <td>
  std::string title;  // tooltip, plain text
};

struct Column {
  std::string header;  // HTML
  std::string title;   // what it means, plain text (the header's tooltip)
  bool num = false;
  std::function<std::optional<Cell>(const json&)> get;
};

// "cpu", the target's name, or "tf2:opN" (fused into operator N's check).
std::optional<Cell> where_cell(const json& l) {
  if (!l.contains("where") || !l["where"].is_string()) return std::nullopt;
  const std::string w = l["where"].get<std::string>();
  std::string title = "report.json where: " + w;
  if (l.contains("reason") && l["reason"].is_string()) title += "; " + l["reason"].get<std::string>();
  if (w == "cpu") return Cell{"CPU", "where-cpu", title};
  if (const auto at = w.find(":op"); at != std::string::npos) {
    return Cell{"fused into op " + escape(w.substr(at + 3)), "where-fused", title};
  }
  return Cell{"DUT", "where-dut", title};
}

// true / false / null or absent (nothing checked).
std::optional<bool> exact_of(const json& l) {
  if (l.contains("bit_exact") && l["bit_exact"].is_boolean()) return l["bit_exact"].get<bool>();
  return std::nullopt;
}

std::optional<Cell> exact_cell(const json& l) {
  const auto e = exact_of(l);
  if (e) return *e ? Cell{"yes", "exact-yes", ""} : Cell{"<b>NO</b>", "exact-no", "the DUT's output differs from the golden model's"};
  const auto w = where_cell(l);
  const std::string why = !w                  ? "nothing of this operator was checked"
                          : w->cls == "where-cpu" ? "runs on the CPU: nothing of the DUT to check"
                          : w->cls == "where-fused"
                              ? "fused into another operator: checked with that operator's output"
                              : "nothing of this operator was checked";
  return Cell{"\u2014", "exact-none", why};
}

std::optional<Cell> number_cell(const json& l, const std::string& key, int precision = 0) {
  const auto v = num(l, key);
  if (!v) return std::nullopt;
  return Cell{number(*v, precision), "", ""};
}

std::optional<Cell> pct_cell(const json& l, const std::string& key) {
  const auto v = num(l, key);
  if (!v) return std::nullopt;
  return Cell{number(*v * 100.0, 1), "", ""};
}

// An SNR in dB; below kUsableSnrDb the cell says the output is noise.
std::optional<Cell> snr_cell(std::optional<double> v) {
  if (!v) return std::nullopt;
  const bool low = *v < kUsableSnrDb;
  return Cell{db_text(*v), low ? "low" : "", low ? "below " + number(kUsableSnrDb) + " dB: mostly noise" : ""};
}

std::optional<Cell> diff_cell(std::optional<double> v) {
  if (!v) return std::nullopt;
  return Cell{escape(value_text(json(*v))), "", ""};
}

std::string pretty_ref(const std::string& ref) {
  if (ref.rfind("tflite_", 0) == 0) return "TFLite " + ref.substr(7);
  return ref;
}

std::string raw_fields(const json& l) {
  std::ostringstream o;
  for (const auto& [k, v] : l.items()) {
    o << "<code>" << escape(k) << "</code> " << escape(v.is_object() || v.is_array() ? v.dump() : value_text(v))
      << "<br>";
  }
  return o.str();
}

std::vector<Column> columns(const std::vector<json>& layers) {
  std::vector<std::string> refs;
  for (const auto& l : layers) {
    if (!l.contains("distance") || !l["distance"].is_object()) continue;
    for (const auto& [ref, unused] : l["distance"].items()) {
      (void)unused;
      if (std::find(refs.begin(), refs.end(), ref) == refs.end()) refs.push_back(ref);
    }
  }
  std::vector<Column> c;
  c.push_back({"op", "the operator's index in the model", true, [](const json& l) { return number_cell(l, "op_index"); }});
  c.push_back({"input", "which of the scenario's inputs", true, [](const json& l) { return number_cell(l, "input"); }});
  c.push_back({"type", "", false, [](const json& l) -> std::optional<Cell> {
                 if (!l.contains("type") || !l["type"].is_string()) return std::nullopt;
                 return Cell{escape(l["type"].get<std::string>()), "type", ""};
               }});
  c.push_back({"shapes", "input(s) -> output, kernel and stride", false, [](const json& l) -> std::optional<Cell> {
                 if (!l.contains("shapes") || !l["shapes"].is_string() || l["shapes"].get<std::string>().empty()) {
                   return std::nullopt;
                 }
                 return Cell{escape(l["shapes"].get<std::string>()), "shapes", ""};
               }});
  c.push_back({"where", "DUT: on the accelerator; CPU: on the host; fused: part of another operator's run", false,
               where_cell});
  c.push_back({"exact", "bit for bit against the golden model: yes, NO, or \u2014 when nothing of it was checked", false,
               exact_cell});
  c.push_back({"cycles", "the DUT's cycles on this operator", true, [](const json& l) { return number_cell(l, "cycles"); }});
  c.push_back({"cycles / input", "the DUT's cycles on this operator, per input", true,
               [](const json& l) { return number_cell(l, "cycles_per_input"); }});
  c.push_back({"MACs", "multiply-accumulates the operator needs", true, [](const json& l) -> std::optional<Cell> {
                 const auto w = where_cell(l);
                 const auto v = num(l, "macs");
                 // 0 on the CPU or in a fused ADD means "not on the MAC array", not a figure.
                 if (!v || (*v == 0 && (!w || w->cls != "where-dut"))) return std::nullopt;
                 return Cell{number(*v), "", ""};
               }});
  c.push_back({"util. %", "MACs / (the array's MACs per cycle \u00d7 cycles)", true,
               [](const json& l) { return l.contains("utilization") ? pct_cell(l, "utilization") : pct_cell(l, "pe_utilization"); }});
  c.push_back({"compute bound %",
               "the best GEMM utilization this program allows with LOAD and STORE fully hidden: "
               "GEMM uops / all COMPUTE uops and loads",
               true, [](const json& l) { return pct_cell(l, "compute_bound"); }});
  for (const auto& ref : refs) {
    c.push_back({"vs " + escape(pretty_ref(ref)) + "<br>exact % / max |diff|",
                 "the DUT's int8 output against " + ref + ": elements equal, and the largest difference", true,
                 [ref](const json& l) -> std::optional<Cell> {
                   if (!l.contains("distance") || !l["distance"].is_object() || !l["distance"].contains(ref)) {
                     return std::nullopt;
                   }
                   const json& d = l["distance"][ref];
                   if (!d.is_object()) return std::nullopt;
                   return Cell{number(d.value("exact_pct", 0.0), 2) + " % / " +
                                   escape(value_text(d.value("max_abs_diff", json()))),
                               "", ""};
                 }});
  }
  // tiny-dnn: each operator's output against the float32 model's tensor.
  c.push_back({"SNR vs float32<br>(dB)", "signal-to-noise ratio of the operator's output against the float32 model's", true,
               [](const json& l) -> std::optional<Cell> {
                 if (!l.contains("float32_drift") || !l["float32_drift"].is_object()) return std::nullopt;
                 return snr_cell(num(l["float32_drift"], "snr_db"));
               }});
  c.push_back({"max |diff| vs float32", "the largest difference from the float32 model's output", true,
               [](const json& l) -> std::optional<Cell> {
                 if (!l.contains("float32_drift") || !l["float32_drift"].is_object()) return std::nullopt;
                 return diff_cell(num(l["float32_drift"], "max_abs_diff"));
               }});
  // TF2: the layer alone, its weights' compression alone, and the network so far.
  c.push_back({"layer SNR<br>(dB)",
               "the DUT's output (dequantized) against the model's float operator(s) run on the same input", true,
               [](const json& l) { return snr_cell(num(l, "layer_snr_db")); }});
  c.push_back({"layer max |err|", "the largest difference of the layer's output from the float operator's", true,
               [](const json& l) { return diff_cell(num(l, "layer_max_abs_err")); }});
  c.push_back({"INQ weights SNR<br>(dB)",
               "the layer in float with its INQ (power-of-two) weights against the float operator: "
               "the cost of compressing the weights alone",
               true, [](const json& l) { return snr_cell(num(l, "inq_snr_db")); }});
  c.push_back({"network SNR<br>(dB)",
               "the output here against the float model's own tensor: the drift accumulated from the network's input",
               true, [](const json& l) { return snr_cell(num(l, "network_snr_db")); }});
  return c;
}

}  // namespace

std::optional<LayerDrift> layer_drift(const json& l) {
  if (!l.is_object()) return std::nullopt;
  LayerDrift d;
  if (l.contains("float32_drift") && l["float32_drift"].is_object()) {
    d.snr_db = num(l["float32_drift"], "snr_db");
    d.max_abs = num(l["float32_drift"], "max_abs_diff");
  } else {
    d.snr_db = num(l, "layer_snr_db");
    d.max_abs = num(l, "layer_max_abs_err");
  }
  if (!d.snr_db && !d.max_abs) return std::nullopt;
  return d;
}

std::vector<json> all_layers(const json& r) {
  const json given = r.value("layers", json::array());
  std::vector<json> layers;
  if (!given.is_array()) return layers;
  for (const auto& l : given) {
    if (l.is_object()) layers.push_back(l);
  }
  if (layers.empty()) return layers;
  bool per_input = false;
  for (const auto& l : layers) per_input = per_input || l.contains("input");
  const json ns = r.value("not_supported", json::array());
  for (const auto& n : ns.is_array() ? ns : json::array()) {
    if (!n.is_object() || !n.contains("op_index")) continue;
    const bool listed = std::any_of(layers.begin(), layers.end(), [&](const json& l) {
      return l.value("op_index", json()) == n["op_index"];
    });
    if (listed) continue;
    json row = n;
    row["where"] = "cpu";
    layers.push_back(row);
  }
  // One pass of the network: op order. (Several inputs: the layers as written, CPU operators last.)
  if (!per_input) {
    std::stable_sort(layers.begin(), layers.end(), [](const json& a, const json& b) {
      const auto x = num(a, "op_index"), y = num(b, "op_index");
      return x && y ? *x < *y : static_cast<bool>(x) && !y;
    });
  }
  return layers;
}

std::string layer_table(const json& r) {
  const std::vector<json> layers = all_layers(r);
  if (layers.empty()) return "";
  std::vector<Column> shown;
  for (auto& c : columns(layers)) {
    const bool any = std::any_of(layers.begin(), layers.end(), [&](const json& l) { return c.get(l).has_value(); });
    if (any) shown.push_back(std::move(c));
  }
  std::ostringstream o;
  o << "<table class=\"layers\" id=\"layers\"><thead><tr>";
  for (const auto& c : shown) {
    o << "<th" << (c.num ? " class=\"num\"" : "") << (c.title.empty() ? "" : " title=\"" + escape(c.title) + "\"") << ">"
      << c.header << "</th>";
  }
  o << "<th class=\"raw\" title=\"every field report.json has for the operator\">fields</th></tr></thead>\n<tbody>\n";
  for (const auto& l : layers) {
    const auto e = exact_of(l);
    const auto w = where_cell(l);
    std::string cls = "layer";
    if (e && !*e) cls += " bad";
    if (!e) cls += " unchecked";
    if (w && w->cls == "where-cpu") cls += " cpu";
    o << "<tr class=\"" << cls << "\">";
    for (const auto& c : shown) {
      const auto cell = c.get(l);
      std::string td = std::string(c.num ? "num " : "") + (cell ? cell->cls : std::string());
      while (!td.empty() && td.back() == ' ') td.pop_back();
      o << "<td" << (td.empty() ? "" : " class=\"" + td + "\"")
        << (cell && !cell->title.empty() ? " title=\"" + escape(cell->title) + "\"" : "") << ">"
        << (cell ? cell->html : "<span class=\"none\">\u2013</span>") << "</td>";
    }
    o << "<td class=\"raw\"><details><summary>fields</summary><div class=\"raw-fields\">" << raw_fields(l)
      << "</div></details></td></tr>\n";
  }
  o << "</tbody></table>\n";
  return o.str();
}

}  // namespace cosim::tb::report_html
