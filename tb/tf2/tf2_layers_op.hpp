// What the tf2 target's single-network operators (conv, resnet_block) share:
// each turns its scenario into TF2 layers (ConvLayer, INQ weights, the Qs of
// its maps) from a float input map; this base compiles them into one TF2
// program (the operator's state), names one check per output map and
// 16-channel group ("output", or "output_c16_31" ...: int8 NHWC
// [1, H, W, 16], the HC16W pixel words of that group, rows a map row apart
// in DRAM), and turns the run's counters into utilization.
//
// Float data: `random` (the input uniform in [-1, 1]; weights He-uniform for
// the fan-in; bias +-0.1; batch-norm alpha [0.5, 1.5], beta +-0.2),
// {random: {min, max}} inside [-1, 1], or {npy: file.npy} (float32: input
// NHWC, weights OIHW, the others [c_out]).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cosim/operator.hpp"
#include "tf2/compiler.hpp"
#include "tf2/reference.hpp"

namespace cosim::tb::tf2 {

// The operator's state: the compiled program and what the trace and the
// metrics need of it.
struct Tf2Program {
  cosim::tf2::Program program;
  struct LayerInfo {
    uint64_t macs = 0;
    int k = 1;
  };
  std::vector<LayerInfo> layers;
  bool start = true;
  struct Check {  // in check order
    std::string name;
    uint64_t addr = 0;       // the group's first pixel word
    uint64_t row_pitch = 0;  // bytes from one of its rows to the next (HC16W: a map row)
  };
  std::vector<Check> checks;
  std::map<std::string, double> cost;  // the float reference's cost per layer (metrics)
};

// The input map and the keys every such operator has.
struct Tf2Input {
  const scenario::Value& shape_v;  // shapes.input
  int h = 0, w = 0, c = 0, k = 0;
  bool bias = false, bn = false, relu = false;
  bool wide = false;      // requant: saturate
  std::vector<float> x;   // CHW
};

// What an operator builds from the input.
struct Tf2Layers {
  std::vector<cosim::tf2::ConvLayer> layers;
  std::vector<std::string> out_names;          // one per layer: its check name (prefix)
  std::vector<std::vector<float>> float_out;   // float reference of each layer's output map
  int q_in = 0;                                // the input map's Q
  std::map<std::string, double> cost;
  std::string summary;
};

class Tf2LayersOp : public TypedOperator<Tf2Program> {
 public:
  Tf2Program prepare(const scenario::Scenario& sc, Workload& w) const final;
  trace::Trace compile(const scenario::Scenario& sc, const Workload& w, const Tf2Program& st) const final;
  Metrics metrics(const Workload& w, const Tf2Program& st, const SimOutcome& run) const final;

 protected:
  virtual Tf2Layers build(const scenario::Scenario& sc, const Tf2Input& in) const = 0;
  // shapes.input, params (`conv_params(with_c_out)`), data (input and, per
  // prefix, weights, bias, bn_alpha, bn_beta), fault.
  static scenario::Schema schema_of(const std::vector<std::string>& prefixes, bool with_c_out);
};

// The float parts of a conv layer from the scenario's `data` (keys prefix + weights, ...).
cosim::tf2::FloatConv float_layer(const scenario::Scenario& sc, const std::string& prefix, int c_in, int c_out, int h,
                                  int w, int k, int stride, int pad, bool bias, bool bn, bool relu);
// The float layer with its weights replaced by their INQ values (the cost of compression alone).
cosim::tf2::FloatConv with_inq_weights(const cosim::tf2::FloatConv& f, const cosim::tf2::ConvLayer& L);
std::string fmt_db(double v);  // "12.3 dB", "inf dB"

}  // namespace cosim::tb::tf2
