// Drift histograms: for each output and reference semantics (report.json
// "distance" with "histogram", bins bounded by "drift_bins"), how many
// elements differ from the reference by how much, as inline SVG bars on a
// log scale (exact elements usually outnumber the rest by far). A float
// model (tiny-dnn, TF2), which has no int8 reference, gets its layers'
// SNR against the float model instead, one bar each.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace cosim::tb::report_html {

// At most `max_charts` charts (a network has a check per layer); the rest
// are summarised in a line.
std::string drift_section(const nlohmann::json& report, std::size_t max_charts = 24);

}  // namespace cosim::tb::report_html
