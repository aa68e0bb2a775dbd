#include "report_html/histogram_svg.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "report_html/html.hpp"

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
  if (drawn == 0) return "<p class=\"note\">No reference semantics to measure the drift against.</p>\n";
  if (left > 0) o << "<p class=\"note\">" << left << " more in report.json \"distance\".</p>\n";
  return "<div class=\"drifts\">\n" + o.str() + "</div>\n";
}

}  // namespace cosim::tb::report_html
