// The per-layer table of a model run (report.json "layers", written by
// tb/model_replay and TF2's chain): one row per operator, the columns the
// console table has (where it ran, bit-exact, input, drift per reference,
// cycles, utilisation), then any other scalar field the target adds.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace cosim::tb::report_html {

// Empty when the report has no layers.
std::string layer_table(const nlohmann::json& report);

}  // namespace cosim::tb::report_html
