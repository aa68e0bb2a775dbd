// The engine timeline as inline SVG, from report.json "timeline"
// (tb/timeline Timeline::to_json): one row per lane, cycles left to right.
// A state lane stacks, per bucket, the share of each drawn state (idle is
// the background; working states green / blue, waiting ones orange / red);
// a level lane draws the bucket's peak (light) and mean
// (dark). Every lane is a <g class="lane" data-lane=NAME>, every drawn
// piece a <rect class="bar ..."> with a <title>, so a browser test can count
// them; a legend table below gives each state's cycles.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace cosim::tb::report_html {

// The SVG and its legend; a note when `timeline` is null (sampling off, or a
// DUT without lanes). `layers` (report.json "layers"): those with
// start_cycle / end_cycle are marked over the lanes, labelled "op N".
std::string timeline_section(const nlohmann::json& timeline, const nlohmann::json& layers = nlohmann::json());

}  // namespace cosim::tb::report_html
