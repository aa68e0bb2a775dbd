#include "tf2_model_chain.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "common/error.hpp"
#include "dut/tf2_regs.hpp"
#include "model_replay/float_images.hpp"
#include "tf2/compiler.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/inq.hpp"
#include "tf2/map_layout.hpp"
#include "tf2/tflite_network.hpp"
#include "tf2_peak.hpp"
#include "tf2_report_cells.hpp"
#include "tflite_float/interpreter.hpp"

namespace cosim::tb::tf2 {

using namespace cosim::tf2;
using model_replay::LayerContext;
using scenario::Value;
namespace tf = cosim::tflite_float;

// What every layer of one chain run shares.
struct ChainNet {
  tflite::Model model;
  Network net;
  int inputs = 0;
  std::vector<Program> programs;          // one DRAM image per input (the image differs)
  std::vector<std::size_t> float_top1;    // the float model, per input
  std::vector<std::size_t> golden_top1;   // the golden chain + host tail, per input
};

namespace {

namespace reg = ::cosim::tf2::regs;  // generated from rtl/tf2/tf2.yaml

const ChainLayer& state(const ModelLayer& l) { return std::get<ChainLayer>(l.state); }

// The float value of the map layer `src` wrote (kChainInput: the image),
// from its int8 CHW bytes: CHW, or NHWC as the model stores it.
std::vector<float> map_chw(const Network& net, const std::vector<int8_t>& image_q,
                           const std::vector<std::vector<int8_t>>& maps, int src) {
  const bool input = src == kChainInput;
  const ConvLayer& L = net.layers[input ? 0 : static_cast<std::size_t>(src)];
  return dequantize_map(input ? image_q : maps[static_cast<std::size_t>(src)], input ? L.c_in : L.c_out,
                        input ? L.input_q() : L.output_q());
}
std::vector<float> map_value(const Network& net, const std::vector<int8_t>& image_q,
                             const std::vector<std::vector<int8_t>>& maps, int src) {
  const bool input = src == kChainInput;
  const ConvLayer& L = net.layers[input ? 0 : static_cast<std::size_t>(src)];
  const int c = input ? L.c_in : L.c_out, h = input ? L.h_in : L.h_out(), w = input ? L.w_in : L.w_out();
  return chw_to_nhwc(map_chw(net, image_q, maps, src), c, h, w);
}

// The layer in float with its INQ weights (the cost of compression alone),
// on the same input and residual, NHWC.
std::vector<float> inq_layer(const Network& net, std::size_t k, const std::vector<int8_t>& image_q,
                             const std::vector<std::vector<int8_t>>& maps) {
  const ConvLayer& L = net.layers[k];
  FloatConv g = fold_trailing_padding(net.info[k].conv);
  for (std::size_t i = 0; i < g.weights.size(); ++i) g.weights[i] = static_cast<float>(inq_code_value(L.codes[i], L.min_exp));
  g.relu = false;
  std::vector<float> y = float_conv2d(g, map_chw(net, image_q, maps, input_source(net.layers, k)));
  if (L.residual_from != kNoResidual) {
    const std::vector<float> r = map_chw(net, image_q, maps, L.residual_from);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] += r[i];
  }
  if (L.relu) {
    for (float& v : y) v = std::max(v, 0.0f);
  }
  return chw_to_nhwc(y, L.c_out, L.h_out(), L.w_out());
}

// The host operators on the chain's maps; returns every tensor computed.
tf::Values host_tail(const tflite::Model& m, const Network& net, const std::vector<int8_t>& image_q,
                     const std::vector<std::vector<int8_t>>& maps) {
  tf::Values v(m.subgraphs[0].tensors.size());
  for (std::size_t k = 0; k < net.info.size(); ++k) {
    v[static_cast<std::size_t>(net.info[k].out_tensor)] = map_value(net, image_q, maps, static_cast<int>(k));
  }
  for (std::size_t op : net.host_ops) tf::run_op(m, op, v);
  return v;
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

void add_chain_keys(scenario::Schema& s) {
  s.optional("mode", scenario::Schema::one_of({"chain", "layers"}), "chain");
  s.optional("calibration", scenario::Schema::integer(1, 1024), "8");
  s.optional("inputs", scenario::Schema::integer(1, 256), "4");
  model_replay::add_images_key(s);  // first `calibration` of them calibrate, the next `inputs` run
}

bool is_chain(const scenario::Scenario& sc) { return sc["mode"].as_string() == "chain"; }

std::vector<model_replay::OpSupport> chain_ops() {
  std::vector<model_replay::OpSupport> out;
  for (int32_t code : {tflite::kConv2d, tflite::kAdd, tflite::kAveragePool2d, tflite::kReshape, tflite::kFullyConnected,
                       tflite::kSoftmax}) {
    out.push_back({code, code == tflite::kConv2d ? "float32, on TF2" : code == tflite::kAdd ? "residual, on TF2" : "float, on the host", {}});
  }
  return out;
}

namespace {
std::vector<model_replay::LoweredLayer<ModelLayerState>> lower_chain_at_model(const std::vector<LayerContext>& ctxs,
                                                      const std::vector<std::vector<float>>& images);
}  // namespace

std::vector<model_replay::LoweredLayer<ModelLayerState>> lower_chain(const std::vector<LayerContext>& ctxs) {
  const scenario::Scenario& sc = ctxs.front().sc;
  if (!sc["ops"].is_string()) sc["ops"].fail("mode chain runs the whole network: expected `all`");
  sc["model"].rethrow_here([&] { tf::check_supported(ctxs.front().model); });  // also: one input tensor
  const int count = static_cast<int>(sc["calibration"].as_int() + sc["inputs"].as_int());
  const std::vector<std::vector<float>> images =
      model_replay::load_images(sc, ctxs.front().model, count);  // errors at `images`
  return sc["model"].rethrow_here([&] { return lower_chain_at_model(ctxs, images); });
}

namespace {

void append(std::vector<float>& to, const std::vector<float>& v) { to.insert(to.end(), v.begin(), v.end()); }

// The chain run on the inputs, accumulated over them: per TF2 layer the
// model's float operator(s) on the same (dequantized TF2) input, the layer
// with INQ weights only, the TF2 output and the float model's own tensor;
// per host operator the float model's tensor and the chain's; the golden
// maps per input.
struct ChainSamples {
  std::vector<std::vector<float>> ref_layer, tf2_out, ref_net, inq_out;  // by TF2 layer
  std::map<std::size_t, std::vector<float>> host_ref, host_tf2;          // by operator
  std::vector<std::vector<std::vector<int8_t>>> golden;                  // per input, per layer: CHW
};

// TF2 layer k on input xq's golden maps: its samples.
void sample_layer(const tflite::Model& m, const Network& net, std::size_t k, const std::vector<int8_t>& xq,
                  const std::vector<std::vector<int8_t>>& maps, const tf::Values& fv, ChainSamples& s) {
  const NetworkLayer& l = net.info[k];
  const ConvLayer& L = net.layers[k];
  tf::Values v(m.subgraphs[0].tensors.size());
  v[static_cast<std::size_t>(l.in_tensor)] = map_value(net, xq, maps, input_source(net.layers, k));
  tf::run_op(m, l.conv_op, v);
  if (l.add_op >= 0) {
    v[static_cast<std::size_t>(l.res_tensor)] = map_value(net, xq, maps, L.residual_from);
    tf::run_op(m, static_cast<std::size_t>(l.add_op), v);
  }
  const std::vector<float> got = map_value(net, xq, maps, static_cast<int>(k));
  append(s.ref_layer[k], v[static_cast<std::size_t>(l.out_tensor)]);
  append(s.inq_out[k], inq_layer(net, k, xq, maps));
  append(s.tf2_out[k], got);
  append(s.ref_net[k], fv[static_cast<std::size_t>(l.out_tensor)]);
}

// One input through the float model and the TF2 chain: its program, golden
// maps, samples and top-1s.
void run_input(ChainNet& cn, const std::vector<float>& img, ChainSamples& s) {
  const tflite::Model& m = cn.model;
  const Network& net = cn.net;
  const ConvLayer& first = net.layers.front();
  const tf::Values fv = tf::run(m, img);
  const std::vector<int8_t> xq =
      quantize_map(nhwc_to_chw(img, first.c_in, first.h_in, first.w_in), first.c_in, {net.input_q});
  cn.programs.push_back(compile(net.layers, xq));
  s.golden.push_back(sac_chain(net.layers, xq));
  const std::vector<std::vector<int8_t>>& maps = s.golden.back();
  for (std::size_t k = 0; k < net.layers.size(); ++k) sample_layer(m, net, k, xq, maps, fv, s);
  const tf::Values hv = host_tail(m, net, xq, maps);
  for (std::size_t op : net.host_ops) {
    const auto t = static_cast<std::size_t>(m.subgraphs[0].operators[op].outputs[0]);
    append(s.host_ref[op], fv[t]);
    append(s.host_tf2[op], hv[t]);
  }
  cn.float_top1.push_back(top1(m, fv));
  cn.golden_top1.push_back(top1(m, hv));
}

// A TF2 layer's row (not a fused ADD): shapes, one check per input and
// channel group, MACs over the inputs.
void tf2_layer_row(const ChainNet& cn, const LayerContext& ctx, const ChainSamples& s, ChainLayer& st,
                   model_replay::LoweredLayer<ModelLayerState>& layer) {
  const ConvLayer& L = cn.net.layers[static_cast<std::size_t>(st.layer)];
  const NetworkLayer& l = cn.net.info[static_cast<std::size_t>(st.layer)];
  layer.shapes += ", k" + std::to_string(l.conv.conv.k) + " s" + std::to_string(L.stride);
  if (L.k != l.conv.conv.k) layer.shapes += " (as k" + std::to_string(L.k) + ")";
  if (l.add_op >= 0) layer.shapes += " + op" + std::to_string(l.add_op);
  if (L.relu) layer.shapes += " relu";
  const int ho = L.h_out(), wo = L.w_out(), groups = (L.c_out + 15) / 16;
  const uint64_t out_addr = cn.programs.front().layers[static_cast<std::size_t>(st.layer)].out_addr;
  for (int n = 0; n < cn.inputs; ++n) {
    const std::vector<uint8_t> expect =
        to_hc16w(s.golden[static_cast<std::size_t>(n)][static_cast<std::size_t>(st.layer)], L.c_out, ho, wo);
    for (int g = 0; g < groups; ++g) {
      layer.checks.push_back({ctx.check + check_suffix(n, g, L.c_out), hc16w_group(expect, g, ho, wo), {}});
      st.check_addrs.push_back(out_addr + hc16w_group_offset(g, wo));
    }
  }
  st.row_pitch = hc16w_row_pitch(groups, wo);
  layer.macs = static_cast<uint64_t>(cn.inputs) * L.c_out * ho * wo * l.conv.conv.c_in * l.conv.conv.k * l.conv.conv.k;
}

// The row of one operator: a TF2 layer, an ADD fused into one, or a host operator.
model_replay::LoweredLayer<ModelLayerState> chain_row(const std::shared_ptr<const ChainNet>& cn,
                                                      const LayerContext& ctx, const ChainSamples& s) {
  const Network& net = cn->net;
  model_replay::LoweredLayer<ModelLayerState> layer;
  ChainLayer st;
  st.net = cn;
  layer.shapes = model_replay::op_shapes(cn->model, ctx.op_index);
  for (std::size_t k = 0; k < net.layers.size(); ++k) {
    const NetworkLayer& l = net.info[k];
    if (l.conv_op != ctx.op_index && l.add_op != static_cast<int>(ctx.op_index)) continue;
    st.layer = static_cast<int>(k);
    st.fused_add = l.add_op == static_cast<int>(ctx.op_index);
    st.inq_err = compare(s.ref_layer[k], s.inq_out[k]);
    st.layer_err = compare(s.ref_layer[k], s.tf2_out[k]);
    st.net_err = compare(s.ref_net[k], s.tf2_out[k]);
  }
  if (st.layer < 0) {
    st.net_err = compare(s.host_ref.at(ctx.op_index), s.host_tf2.at(ctx.op_index));
  } else if (!st.fused_add) {
    tf2_layer_row(*cn, ctx, s, st, layer);
  }
  layer.state = std::move(st);
  return layer;
}

// The rest of lower_chain; an InputError is about the model's contents.
std::vector<model_replay::LoweredLayer<ModelLayerState>> lower_chain_at_model(
    const std::vector<LayerContext>& ctxs, const std::vector<std::vector<float>>& images) {
  const scenario::Scenario& sc = ctxs.front().sc;
  auto cn = std::make_shared<ChainNet>();
  cn->model = ctxs.front().model;
  const tflite::Model& m = cn->model;
  tf::check_supported(m);
  if (ctxs.size() != m.subgraphs[0].operators.size()) {
    throw InputError("mode chain runs the whole network; operators outside CONV_2D, ADD, AVERAGE_POOL_2D, RESHAPE, "
                     "FULLY_CONNECTED, SOFTMAX are not supported");
  }
  // Calibration: the float network on the first images, max |x| per channel.
  const int n_cal = static_cast<int>(sc["calibration"].as_int());
  cn->inputs = static_cast<int>(sc["inputs"].as_int());
  std::vector<tf::Values> cal;
  for (int k = 0; k < n_cal; ++k) cal.push_back(tf::run(m, images[static_cast<std::size_t>(k)]));
  cn->net = plan_network(m, channel_max(m, cal));
  // The chain on every input: golden maps, layer and network error.
  const std::size_t nl = cn->net.layers.size();
  ChainSamples s{std::vector<std::vector<float>>(nl), std::vector<std::vector<float>>(nl),
                 std::vector<std::vector<float>>(nl), std::vector<std::vector<float>>(nl), {}, {}, {}};
  for (int n = 0; n < cn->inputs; ++n) run_input(*cn, images[static_cast<std::size_t>(n_cal + n)], s);
  // One row per operator, in model order.
  std::vector<model_replay::LoweredLayer<ModelLayerState>> out;
  for (const LayerContext& ctx : ctxs) out.push_back(chain_row(cn, ctx, s));
  return out;
}
}  // namespace

void emit_chain(trace::Trace& t, const scenario::Scenario& sc, const std::vector<ModelLayer>& layers) {
  const ChainNet& cn = *state(layers.front()).net;
  for (int n = 0; n < cn.inputs; ++n) {
    const Program& p = cn.programs[static_cast<std::size_t>(n)];
    t.mem_load(0, p.dram, "input" + std::to_string(n));
    t.reg_write(reg::kDescAddr, p.desc_addr);
    t.reg_write(reg::kDescCount, p.desc_count);
    t.reg_write(reg::kCtrl, reg::ctrl::kStartMask);
    t.wait_done(sc.testbench.timeout_cycles);
    // Every layer's map of this input (the same addresses in every image).
    for (const ModelLayer& l : layers) {
      const ChainLayer& st = state(l);
      const std::size_t per_input = st.check_addrs.size() / static_cast<std::size_t>(cn.inputs);
      for (std::size_t g = 0; g < per_input; ++g) {
        const std::size_t c = static_cast<std::size_t>(n) * per_input + g;
        t.mem_check_rows(st.check_addrs[c], l.layer.checks[c].expected, l.layer.checks[c].name, st.row_pitch);
      }
    }
  }
}

bool is_chain_layer(const ModelLayer& l) { return std::holds_alternative<ChainLayer>(l.state); }

model_replay::Figures chain_figures(const ModelLayer& l, const SimOutcome& out) {
  const ChainLayer& st = state(l);
  const Network& net = st.net->net;
  model_replay::Figures f;
  std::string where = "cpu";  // float, on the host
  if (st.layer >= 0) where = st.fused_add ? "tf2:op" + std::to_string(net.info[static_cast<std::size_t>(st.layer)].conv_op) : "tf2";
  f.where = where;
  f.json = {{"where", where}, {"network_snr_db", db(st.net_err.snr_db)}, {"network_max_abs_err", st.net_err.max_abs_err}};
  f.metrics = {{"network_snr_db", st.net_err.snr_db}};
  if (st.layer < 0) {
    f.json["status"] = "cpu";
    f.cells = {"-", "-", "-", "-", "-", "-", "-", fmt(st.net_err.snr_db, 1)};
    return f;
  }
  const ConvLayer& L = net.layers[static_cast<std::size_t>(st.layer)];
  const std::vector<int> qi = L.input_q(), qo = L.output_q();
  f.cells = {q_range(qi), q_range(qo), std::to_string(L.min_exp), fmt(st.inq_err.snr_db, 1),
             fmt(st.inq_err.max_abs_err, 4), fmt(st.layer_err.snr_db, 1),
             fmt(st.layer_err.max_abs_err, 4), fmt(st.net_err.snr_db, 1)};
  f.json["q_in"] = qi;
  f.json["q_out"] = qo;
  f.json["min_exp"] = L.min_exp;
  f.json["inq_snr_db"] = db(st.inq_err.snr_db);
  f.json["inq_max_abs_err"] = st.inq_err.max_abs_err;
  f.json["layer_snr_db"] = db(st.layer_err.snr_db);
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
    f.cells.push_back(fmt(100.0 * util, 1) + "%");
    f.json["cycles_per_input"] = busy->second / static_cast<uint64_t>(st.net->inputs);
    f.json["pe_utilization"] = util;
    f.metrics["cycles"] = cycles;
    f.metrics["pe_utilization"] = util;
  }
  return f;
}

void chain_totals(const std::vector<ModelLayer>& layers, const SimOutcome& out, Metrics& m) {
  const ChainNet& cn = *state(layers.front()).net;
  const Network& net = cn.net;
  const tflite::Model& model = cn.model;
  // The DUT's bytes of every layer and input, where the run captured them
  // (a missing capture keeps the golden map: the run already fails then).
  std::map<std::string, const CheckCapture*> cap;
  for (const CheckCapture& c : out.play.checks) cap[c.desc.name] = &c;
  std::vector<std::size_t> dut_top1;
  int agree = 0;
  double ideal = 0;
  for (const ModelLayer& l : layers) {
    const ChainLayer& st = state(l);
    if (st.layer < 0 || st.fused_add) continue;
    const double peak = peak_macs_per_cycle(out.perf, net.layers[static_cast<std::size_t>(st.layer)].k);
    if (peak > 0) ideal += static_cast<double>(l.layer.macs) / peak;
  }
  for (int n = 0; n < cn.inputs; ++n) {
    const Program& p = cn.programs[static_cast<std::size_t>(n)];
    const ConvLayer& first = net.layers.front();
    const std::vector<int8_t> image_q =
        from_hc16w(&p.dram[p.layers.front().in_addr], first.c_in, first.h_in, first.w_in);
    std::vector<std::vector<int8_t>> maps(net.layers.size());
    for (const ModelLayer& l : layers) {
      const ChainLayer& st = state(l);
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
    dut_top1.push_back(top1(model, host_tail(model, net, image_q, maps)));
    agree += dut_top1.back() == cn.float_top1[static_cast<std::size_t>(n)];
  }
  m.extra["top1_agree"] = agree;
  m.extra["top1_inputs"] = cn.inputs;
  m.table.push_back("  top-1 agreement " + std::to_string(agree) + "/" + std::to_string(cn.inputs) +
                    " (float model vs TF2 chain over `inputs`)");
  // The final output's drift: the last operator's tensor against the float
  // model's, pooled over the inputs (its net_snr cell).
  const ChainLayer& last = state(layers.back());
  m.table.push_back("  network output vs the float model over " + std::to_string(cn.inputs) + " input(s): SNR " +
                    fmt(last.net_err.snr_db, 1) + " dB, max |diff| " + fmt(last.net_err.max_abs_err, 4));
  m.extra["network.float_snr_db"] = last.net_err.snr_db;
  m.extra["network.float_max_abs_diff"] = last.net_err.max_abs_err;
  m.report_json = nlohmann::json{{"network_output", {{"float_snr_db", db(last.net_err.snr_db)},
                                                     {"float_max_abs_diff", last.net_err.max_abs_err}}},
                                 {"top1", {{"inputs", cn.inputs},
                                           {"agree", agree},
                                           {"float", cn.float_top1},
                                           {"tf2", dut_top1},
                                           {"tf2_golden", cn.golden_top1}}}}.dump();
  const auto busy = out.perf.find("busy_cycles");
  if (ideal > 0 && busy != out.perf.end() && busy->second > 0) {
    m.utilization = ideal / static_cast<double>(busy->second);
    m.extra["ideal_cycles"] = ideal;
  }
}

}  // namespace cosim::tb::tf2
