// MLPerf Tiny's anomaly detection judges an input by its autoencoder's
// reconstruction error, the model's own score: the mean squared difference
// between the network's output and its input (larger = more anomalous). A
// whole-network run of such a model reports the score of every input as the
// DUT's chain computed it and as the reference did (TFLite on the CPU, the
// float model), so a user sees whether the accelerator moves the decision.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tflite/model.hpp"

namespace cosim::tb::model_replay {

// One input and one output tensor with the same number of elements.
bool is_autoencoder(const tflite::Model& m);

// Mean of (output - input)^2 over the elements (sizes must match).
double reconstruction_error(const std::vector<float>& input, const std::vector<float>& output);

struct AnomalyScores {
  std::string dut_name, reference_name;  // e.g. "vta", "tflite_double"
  std::vector<double> dut, reference;    // per input
};

// report.json "anomaly_score": {"<dut_name>": [...], "<reference_name>": [...],
// "max_relative_difference": r} and the console line.
nlohmann::json anomaly_json(const AnomalyScores& s);
std::string anomaly_line(const AnomalyScores& s);

}  // namespace cosim::tb::model_replay
