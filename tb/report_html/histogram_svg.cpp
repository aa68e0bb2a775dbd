#include "report_html/histogram_svg.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "report_html/html.hpp"
#include "report_html/layer_table.hpp"

namespace cosim::tb::report_html {

namespace {

// "0", "<=1/16", "<=4", ">128".
std::string bin_label(const std::vector<double>& bounds, std::size_t i) {
  if (i >= bounds.size()) return "> " + value_text(bounds.empty() ? 0.0 : bounds.back());
  const double b = bounds[i];
  if (b == 0) return "0";
  if (b < 1) return "\u2264 1/" + number(std::round(1 / b));
  return "\u2264 " + number(b);
}

std::string chart(const nlohmann::json& d, const std::vector<double>& bounds) {
  const std::vector<double> counts = d["histogram"].get<std::vector<double>>();
  // Bin 0 (exact), then from the first to the last non-empty bin.
  std::size_t first = counts.size(), last = 0;
  for (std::size_t i = 1; i < counts.size(); ++i) {
    if (counts[i] > 0) first = std::min(first, i), last = i;
  }
  std::vector<std::size_t> bins = {0};
  for (std::size_t i = first; i <= last && i < counts.size(); ++i) bins.push_back(i);
  const double peak = std::max(1.0, *std::max_element(counts.begin(), counts.end()));
  constexpr double kBar = 34, kHeight = 90, kTop = 16, kBottom = 30;
  const double width = std::max(150.0, kBar * static_cast<double>(bins.size()) + 10);
  std::ostringstream o;
  o << "<figure class=\"drift\"><figcaption>" << escape(d.value("check", "?")) << " vs "
    << escape(d.value("reference", "?")) << ": exact " << number(d.value("exact_pct", 0.0), 2) << " %, max |diff| "
    << value_text(d.value("max_abs_diff", nlohmann::json(nullptr))) << "</figcaption>"
    << "<svg class=\"histogram\" width=\"" << width << "\" height=\"" << kTop + kHeight + kBottom << "\">";
  for (std::size_t k = 0; k < bins.size(); ++k) {
    const double c = counts[bins[k]];
    const double h = c > 0 ? kHeight * std::log10(1 + c) / std::log10(1 + peak) : 0;
    const double x = 5 + kBar * static_cast<double>(k);
    o << "<rect class=\"hbar" << (bins[k] == 0 ? " exact" : "") << "\" x=\"" << x + 3 << "\" y=\""
      << kTop + kHeight - h << "\" width=\"" << kBar - 6 << "\" height=\"" << h << "\"><title>|diff| "
      << escape(bin_label(bounds, bins[k])) << ": " << number(c) << " elements</title></rect>"
      << "<text class=\"count\" x=\"" << x + kBar / 2 << "\" y=\"" << kTop + kHeight - h - 3 << "\">" << number(c)
      << "</text><text x=\"" << x + kBar / 2 << "\" y=\"" << kTop + kHeight + 14 << "\">"
      << escape(bin_label(bounds, bins[k])) << "</text>";
  }
  o << "<text x=\"5\" y=\"" << kTop + kHeight + 27 << "\" class=\"axis-note\">|diff| (log-scale counts)</text>";
  o << "</svg></figure>\n";
  return o.str();
}

// A float model's layers (tiny-dnn's float32_drift, TF2's layer / network
// SNR): one bar per layer, its SNR in dB against the float model, the
// kUsableSnrDb line, and TF2's network SNR so far as a tick.
std::string snr_chart(const nlohmann::json& report) {
  struct Row {
    std::string label;
    LayerDrift d;
    std::optional<double> network;
  };
  std::vector<Row> rows;
  double top = 40;
  for (const auto& l : all_layers(report)) {
    const auto d = layer_drift(l);
    if (!d || !d->snr_db) continue;
    Row r{"op " + value_text(l.value("op_index", nlohmann::json())) + " " + l.value("type", std::string()), *d, {}};
    const auto& n = l.value("network_snr_db", nlohmann::json());
    if (n.is_number()) r.network = n.get<double>();
    for (const auto v : {r.d.snr_db, r.network}) {
      if (v && std::isfinite(*v)) top = std::max(top, *v);
    }
    rows.push_back(r);
  }
  if (rows.empty()) return "";
  top = 10 * std::ceil(top / 10);
  constexpr double kLabel = 190, kBar = 520, kRow = 18, kHead = 22;
  const double height = kHead + kRow * static_cast<double>(rows.size()) + 8;
  const auto x_of = [&](double db) { return kLabel + kBar * std::clamp(db, 0.0, top) / top; };
  bool network = false;
  for (const auto& r : rows) network = network || r.network.has_value();
  std::ostringstream o;
  o << "<figure class=\"drift\"><figcaption>Per-layer drift against the float model: SNR in dB (higher is closer; "
    << "below " << number(kUsableSnrDb) << " dB the output is mostly noise)"
    << (network ? "; the tick is the network's SNR at that layer (the drift accumulated from the input)" : "")
    << "</figcaption><svg class=\"layer-snr\" id=\"layer-snr\" width=\"" << kLabel + kBar + 200 << "\" height=\""
    << height << "\">";
  for (double db = 0; db <= top; db += 10) {
    o << "<line class=\"grid\" x1=\"" << x_of(db) << "\" x2=\"" << x_of(db) << "\" y1=\"" << kHead - 4 << "\" y2=\""
      << height - 6 << "\"/><text class=\"grid-label\" x=\"" << x_of(db) << "\" y=\"" << kHead - 8 << "\">" << number(db)
      << (db == top ? " dB" : "") << "</text>";
  }
  o << "<line class=\"usable\" x1=\"" << x_of(kUsableSnrDb) << "\" x2=\"" << x_of(kUsableSnrDb) << "\" y1=\"" << kHead - 4
    << "\" y2=\"" << height - 6 << "\"/>";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const double y = kHead + kRow * static_cast<double>(i), snr = *r.d.snr_db;
    const bool low = snr < kUsableSnrDb;
    const std::string value = (std::isinf(snr) ? std::string("exact") : number(snr, 1) + " dB") +
                              (r.d.max_abs ? ", max |diff| " + value_text(nlohmann::json(*r.d.max_abs)) : std::string());
    o << "<g class=\"snr-row\"><text class=\"lane-label\" x=\"" << kLabel - 6 << "\" y=\"" << y + 12 << "\">"
      << escape(r.label) << "</text><rect class=\"snr-bar" << (low ? " low" : "") << "\" x=\"" << kLabel << "\" y=\"" << y + 3
      << "\" width=\"" << x_of(snr) - kLabel << "\" height=\"" << kRow - 6 << "\"><title>" << escape(r.label) << ": " << value
      << "</title></rect>";
    if (r.network) {
      o << "<line class=\"net-tick\" x1=\"" << x_of(*r.network) << "\" x2=\"" << x_of(*r.network) << "\" y1=\"" << y + 1
        << "\" y2=\"" << y + kRow - 1 << "\"><title>network SNR " << number(*r.network, 1) << " dB</title></line>";
    }
    o << "<text class=\"snr-value" << (low ? " low" : "") << "\" x=\"" << kLabel + kBar + 8 << "\" y=\"" << y + 12 << "\">"
      << escape(value) << "</text></g>";
  }
  o << "</svg></figure>\n";
  return o.str();
}

}  // namespace

std::string drift_section(const nlohmann::json& report, std::size_t max_charts) {
  const nlohmann::json dist = report.value("distance", nlohmann::json::array());
  const std::vector<double> bounds = report.value("drift_bins", std::vector<double>{});
  std::ostringstream o;
  std::size_t drawn = 0, left = 0;
  for (const auto& d : dist) {
    if (!d.is_object() || !d.contains("histogram")) continue;
    if (drawn == max_charts) {
      ++left;
      continue;
    }
    o << chart(d, bounds);
    ++drawn;
  }
  if (drawn == 0) {
    const std::string snr = snr_chart(report);
    if (!snr.empty()) return "<div class=\"drifts\">\n" + snr + "</div>\n";
    return "<p class=\"note\">No reference semantics to measure the drift against.</p>\n";
  }
  if (left > 0) o << "<p class=\"note\">" << left << " more in report.json \"distance\".</p>\n";
  return "<div class=\"drifts\">\n" + o.str() + "</div>\n";
}

}  // namespace cosim::tb::report_html
