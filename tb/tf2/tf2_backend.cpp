// The `tf2` target: the TF2 shift-accumulate engine (rtl/tf2).
//
// op `conv`: one convolution layer.
//   shapes: {input: [1, H, W, C]}               # NHWC, batch 1
//   params: {c_out: 32, kernel: 3, stride: 1, padding: same,   # same | valid | 0..k-1
//            bias: true, batch_norm: true, relu: true}
//   data:   {input: random, weights: random, bias: random, bn_alpha: random, bn_beta: random}
// op `resnet_block`: conv (ReLU), conv, residual ADD of the block input, ReLU.
//   shapes: {input: [1, H, W, C]}
//   params: {kernel: 3, bias: true, batch_norm: true, relu: true}
//   data:   {input, conv1_weights, conv2_weights, conv1_bias, ..., conv2_bn_beta}
//
// Float data: `random` (the input uniform in [-1, 1]; weights He-uniform for
// the fan-in; bias +-0.1; batch-norm alpha [0.5, 1.5], beta +-0.2),
// {random: {min, max}} inside [-1, 1], or {npy: file.npy} (float32: input
// NHWC, weights OIHW, the others [c_out]). The golden model INQ-compresses
// the weights, picks the power-of-two Qs of the maps from the float results
// (one Q per map, as the hardware path), and runs the shift-accumulate
// arithmetic; the report carries the float reference's cost per layer.
// Checks: one per output map and 16-channel group ("output", or
// "output_c16_31" ...), int8 NHWC [1, H, W, 16] (the HC16W pixel words of
// that group: coordinate c is the channel within the group; in DRAM the
// group's rows are a map row apart, layout nhwc_pitch<P> in the trace).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "common/error.hpp"
#include "dut/tf2_regs.hpp"
#include "cosim/backend.hpp"
#include "tf2/compiler.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/inq.hpp"
#include "tf2/map_layout.hpp"
#include "tf2/reference.hpp"
#include "tf2/tf2_wrapper.hpp"
#include "tf2_model_op.hpp"
#include "tf2_peak.hpp"
#include "tf2_bare/tf2_bare.hpp"

namespace cosim::tb::tf2 {

using namespace cosim::tf2;

namespace {

namespace reg = tf2::regs;  // generated from rtl/tf2/tf2.yaml
using scenario::Schema;
using scenario::Value;

struct LayerInfo {
  uint64_t macs = 0;
  int k = 1;
};

struct Tf2State {
  Program program;
  std::vector<LayerInfo> layers;
  bool start = true;
  // name, address, expected tensor (in check order)
  struct Check {
    std::string name;
    uint64_t addr = 0;       // the group's first pixel word
    uint64_t row_pitch = 0;  // bytes from one of its rows to the next (HC16W: a map row)
  };
  std::vector<Check> checks;
  std::map<std::string, double> cost;
};

Schema conv_params(bool with_c_out) {
  Schema s = Schema::map();
  if (with_c_out) s.required("c_out", Schema::integer(1, 4096));
  s.optional("kernel", Schema::integer(1, 7), "3");
  if (with_c_out) {
    s.optional("stride", Schema::integer(1, 255), "1");
    s.optional("padding", Schema::any_of({Schema::one_of({"same", "valid"}), Schema::integer(0, 6)}), "same");
  }
  s.optional("bias", Schema::boolean(), "true");
  s.optional("batch_norm", Schema::boolean(), "true");
  s.optional("relu", Schema::boolean(), "true");
  return s;
}

// One float tensor: seeded random with a default distribution, an explicit
// range, or .npy.
std::vector<float> float_data(const scenario::Scenario& sc, const Value& src, const std::vector<int64_t>& shape,
                              Layout layout, const std::string& name, double lo, double hi) {
  if (src.is_string()) {  // plain `random`: this tensor's default distribution
    scenario::Rng rng(sc.seed, name);
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = static_cast<float>(rng.uniform(lo, hi));
    return v;
  }
  const Tensor t = scenario::make_tensor(sc, src, DType::kFp32, shape, layout, name);
  std::vector<float> v(static_cast<std::size_t>(t.numel()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = t.data<float>()[i];
  return v;
}

// The float layer with its weights replaced by their INQ values (the cost of
// compression alone).
FloatConv with_inq_weights(const FloatConv& f, const ConvLayer& L) {
  FloatConv g = f;
  for (std::size_t i = 0; i < g.weights.size(); ++i) g.weights[i] = static_cast<float>(inq_code_value(L.codes[i], L.min_exp));
  return g;
}

std::string fmt_db(double v) {
  if (std::isinf(v)) return "inf dB";
  std::ostringstream os;
  os.precision(1);
  os << std::fixed << v << " dB";
  return os.str();
}

std::string fmt_g(double v) {
  std::ostringstream os;
  os.precision(3);
  os << v;
  return os.str();
}

// The float parts of a conv layer from the scenario.
FloatConv float_layer(const scenario::Scenario& sc, const std::string& prefix, int c_in, int c_out, int h, int w, int k,
                      int stride, int pad, bool bias, bool bn, bool relu) {
  const Value& data = sc["data"];
  FloatConv f;
  f.c_in = c_in; f.c_out = c_out; f.h_in = h; f.w_in = w;
  f.k = k; f.stride = stride; f.pad = pad; f.relu = relu;
  const double lim = std::sqrt(6.0 / (static_cast<double>(c_in) * k * k));
  f.weights = float_data(sc, data[prefix + "weights"], {c_out, c_in, k, k}, Layout::kAny, prefix + "weights", -lim, lim);
  if (bias) f.bias = float_data(sc, data[prefix + "bias"], {c_out}, Layout::kAny, prefix + "bias", -0.1, 0.1);
  if (bn) {
    f.bn_alpha = float_data(sc, data[prefix + "bn_alpha"], {c_out}, Layout::kAny, prefix + "bn_alpha", 0.5, 1.5);
    f.bn_beta = float_data(sc, data[prefix + "bn_beta"], {c_out}, Layout::kAny, prefix + "bn_beta", -0.2, 0.2);
  }
  return f;
}



class Tf2Backend : public TargetBackend {
 public:
  std::string name() const override { return "tf2"; }
  std::string description() const override {
    return "TF2 shift-accumulate PE array (INQ power-of-two weights, int8 maps): conv, resnet_block";
  }
  std::vector<std::string> ops() const override { return {"conv", "resnet_block", "model"}; }

  Schema op_schema(const std::string& op) const override {
    if (op == "model") return model_replay::op_schema(*model_);  // tf2_model_op.hpp
    const Schema src = scenario::schemas::data_source();
    Schema data = Schema::map().optional("input", src, "{random: {min: -1, max: 1}}");
    const std::vector<std::string> prefixes =
        op == "resnet_block" ? std::vector<std::string>{"conv1_", "conv2_"} : std::vector<std::string>{""};
    for (const std::string& p : prefixes) {
      for (const char* k : {"weights", "bias", "bn_alpha", "bn_beta"}) data.optional(p + k, src, "random");
    }
    Schema s = Schema::map();
    s.required("shapes", Schema::map().required("input", Schema::shape(4, 4, 1024)));
    if (op == "conv") s.required("params", conv_params(true));
    else s.optional("params", conv_params(false), "{}");
    s.optional("data", data, "{}");
    s.optional("fault", Schema::one_of({"none", "no_start"}), "none");
    return s;
  }

  tb::Workload prepare(const scenario::Scenario& sc) const override {
    // requant: absent = the original's 32-bit requantization, saturate = the
    // same without its wrap (for designs that fixed that overflow).
    const bool wide = sc.requant == scenario::Requant::kSaturate;
    if (sc.requant && !wide) {
      sc["requant"].fail("expected saturate (or no requant key: the original engine's 32-bit requantization)");
    }
    if (sc.op == "model") {
      if (wide) sc["requant"].fail("op model runs the original's requantization only");
      return model_replay::prepare(*model_, sc);  // tf2_model_op.hpp
    }
    const Value& shape_v = sc["shapes"]["input"];
    const std::vector<int64_t> shape = shape_v.as_ints();
    if (shape[0] != 1) shape_v.fail("expected batch 1 ([1, H, W, C]), got " + std::to_string(shape[0]));
    const int h = static_cast<int>(shape[1]), w = static_cast<int>(shape[2]), c = static_cast<int>(shape[3]);
    const Value& pv = sc["params"];
    const int k = static_cast<int>(pv["kernel"].as_int());
    const bool bias = pv["bias"].as_bool(), bn = pv["batch_norm"].as_bool(), relu = pv["relu"].as_bool();
    // What the device can hold, before any map of this size is computed.
    try {
      check_capacity(c, h, w, k, DeviceConfig{}, "TF2 layer");
    } catch (const InputError& e) {
      shape_v.fail(e.what());
    }
    const std::vector<float> x =
        nhwc_to_chw(float_data(sc, sc["data"]["input"], shape, Layout::kNHWC, "input", -1, 1), c, h, w);

    Tf2State st;
    st.start = sc["fault"].as_string() != "no_start";
    std::vector<ConvLayer> layers;
    std::vector<std::string> out_names;
    std::vector<std::vector<float>> float_out;  // float reference of each layer's output map
    std::ostringstream summary;
    tb::Workload wl;
    int q_in = 0;

    if (sc.op == "conv") {
      const int c_out = static_cast<int>(pv["c_out"].as_int());
      const int stride = static_cast<int>(pv["stride"].as_int());
      const Value& padv = pv["padding"];
      int pad = 0;
      if (padv.is_string()) pad = padv.as_string() == "same" ? (k - 1) / 2 : 0;
      else pad = static_cast<int>(padv.as_int());
      if (pad >= k) padv.fail("expected padding in [0, kernel-1] = [0, " + std::to_string(k - 1) + "]");
      if (h + 2 * pad < k || w + 2 * pad < k) shape_v.fail("expected H and W + 2*padding >= kernel " + std::to_string(k));
      const FloatConv f = float_layer(sc, "", c, c_out, h, w, k, stride, pad, bias, bn, relu);
      const std::vector<float> ref = float_conv2d(f, x);
      // The input is the network's input image: one Q, channel 0's
      // (spec/tf2.md); the output map has one Q per channel, each channel's
      // lowered as far as the 5-bit shift needs.
      q_in = choose_map_q(x, c)[0];
      ConvLayer L = make_fitting_conv_layer(f, {q_in}, choose_map_q(ref, c_out));
      L.wide_requant = wide;
      const std::vector<int8_t> xq = quantize_map(x, c, {q_in});
      const std::vector<int8_t> yq = sac_conv2d(L, xq);
      const ErrorStats inq = compare(ref, float_conv2d(with_inq_weights(f, L), x));
      const ErrorStats tot = compare(ref, dequantize_map(yq, c_out, L.output_q()));
      const std::vector<int> q_out = L.output_q();
      const auto [qo_lo, qo_hi] = std::minmax_element(q_out.begin(), q_out.end());
      st.cost = {{"conv.inq_snr_db", inq.snr_db}, {"conv.inq_max_abs_err", inq.max_abs_err},
                 {"conv.int8_snr_db", tot.snr_db}, {"conv.int8_max_abs_err", tot.max_abs_err},
                 {"conv.q_in", q_in}, {"conv.q_out_min", *qo_lo}, {"conv.q_out_max", *qo_hi},
                 {"conv.min_exp", L.min_exp}};
      summary << "conv 1x" << h << "x" << w << "x" << c << " -> 1x" << L.h_out() << "x" << L.w_out() << "x" << c_out
              << ", k" << k << " s" << stride << " p" << pad << (bn ? ", bn" : "") << (relu ? ", relu" : "")
              << "; Q " << q_in << " -> " << q_range(q_out) << "; float ref: INQ " << fmt_db(inq.snr_db) << ", int8 "
              << fmt_db(tot.snr_db) << " (max |err| " << fmt_g(tot.max_abs_err) << ")";
      layers.push_back(L);
      out_names.push_back("output");
      float_out.push_back(ref);
    } else {  // resnet_block
      const Value& kv = pv["kernel"];
      if (k % 2 == 0) kv.fail("expected an odd kernel (the block keeps its shape with 'same' padding)");
      const int pad = (k - 1) / 2;
      const FloatConv f1 = float_layer(sc, "conv1_", c, c, h, w, k, 1, pad, bias, bn, true);
      const FloatConv f2 = float_layer(sc, "conv2_", c, c, h, w, k, 1, pad, bias, bn, false);
      const std::vector<float> r1 = float_conv2d(f1, x);
      const std::vector<float> r2 = float_conv2d(f2, r1);
      std::vector<float> sum(r2.size()), out_f(r2.size());
      for (std::size_t i = 0; i < r2.size(); ++i) {
        sum[i] = r2[i] + x[i];
        out_f[i] = relu && sum[i] < 0 ? 0.0f : sum[i];
      }
      // The residual ADD needs one Q for the block input (the network's
      // input image: one Q, channel 0's), conv2's output and the sum: the
      // smallest of the three. conv1's output has one Q per channel.
      int q = std::min({choose_map_q(x, c)[0], choose_layer_q(r2, c), choose_layer_q(sum, c)});
      std::vector<int> q1 = choose_map_q(r1, c);
      ConvLayer L1, L2;
      for (int tries = 0;; ++tries) {
        L1 = make_conv_layer(f1, {q}, q1);
        L2 = make_conv_layer(f2, q1, {q});
        if (L1.largest_shift() <= kMaxShift && L2.largest_shift() <= kMaxShift) break;
        if (tries > 300) sc["data"].fail("the weights' exponent range does not fit the 5-bit shift at any Q");
        if (L1.largest_shift() > kMaxShift) {
          const int top = *std::max_element(q1.begin(), q1.end());
          for (int& v : q1) v -= v == top ? 1 : 0;
        } else {
          --q;
        }
      }
      L2.relu = relu;
      L2.residual_from = kResidualFromInput;
      L1.wide_requant = L2.wide_requant = wide;
      q_in = q;
      layers = {L1, L2};
      const std::vector<int8_t> xq = quantize_map(x, c, {q});
      const std::vector<std::vector<int8_t>> yq = sac_chain(layers, xq);
      const std::vector<float> i1 = float_conv2d(with_inq_weights(f1, L1), x);
      const std::vector<float> i2 = float_conv2d(with_inq_weights(f2, L2), i1);
      std::vector<float> iout(i2.size());
      for (std::size_t i = 0; i < i2.size(); ++i) {
        const float s = i2[i] + x[i];
        iout[i] = relu && s < 0 ? 0.0f : s;
      }
      const ErrorStats inq1 = compare(r1, i1), tot1 = compare(r1, dequantize_map(yq[0], c, q1));
      const auto [q1_lo, q1_hi] = std::minmax_element(q1.begin(), q1.end());
      const ErrorStats inqb = compare(out_f, iout), totb = compare(out_f, dequantize_map(yq[1], q));
      st.cost = {{"conv1.inq_snr_db", inq1.snr_db},   {"conv1.inq_max_abs_err", inq1.max_abs_err},
                 {"conv1.int8_snr_db", tot1.snr_db},  {"conv1.int8_max_abs_err", tot1.max_abs_err},
                 {"block.inq_snr_db", inqb.snr_db},   {"block.inq_max_abs_err", inqb.max_abs_err},
                 {"block.int8_snr_db", totb.snr_db},  {"block.int8_max_abs_err", totb.max_abs_err},
                 {"conv1.q_out_min", *q1_lo},         {"conv1.q_out_max", *q1_hi},
                 {"block.q", q},
                 {"conv1.min_exp", L1.min_exp},       {"conv2.min_exp", L2.min_exp}};
      summary << "resnet_block 1x" << h << "x" << w << "x" << c << ", 2x conv k" << k << (bn ? " bn" : "")
              << " + residual" << (relu ? " + relu" : "") << "; Q " << q << " / conv1 " << q_range(q1)
              << "; float ref: conv1 INQ " << fmt_db(inq1.snr_db) << ", int8 " << fmt_db(tot1.snr_db)
              << "; block INQ " << fmt_db(inqb.snr_db) << ", int8 " << fmt_db(totb.snr_db) << " (max |err| "
              << fmt_g(totb.max_abs_err) << ")";
      out_names = {"conv1", "output"};
      float_out = {r1, out_f};
    }

    const std::vector<int8_t> xq = quantize_map(x, c, {q_in});
    try {
      st.program = tf2::compile(layers, xq);
    } catch (const InputError& e) {
      shape_v.fail(std::string("the layer does not fit the TF2 device: ") + e.what());
    }
    const std::vector<std::vector<uint8_t>> expect = expected_outputs(layers, xq);
    for (std::size_t l = 0; l < layers.size(); ++l) {
      const ConvLayer& L = layers[l];
      const int ho = L.h_out(), wo = L.w_out(), groups = (L.c_out + 15) / 16;
      const std::vector<uint8_t> ref_map =
          to_hc16w(quantize_map(float_out[l], L.c_out, L.output_q()), L.c_out, ho, wo);
      for (int g = 0; g < groups; ++g) {
        std::string nm = out_names[l];
        if (groups > 1) nm += "_c" + std::to_string(16 * g) + "_" + std::to_string(std::min(16 * g + 15, L.c_out - 1));
        const uint64_t addr = st.program.layers[l].out_addr + hc16w_group_offset(g, wo);
        wl.expected[nm] = hc16w_group(expect[l], g, ho, wo);
        wl.references.push_back({nm, "float_ref", hc16w_group(ref_map, g, ho, wo)});
        st.checks.push_back({nm, addr, hc16w_row_pitch(groups, wo)});
      }
      const uint64_t macs = static_cast<uint64_t>(L.c_out) * ho * wo * L.c_in * L.k * L.k;
      st.layers.push_back({macs, L.k});
      wl.macs += macs;
    }
    Tensor in_f(DType::kFp32, shape, Layout::kNHWC);
    Tensor in_q(DType::kInt8, shape, Layout::kNHWC);
    for (int y = 0; y < h; ++y)
      for (int xx = 0; xx < w; ++xx)
        for (int ch = 0; ch < c; ++ch) {
          const std::size_t nhwc = (static_cast<std::size_t>(y) * w + xx) * c + ch;
          const std::size_t chw = (static_cast<std::size_t>(ch) * h + y) * w + xx;
          in_f.data<float>()[nhwc] = x[chw];
          in_q.data<int8_t>()[nhwc] = xq[chw];
        }
    wl.inputs["input"] = std::move(in_f);
    wl.inputs["input_q"] = std::move(in_q);
    wl.summary = summary.str();
    wl.state = std::move(st);
    return wl;
  }

  trace::Trace compile(const scenario::Scenario& sc, const tb::Workload& w) const override {
    if (model_replay::is_model_workload(w)) return model_replay::compile(*model_, sc, w);  // tf2_model_op.hpp
    const auto& st = std::any_cast<const Tf2State&>(w.state);
    trace::Trace t;
    t.target = name();
    t.mem_load(0, st.program.dram, "dram_image");
    t.reg_write(reg::kDescAddr, st.program.desc_addr);
    t.reg_write(reg::kDescCount, st.program.desc_count);
    if (st.start) t.reg_write(reg::kCtrl, reg::ctrl::kStartMask);
    t.wait_done(sc.testbench.timeout_cycles);
    for (const auto& c : st.checks) t.mem_check_rows(c.addr, w.expected.at(c.name), c.name, c.row_pitch);
    return t;
  }

  std::unique_ptr<tb::DutWrapper> make_dut(const char* name, const tb::TbConfig& cfg) const override {
    return std::make_unique<tb::tf2::Tf2Wrapper>(name, cfg);
  }

  // Checks are named <layer output>[_c<first>_<last>] (one per 16-channel
  // group), NHWC [1, H, W, 16]; the layer is the output's rank among the
  // distinct check names in trace order (conv: output; resnet_block: conv1,
  // output). Works on replay too (names only).
  std::optional<tb::WorkUnit> work_unit(const tb::Workload* w, const trace::Trace& tr, const std::string& check,
                                        const std::vector<int64_t>& index,
                                        std::optional<uint64_t> address) const override {
    (void)w, (void)address;
    if (index.size() != 4) return std::nullopt;
    auto base_of = [](const std::string& n, int* first) {
      const auto p = n.rfind("_c");
      if (p != std::string::npos && n.find('_', p + 2) != std::string::npos) {
        *first = std::atoi(n.c_str() + p + 2);
        return n.substr(0, p);
      }
      *first = 0;
      return n;
    };
    int first = 0;
    const std::string base = base_of(check, &first);
    std::vector<std::string> bases;
    for (const auto& st : tr.steps) {
      if (st.op != trace::Op::kMemCheck) continue;
      int f = 0;
      const std::string b = base_of(st.tensor.name, &f);
      if (std::find(bases.begin(), bases.end(), b) == bases.end()) bases.push_back(b);
    }
    const auto it = std::find(bases.begin(), bases.end(), base);
    const int64_t layer = it == bases.end() ? 0 : it - bases.begin();
    tb::WorkUnit u;
    u.fields = {{"layer", layer}, {"channel", first + index[3]}, {"y", index[1]}, {"x", index[2]}};
    u.text = "layer " + std::to_string(layer) + " (" + base + "), output channel " + std::to_string(first + index[3]) +
             ", pixel (y " + std::to_string(index[1]) + ", x " + std::to_string(index[2]) + ")";
    return u;
  }

  tb::Metrics metrics(const tb::Workload* w, const tb::SimOutcome& run) const override {
    tb::Metrics m;
    auto perf = [&](const char* k) -> double {
      const auto it = run.perf.find(k);
      return it == run.perf.end() ? 0.0 : static_cast<double>(it->second);
    };
    const double busy = perf("busy_cycles"), pe_busy = perf("pe_busy_cycles");
    if (busy > 0) {
      m.extra["pe_busy_fraction"] = pe_busy / busy;
      m.extra["filter_wait_fraction"] = perf("filter_wait_cycles") / busy;
      m.extra["output_wait_fraction"] = perf("output_wait_cycles") / busy;
    }
    if (w == nullptr) return m;
    if (model_replay::is_model_workload(*w)) {  // tf2_model_op.hpp, plus the run-wide counters above
      tb::Metrics mm = model_replay::metrics(*model_, *w, run);
      for (const auto& [k, v] : m.extra) mm.extra[k] = v;
      return mm;
    }
    const auto& st = std::any_cast<const Tf2State&>(w->state);
    m.macs = w->macs;
    for (const auto& [k, v] : st.cost) m.extra[k] = v;
    // Ideal cycles: each layer's MACs at the PE array's peak (tf2_peak.hpp).
    double ideal = 0;
    for (const LayerInfo& l : st.layers) {
      const double peak = peak_macs_per_cycle(run.perf, l.k);
      if (peak > 0) ideal += static_cast<double>(l.macs) / peak;
    }
    if (busy > 0 && ideal > 0) {
      m.utilization = ideal / busy;
      m.extra["ideal_cycles"] = ideal;
      if (pe_busy > 0) m.extra["utilization_while_pe_busy"] = ideal / pe_busy;
    }
    return m;
  }

 private:
  std::unique_ptr<model_replay::ModelTarget> model_ = make_model_target();
};

}  // namespace
}  // namespace cosim::tb::tf2

namespace cosim::backends {
std::unique_ptr<tb::TargetBackend> make_tf2() { return std::make_unique<tb::tf2::Tf2Backend>(); }
}  // namespace cosim::backends
