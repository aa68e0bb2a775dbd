#include "tinydnn/tinydnn_delegate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "common/error.hpp"
#include "common/text.hpp"
#include "model_replay/anomaly_score.hpp"
#include "model_replay/float_images.hpp"
#include "tflite_float/float_ops.hpp"
#include "tflite_float/interpreter.hpp"
#include "tinydnn/program.hpp"
#include "tinydnn/tinydnn_conv_tiles.hpp"

namespace cosim::tb::tinydnn {

using model_replay::snr_db_json;

using model_replay::LayerContext;
namespace tf = cosim::tflite_float;

// The network output of one input: the delegate's against the float model's.
struct NetOut {
  ops::FloatDistance drift;
  std::size_t top1 = 0, top1_float = 0;
  std::optional<std::pair<double, double>> anomaly;  // an autoencoder's score: the delegate's, the float model's
};

// What every row of one delegate run shares.
struct DelegateNet {
  int inputs = 0;
  std::vector<NetOut> outputs;  // per input
  std::size_t waits = 0;        // wait_done steps of the whole trace
};

namespace {

const DelegateLayer& state(const ModelLayer& l) { return std::get<DelegateLayer>(l.state); }
bool on_dut(const DelegateLayer& d) { return d.reason.empty(); }


// Why operator `op` runs on the CPU; empty when it runs on the accelerator.
std::string cpu_reason(const tflite::Model& m, std::size_t op) {
  const int32_t code = m.subgraphs[0].operators[op].code;
  const std::string type = tflite::op_name(code);
  if (code != tflite::kConv2d && code != tflite::kFullyConnected)
    return type + ": the accelerator runs convolutions (and dense layers as 1x1 ones) only";
  const std::string why = code == tflite::kConv2d ? conv_support(m, op) : dense_support(m, op);
  return why.empty() ? std::string() : type + ": " + why;
}

// The cycles of waits [first, first + n) from the wrapper's per-run log.
std::optional<uint64_t> run_cycles(const SimOutcome& out, std::size_t first, std::size_t n) {
  uint64_t sum = 0;
  for (std::size_t k = first; k < first + n; ++k) {
    const auto it = out.perf.find("run" + std::to_string(k) + "_cycles");
    if (it == out.perf.end()) return std::nullopt;
    sum += it->second;
  }
  return sum;
}

std::vector<model_replay::LoweredLayer<ModelLayerState>> lower_at_model(const std::vector<LayerContext>& ctxs,
                                                const std::vector<std::vector<float>>& images, std::size_t first);

}  // namespace

void add_delegate_keys(scenario::Schema& s) {
  // delegate: the whole network, chained; layers: each stride-1 CONV_2D
  // alone on a seeded random input.
  s.optional("mode", scenario::Schema::one_of({"delegate", "layers"}), "delegate");
  s.optional("inputs", scenario::Schema::integer(1, 256), "1");  // mode delegate: network inputs
  model_replay::add_images_key(s);
}

bool is_delegate(const scenario::Scenario& sc) { return sc["mode"].as_string() == "delegate"; }

std::vector<model_replay::OpSupport> delegate_ops() {
  std::vector<model_replay::OpSupport> out;
  for (int32_t code : {tflite::kConv2d, tflite::kDepthwiseConv2d, tflite::kAdd, tflite::kAveragePool2d,
                       tflite::kReshape, tflite::kFullyConnected, tflite::kSoftmax}) {
    out.push_back({code,
                   code == tflite::kConv2d           ? "stride 1 on tinydnn, others on the CPU"
                   : code == tflite::kFullyConnected ? "as a 1x1 convolution on tinydnn when a row of 16 units fits"
                                                     : "float32, on the CPU",
                   {}});
  }
  return out;
}

namespace {

std::vector<model_replay::LoweredLayer<ModelLayerState>> lower_delegate(const std::vector<LayerContext>& ctxs) {
  const scenario::Scenario& sc = ctxs.front().sc;
  if (!sc["ops"].is_string()) sc["ops"].fail("mode delegate runs the whole network: expected `all`");
  sc["model"].rethrow_here([&] { tf::check_supported(ctxs.front().model); });  // also: one input tensor
  std::vector<std::vector<float>> images =
      model_replay::load_images(sc, ctxs.front().model, static_cast<int>(sc["inputs"].as_int()));  // errors at `images`
  // A split run's worker (Scenario::input_slice): its inputs, named by their
  // index over all of them.
  const std::pair<int64_t, int64_t> range = sc.input_range(static_cast<int64_t>(images.size()));
  images = std::vector<std::vector<float>>(images.begin() + range.first, images.begin() + range.second);
  const auto first = static_cast<std::size_t>(range.first);
  return sc["model"].rethrow_here([&] { return lower_at_model(ctxs, images, first); });
}

// An accelerator layer's convolution of one input (NHWC `in`) as job `job`:
// its tiles, appended to the row, and its output, the golden model's, with
// the fused activation applied on the host.
std::vector<float> conv_on_tinydnn(DelegateLayer& row, const TinyConv& c, const std::vector<float>& in,
                                   const std::string& job) {
  const std::vector<float> xp = padded_input(
      c, [&](int ic, int y, int x) { return in[(static_cast<std::size_t>(y) * c.in_w + x) * c.in_c + ic]; });
  // The drift reference is the float model: no per-job float32 reference.
  TilePlan plan;
  plan.float32_reference = false;
  plan.batch_row_bands = true;
  row.tiles.push_back(tile_conv(job, c, xp, plan));
  std::vector<float> y = golden_nhwc(c, row.tiles.back());
  tf::activate(y, c.activation);
  return y;
}

// Each accelerator row's first wait_done per input and waits per input, in
// trace order (emit_delegate): per input, per accelerator layer, its tiles.
void number_waits(std::vector<DelegateLayer>& rows, DelegateNet& net) {
  for (int n = 0; n < net.inputs; ++n) {
    for (DelegateLayer& row : rows) {
      if (!on_dut(row)) continue;
      std::size_t w = 0;
      for (const Tile& tile : row.tiles[static_cast<std::size_t>(n)].tiles) {
        w += static_cast<std::size_t>(waits_per_tile(tile));
      }
      row.first_wait.push_back(net.waits);
      row.waits_per_input = w;
      net.waits += w;
    }
  }
}

// The rest of lower_delegate; an InputError is about the model's contents.
// images[n] is input first + n.
std::vector<model_replay::LoweredLayer<ModelLayerState>> lower_at_model(const std::vector<LayerContext>& ctxs,
                                                const std::vector<std::vector<float>>& images, std::size_t first) {
  const tflite::Model& m = ctxs.front().model;
  const auto& sg = m.subgraphs[0];
  if (ctxs.size() != sg.operators.size()) {
    throw InputError("mode delegate runs the whole network; operators outside CONV_2D, DEPTHWISE_CONV_2D, ADD, "
                     "AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED, SOFTMAX are not supported");
  }
  auto net = std::make_shared<DelegateNet>();
  net->inputs = static_cast<int>(images.size());
  std::vector<DelegateLayer> rows(ctxs.size());
  std::map<std::size_t, TinyConv> convs;  // the accelerator's layers, by operator
  for (std::size_t k = 0; k < ctxs.size(); ++k) {
    rows[k].net = net;
    rows[k].reason = cpu_reason(m, ctxs[k].op_index);
    if (on_dut(rows[k])) {
      const std::size_t o = ctxs[k].op_index;
      const bool dense = sg.operators[o].code == tflite::kFullyConnected;
      const std::string at = "operator " + std::to_string(o) + " (" + ctxs[k].type + "): ";
      try {
        convs[k] = dense ? read_dense(m, o) : read_conv(m, o);
      } catch (const InputError& e) {
        throw InputError(at + e.what());
      }
    }
  }
  const int32_t out_tensor = sg.outputs.at(0);
  for (int n = 0; n < net->inputs; ++n) {
    const std::vector<float>& img = images[static_cast<std::size_t>(n)];
    const tf::Values ref = tf::run(m, img);  // the float model, entirely on the CPU
    tf::Values v(sg.tensors.size());         // the delegate's chain
    v[static_cast<std::size_t>(tf::input_tensor(m))] = img;
    for (std::size_t k = 0; k < ctxs.size(); ++k) {
      const std::size_t o = ctxs[k].op_index;
      const auto& op = sg.operators[o];
      DelegateLayer& row = rows[k];
      if (!on_dut(row)) {
        tf::run_op(m, o, v);
      } else {
        const TinyConv& c = convs.at(k);
        const std::vector<float>& in = v.at(static_cast<std::size_t>(op.inputs[0]));
        if (in.size() != static_cast<std::size_t>(c.in_h) * c.in_w * c.in_c) {
          throw InputError("operator " + std::to_string(o) + " (" + ctxs[k].type + "): its input was not computed");
        }
        const std::string job = ctxs[k].check + "_in" + std::to_string(first + static_cast<std::size_t>(n));
        v[static_cast<std::size_t>(op.outputs[0])] = conv_on_tinydnn(row, c, in, job);
      }
      const auto t = static_cast<std::size_t>(op.outputs[0]);
      row.drift.add(ref.at(t), v.at(t));
    }
    NetOut no;
    const auto t = static_cast<std::size_t>(out_tensor);
    no.drift.add(ref.at(t), v.at(t));
    no.top1 = tf::argmax(v.at(t));
    no.top1_float = tf::argmax(ref.at(t));
    if (model_replay::is_autoencoder(m)) {
      no.anomaly = {model_replay::reconstruction_error(img, v.at(t)), model_replay::reconstruction_error(img, ref.at(t))};
    }
    net->outputs.push_back(no);
  }
  number_waits(rows, *net);
  std::vector<model_replay::LoweredLayer<ModelLayerState>> out;
  for (std::size_t k = 0; k < ctxs.size(); ++k) {
    model_replay::LoweredLayer<ModelLayerState> layer;
    DelegateLayer& row = rows[k];
    if (on_dut(row)) {
      const TinyConv& c = convs.at(k);
      layer.shapes = c.shapes + (c.activation == tflite::FusedActivation::kRelu ? " relu" : "");
      for (const Tiles& ts : row.tiles) {
        for (const Tile& tile : ts.tiles) {
          for (const cosim::tinydnn::Output& o : tile.golden.outputs) layer.checks.push_back({o.name, o.golden, {}});
        }
        layer.macs += ts.macs;
      }
    } else {
      layer.shapes = model_replay::op_shapes(m, ctxs[k].op_index);
    }
    layer.state = std::move(row);
    out.push_back(std::move(layer));
  }
  return out;
}

void emit_delegate(trace::Trace& t, const scenario::Scenario& sc, const std::vector<ModelLayer>& layers) {
  const DelegateNet& net = *state(layers.front()).net;
  for (int n = 0; n < net.inputs; ++n) {
    for (const ModelLayer& l : layers) {
      const DelegateLayer& row = state(l);
      if (on_dut(row)) emit_tiles(t, sc, l.check, row.tiles[static_cast<std::size_t>(n)]);
    }
  }
}

std::vector<model_replay::Column> delegate_columns() {
  // Cycles per input and MAC utilization on the accelerator; drift against
  // the float model's own tensor (max |diff|, SNR in dB) over all inputs.
  return {{"jobs", 6}, {"cyc/input", 11}, {"util", 7}, {"max_diff", 11}, {"snr_db", 8}};
}

model_replay::Figures delegate_figures(const ModelLayer& l, const SimOutcome& out) {
  const DelegateLayer& row = state(l);
  model_replay::Figures f;
  const std::string where = on_dut(row) ? "tinydnn" : "cpu";
  f.where = where;
  f.json = {{"where", where}, {"status", where},
            {"float32_drift", {{"max_abs_diff", row.drift.max_abs}, {"snr_db", snr_db_json(row.drift.snr_db())}}}};
  f.metrics = {{"float32_max_abs_diff", row.drift.max_abs}, {"float32_snr_db", row.drift.snr_db()}};
  const std::string diff = significant_text(row.drift.max_abs), snr = fixed_text(row.drift.snr_db(), 1);
  if (!on_dut(row)) {
    f.json["reason"] = row.reason;
    f.cells = {"-", "-", "-", diff, snr};
    return f;
  }
  const Tiles& ts = row.tiles.front();
  f.json["jobs_per_input"] = ts.tiles.size();  // forward jobs: 16 output channels x a batch of row bands
  std::string cyc = "-", util = "-";
  uint64_t total = 0;
  bool known = true;
  for (std::size_t first : row.first_wait) {
    const auto c = run_cycles(out, first, row.waits_per_input);
    known = known && c.has_value();
    total += c.value_or(0);
  }
  if (known && total > 0) {
    const int n = row.net->inputs;
    const double u = static_cast<double>(l.layer.macs) / (double(cosim::tinydnn::kCores) * double(total));
    cyc = std::to_string(total / static_cast<uint64_t>(n));
    util = fixed_text(100.0 * u, 1) + "%";
    f.json["cycles"] = total;
    f.json["cycles_per_input"] = total / static_cast<uint64_t>(n);
    f.json["utilization"] = u;
    f.metrics["cycles"] = static_cast<double>(total);
    f.metrics["utilization"] = u;
  }
  f.cells = {std::to_string(ts.oc_tiles) + "x" + std::to_string(ts.row_tiles), cyc, util, diff, snr};
  return f;
}

void delegate_totals(const std::vector<ModelLayer>& layers, const SimOutcome& out, Metrics& m) {
  const DelegateNet& net = *state(layers.front()).net;
  if (out.cycles > 0) m.utilization = double(m.macs) / (double(cosim::tinydnn::kCores) * double(out.cycles));
  // The operators on the CPU, one line per reason.
  std::vector<std::pair<std::string, std::string>> by_reason;  // reason, op list
  for (const ModelLayer& l : layers) {
    const DelegateLayer& row = state(l);
    if (on_dut(row)) continue;
    auto it = std::find_if(by_reason.begin(), by_reason.end(), [&](const auto& p) { return p.first == row.reason; });
    if (it == by_reason.end()) by_reason.push_back({row.reason, std::to_string(l.op_index)});
    else it->second += ", " + std::to_string(l.op_index);
  }
  for (const auto& [reason, ops] : by_reason) {
    m.table.push_back("    on the CPU in float32, " + reason + " (op" + (ops.find(',') != std::string::npos ? "s " : " ") +
                      ops + ")");
  }
  // The network output per input, then over all inputs.
  const std::size_t n = net.outputs.size();
  nlohmann::json nets = nlohmann::json::array();
  int agree = 0;
  std::vector<double> snrs, diffs;
  for (std::size_t k = 0; k < n; ++k) {
    const NetOut& o = net.outputs[k];
    const bool same = o.top1 == o.top1_float;
    agree += same ? 1 : 0;
    snrs.push_back(o.drift.snr_db());
    diffs.push_back(o.drift.max_abs);
    nets.push_back({{"float32", {{"max_abs_diff", o.drift.max_abs}, {"snr_db", snr_db_json(o.drift.snr_db())}}},
                    {"top1", {{"delegate", o.top1}, {"float32", o.top1_float}}},
                    {"top1_agree", same}});
    if (n <= 8) {
      m.table.push_back("    network output" + (n > 1 ? " " + std::to_string(k) : std::string()) +
                        " (delegate vs float32 on the CPU): max |diff| " + significant_text(o.drift.max_abs) +
                        ", SNR " + fixed_text(o.drift.snr_db(), 1) + " dB; top-1 " + std::to_string(o.top1) +
                        " vs " + std::to_string(o.top1_float) + ": " + (same ? "agree" : "DIFFERENT"));
    }
  }
  const model_replay::Spread snr = model_replay::spread_of(snrs), diff = model_replay::spread_of(diffs);
  const std::string ns = std::to_string(n);
  m.table.push_back("    top-1 agreement with the float model (float32 on the CPU) over " + ns +
                    " input(s): " + std::to_string(agree) + "/" + ns);
  m.table.push_back("    final-output drift over " + ns + " input(s): max |diff| min " +
                    significant_text(diff.min) + " / median " + significant_text(diff.median) + " / max " +
                    significant_text(diff.max) + "; SNR dB min " + fixed_text(snr.min, 1) + " / median " +
                    fixed_text(snr.median, 1) + " / max " + fixed_text(snr.max, 1));
  m.table.push_back("    whole network: " + std::to_string(out.cycles) + " cycles (" +
                    std::to_string(out.cycles / std::max<std::size_t>(1, n)) + " per input), MAC utilization " +
                    fixed_text(m.utilization.value_or(0) * 100.0, 1) + " %");
  m.extra["network.inputs"] = static_cast<double>(n);
  m.extra["network.top1_agree_float32"] = agree;
  m.extra["network.float32_snr_db_min"] = snr.min;
  m.extra["network.float32_max_abs_diff_max"] = diff.max;
  model_replay::AnomalyScores scores{"tinydnn", "float", {}, {}};
  for (const NetOut& o : net.outputs) {
    if (!o.anomaly) break;
    scores.dut.push_back(o.anomaly->first);
    scores.reference.push_back(o.anomaly->second);
  }
  if (!scores.dut.empty()) m.table.push_back("  " + model_replay::anomaly_line(scores));
  nlohmann::json rep =
      nlohmann::json{{"mode", "delegate"},
                     {"network_output", nets.at(0)},  // the first input's
                     {"network_outputs", nets},
                     {"top1_agreement", {{"inputs", n}, {"float32", agree}}},
                     {"network_drift",
                      {{"max_abs_diff", {{"min", diff.min}, {"median", diff.median}, {"max", diff.max}}},
                       {"snr_db",
                        {{"min", snr_db_json(snr.min)},
                         {"median", snr_db_json(snr.median)},
                         {"max", snr_db_json(snr.max)}}}}},
                     {"cycles_per_input", out.cycles / std::max<std::size_t>(1, n)}};
  if (!scores.dut.empty()) rep["anomaly_score"] = model_replay::anomaly_json(scores);
  m.report_json = rep.dump();
}

}  // namespace

// The mode's functions above, as the model op calls them.
const model_replay::Delegate<ModelLayerState>& delegate() {
  static const model_replay::Delegate<ModelLayerState> d{&lower_delegate, &emit_delegate, &delegate_columns,
                                                         &delegate_figures, &delegate_totals};
  return d;
}

}  // namespace cosim::tb::tinydnn
