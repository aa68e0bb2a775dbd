#include "report_html/timeline_svg.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "report_html/html.hpp"

namespace cosim::tb::report_html {

namespace {

constexpr double kLabelWidth = 200, kPlotWidth = 960, kAxisHeight = 26;
constexpr double kStateHeight = 18, kLevelHeight = 26, kGap = 5;

// A lane's colours by state: idle grey; a state that waits (its name says
// "wait", "not ready", "starved") warm, any other (busy, a beat, a phase)
// green, then blue, teal, violet, in the lane's order.
std::vector<std::string> state_colors(const std::vector<std::string>& states) {
  static const char* const kWork[] = {"#2f9e44", "#1c7ed6", "#0ca678", "#7048e8", "#5c940d"};
  static const char* const kWait[] = {"#f08c00", "#e03131", "#d6336c", "#a61e4d"};
  std::vector<std::string> c;
  std::size_t work = 0, wait = 0;
  for (std::size_t i = 0; i < states.size(); ++i) {
    const std::string& n = states[i];
    const bool waits = n.find("wait") != std::string::npos || n.find("not ready") != std::string::npos ||
                       n.find("starved") != std::string::npos;
    c.push_back(i == 0 ? "#e9ecef" : waits ? kWait[wait++ % 4] : kWork[work++ % 5]);
  }
  return c;
}

// A tick spacing of 1, 2 or 5 x 10^k giving about eight ticks.
double tick_step(double cycles) {
  const double raw = std::max(1.0, cycles / 8);
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (raw <= m * p) return m * p;
  }
  return 10 * p;
}

std::string f2(double v) {
  std::ostringstream os;
  os.precision(2);
  os << std::fixed << v;
  return os.str();
}

}  // namespace

std::string timeline_section(const nlohmann::json& t, const nlohmann::json& layers) {
  std::ostringstream o;
  if (!t.is_object() || !t.contains("lanes") || t["lanes"].empty()) {
    o << "<p class=\"note\">No engine timeline: sampling was off (<code>--no-timeline</code>) or this DUT declares "
         "no timeline lanes.</p>\n";
    return o.str();
  }
  const double cycles = std::max(1.0, t.value("cycles", 0.0));
  const double w = std::max(1.0, t.value("bucket_cycles", 1.0));
  const double scale = kPlotWidth / cycles;
  const nlohmann::json& lanes = t["lanes"];
  // Layers with their span on the DUT's timeline (a model run's programs).
  std::vector<const nlohmann::json*> spans;
  if (layers.is_array()) {
    for (const auto& l : layers) {
      if (l.is_object() && l.value("start_cycle", nlohmann::json()).is_number() &&
          l.value("end_cycle", nlohmann::json()).is_number()) {
        spans.push_back(&l);
      }
    }
  }
  const double layer_row = spans.empty() ? 0 : 16;
  double height = kAxisHeight + layer_row;
  for (const auto& l : lanes) height += (l.value("kind", "") == "level" ? kLevelHeight : kStateHeight) + kGap;

  o << "<svg class=\"timeline\" width=\"" << kLabelWidth + kPlotWidth + 10
    << "\" height=\"" << height << "\" viewBox=\"0 0 " << kLabelWidth + kPlotWidth + 10 << " " << height << "\">\n";
  // Cycle axis.
  const double step = tick_step(cycles);
  o << "<g class=\"axis\">";
  for (double c = 0; c <= cycles; c += step) {
    const double x = kLabelWidth + c * scale;
    o << "<line x1=\"" << f2(x) << "\" y1=\"" << kAxisHeight - 6 << "\" x2=\"" << f2(x) << "\" y2=\"" << height
      << "\"/><text x=\"" << f2(x) << "\" y=\"" << kAxisHeight - 10 << "\">" << number(c) << "</text>";
  }
  o << "</g>\n";
  if (!spans.empty()) {
    o << "<g class=\"layer-spans\">";
    for (std::size_t k = 0; k < spans.size(); ++k) {
      const nlohmann::json& l = *spans[k];
      const double c0 = l["start_cycle"].get<double>(), c1 = l["end_cycle"].get<double>();
      const std::string label = "op " + value_text(l.value("op_index", nlohmann::json(k)));
      const double x0 = kLabelWidth + c0 * scale, x1 = kLabelWidth + c1 * scale;
      o << "<rect class=\"layer-span" << (k % 2 ? " odd" : "") << "\" x=\"" << f2(x0) << "\" y=\"" << kAxisHeight
        << "\" width=\"" << f2(std::max(0.5, x1 - x0)) << "\" height=\"" << layer_row - 2 << "\"><title>"
        << escape(label + " " + l.value("type", std::string()) + " " + l.value("shapes", std::string())) << ": cycles "
        << number(c0) << "\u2013" << number(c1) << "</title></rect>";
      if (x1 - x0 > 24) {
        o << "<text class=\"layer-label\" x=\"" << f2((x0 + x1) / 2) << "\" y=\"" << kAxisHeight + 11 << "\">"
          << escape(label) << "</text>";
      }
    }
    o << "</g>\n";
  }
  double y = kAxisHeight + layer_row;
  for (const auto& l : lanes) {
    const std::string name = l.value("name", "?");
    const bool level = l.value("kind", "") == "level";
    const double h = level ? kLevelHeight : kStateHeight;
    const std::vector<std::string> states = l.value("states", std::vector<std::string>{});
    const std::vector<std::string> colors = state_colors(states);
    o << "<g class=\"lane " << (level ? "level-lane" : "state-lane") << "\" data-lane=\"" << escape(name) << "\">"
      << "<text class=\"lane-label\" x=\"" << kLabelWidth - 8 << "\" y=\"" << f2(y + h / 2 + 4) << "\">"
      << escape(name) << "</text><rect class=\"lane-bg\" x=\"" << kLabelWidth << "\" y=\"" << y << "\" width=\""
      << kPlotWidth << "\" height=\"" << h << "\"/>";
    const double peak = std::max(1.0, l.value("max", 1.0));
    double bucket = 0;
    for (const auto& run : l.value("buckets", nlohmann::json::array())) {
      const double n = run.at(0).get<double>();
      const double c0 = bucket * w, c1 = std::min(cycles, (bucket + n) * w);
      bucket += n;
      const double x = kLabelWidth + c0 * scale, width = std::max(0.3, (c1 - c0) * scale);
      const std::string span = "cycles " + number(c0) + "\u2013" + number(c1 - 1);
      if (level) {
        const double span_cycles = std::min(w, cycles - (bucket - 1) * w);  // one bucket's cycles
        const double mx = run.at(1).get<double>(), mean = run.at(2).get<double>() / std::max(1.0, span_cycles);
        if (mx <= 0) continue;
        o << "<rect class=\"bar level-max\" x=\"" << f2(x) << "\" y=\"" << f2(y + h - h * mx / peak) << "\" width=\""
          << f2(width) << "\" height=\"" << f2(h * mx / peak) << "\"><title>" << escape(name) << ": peak "
          << number(mx) << ", mean " << number(mean, 2) << ", " << span << "</title></rect>";
        if (mean > 0) {
          o << "<rect class=\"bar level-mean\" x=\"" << f2(x) << "\" y=\"" << f2(y + h - h * mean / peak)
            << "\" width=\"" << f2(width) << "\" height=\"" << f2(h * mean / peak) << "\"/>";
        }
        continue;
      }
      double total = 0;
      for (std::size_t s = 1; s < run.size(); ++s) total += run[s].get<double>();
      if (total <= 0) continue;
      double stack = 0;  // from the bottom, in order of state
      for (std::size_t s = 2; s < run.size(); ++s) {
        const double share = run[s].get<double>() / total;
        if (share <= 0) continue;
        const std::size_t state = s - 1;
        const std::string sname = state < states.size() ? states[state] : "state " + std::to_string(state);
        o << "<rect class=\"bar state-" << token(sname) << "\" fill=\"" << (state < colors.size() ? colors[state] : "#868e96") << "\" x=\"" << f2(x)
          << "\" y=\"" << f2(y + h * (1 - stack - share)) << "\" width=\"" << f2(width) << "\" height=\""
          << f2(h * share) << "\"><title>" << escape(name) << ": " << escape(sname) << " " << percent(share, 0)
          << " of " << span << "</title></rect>";
        stack += share;
      }
    }
    o << "</g>\n";
    y += h + kGap;
  }
  // Layer edges over the lanes.
  for (const nlohmann::json* l : spans) {
    const double x = kLabelWidth + (*l)["start_cycle"].get<double>() * scale;
    o << "<line class=\"layer-edge\" x1=\"" << f2(x) << "\" y1=\"" << kAxisHeight << "\" x2=\"" << f2(x)
      << "\" y2=\"" << height << "\"/>";
  }
  o << "</svg>\n";
  o << "<p class=\"note\">" << number(cycles) << " cycles; one bucket = " << number(w)
    << " cycle" << (w == 1 ? "" : "s")
    << ". A state lane shows, per bucket, the share of each state (idle: grey); a level lane the bucket's peak "
       "(light) and mean (dark), scaled to the lane's maximum."
    << (spans.empty() ? "" : " Top band and lines: each layer's program on the DUT.") << "</p>\n";
  // Legend: cycles per state, the figures the lanes add up to.
  o << "<table class=\"legend\"><tr><th>lane</th><th>states (cycles, share of the run)</th></tr>\n";
  for (const auto& l : lanes) {
    o << "<tr><td>" << escape(l.value("name", "?")) << "</td><td>";
    if (l.value("kind", "") == "level") {
      o << "peak " << number(l.value("max", 0.0)) << ", mean " << number(l.value("mean", 0.0), 2);
    } else {
      const std::vector<std::string> states = l.value("states", std::vector<std::string>{});
      const std::vector<std::string> colors = state_colors(states);
      const std::vector<double> per = l.value("cycles", std::vector<double>{});
      for (std::size_t s = 0; s < states.size() && s < per.size(); ++s) {
        o << "<span class=\"key\"><i style=\"background:" << colors[s] << "\"></i>" << escape(states[s]) << " "
          << number(per[s]) << " (" << percent(per[s] / cycles) << ")</span> ";
      }
    }
    o << "</td></tr>\n";
  }
  o << "</table>\n";
  return o.str();
}

}  // namespace cosim::tb::report_html
