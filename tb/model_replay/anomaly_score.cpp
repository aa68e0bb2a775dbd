#include "model_replay/anomaly_score.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace cosim::tb::model_replay {

namespace {

int64_t elements(const tflite::Model& m, int32_t t) {
  int64_t n = 1;
  for (int32_t d : m.subgraphs[0].tensors.at(static_cast<std::size_t>(t)).shape) n *= d;
  return n;
}

// The largest |dut - reference| / reference over the inputs (0 when equal).
double max_relative_difference(const AnomalyScores& s) {
  double r = 0;
  for (std::size_t i = 0; i < s.dut.size() && i < s.reference.size(); ++i) {
    const double d = std::fabs(s.dut[i] - s.reference[i]);
    if (d > 0) r = std::max(r, s.reference[i] != 0 ? d / std::fabs(s.reference[i]) : INFINITY);
  }
  return r;
}

}  // namespace

bool is_autoencoder(const tflite::Model& m) {
  if (m.subgraphs.empty()) return false;
  const tflite::SubGraph& sg = m.subgraphs[0];
  return sg.inputs.size() == 1 && sg.outputs.size() == 1 && elements(m, sg.inputs[0]) == elements(m, sg.outputs[0]);
}

double reconstruction_error(const std::vector<float>& input, const std::vector<float>& output) {
  if (input.size() != output.size() || input.empty()) {
    throw std::logic_error("reconstruction_error: input and output differ in size");
  }
  double sum = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const double d = static_cast<double>(output[i]) - static_cast<double>(input[i]);
    sum += d * d;
  }
  return sum / static_cast<double>(input.size());
}

nlohmann::json anomaly_json(const AnomalyScores& s) {
  const double r = max_relative_difference(s);
  return {{s.dut_name, s.dut},
          {s.reference_name, s.reference},
          {"max_relative_difference", std::isfinite(r) ? nlohmann::json(r) : nlohmann::json("inf")}};
}

std::string anomaly_line(const AnomalyScores& s) {
  char buf[160];
  const auto [lo, hi] = std::minmax_element(s.dut.begin(), s.dut.end());
  std::snprintf(buf, sizeof buf, "%.4g .. %.4g", s.dut.empty() ? 0.0 : *lo, s.dut.empty() ? 0.0 : *hi);
  char rel[64];
  std::snprintf(rel, sizeof rel, "%.3g %%", 100.0 * max_relative_difference(s));
  return "  anomaly score (reconstruction MSE) over " + std::to_string(s.dut.size()) + " input(s): " + s.dut_name + " " +
         buf + ", largest difference from " + s.reference_name + " " + rel;
}

}  // namespace cosim::tb::model_replay
