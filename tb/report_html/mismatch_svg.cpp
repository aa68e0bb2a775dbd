#include "report_html/mismatch_svg.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "report_html/html.hpp"

namespace cosim::tb::report_html {

namespace {

constexpr uint64_t kWindow = 200;  // cycles either side of the divergence in the replayed waveform

std::string quoted(const std::string& s) {
  if (s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:+,") == std::string::npos) {
    return s;
  }
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// "h 3..5" for a cell covering several rows.
std::string span(const std::string& axis, int64_t index, int64_t step, int64_t extent) {
  const int64_t lo = index * step, hi = std::min(extent, lo + step) - 1;
  return axis + " " + std::to_string(lo) + (hi > lo ? ".." + std::to_string(hi) : "");
}

std::string heat_map(const nlohmann::json& m) {
  const int64_t rows = m.value("rows", int64_t{1}), cols = m.value("cols", int64_t{1});
  const std::vector<int64_t> counts = m.value("counts", std::vector<int64_t>{});
  if (counts.size() != static_cast<std::size_t>(rows * cols)) return "";
  const std::string ra = m.value("row_axis", ""), ca = m.value("col_axis", "");
  const int64_t rstep = m.value("row_step", int64_t{1}), cstep = m.value("col_step", int64_t{1});
  const int64_t rext = m.value("row_extent", rows), cext = m.value("col_extent", cols);
  const double cell = std::clamp(480.0 / static_cast<double>(std::max(rows, cols)), 6.0, 22.0);
  constexpr double kLeft = 40, kTop = 22;
  const int64_t peak = std::max<int64_t>(1, *std::max_element(counts.begin(), counts.end()));
  std::ostringstream o;
  o << "<svg class=\"mismatch-map\" width=\"" << kLeft + cell * cols + 10 << "\" height=\""
    << kTop + cell * rows + 10 << "\">";
  o << "<text x=\"" << kLeft << "\" y=\"12\" class=\"axis-note\">" << escape(ca.empty() ? "element" : ca)
    << " \u2192" << (cstep > 1 ? " (" + std::to_string(cstep) + " per cell)" : "") << "</text>";
  if (!ra.empty()) {
    o << "<text x=\"4\" y=\"" << kTop + 10 << "\" class=\"axis-note\">" << escape(ra) << " \u2193</text>";
  }
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t n = counts[static_cast<std::size_t>(r * cols + c)];
      const double a = n == 0 ? 0 : 0.25 + 0.75 * static_cast<double>(n) / static_cast<double>(peak);
      o << "<rect class=\"cell" << (n > 0 ? " bad" : "") << "\" x=\"" << kLeft + cell * c << "\" y=\""
        << kTop + cell * r << "\" width=\"" << cell - 1 << "\" height=\"" << cell - 1 << "\"";
      if (n > 0) o << " style=\"fill:rgba(224,49,49," << a << ")\"";  // over the stylesheet's empty-cell fill
      o << "><title>" << (ra.empty() ? "" : span(ra, r, rstep, rext) + ", ") << span(ca, c, cstep, cext) << ": "
        << n << " mismatching</title></rect>";
    }
  }
  o << "</svg>";
  return o.str();
}

}  // namespace

std::string gtkwave_command(const nlohmann::json& r, const WaveCommand& w) {
  const nlohmann::json around = r.value("wave_around_mismatch", nlohmann::json(nullptr));
  if (around.is_object() && around.contains("gtkw") && around.contains("file")) {
    return "gtkwave -a " + quoted(around["gtkw"].get<std::string>()) + " " + quoted(around["file"].get<std::string>());
  }
  const nlohmann::json wave = r.value("wave", nlohmann::json(nullptr));
  if (wave.is_object() && wave.contains("marker_time") && wave.contains("gtkw")) {
    return "gtkwave -a " + quoted(wave["gtkw"].get<std::string>()) + " " + quoted(wave["file"].get<std::string>());
  }
  const nlohmann::json d = r.value("first_divergence", nlohmann::json(nullptr));
  // "cycle": the diverging write or register read ("write_cycle" in reports before it).
  const nlohmann::json at = d.is_object() ? d.value("cycle", d.value("write_cycle", nlohmann::json())) : nlohmann::json();
  if (!at.is_number()) return "";
  const uint64_t c = at.get<uint64_t>();
  const std::string dir = w.out_dir + "/divergence";
  // The replay exits 1 on the very mismatch it is asked to show: GTKWave
  // opens whatever its status, once the view was written (not after "&&").
  // A plugin's target is known to the replay only through its folder.
  const std::string env = w.dut_path.empty() ? "" : "COSIM_DUT_PATH=" + quoted(w.dut_path) + " ";
  return env + quoted(w.program) + " replay " + quoted(w.out_dir + "/trace") + " --out " + quoted(dir) + " --wave " +
         quoted(dir + "/wave.fst") + " --wave-from " + std::to_string(c > kWindow ? c - kWindow : 0) +
         " --wave-to " + std::to_string(c + kWindow) + "; test -f " + quoted(dir + "/wave.gtkw") + " && gtkwave -a " +
         quoted(dir + "/wave.gtkw") + " " + quoted(dir + "/wave.fst");
}

namespace {

// Every element matched but a register read did not: that read, and GTKWave at its cycle.
std::string register_divergence_section(const nlohmann::json& r, const nlohmann::json& d, const WaveCommand& w) {
  std::ostringstream o;
  o << "<p class=\"divergence\" id=\"first-divergence\">First divergence: register <b>" << escape(d.value("register", "?"))
    << "</b> (" << escape(d.value("offset", "?")) << ") read " << hex32(d.value("actual", nlohmann::json())) << ", expected "
    << hex32(d.value("expected", nlohmann::json())) << ", at cycle " << value_text(d.value("cycle", nlohmann::json()))
    << "</p>\n";
  const std::string cmd = gtkwave_command(r, w);
  if (!cmd.empty()) {
    o << "<p>Open GTKWave at that cycle (marker on the failing read):</p><pre class=\"command\" id=\"gtkwave-command\">"
      << escape(cmd) << "</pre>\n";
  }
  return o.str();
}

}  // namespace

std::string divergence_section(const nlohmann::json& r, const WaveCommand& w) {
  const nlohmann::json mm = r.value("mismatch", nlohmann::json::object());
  const nlohmann::json d = r.value("first_divergence", nlohmann::json(nullptr));
  if (mm.value("count", int64_t{0}) == 0) return d.is_object() && d.contains("register") ? register_divergence_section(r, d, w) : "";
  std::ostringstream o;
  if (d.is_object()) {
    o << "<p class=\"divergence\" id=\"first-divergence\">First divergence: <b>" << escape(d.value("check", "?"))
      << "[" << escape(d.value("coords", "")) << "]</b> expected " << value_text(d.value("expected", nlohmann::json()))
      << ", got " << value_text(d.value("actual", nlohmann::json()));
    if (d.contains("address")) o << " at " << escape(d["address"].get<std::string>());
    if (d.value("write_cycle", nlohmann::json()).is_number()) o << ", written at cycle " << value_text(d["write_cycle"]);
    else if (d.contains("address")) o << ", never written by the DUT";  // a stream's element: neither
    if (d.contains("unit")) o << " by " << escape(d["unit"].value("text", ""));
    o << "</p>\n";
  }
  const std::string cmd = gtkwave_command(r, w);
  if (!cmd.empty()) {
    o << "<p>Open GTKWave at that cycle (marker on the diverging write):</p><pre class=\"command\" id=\"gtkwave-command\">"
      << escape(cmd) << "</pre>\n";
  } else if (d.is_object() && !d.contains("address")) {
    // Only memory is logged by write: a stream's element carries no cycle.
    o << "<p class=\"note\">The diverging element came out of a stream, whose bytes are not logged by cycle: no "
         "cycle to open a waveform at; the run's waveform (<code>--wave</code>) shows the stream's handshakes.</p>\n";
  } else {
    o << "<p class=\"note\">The DUT never wrote the diverging element: no cycle to open a waveform at.</p>\n";
  }
  for (const auto& c : mm.value("checks", nlohmann::json::array())) {
    if (c.value("mismatches", int64_t{0}) == 0) continue;
    o << "<h3>" << escape(c.value("name", "?")) << ": " << number(c.value("mismatches", 0.0)) << " of "
      << number(c.value("elements", 0.0)) << " elements mismatch</h3>\n";
    if (c.contains("mismatch_map")) o << heat_map(c["mismatch_map"]) << "\n";
    o << "<table class=\"mismatches\"><tr><th>element</th><th>expected</th><th>actual</th><th>address</th>"
         "<th>written at cycle</th></tr>\n";
    for (const auto& m : c.value("first_mismatches", nlohmann::json::array())) {
      o << "<tr><td>" << escape(m.value("coords", "")) << "</td><td>" << value_text(m.value("expected", nlohmann::json()))
        << "</td><td>" << value_text(m.value("actual", nlohmann::json())) << "</td><td>"
        << escape(m.value("address", "-")) << "</td><td>"
        << (m.value("write_cycle", nlohmann::json()).is_number() ? value_text(m["write_cycle"])
            : m.contains("address")                               ? std::string("never")
                                                                    : std::string("-"))  // a stream's element
        << "</td></tr>\n";
    }
    o << "</table>\n";
  }
  return o.str();
}

}  // namespace cosim::tb::report_html
