// The `model` op of the tinydnn target (front end: tb/model_replay) on a
// float .tflite model (e.g. ResNet-8), all in one simulation.
//
//   target: tinydnn
//   op: model
//   model: ../../shared/models/resnet8_float.tflite  # relative: from the scenario file's folder
//   ops: all
//   mode: delegate                                # (default) or layers
//
// mode delegate (tinydnn_delegate.hpp): the whole network, stride-1 CONV_2D
// in bf16 on the accelerator on the chain's own tensors, the rest in
// float32 on the CPU; `inputs: N` images, drift and top-1 agreement
// against the float model.
//
// mode layers: each supported CONV_2D (float32 filter, stride 1, dilation
// 1; `ops: all` or operator indices) alone on a seeded random float map
// (uniform [-1, 1), seed = scenario seed + operator index) of the layer's
// input shape. Both modes lower a layer the same way
// (tinydnn_conv_tiles.hpp): weights OHWI float32 -> OIHW truncated to bf16
// with the bias, TFLite SAME padding on the host, tiles of 16 output
// channels and row bands, each a forward job checked bit-exact against the
// tiny-dnn golden. The accelerator computes conv + bias only; layers mode
// does not apply the fused activation.
#include <memory>
#include <random>

#include "common/error.hpp"
#include "common/text.hpp"
#include "model_replay/model_operator.hpp"
#include "model_replay/model_replay.hpp"
#include "tinydnn/program.hpp"
#include "tinydnn/tinydnn_conv_tiles.hpp"
#include "tinydnn/tinydnn_delegate.hpp"

namespace cosim::tb::tinydnn {

namespace {


const Tiles& tiles(const ModelLayer& l) { return std::get<Tiles>(l.state); }

class TinyDnnModelTarget : public model_replay::ModelTarget<ModelLayerState> {
 public:
  std::string name() const override { return "tinydnn"; }

  std::vector<model_replay::OpSupport> supported_ops() const override {
    return {{tflite::kConv2d, "float32 weights, stride 1, dilation 1", conv_support}};
  }
  std::vector<model_replay::OpSupport> supported_ops_for(const scenario::Scenario& sc) const override {
    if (!is_delegate(sc) && sc["inputs"].as_int() != 1) sc["inputs"].fail("applies to mode: delegate");
    return is_delegate(sc) ? delegate_ops() : supported_ops();
  }

  void add_keys(scenario::Schema& s) const override { add_delegate_keys(s); }

  // Each input of mode delegate is its own chain and its own tiles.
  bool independent_inputs(const scenario::Scenario& sc) const override { return is_delegate(sc); }

  std::string summary(const scenario::Scenario& sc) const override {
    if (is_delegate(sc)) {
      return "delegate on " + std::to_string(sc["inputs"].as_int()) +
             " input(s): stride-1 CONV_2D in bf16 on tinydnn (host SAME padding, tiles of 16 output channels x row "
             "bands, ReLU on the host), the rest in float32 on the CPU, each on the chain's own tensors";
    }
    return "bf16 forward passes of random input, host SAME padding, tiled over 16 output channels and row bands";
  }

  const model_replay::Delegate<ModelLayerState>* delegate(const scenario::Scenario& sc) const override {
    return is_delegate(sc) ? &tinydnn::delegate() : nullptr;
  }

  // mode: layers: the layer on a seeded random float map (uniform [-1, 1),
  // seed = scenario seed + operator index) of its input shape.
  Lowered lower(const model_replay::LayerContext& ctx, model_replay::NoNetworkState* network) const override {
    (void)network;
    const TinyConv c = read_conv(ctx.model, ctx.op_index);
    std::mt19937 rng(static_cast<uint32_t>(ctx.sc.seed + ctx.op_index));
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    const std::vector<float> xp = padded_input(c, [&](int, int, int) { return dist(rng); });
    Tiles ts = tile_conv(ctx.check, c, xp);
    Lowered out;
    out.shapes = c.shapes;
    for (const Tile& t : ts.tiles) {
      for (const cosim::tinydnn::Output& g : t.golden.outputs) {
        out.checks.push_back({g.name, g.golden, {{g.name, "float32", g.reference}}});
      }
    }
    out.macs = ts.macs;
    out.state = std::move(ts);
    return out;
  }

  void emit(trace::Trace& t, const scenario::Scenario& sc, const ModelLayer& l) const override {
    emit_tiles(t, sc, l.check, tiles(l));
  }

  std::vector<model_replay::Column> columns() const override {
    // mode layers: tiles, golden vs float32 relative error.
    return {{"tiles", 8}, {"max_rel", 12}, {"mean_rel", 12}};
  }

  model_replay::Figures figures(const ModelLayer& l, const Run& run,
                                const SimOutcome& out) const override {
    (void)out;
    const Tiles& ts = tiles(l);
    std::size_t exact = 0;
    for (const CheckCapture* c : run.captures) exact += c != nullptr && c->expected == c->actual ? 1 : 0;
    model_replay::Figures f;
    f.cells = {std::to_string(ts.oc_tiles) + "x" + std::to_string(ts.row_tiles), significant_text(ts.error.max_rel),
               significant_text(ts.error.mean_rel)};
    f.json = {{"tiles", ts.tiles.size()},
              {"tiles_bit_exact", exact},
              {"float32_max_rel_error", ts.error.max_rel},
              {"float32_mean_rel_error", ts.error.mean_rel}};
    f.metrics = {{"float32_max_rel_error", ts.error.max_rel}, {"float32_mean_rel_error", ts.error.mean_rel}};
    return f;
  }

  void totals(const std::vector<ModelLayer>& layers, const SimOutcome& out,
              Metrics& m) const override {
    (void)layers;
    if (out.cycles > 0) m.utilization = double(m.macs) / (double(cosim::tinydnn::kCores) * double(out.cycles));
  }
};

}  // namespace

// The `model` op (tinydnn_ops.def): the model-replay front end over the tiny-dnn target.
std::unique_ptr<Operator> make_model_op() {
  return model_replay::model_operator(std::make_unique<TinyDnnModelTarget>());
}

}  // namespace cosim::tb::tinydnn
