// report.html: the page of one run, from its report.json (so `cosim run`
// and `cosim replay` both write it, and a later step that edits the JSON,
// --wave-around-mismatch, can write it again). Sections: the summary,
// where a mismatch lies (first divergence, mismatch maps, the GTKWave
// command), the engine timeline, the register checks (reg_check steps), the per-layer table of a model run, the
// drift histograms, the counters. Self-contained: inline CSS and SVG, no
// script, no link out of the file but report.json beside it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace cosim::tb::report_html {

struct PageOptions {
  std::string out_dir;            // where report.html goes; its trace/ is named in the replay command
  std::string program = "cosim";  // the cosim binary the page's commands name
  std::string dut_path;           // COSIM_DUT_PATH the commands need (plugin targets); empty: none
};

std::string report_page(const nlohmann::json& report, const PageOptions& options);

// Writes <out_dir>/report.html; InputError when the file cannot be written.
void write_report_html(const nlohmann::json& report, const PageOptions& options);

// Reads <out_dir>/report.json and writes report.html from it.
void rewrite_report_html(const PageOptions& options);

}  // namespace cosim::tb::report_html
