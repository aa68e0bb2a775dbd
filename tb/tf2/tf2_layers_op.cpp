#include "tf2/tf2_layers_op.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "common/text.hpp"
#include "dut/tf2_regs.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/inq.hpp"
#include "tf2/map_layout.hpp"
#include "tf2_peak.hpp"

namespace cosim::tb::tf2 {

using namespace cosim::tf2;

namespace {

namespace reg = tf2::regs;  // generated from rtl/tf2/tf2.yaml
using scenario::Schema;
using scenario::Value;

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

}  // namespace

FloatConv with_inq_weights(const FloatConv& f, const ConvLayer& L) {
  FloatConv g = f;
  for (std::size_t i = 0; i < g.weights.size(); ++i) g.weights[i] = static_cast<float>(inq_code_value(L.codes[i], L.min_exp));
  return g;
}

std::string fmt_db(double v) { return fixed_text(v, 1) + " dB"; }  // "inf dB" for an exact result

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

Schema Tf2LayersOp::schema_of(const std::vector<std::string>& prefixes, bool with_c_out) {
  const Schema src = scenario::schemas::data_source();
  Schema data = Schema::map().optional("input", src, "{random: {min: -1, max: 1}}");
  for (const std::string& p : prefixes) {
    for (const char* k : {"weights", "bias", "bn_alpha", "bn_beta"}) data.optional(p + k, src, "random");
  }
  Schema s = Schema::map();
  s.required("shapes", Schema::map().required("input", Schema::shape(4, 4, 1024)));
  if (with_c_out) s.required("params", conv_params(true));
  else s.optional("params", conv_params(false), "{}");
  s.optional("data", data, "{}");
  s.optional("fault", Schema::one_of({"none", "no_start"}), "none");
  return s;
}

Tf2Program Tf2LayersOp::prepare(const scenario::Scenario& sc, Workload& wl) const {
  const Value& shape_v = sc["shapes"]["input"];
  const std::vector<int64_t> shape = shape_v.as_ints();
  if (shape[0] != 1) shape_v.fail("expected batch 1 ([1, H, W, C]), got " + std::to_string(shape[0]));
  Tf2Input in{shape_v, 0, 0, 0, 0, false, false, false, false, {}};
  in.h = static_cast<int>(shape[1]), in.w = static_cast<int>(shape[2]), in.c = static_cast<int>(shape[3]);
  const int h = in.h, w = in.w, c = in.c;
  const Value& pv = sc["params"];
  in.k = static_cast<int>(pv["kernel"].as_int());
  in.bias = pv["bias"].as_bool(), in.bn = pv["batch_norm"].as_bool(), in.relu = pv["relu"].as_bool();
  // requant: absent = the original's 32-bit requantization, saturate = the
  // same without its wrap (for designs that fixed that overflow).
  in.wide = sc.requant == scenario::Requant::kSaturate;
  // What the device can hold, before any map of this size is computed.
  try {
    check_capacity(c, h, w, in.k, DeviceConfig{}, "TF2 layer");
  } catch (const InputError& e) {
    shape_v.fail(e.what());
  }
  in.x = nhwc_to_chw(float_data(sc, sc["data"]["input"], shape, Layout::kNHWC, "input", -1, 1), c, h, w);

  Tf2Program st;
  st.start = sc["fault"].as_string() != "no_start";
  Tf2Layers b = build(sc, in);
  st.cost = std::move(b.cost);
  const std::vector<ConvLayer>& layers = b.layers;

  const std::vector<int8_t> xq = quantize_map(in.x, c, {b.q_in});
  try {
    st.program = cosim::tf2::compile(layers, xq);
  } catch (const InputError& e) {
    shape_v.fail(std::string("the layer does not fit the TF2 device: ") + e.what());
  }
  const std::vector<std::vector<uint8_t>> expect = expected_outputs(layers, xq);
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const ConvLayer& L = layers[l];
    const int ho = L.h_out(), wo = L.w_out(), groups = (L.c_out + 15) / 16;
    const std::vector<uint8_t> ref_map = to_hc16w(quantize_map(b.float_out[l], L.c_out, L.output_q()), L.c_out, ho, wo);
    for (int g = 0; g < groups; ++g) {
      std::string nm = b.out_names[l];
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
        in_f.data<float>()[nhwc] = in.x[chw];
        in_q.data<int8_t>()[nhwc] = xq[chw];
      }
  wl.inputs["input"] = std::move(in_f);
  wl.inputs["input_q"] = std::move(in_q);
  wl.summary = b.summary;
  return st;
}

trace::Trace Tf2LayersOp::compile(const scenario::Scenario& sc, const Workload& w, const Tf2Program& st) const {
  trace::Trace t;
  t.target = "tf2";
  t.mem_load(0, st.program.dram, "dram_image");
  t.reg_write(reg::kDescAddr, st.program.desc_addr);
  t.reg_write(reg::kDescCount, st.program.desc_count);
  if (st.start) t.reg_write(reg::kCtrl, reg::ctrl::kStartMask);
  t.wait_done(sc.testbench.timeout_cycles);
  for (const auto& c : st.checks) t.mem_check_rows(c.addr, w.expected.at(c.name), c.name, c.row_pitch);
  return t;
}

Metrics Tf2LayersOp::metrics(const Workload& w, const Tf2Program& st, const SimOutcome& run) const {
  Metrics m;
  auto perf = [&](const char* k) -> double {
    const auto it = run.perf.find(k);
    return it == run.perf.end() ? 0.0 : static_cast<double>(it->second);
  };
  const double busy = perf("busy_cycles"), pe_busy = perf("pe_busy_cycles");
  m.macs = w.macs;
  for (const auto& [k, v] : st.cost) m.extra[k] = v;
  // Ideal cycles: each layer's MACs at the PE array's peak (tf2_peak.hpp).
  double ideal = 0;
  for (const Tf2Program::LayerInfo& l : st.layers) {
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

}  // namespace cosim::tb::tf2
