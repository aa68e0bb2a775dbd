// The `model` op of the tf2 target (front end: tb/model_replay): the CONV_2D
// layers of a float .tflite model (the float ResNet-8) on the TF2 engine, all
// in one simulation.
//
//   target: tf2
//   op: model
//   model: ../../shared/models/resnet8_float.tflite   # relative: from the scenario file's folder
//   ops: all                                       # every float CONV_2D; or operator indices
//   input: random                                  # per layer: seeded uniform [-1, 1]; {random: {min, max}}; {npy: f}
//
// Each selected CONV_2D becomes one TF2 layer: the float filter (OHWI in the
// file, OIHW here) INQ-compressed, the float bias, fused ReLU; its input is
// a seeded random float map of that layer's input shape (not the model's
// float chain: each layer is exercised on its own, stream "opNN_input"), an
// {npy} input must have the shape of every selected layer's input (NHWC).
// One Q per map from the float results (smallest per-channel Q over the
// channels that are not all zero: ReLU-dead channels do not force Q 0).
// TFLite SAME padding with the odd pixel after the map (stride 2 on even
// maps) runs as symmetric padding on the input extended by a zero row /
// column. The trace loads each layer's DRAM image at 0, starts, waits and
// checks its output groups ("opNN_conv2d[_cA_B]") before the next layer. A
// layer the device cannot hold (feature cache, filter cache, shift range) is
// an input error naming the operator.
#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "common/error.hpp"
#include "common/text.hpp"
#include "dut/tf2_regs.hpp"
#include "model_replay/model_operator.hpp"
#include "model_replay/model_replay.hpp"
#include "tf2/compiler.hpp"
#include "tf2/core/tf2_bare.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/inq.hpp"
#include "tf2/map_layout.hpp"
#include "tf2/tflite_conv.hpp"
#include "tf2_delegate.hpp"
#include "tf2_peak.hpp"

namespace cosim::tb::tf2 {

using model_replay::snr_db_json;

using namespace cosim::tf2;
using scenario::Value;

namespace {

namespace reg = ::cosim::tf2::regs;  // generated from rtl/tf2/tf2.yaml

// The layer's float input, CHW, of the model's input shape.
std::vector<float> layer_input(const scenario::Scenario& sc, const TfliteConv& c, const std::string& stream) {
  const int h = c.h_in, w = c.w_in, ch = c.conv.c_in;
  std::vector<float> nhwc(static_cast<std::size_t>(h) * w * ch);
  if (!sc.root.has("input") || sc["input"].is_string()) {  // absent or `random`
    scenario::Rng rng(sc.seed, stream);
    for (auto& x : nhwc) x = static_cast<float>(rng.uniform(-1.0, 1.0));
  } else {
    const Tensor t = scenario::make_tensor(sc, sc["input"], DType::kFp32, {1, h, w, ch}, Layout::kNHWC, stream);
    for (std::size_t i = 0; i < nhwc.size(); ++i) nhwc[i] = t.data<float>()[i];
  }
  return nhwc_to_chw(nhwc, ch, h, w);
}


// A float CONV_2D read_float_conv accepts (float32 filter and bias, fused
// NONE / RELU, no dilation).
std::string conv_support(const tflite::Model& m, std::size_t i) {
  try {
    (void)read_float_conv(m, i);
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

const Tf2Layer& state(const ModelLayer& l) { return std::get<Tf2Layer>(l.state); }

class Tf2ModelTarget : public model_replay::ModelTarget<ModelLayerState> {
 public:
  std::string name() const override { return "tf2"; }

  std::vector<model_replay::OpSupport> supported_ops() const override {
    return {{tflite::kConv2d, "float32 weights", conv_support}};
  }
  std::vector<model_replay::OpSupport> supported_ops_for(const scenario::Scenario& sc) const override {
    // The chain feeds `images`; a per-layer `input` there would be ignored.
    if (is_delegate(sc) && sc.root.has("input")) {
      sc["input"].fail("applies to mode: layers; mode: delegate reads `images`");
    }
    return is_delegate(sc) ? delegate_ops() : supported_ops();
  }

  // Each input of mode delegate is loaded and run on its own (the calibration
  // is the same in every slice).
  bool independent_inputs(const scenario::Scenario& sc) const override { return is_delegate(sc); }

  void add_keys(scenario::Schema& s) const override {
    s.optional("input", scenario::schemas::data_source());  // mode layers; absent = random
    add_delegate_keys(s);                                                 // tf2_delegate.hpp
  }

  std::string summary(const scenario::Scenario& sc) const override {
    if (is_delegate(sc)) {
      return "chained: float weights INQ-compressed, Qs from " + std::to_string(sc["calibration"].as_int()) +
             " calibration images, " + std::to_string(sc["inputs"].as_int()) + " images through the TF2 chain";
    }
    return "float weights INQ-compressed, seeded random input per layer";
  }

  const model_replay::Delegate<ModelLayerState>* delegate(const scenario::Scenario& sc) const override {
    return is_delegate(sc) ? &tf2::delegate() : nullptr;
  }

  Lowered lower(const model_replay::LayerContext& ctx, model_replay::NoNetworkState* network) const override {
    (void)network;
    const TfliteConv c = read_float_conv(ctx.model, ctx.op_index);
    const FloatConv& f = c.conv;
    Lowered out;
    out.shapes = std::to_string(c.h_in) + "x" + std::to_string(c.w_in) + "x" + std::to_string(f.c_in) + " -> " +
                 std::to_string(c.h_out) + "x" + std::to_string(c.w_out) + "x" + std::to_string(f.c_out) + ", k" +
                 std::to_string(f.k) + " s" + std::to_string(f.stride) + (f.relu ? " relu" : "");
    // Input at the device's shape (SAME's trailing zero row / column added).
    const std::vector<float> x =
        extend_chw(layer_input(ctx.sc, c, ctx.check + "_input"), f.c_in, c.h_in, c.w_in, c.extra_h, c.extra_w);
    const std::vector<float> ref = float_conv2d(f, x);
    const std::vector<int> q_in = choose_map_q(x, f.c_in);
    Tf2Layer st;
    ConvLayer L;
    try {
      L = make_fitting_conv_layer(f, q_in, choose_map_q(ref, f.c_out));
      const std::vector<int8_t> xq = quantize_map(x, f.c_in, q_in);
      st.program = compile({L}, xq);  // throws when the layer exceeds the caches
      const std::vector<uint8_t> expect = expected_outputs({L}, xq)[0];
      const std::vector<int8_t> yq = sac_conv2d(L, xq);
      FloatConv g = f;
      for (std::size_t i = 0; i < g.weights.size(); ++i) {
        g.weights[i] = static_cast<float>(inq_code_value(L.codes[i], L.min_exp));
      }
      st.inq = compare(ref, float_conv2d(g, x));
      st.total = compare(ref, dequantize_map(yq, L.c_out, L.output_q()));
      const int ho = L.h_out(), wo = L.w_out(), groups = (L.c_out + 15) / 16;
      for (int gi = 0; gi < groups; ++gi) {
        std::string nm = ctx.check;
        if (groups > 1) {
          nm += "_c" + std::to_string(16 * gi) + "_" + std::to_string(std::min(16 * gi + 15, L.c_out - 1));
        }
        out.checks.push_back({nm, hc16w_group(expect, gi, ho, wo), {}});
        st.group_addrs.push_back(st.program.layers[0].out_addr + hc16w_group_offset(gi, wo));
      }
      st.row_pitch = hc16w_row_pitch(groups, wo);
    } catch (const InputError& e) {
      throw InputError(std::string("does not fit the TF2 device: ") + e.what());
    }
    st.q_in = L.input_q();
    st.k = L.k;
    st.q_out = L.output_q();
    st.min_exp = L.min_exp;
    out.macs = static_cast<uint64_t>(L.c_out) * L.h_out() * L.w_out() * L.c_in * L.k * L.k;
    out.state = std::move(st);
    return out;
  }

  void emit(trace::Trace& t, const scenario::Scenario& sc, const ModelLayer& l) const override {
    const Tf2Layer& st = state(l);
    // Every layer's image starts at 0: it is checked before the next load.
    t.mem_load(0, st.program.dram, l.check);
    t.reg_write(reg::kDescAddr, st.program.desc_addr);
    t.reg_write(reg::kDescCount, st.program.desc_count);
    t.reg_write(reg::kCtrl, reg::ctrl::kStartMask);
    t.wait_done(sc.testbench.timeout_cycles);
    for (std::size_t g = 0; g < l.layer.checks.size(); ++g) {
      t.mem_check_rows(st.group_addrs[g], l.layer.checks[g].expected, l.layer.checks[g].name, st.row_pitch);
    }
  }

  std::vector<model_replay::Column> columns() const override { return model_columns(); }

  // Utilization over the network, as for one layer (tf2_backend): each
  // layer's MACs at the PE array's peak, over the cycles the engine was busy.
  void totals(const std::vector<ModelLayer>& layers, const SimOutcome& out,
              Metrics& m) const override {
    double ideal = 0;
    for (const ModelLayer& l : layers) {
      const double peak = peak_macs_per_cycle(out.perf, state(l).k);
      if (peak > 0) ideal += static_cast<double>(l.layer.macs) / peak;
    }
    const auto busy = out.perf.find("busy_cycles");
    if (ideal > 0 && busy != out.perf.end() && busy->second > 0) {
      m.utilization = ideal / static_cast<double>(busy->second);
      m.extra["ideal_cycles"] = ideal;
    }
  }

  model_replay::Figures figures(const ModelLayer& l, const Run& run,
                                const SimOutcome& out) const override {
    (void)run, (void)out;
    const Tf2Layer& st = state(l);
    model_replay::Figures f;
    f.cells = {q_range(st.q_in),          q_range(st.q_out),           std::to_string(st.min_exp),
               fixed_text(st.inq.snr_db, 1),      fixed_text(st.inq.max_abs_err, 4), fixed_text(st.total.snr_db, 1),
               fixed_text(st.total.max_abs_err, 4), "-"};
    f.metrics = {{"inq_snr_db", st.inq.snr_db},     {"inq_max_abs_err", st.inq.max_abs_err},
                 {"int8_snr_db", st.total.snr_db},  {"int8_max_abs_err", st.total.max_abs_err},
                 {"q_in_min", *std::min_element(st.q_in.begin(), st.q_in.end())},
                 {"q_out_min", *std::min_element(st.q_out.begin(), st.q_out.end())},
                 {"min_exp", st.min_exp}};
    f.json = {{"q_in", st.q_in},
              {"q_out", st.q_out},
              {"min_exp", st.min_exp},
              {"inq_snr_db", snr_db_json(st.inq.snr_db)},
              {"inq_max_abs_err", st.inq.max_abs_err},
              {"int8_snr_db", snr_db_json(st.total.snr_db)},
              {"int8_max_abs_err", st.total.max_abs_err}};
    return f;
  }
};

}  // namespace

// The `model` op (tf2_ops.def): the model-replay front end over the TF2
// target; its whole-network replay has the original's requantization only.
std::unique_ptr<Operator> make_model_op() {
  return model_replay::model_operator(std::make_unique<Tf2ModelTarget>(), [](const scenario::Scenario& sc) {
    if (sc.requant == scenario::Requant::kSaturate) {
      sc["requant"].fail("op model runs the original's requantization only");
    }
  });
}

}  // namespace cosim::tb::tf2
