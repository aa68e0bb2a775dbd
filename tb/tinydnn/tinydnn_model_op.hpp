// The `model` op of the tinydnn target (front end: tb/model_replay): the
// stride-1 CONV_2D layers of a float .tflite model (e.g. ResNet-8) as bf16
// forward passes, all in one simulation.
//
//   target: tinydnn
//   op: model
//   model: ../shared/models/resnet8_float.tflite  # relative: from the parent of the scenario's folder
//   ops: all                                      # every supported CONV_2D; or operator indices, e.g. [0, 3]
//
// Supported: CONV_2D with a float32 filter, stride 1 and dilation 1. Per
// layer: weights from the model (OHWI float32 -> OIHW, truncated to bf16),
// its bias, and a seeded random float map (uniform [-1, 1), seed = scenario
// seed + operator index) of the layer's input shape; the host applies
// TFLite's SAME padding. The accelerator has no stride and no padding, at
// most 16 output channels per pass and 4096-element buffers, so the host
// tiles the layer over output channels (16 per pass) and output rows (the
// largest row band the buffers take). Every tile is one forward job with its
// own check "op<NN>_conv2d_c<k>_r<k>", bit-exact against the tiny-dnn
// golden. The fused activation is not applied (the accelerator computes
// conv + bias only).
#pragma once

#include "model_replay/model_replay.hpp"

namespace cosim::tb::tinydnn {

class TinyDnnModelTarget : public model_replay::ModelTarget {
 public:
  std::string name() const override { return "tinydnn"; }
  std::vector<model_replay::OpSupport> supported_ops() const override;
  model_replay::Layer lower(const model_replay::LayerContext& ctx) const override;
  void emit(trace::Trace& t, const scenario::Scenario& sc, const model_replay::ReplayedLayer& l) const override;
  std::string summary(const scenario::Scenario& sc) const override;
  std::vector<model_replay::Column> columns() const override;
  model_replay::Figures figures(const model_replay::ReplayedLayer& l, const model_replay::LayerRun& run,
                                const SimOutcome& out) const override;
  void totals(const std::vector<model_replay::ReplayedLayer>& layers, const SimOutcome& out,
              Metrics& m) const override;
};

}  // namespace cosim::tb::tinydnn
