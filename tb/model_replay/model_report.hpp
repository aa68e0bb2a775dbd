// The `model` op's report of a finished run, written once for every target:
// the per-layer table (console), report.json "layers", "not_supported" and
// in mode delegate the network outputs, and the metrics. The target fills
// its own columns (ModelTarget::figures) layer by layer and its run-wide
// figures (ModelTarget::totals) before finish().
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model_replay/model_replay.hpp"
#include "model_replay/replay_run.hpp"

namespace cosim::tb::model_replay {

class ModelReport {
 public:
  // The table's head, with the target's `columns`.
  ModelReport(const ModelTargetBase& target, const Workload& w, const ReplayRun& run, LayerList layers,
              std::vector<Column> columns, const SimOutcome& out);

  // The captures of layer l's checks, in order (null when not played).
  std::vector<const CheckCapture*> captures(const ReplayedLayer& l) const;
  // Layer k's row, report.json entry and metrics, with the target's figures.
  void add_layer(std::size_t k, const std::vector<const CheckCapture*>& captures, const Figures& f);
  // After the last layer: the CPU operators' rows, the partition, the
  // operators left out, and in mode delegate the drift over the inputs and
  // the network outputs.
  void close_table();
  // For the target's run-wide figures (ModelTarget::totals).
  Metrics& metrics() { return m_; }
  // The metrics, report.json's fields merged with the target's.
  Metrics finish();

 private:
  void cpu_rows();
  void partition();
  void not_run_lines();
  void drift_over_inputs();
  void network_output(std::size_t k, const NetworkOutput& n);
  void network_agreement();

  const ModelTargetBase& target_;
  const ReplayRun& run_;
  const LayerList layers_;
  const std::vector<Column> columns_;
  const SimOutcome& out_;
  // out_'s captures by check name (a network over many inputs has thousands).
  std::unordered_map<std::string, const CheckCapture*> captures_;
  const CheckCapture* capture_of(const std::string& check) const;
  const bool delegate_;
  // With several inputs the table shows the first input's layers; the drift
  // over all of them follows it.
  const std::size_t per_input_;
  Metrics m_;
  nlohmann::json layer_json_ = nlohmann::json::array();
  nlohmann::json not_run_json_ = nlohmann::json::array();
  nlohmann::json nets_ = nlohmann::json::array();
  nlohmann::json anomaly_json_;  // an autoencoder's own score over the inputs (null: none)
  std::size_t exact_n_ = 0;
  int agree_d_ = 0, agree_s_ = 0, bit_exact_ = 0;
  std::vector<std::pair<std::size_t, std::string>> rows_;  // op index, row
  std::vector<std::pair<std::size_t, bool>> placed_;        // op index, on the DUT
};

}  // namespace cosim::tb::model_replay
