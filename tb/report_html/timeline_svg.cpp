#include "report_html/timeline_svg.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "common/text.hpp"
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

// An SVG coordinate or length: two decimals.
std::string px(double v) { return fixed_text(v); }

// Layers with their span on the DUT's timeline (a model run's programs).
std::vector<const nlohmann::json*> layer_spans(const nlohmann::json& layers) {
  std::vector<const nlohmann::json*> spans;
  if (!layers.is_array()) return spans;
  for (const auto& l : layers) {
    if (l.is_object() && l.value("start_cycle", nlohmann::json()).is_number() &&
        l.value("end_cycle", nlohmann::json()).is_number()) {
      spans.push_back(&l);
    }
  }
  return spans;
}

// The SVG of one timeline: its geometry, and one method per part drawn.
class TimelineSvg {
 public:
  TimelineSvg(const nlohmann::json& t, const nlohmann::json& layers, std::ostringstream& o)
      : o_(o),
        lanes_(t["lanes"]),
        spans_(layer_spans(layers)),
        cycles_(std::max(1.0, t.value("cycles", 0.0))),
        bucket_cycles_(std::max(1.0, t.value("bucket_cycles", 1.0))),
        scale_(kPlotWidth / cycles_),
        layer_row_(spans_.empty() ? 0 : 16) {
    height_ = kAxisHeight + layer_row_;
    for (const auto& l : lanes_) height_ += (l.value("kind", "") == "level" ? kLevelHeight : kStateHeight) + kGap;
  }

  void draw() {
    o_ << "<svg class=\"timeline\" width=\"" << kLabelWidth + kPlotWidth + 10 << "\" height=\"" << height_
       << "\" viewBox=\"0 0 " << kLabelWidth + kPlotWidth + 10 << " " << height_ << "\">\n";
    axis();
    if (!spans_.empty()) span_band();
    double y = kAxisHeight + layer_row_;
    for (const auto& l : lanes_) y += lane(l, y) + kGap;
    layer_edges();
    o_ << "</svg>\n";
    note();
    legend();
  }

 private:
  // Cycle axis.
  void axis() {
    const double step = tick_step(cycles_);
    o_ << "<g class=\"axis\">";
    for (double c = 0; c <= cycles_; c += step) {
      const double x = kLabelWidth + c * scale_;
      o_ << "<line x1=\"" << px(x) << "\" y1=\"" << kAxisHeight - 6 << "\" x2=\"" << px(x) << "\" y2=\"" << height_
         << "\"/><text x=\"" << px(x) << "\" y=\"" << kAxisHeight - 10 << "\">" << number(c) << "</text>";
    }
    o_ << "</g>\n";
  }

  // The band above the lanes: one box per layer's span, labelled "op N".
  void span_band() {
    o_ << "<g class=\"layer-spans\">";
    for (std::size_t k = 0; k < spans_.size(); ++k) {
      const nlohmann::json& l = *spans_[k];
      const double c0 = l["start_cycle"].get<double>(), c1 = l["end_cycle"].get<double>();
      const std::string label = "op " + value_text(l.value("op_index", nlohmann::json(k)));
      const double x0 = kLabelWidth + c0 * scale_, x1 = kLabelWidth + c1 * scale_;
      o_ << "<rect class=\"layer-span" << (k % 2 ? " odd" : "") << "\" x=\"" << px(x0) << "\" y=\"" << kAxisHeight
         << "\" width=\"" << px(std::max(0.5, x1 - x0)) << "\" height=\"" << layer_row_ - 2 << "\"><title>"
         << escape(label + " " + l.value("type", std::string()) + " " + l.value("shapes", std::string()))
         << ": cycles " << number(c0) << "\u2013" << number(c1) << "</title></rect>";
      if (x1 - x0 > 24) {
        o_ << "<text class=\"layer-label\" x=\"" << px((x0 + x1) / 2) << "\" y=\"" << kAxisHeight + 11 << "\">"
           << escape(label) << "</text>";
      }
    }
    o_ << "</g>\n";
  }

  // One lane at height y; returns its height.
  double lane(const nlohmann::json& l, double y) {
    const std::string name = l.value("name", "?");
    const bool level = l.value("kind", "") == "level";
    const double h = level ? kLevelHeight : kStateHeight;
    const std::vector<std::string> states = l.value("states", std::vector<std::string>{});
    const std::vector<std::string> colors = state_colors(states);
    o_ << "<g class=\"lane " << (level ? "level-lane" : "state-lane") << "\" data-lane=\"" << escape(name) << "\">"
       << "<text class=\"lane-label\" x=\"" << kLabelWidth - 8 << "\" y=\"" << px(y + h / 2 + 4) << "\">"
       << escape(name) << "</text><rect class=\"lane-bg\" x=\"" << kLabelWidth << "\" y=\"" << y << "\" width=\""
       << kPlotWidth << "\" height=\"" << h << "\"/>";
    const double peak = std::max(1.0, l.value("max", 1.0));
    double bucket = 0;
    for (const auto& run : l.value("buckets", nlohmann::json::array())) {
      const double n = run.at(0).get<double>();
      const Bucket b{y, h, bucket * bucket_cycles_, std::min(cycles_, (bucket + n) * bucket_cycles_)};
      bucket += n;
      if (level) {
        const double span_cycles = std::min(bucket_cycles_, cycles_ - (bucket - 1) * bucket_cycles_);  // one bucket's
        level_bars(name, b, run, span_cycles, peak);
      } else {
        state_bars(name, b, run, states, colors);
      }
    }
    o_ << "</g>\n";
    return h;
  }

  // A run of buckets in a lane: its row and its cycles [c0, c1).
  struct Bucket {
    double y, h, c0, c1;
  };
  double x_of(const Bucket& b) const { return kLabelWidth + b.c0 * scale_; }
  double width_of(const Bucket& b) const { return std::max(0.3, (b.c1 - b.c0) * scale_); }
  static std::string span_of(const Bucket& b) { return "cycles " + number(b.c0) + "\u2013" + number(b.c1 - 1); }

  // A level lane's bucket: its peak (light) and mean (dark).
  void level_bars(const std::string& name, const Bucket& b, const nlohmann::json& run, double span_cycles,
                  double peak) {
    const double mx = run.at(1).get<double>(), mean = run.at(2).get<double>() / std::max(1.0, span_cycles);
    if (mx <= 0) return;
    const double x = x_of(b), width = width_of(b), y = b.y, h = b.h;
    o_ << "<rect class=\"bar level-max\" x=\"" << px(x) << "\" y=\"" << px(y + h - h * mx / peak) << "\" width=\""
       << px(width) << "\" height=\"" << px(h * mx / peak) << "\"><title>" << escape(name) << ": peak " << number(mx)
       << ", mean " << number(mean, 2) << ", " << span_of(b) << "</title></rect>";
    if (mean > 0) {
      o_ << "<rect class=\"bar level-mean\" x=\"" << px(x) << "\" y=\"" << px(y + h - h * mean / peak)
         << "\" width=\"" << px(width) << "\" height=\"" << px(h * mean / peak) << "\"/>";
    }
  }

  // A state lane's bucket: the share of each state, stacked from the bottom in order of state.
  void state_bars(const std::string& name, const Bucket& b, const nlohmann::json& run,
                  const std::vector<std::string>& states, const std::vector<std::string>& colors) {
    double total = 0;
    for (std::size_t s = 1; s < run.size(); ++s) total += run[s].get<double>();
    if (total <= 0) return;
    const double x = x_of(b), width = width_of(b), y = b.y, h = b.h;
    double stack = 0;
    for (std::size_t s = 2; s < run.size(); ++s) {
      const double share = run[s].get<double>() / total;
      if (share <= 0) continue;
      const std::size_t state = s - 1;
      const std::string sname = state < states.size() ? states[state] : "state " + std::to_string(state);
      o_ << "<rect class=\"bar state-" << token(sname) << "\" fill=\""
         << (state < colors.size() ? colors[state] : "#868e96") << "\" x=\"" << px(x) << "\" y=\""
         << px(y + h * (1 - stack - share)) << "\" width=\"" << px(width) << "\" height=\"" << px(h * share)
         << "\"><title>" << escape(name) << ": " << escape(sname) << " " << percent(share, 0) << " of " << span_of(b)
         << "</title></rect>";
      stack += share;
    }
  }

  // Layer edges over the lanes.
  void layer_edges() {
    for (const nlohmann::json* l : spans_) {
      const double x = kLabelWidth + (*l)["start_cycle"].get<double>() * scale_;
      o_ << "<line class=\"layer-edge\" x1=\"" << px(x) << "\" y1=\"" << kAxisHeight << "\" x2=\"" << px(x)
         << "\" y2=\"" << height_ << "\"/>";
    }
  }

  void note() {
    o_ << "<p class=\"note\">" << number(cycles_) << " cycles; one bucket = " << number(bucket_cycles_) << " cycle"
       << (bucket_cycles_ == 1 ? "" : "s")
       << ". A state lane shows, per bucket, the share of each state (idle: grey); a level lane the bucket's peak "
          "(light) and mean (dark), scaled to the lane's maximum."
       << (spans_.empty() ? "" : " Top band and lines: each layer's program on the DUT.") << "</p>\n";
  }

  // Legend: cycles per state, the figures the lanes add up to.
  void legend() {
    o_ << "<table class=\"legend\"><tr><th>lane</th><th>states (cycles, share of the run)</th></tr>\n";
    for (const auto& l : lanes_) {
      o_ << "<tr><td>" << escape(l.value("name", "?")) << "</td><td>";
      if (l.value("kind", "") == "level") {
        o_ << "peak " << number(l.value("max", 0.0)) << ", mean " << number(l.value("mean", 0.0), 2);
      } else {
        const std::vector<std::string> states = l.value("states", std::vector<std::string>{});
        const std::vector<std::string> colors = state_colors(states);
        const std::vector<double> per = l.value("cycles", std::vector<double>{});
        for (std::size_t s = 0; s < states.size() && s < per.size(); ++s) {
          o_ << "<span class=\"key\"><i style=\"background:" << colors[s] << "\"></i>" << escape(states[s]) << " "
             << number(per[s]) << " (" << percent(per[s] / cycles_) << ")</span> ";
        }
      }
      o_ << "</td></tr>\n";
    }
    o_ << "</table>\n";
  }

  std::ostringstream& o_;
  const nlohmann::json& lanes_;
  const std::vector<const nlohmann::json*> spans_;
  const double cycles_, bucket_cycles_, scale_, layer_row_;
  double height_ = 0;
};

}  // namespace

std::string timeline_section(const nlohmann::json& t, const nlohmann::json& layers) {
  std::ostringstream o;
  if (!t.is_object() || !t.contains("lanes") || t["lanes"].empty()) {
    o << "<p class=\"note\">No engine timeline: sampling was off (<code>--no-timeline</code>) or this DUT declares "
         "no timeline lanes.</p>\n";
    return o.str();
  }
  TimelineSvg(t, layers, o).draw();
  return o.str();
}

}  // namespace cosim::tb::report_html
