// The per-layer table of a model run (report.json "layers", written by
// tb/model_replay and TF2's chain, plus the operators a delegate left to the
// CPU, "not_supported"): one row per operator in op order, designed columns
// with units (op, type, shapes, where it ran, exact, cycles, MACs,
// utilization %, VTA's compute bound %, the distance to each int8 reference
// or the float models' drift in dB / max |diff|); a column is shown only
// when some row has it. Every raw field of a row stays one click away (a
// "fields" disclosure in its last cell), never as a column.
//
// A row is tinted failed only when its "bit_exact" is false; null or absent
// means nothing of the operator was checked (it ran on the CPU, or it is
// fused into another operator's check): a neutral row and a "—" cell.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cosim::tb::report_html {

// Empty when the report has no layers.
std::string layer_table(const nlohmann::json& report);

// One layer's drift against the float model it came from: tiny-dnn's
// "float32_drift" {snr_db, max_abs_diff}, TF2's "layer_snr_db" /
// "layer_max_abs_err". An SNR of "inf" (exact) is +infinity.
struct LayerDrift {
  std::optional<double> snr_db, max_abs;
};
std::optional<LayerDrift> layer_drift(const nlohmann::json& layer);

// report.json "layers" and "not_supported" (the delegate's CPU operators,
// {op_index, type, reason, shapes}) merged in op order, each CPU operator
// once with where = "cpu".
std::vector<nlohmann::json> all_layers(const nlohmann::json& report);

}  // namespace cosim::tb::report_html
