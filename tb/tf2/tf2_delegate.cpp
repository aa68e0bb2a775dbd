#include "tf2_delegate.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "common/error.hpp"
#include "common/text.hpp"
#include "dut/tf2_regs.hpp"
#include "model_replay/anomaly_score.hpp"
#include "model_replay/float_images.hpp"
#include "tf2/compiler.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/inq.hpp"
#include "tf2/map_layout.hpp"
#include "tf2/network_run.hpp"
#include "tf2/tflite_network.hpp"
#include "tf2_peak.hpp"
#include "tflite_float/interpreter.hpp"

namespace cosim::tb::tf2 {

using model_replay::snr_db_json;

using namespace cosim::tf2;
using model_replay::LayerContext;
using scenario::Value;
namespace tf = cosim::tflite_float;

// What every layer of one chain run shares.
struct ChainNet {
  tflite::Model model;
  Network net;
  int inputs = 0;
  int first_input = 0;  // the first input's index over all `inputs` (a split run's slice: Scenario::input_slice)
  std::vector<std::vector<float>> images;      // per input: the float image (NHWC)
  std::vector<std::vector<Program>> programs;  // per input, per segment: its DRAM image
  std::vector<std::size_t> float_top1;         // the float model, per input
  std::vector<std::vector<float>> float_outputs;  // the float model's network output, per input
  std::vector<std::size_t> golden_top1;        // the golden chain + host operators, per input
};

namespace {

namespace reg = ::cosim::tf2::regs;  // generated from rtl/tf2/tf2.yaml

const DelegateLayer& state(const ModelLayer& l) { return std::get<DelegateLayer>(l.state); }

// The layer in float with its INQ weights (the cost of compression alone),
// on the same input and residual, NHWC.
std::vector<float> inq_layer(const Network& net, std::size_t k, const NetworkRun& run) {
  const ConvLayer& L = net.layers[k];
  FloatConv g = fold_trailing_padding(net.info[k].conv);
  for (std::size_t i = 0; i < g.weights.size(); ++i) g.weights[i] = static_cast<float>(inq_code_value(L.codes[i], L.min_exp));
  g.relu = false;
  std::vector<float> y = float_conv2d(g, input_chw(net, run, k));
  if (L.residual_from != kNoResidual) {
    const std::vector<float> r = residual_chw(net, run, k);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] += r[i];
  }
  if (L.relu) {
    for (float& v : y) v = std::max(v, 0.0f);
  }
  return chw_to_nhwc(y, L.c_out, L.h_out(), L.w_out());
}

// Every segment's program for one input: segment s's regions follow segment
// s-1's, so that the descriptor lists the engine starts are distinct.
std::vector<Program> compile_segments(const Network& net, const NetworkRun& run) {
  std::vector<Program> out;
  uint32_t first = 64;  // address 0 stays unused
  for (std::size_t s = 0; s < net.segments.size(); ++s) {
    out.push_back(compile(net.segment_layers(s), run.segment_inputs[s], DeviceConfig{}, first));
    first = static_cast<uint32_t>(out.back().dram.size());
  }
  return out;
}

std::size_t top1(const tflite::Model& m, const tf::Values& v) {
  return tf::argmax(v.at(static_cast<std::size_t>(m.subgraphs[0].outputs.at(0))));
}

std::string check_suffix(int input, int group, int c_out) {
  std::string s = "_in" + std::to_string(input);
  if (c_out > 16) s += "_c" + std::to_string(16 * group) + "_" + std::to_string(std::min(16 * group + 15, c_out - 1));
  return s;
}

}  // namespace

void add_delegate_keys(scenario::Schema& s) {
  // `chain` is the older name of `delegate`, still accepted.
  s.optional("mode", scenario::Schema::one_of({"delegate", "chain", "layers"}), "delegate");
  s.optional("calibration", scenario::Schema::integer(1, 1024), "8");
  s.optional("inputs", scenario::Schema::integer(1, 256), "4");
  model_replay::add_images_key(s);  // first `calibration` of them calibrate, the next `inputs` run
}

bool is_delegate(const scenario::Scenario& sc) { return sc["mode"].as_string() != "layers"; }

std::vector<model_replay::OpSupport> delegate_ops() {
  // Every operator of the float interpreter (tflite_float::check_supported):
  // the network planner puts each on TF2 or on the host.
  return {{tflite::kConv2d, "on TF2 (float32 or dynamic-range int8 weights), else float on the host", {}},
          {tflite::kFullyConnected, "on TF2 as a 1x1 CONV_2D, else float on the host", {}},
          {tflite::kAdd, "fused into the TF2 layer before it, else float on the host", {}},
          {tflite::kDepthwiseConv2d, "float, on the host", {}},
          {tflite::kAveragePool2d, "float, on the host", {}},
          {tflite::kReshape, "float, on the host", {}},
          {tflite::kSoftmax, "float, on the host", {}}};
}

namespace {
std::vector<model_replay::LoweredLayer<ModelLayerState>> lower_delegate_at_model(const std::vector<LayerContext>& ctxs,
                                                      const std::vector<std::vector<float>>& images);

std::vector<model_replay::LoweredLayer<ModelLayerState>> lower_delegate(const std::vector<LayerContext>& ctxs) {
  const scenario::Scenario& sc = ctxs.front().sc;
  if (!sc["ops"].is_string()) sc["ops"].fail("mode delegate runs the whole network: expected `all`");
  sc["model"].rethrow_here([&] { tf::check_supported(ctxs.front().model); });  // also: one input tensor
  const int count = static_cast<int>(sc["calibration"].as_int() + sc["inputs"].as_int());
  const std::vector<std::vector<float>> images =
      model_replay::load_images(sc, ctxs.front().model, count);  // errors at `images`
  return sc["model"].rethrow_here([&] { return lower_delegate_at_model(ctxs, images); });
}

// Per layer and host operator, the TF2 chain's tensors against the float
// references, pooled over the inputs.
struct ChainStats {
  std::vector<std::vector<float>> ref_layer, tf2_out, ref_net, inq_out;  // per layer
  std::map<std::size_t, std::vector<float>> host_ref, host_tf2;          // per host operator
  std::vector<std::vector<std::vector<int8_t>>> golden;                  // per input, per layer: CHW
};

void append(std::vector<float>& to, const std::vector<float>& v) { to.insert(to.end(), v.begin(), v.end()); }

// One input: its programs, golden maps, and every layer's figures.
void run_one_input(ChainNet& cn, const std::vector<float>& img, ChainStats& st) {
  const tflite::Model& m = cn.model;
  const Network& net = cn.net;
  const tf::Values fv = tf::run(m, img);
  NetworkRun run = run_network(m, net, img);
  cn.images.push_back(img);
  cn.programs.push_back(compile_segments(net, run));
  for (std::size_t k = 0; k < net.layers.size(); ++k) {
    const NetworkLayer& l = net.info[k];
    const ConvLayer& L = net.layers[k];
    // The model's float operator(s) on the same (dequantized TF2) input.
    tf::Values v(m.subgraphs[0].tensors.size());
    v[static_cast<std::size_t>(l.in_tensor)] = chw_to_nhwc(input_chw(net, run, k), L.c_in, L.h_in, L.w_in);
    tf::run_op(m, l.conv_op, v);
    if (l.add_op >= 0) {
      v[static_cast<std::size_t>(l.res_tensor)] = chw_to_nhwc(residual_chw(net, run, k), L.c_out, L.h_out(), L.w_out());
      tf::run_op(m, static_cast<std::size_t>(l.add_op), v);
    }
    append(st.ref_layer[k], v[static_cast<std::size_t>(l.out_tensor)]);
    append(st.inq_out[k], inq_layer(net, k, run));
    append(st.tf2_out[k], output_nhwc(net, run, k));
    append(st.ref_net[k], fv[static_cast<std::size_t>(l.out_tensor)]);
  }
  for (std::size_t op : net.host_ops) {
    const auto t = static_cast<std::size_t>(m.subgraphs[0].operators[op].outputs[0]);
    append(st.host_ref[op], fv[t]);
    append(st.host_tf2[op], run.values[t]);
  }
  cn.float_top1.push_back(top1(m, fv));
  cn.float_outputs.push_back(fv.at(static_cast<std::size_t>(m.subgraphs[0].outputs.at(0))));
  cn.golden_top1.push_back(top1(m, run.values));
  st.golden.push_back(std::move(run.maps));
}

// The row of model operator `op`: a TF2 layer's checks (every input's output
// map, one per channel group), a fused ADD's or a host operator's figures.
model_replay::LoweredLayer<ModelLayerState> chain_row(const LayerContext& ctx, const std::shared_ptr<const ChainNet>& cn,
                                                      const ChainStats& stats) {
  const tflite::Model& m = cn->model;
  const Network& net = cn->net;
  model_replay::LoweredLayer<ModelLayerState> layer;
  DelegateLayer st;
  st.net = cn;
  layer.shapes = model_replay::op_shapes(m, ctx.op_index);
  for (std::size_t k = 0; k < net.layers.size(); ++k) {
    const NetworkLayer& l = net.info[k];
    if (l.conv_op != ctx.op_index && l.add_op != static_cast<int>(ctx.op_index)) continue;
    st.layer = static_cast<int>(k);
    st.fused_add = l.add_op == static_cast<int>(ctx.op_index);
    st.inq_err = compare(stats.ref_layer[k], stats.inq_out[k]);
    st.layer_err = compare(stats.ref_layer[k], stats.tf2_out[k]);
    st.net_err = compare(stats.ref_net[k], stats.tf2_out[k]);
  }
  if (st.layer < 0) {
    st.net_err = compare(stats.host_ref.at(ctx.op_index), stats.host_tf2.at(ctx.op_index));
    st.host_reason = net.host_reason.at(ctx.op_index);
  } else if (!st.fused_add) {
    const auto k = static_cast<std::size_t>(st.layer);
    const ConvLayer& L = net.layers[k];
    const NetworkLayer& l = net.info[k];
    layer.shapes += ", k" + std::to_string(l.conv.conv.k) + " s" + std::to_string(L.stride);
    if (L.k != l.conv.conv.k) layer.shapes += " (as k" + std::to_string(L.k) + ")";
    if (m.subgraphs[0].operators[l.conv_op].code == tflite::kFullyConnected) layer.shapes += " (dense as 1x1)";
    if (l.add_op >= 0) layer.shapes += " + op" + std::to_string(l.add_op);
    if (L.relu) layer.shapes += " relu";
    const int ho = L.h_out(), wo = L.w_out(), groups = (L.c_out + 15) / 16;
    const std::size_t s = net.segment_of(k);
    const uint64_t out_addr = cn->programs.front()[s].layers[k - net.segments[s].first].out_addr;
    for (int n = 0; n < cn->inputs; ++n) {
      const std::vector<uint8_t> expect = to_hc16w(stats.golden[static_cast<std::size_t>(n)][k], L.c_out, ho, wo);
      for (int g = 0; g < groups; ++g) {
        layer.checks.push_back(
            {ctx.check + check_suffix(cn->first_input + n, g, L.c_out), hc16w_group(expect, g, ho, wo), {}});
        st.check_addrs.push_back(out_addr + hc16w_group_offset(g, wo));
      }
    }
    st.row_pitch = hc16w_row_pitch(groups, wo);
    layer.macs = static_cast<uint64_t>(cn->inputs) * L.c_out * ho * wo * l.conv.conv.c_in * l.conv.conv.k * l.conv.conv.k;
  }
  layer.state = std::move(st);
  return layer;
}

// The rest of lower_delegate; an InputError is about the model's contents.
std::vector<model_replay::LoweredLayer<ModelLayerState>> lower_delegate_at_model(
    const std::vector<LayerContext>& ctxs, const std::vector<std::vector<float>>& images) {
  const scenario::Scenario& sc = ctxs.front().sc;
  auto cn = std::make_shared<ChainNet>();
  cn->model = ctxs.front().model;
  const tflite::Model& m = cn->model;
  tf::check_supported(m);
  if (ctxs.size() != m.subgraphs[0].operators.size()) {
    throw InputError("mode delegate runs the whole network: every operator, on TF2 or on the host");
  }
  // Calibration: the float network on the first images, max |x| per channel.
  const int n_cal = static_cast<int>(sc["calibration"].as_int());
  // A split run's worker (Scenario::input_slice): its inputs, named by their
  // index over all of them.
  const auto [first, end] = sc.input_range(sc["inputs"].as_int());
  cn->first_input = static_cast<int>(first);
  cn->inputs = static_cast<int>(end - first);
  std::vector<tf::Values> cal;
  for (int k = 0; k < n_cal; ++k) cal.push_back(tf::run(m, images[static_cast<std::size_t>(k)]));
  cn->net = plan_network(m, channel_max(m, cal));
  const std::size_t nl = cn->net.layers.size();
  ChainStats stats{std::vector<std::vector<float>>(nl), std::vector<std::vector<float>>(nl),
                   std::vector<std::vector<float>>(nl), std::vector<std::vector<float>>(nl), {}, {}, {}};
  for (int n = 0; n < cn->inputs; ++n) {
    run_one_input(*cn, images[static_cast<std::size_t>(n_cal + cn->first_input + n)], stats);
  }
  // One row per operator, in model order.
  std::vector<model_replay::LoweredLayer<ModelLayerState>> out;
  for (const LayerContext& ctx : ctxs) out.push_back(chain_row(ctx, cn, stats));
  return out;
}

void emit_delegate(trace::Trace& t, const scenario::Scenario& sc, const std::vector<ModelLayer>& layers) {
  const ChainNet& cn = *state(layers.front()).net;
  const Network& net = cn.net;
  for (int n = 0; n < cn.inputs; ++n) {
    const std::vector<Program>& programs = cn.programs[static_cast<std::size_t>(n)];
    for (std::size_t s = 0; s < programs.size(); ++s) {
      // Segment s's regions (its input map written by the host) after the
      // earlier segments' maps; the first loads the whole image from 0.
      const Program& p = programs[s];
      if (s == 0) {
        t.mem_load(0, p.dram, "input" + std::to_string(cn.first_input + n));
      } else {
        const std::size_t from = programs[s - 1].dram.size();
        t.mem_load(from, std::vector<uint8_t>(p.dram.begin() + static_cast<std::ptrdiff_t>(from), p.dram.end()),
                   "input" + std::to_string(cn.first_input + n) + "_segment" + std::to_string(s));
      }
      t.reg_write(reg::kDescAddr, p.desc_addr);
      t.reg_write(reg::kDescCount, p.desc_count);
      t.reg_write(reg::kCtrl, reg::ctrl::kStartMask);
      t.wait_done(sc.testbench.timeout_cycles);
      // The maps of this segment's layers (the same addresses for every input).
      for (const ModelLayer& l : layers) {
        const DelegateLayer& st = state(l);
        if (st.check_addrs.empty() || net.segment_of(static_cast<std::size_t>(st.layer)) != s) continue;
        const std::size_t per_input = st.check_addrs.size() / static_cast<std::size_t>(cn.inputs);
        for (std::size_t g = 0; g < per_input; ++g) {
          const std::size_t c = static_cast<std::size_t>(n) * per_input + g;
          t.mem_check_rows(st.check_addrs[c], l.layer.checks[c].expected, l.layer.checks[c].name, st.row_pitch);
        }
      }
    }
  }
}

model_replay::Figures delegate_figures(const ModelLayer& l, const SimOutcome& out) {
  const DelegateLayer& st = state(l);
  const Network& net = st.net->net;
  model_replay::Figures f;
  std::string where = "cpu";  // float, on the host
  if (st.layer >= 0) where = st.fused_add ? "tf2:op" + std::to_string(net.info[static_cast<std::size_t>(st.layer)].conv_op) : "tf2";
  f.where = where;
  f.json = {{"where", where},
            {"network_snr_db", snr_db_json(st.net_err.snr_db)},
            {"network_max_abs_err", st.net_err.max_abs_err}};
  f.metrics = {{"network_snr_db", st.net_err.snr_db}};
  if (st.layer < 0) {
    f.json["status"] = "cpu";
    f.json["reason"] = st.host_reason;
    f.cells = {"-", "-", "-", "-", "-", "-", "-", fixed_text(st.net_err.snr_db, 1)};
    return f;
  }
  const ConvLayer& L = net.layers[static_cast<std::size_t>(st.layer)];
  const std::vector<int> qi = L.input_q(), qo = L.output_q();
  f.cells = {q_range(qi), q_range(qo), std::to_string(L.min_exp), fixed_text(st.inq_err.snr_db, 1),
             fixed_text(st.inq_err.max_abs_err, 4), fixed_text(st.layer_err.snr_db, 1),
             fixed_text(st.layer_err.max_abs_err, 4), fixed_text(st.net_err.snr_db, 1)};
  f.json["q_in"] = qi;
  f.json["q_out"] = qo;
  f.json["min_exp"] = L.min_exp;
  f.json["inq_snr_db"] = snr_db_json(st.inq_err.snr_db);
  f.json["inq_max_abs_err"] = st.inq_err.max_abs_err;
  f.json["layer_snr_db"] = snr_db_json(st.layer_err.snr_db);
  f.json["layer_max_abs_err"] = st.layer_err.max_abs_err;
  f.metrics["layer_snr_db"] = st.layer_err.snr_db;
  f.metrics["layer_max_abs_err"] = st.layer_err.max_abs_err;
  // The layer's own cycles: the engine busy on its descriptor (tf2_core counts
  // them per descriptor index, summed over the inputs), and the PE array's
  // utilization there. A fused ADD shares its convolution's descriptor.
  const auto busy = out.perf.find("desc" + std::to_string(st.layer) + "_busy_cycles");
  const double peak = peak_macs_per_cycle(out.perf, L.k);
  if (!st.fused_add && busy != out.perf.end() && busy->second > 0 && peak > 0) {
    const double cycles = static_cast<double>(busy->second);
    const double util = static_cast<double>(l.layer.macs) / peak / cycles;
    f.cells.push_back(std::to_string(busy->second / static_cast<uint64_t>(st.net->inputs)));
    f.cells.push_back(fixed_text(100.0 * util, 1) + "%");
    f.json["cycles_per_input"] = busy->second / static_cast<uint64_t>(st.net->inputs);
    f.json["pe_utilization"] = util;
    f.metrics["cycles"] = cycles;
    f.metrics["pe_utilization"] = util;
  }
  return f;
}

void delegate_totals(const std::vector<ModelLayer>& layers, const SimOutcome& out, Metrics& m) {
  const ChainNet& cn = *state(layers.front()).net;
  const Network& net = cn.net;
  const tflite::Model& model = cn.model;
  // The DUT's bytes of every layer and input, where the run captured them
  // (a missing capture keeps the golden map: the run already fails then).
  std::map<std::string, const CheckCapture*> cap;
  for (const CheckCapture& c : out.play.checks) cap[c.desc.name] = &c;
  std::vector<std::size_t> dut_top1;
  model_replay::AnomalyScores anomaly{"tf2", "float", {}, {}};  // an autoencoder's own score
  int agree = 0;
  double ideal = 0;
  for (const ModelLayer& l : layers) {
    const DelegateLayer& st = state(l);
    if (st.layer < 0 || st.fused_add) continue;
    const double peak = peak_macs_per_cycle(out.perf, net.layers[static_cast<std::size_t>(st.layer)].k);
    if (peak > 0) ideal += static_cast<double>(l.layer.macs) / peak;
  }
  for (int n = 0; n < cn.inputs; ++n) {
    std::vector<std::vector<int8_t>> maps(net.layers.size());
    for (const ModelLayer& l : layers) {
      const DelegateLayer& st = state(l);
      if (st.layer < 0 || st.fused_add) continue;
      const ConvLayer& L = net.layers[static_cast<std::size_t>(st.layer)];
      const std::size_t per_input = l.layer.checks.size() / static_cast<std::size_t>(cn.inputs);  // channel groups
      const int ho = L.h_out(), wo = L.w_out();
      // The HC16W map back from its groups (NHWC [1, ho, wo, 16] each): row
      // y of group g goes to map row y, after the row's groups before g.
      std::vector<uint8_t> hc16w(hc16w_bytes(L.c_out, ho, wo));
      const std::size_t row = static_cast<std::size_t>(wo) * 16;
      for (std::size_t g = 0; g < per_input; ++g) {
        const model_replay::LayerCheck& c = l.layer.checks[static_cast<std::size_t>(n) * per_input + g];
        const auto it = cap.find(c.name);
        const Tensor& t = it != cap.end() ? it->second->actual : c.expected;
        for (int y = 0; y < ho; ++y) {
          std::copy_n(t.bytes().begin() + static_cast<std::ptrdiff_t>(y * row), row,
                      hc16w.begin() + static_cast<std::ptrdiff_t>(hc16w_group_offset(static_cast<int>(g), wo) +
                                                                 y * hc16w_row_pitch(static_cast<int>(per_input), wo)));
        }
      }
      maps[static_cast<std::size_t>(st.layer)] = from_hc16w(hc16w.data(), L.c_out, ho, wo);
    }
    const std::vector<float>& image = cn.images[static_cast<std::size_t>(n)];
    const tf::Values dut = run_network(model, net, image, maps).values;
    dut_top1.push_back(top1(model, dut));
    if (model_replay::is_autoencoder(model)) {
      anomaly.dut.push_back(model_replay::reconstruction_error(
          image, dut.at(static_cast<std::size_t>(model.subgraphs[0].outputs.at(0)))));
      anomaly.reference.push_back(
          model_replay::reconstruction_error(image, cn.float_outputs[static_cast<std::size_t>(n)]));
    }
    agree += dut_top1.back() == cn.float_top1[static_cast<std::size_t>(n)];
  }
  m.extra["top1_agree"] = agree;
  m.extra["top1_inputs"] = cn.inputs;
  m.table.push_back("  top-1 agreement " + std::to_string(agree) + "/" + std::to_string(cn.inputs) +
                    " (float model vs TF2 chain over `inputs`)");
  // The final output's drift: the last operator's tensor against the float
  // model's, pooled over the inputs (its net_snr cell).
  const DelegateLayer& last = state(layers.back());
  m.table.push_back("  network output vs the float model over " + std::to_string(cn.inputs) + " input(s): SNR " +
                    fixed_text(last.net_err.snr_db, 1) + " dB, max |diff| " + fixed_text(last.net_err.max_abs_err, 4));
  if (!anomaly.dut.empty()) m.table.push_back(model_replay::anomaly_line(anomaly));
  m.extra["network.float_snr_db"] = last.net_err.snr_db;
  m.extra["network.float_max_abs_diff"] = last.net_err.max_abs_err;
  nlohmann::json rep = nlohmann::json{{"network_output", {{"float_snr_db", snr_db_json(last.net_err.snr_db)},
                                                     {"float_max_abs_diff", last.net_err.max_abs_err}}},
                                 {"top1", {{"inputs", cn.inputs},
                                           {"agree", agree},
                                           {"float", cn.float_top1},
                                           {"tf2", dut_top1},
                                           {"tf2_golden", cn.golden_top1}}}};
  if (!anomaly.dut.empty()) rep["anomaly_score"] = model_replay::anomaly_json(anomaly);
  m.report_json = rep.dump();
  const auto busy = out.perf.find("busy_cycles");
  if (ideal > 0 && busy != out.perf.end() && busy->second > 0) {
    m.utilization = ideal / static_cast<double>(busy->second);
    m.extra["ideal_cycles"] = ideal;
  }
}

}  // namespace

// The mode's functions above, as the model op calls them.
const model_replay::Delegate<ModelLayerState>& delegate() {
  static const model_replay::Delegate<ModelLayerState> d{&lower_delegate, &emit_delegate, &model_columns,
                                                         &delegate_figures, &delegate_totals};
  return d;
}

}  // namespace cosim::tb::tf2
