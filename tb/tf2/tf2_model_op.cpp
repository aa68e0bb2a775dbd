#include "tf2_model_op.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "dut/tf2_regs.hpp"
#include "tf2/compiler.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/inq.hpp"
#include "tf2/tflite_conv.hpp"
#include "tf2_bare/tf2_bare.hpp"
#include "tflite/model.hpp"

namespace cosim::tf2 {

namespace {

namespace fs = std::filesystem;
namespace reg = tf2::regs;  // generated from rtl/tf2/tf2.yaml
using scenario::Schema;
using scenario::Value;

struct ModelLayer {
  std::size_t op_index = 0;
  std::string type;
  std::string check;   // "op04_conv2d"
  std::string shapes;  // "32x32x16 -> 16x16x32, k3 s2"
  bool supported = false;
  std::string reason;
  Program program;
  std::vector<std::string> group_checks;
  std::vector<uint64_t> group_addrs;
  int q_in = 0, q_out = 0, min_exp = 0;
  ErrorStats inq, total;
  uint64_t macs = 0;
};

struct ModelState {
  std::string model_path;
  std::vector<ModelLayer> layers;
};

std::string resolve_model(const scenario::Scenario& sc, const std::string& path) {
  const fs::path p(path);
  if (p.is_absolute()) return p.string();
  const fs::path dir = fs::absolute(sc.dir.empty() ? fs::path(".") : fs::path(sc.dir));
  return (dir.parent_path() / p).lexically_normal().string();
}

std::string check_name(std::size_t op) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "op%02zu_conv2d", op);
  return buf;
}

std::vector<std::size_t> selected_ops(const scenario::Scenario& sc, const tflite::Model& m) {
  const Value& v = sc["ops"];
  const std::size_t n = m.subgraphs.empty() ? 0 : m.subgraphs[0].operators.size();
  std::vector<std::size_t> out;
  if (v.is_string()) {
    for (std::size_t i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  for (std::size_t k = 0; k < v.items.size(); ++k) {
    const int64_t i = v[k].as_int();
    if (i < 0 || static_cast<std::size_t>(i) >= n) {
      v[k].fail("expected an operator index in [0, " + std::to_string(n == 0 ? 0 : n - 1) + "], got " +
                std::to_string(i));
    }
    if (std::find(out.begin(), out.end(), static_cast<std::size_t>(i)) != out.end()) {
      v[k].fail("operator " + std::to_string(i) + " is listed twice");
    }
    out.push_back(static_cast<std::size_t>(i));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<float> dequantize(const std::vector<int8_t>& q, int qexp) {
  std::vector<float> out(q.size());
  for (std::size_t i = 0; i < q.size(); ++i) out[i] = static_cast<float>(std::ldexp(q[i], -qexp));
  return out;
}

int shift_top(const ConvLayer& L) { return 15 + L.q_out - L.q_in + L.min_exp + (kExpRange - 1); }

// The layer's float input, CHW, of the model's input shape.
std::vector<float> layer_input(const scenario::Scenario& sc, const TfliteConv& c, const std::string& stream) {
  const Value& src = sc["input"];
  const int h = c.h_in, w = c.w_in, ch = c.conv.c_in;
  std::vector<float> nhwc(static_cast<std::size_t>(h) * w * ch);
  if (src.is_string()) {
    scenario::Rng rng(sc.seed, stream);
    for (auto& x : nhwc) x = static_cast<float>(rng.uniform(-1.0, 1.0));
  } else {
    const Tensor t = scenario::make_tensor(sc, src, DType::kFp32, {1, h, w, ch}, Layout::kNHWC, stream);
    for (std::size_t i = 0; i < nhwc.size(); ++i) nhwc[i] = t.data<float>()[i];
  }
  std::vector<float> chw(nhwc.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < ch; ++k)
        chw[(static_cast<std::size_t>(k) * h + y) * w + x] = nhwc[(static_cast<std::size_t>(y) * w + x) * ch + k];
  return chw;
}

Tensor group_tensor(const std::vector<uint8_t>& c16hw, int g, int h, int w) {
  Tensor t(DType::kInt8, {1, h, w, 16}, Layout::kNHWC);
  const std::size_t n = static_cast<std::size_t>(h) * w * 16;
  std::copy(c16hw.begin() + static_cast<std::ptrdiff_t>(g * n), c16hw.begin() + static_cast<std::ptrdiff_t>((g + 1) * n),
            t.bytes().begin());
  return t;
}

// One Q for a map (the hardware shares it across channels): the smallest
// per-channel Q over the channels that are not all zero. choose_layer_q
// would give Q 0 whenever ReLU kills a whole channel, wasting the int8 range
// of every other channel; an all-zero channel is exact at any Q.
int map_q(const std::vector<float>& chw, int channels) {
  const std::size_t n = chw.size() / static_cast<std::size_t>(channels);
  const std::vector<int> q = choose_map_q(chw, channels);
  int best = 0;
  bool any = false;
  for (int c = 0; c < channels; ++c) {
    const auto first = chw.begin() + static_cast<std::ptrdiff_t>(c * n);
    if (std::all_of(first, first + static_cast<std::ptrdiff_t>(n), [](float v) { return v == 0.0f; })) continue;
    best = any ? std::min(best, q[static_cast<std::size_t>(c)]) : q[static_cast<std::size_t>(c)];
    any = true;
  }
  return best;
}

std::string fmt(double v, int prec) {
  if (std::isinf(v)) return "inf";
  std::ostringstream os;
  os.precision(prec);
  os << std::fixed << v;
  return os.str();
}

}  // namespace

Schema model_op_schema() {
  return Schema::map()
      .required("model", Schema::string())
      .optional("ops", Schema::any_of({Schema::one_of({"all"}), Schema::list(Schema::integer(), 1)}), "all")
      .optional("input", scenario::schemas::data_source(), "random");
}

bool is_model_workload(const tb::Workload& w) { return w.state.type() == typeid(ModelState); }

tb::Workload prepare_model(const scenario::Scenario& sc) {
  const Value& model_key = sc["model"];
  ModelState st;
  st.model_path = resolve_model(sc, model_key.as_string());
  if (!fs::exists(st.model_path)) {
    throw tb::ScenarioSkipped("model " + model_key.as_string() + " not found (looked for " + st.model_path + ")");
  }
  tflite::Model m;
  try {
    m = tflite::load_model(st.model_path);
  } catch (const InputError& e) {
    model_key.fail(e.what());
  }
  tb::Workload wl;
  int n_run = 0;
  for (std::size_t op : selected_ops(sc, m)) {
    ModelLayer ml;
    ml.op_index = op;
    ml.type = tflite::op_name(m.subgraphs[0].operators[op].code);
    ml.check = check_name(op);
    if (m.subgraphs[0].operators[op].code != tflite::kConv2d) {
      ml.reason = "not a CONV_2D (the tf2 model op replays CONV_2D only)";
      st.layers.push_back(std::move(ml));
      continue;
    }
    TfliteConv c;
    try {
      c = read_float_conv(m, op);
    } catch (const InputError& e) {
      ml.reason = e.what();
      st.layers.push_back(std::move(ml));
      continue;
    }
    const FloatConv& f = c.conv;
    ml.shapes = std::to_string(c.h_in) + "x" + std::to_string(c.w_in) + "x" + std::to_string(f.c_in) + " -> " +
                std::to_string(c.h_out) + "x" + std::to_string(c.w_out) + "x" + std::to_string(f.c_out) + ", k" +
                std::to_string(f.k) + " s" + std::to_string(f.stride) + (f.relu ? " relu" : "");
    // Input at the device's shape (SAME's trailing zero row / column added).
    const std::vector<float> x =
        extend_chw(layer_input(sc, c, ml.check + "_input"), f.c_in, c.h_in, c.w_in, c.extra_h, c.extra_w);
    const std::vector<float> ref = float_conv2d(f, x);
    const int q_in = map_q(x, f.c_in);
    ConvLayer L;
    try {
      L = make_conv_layer(f, q_in, map_q(ref, f.c_out));
      for (int tries = 0; shift_top(L) > kMaxShift && tries < 64; ++tries) L = make_conv_layer(f, q_in, L.q_out - 1);
      const std::vector<int8_t> xq = quantize_map(x, f.c_in, {q_in});
      ml.program = compile({L}, xq);  // throws when the layer exceeds the caches
      const std::vector<uint8_t> expect = expected_outputs({L}, xq)[0];
      const std::vector<int8_t> yq = sac_conv2d(L, xq);
      FloatConv g = f;
      for (std::size_t i = 0; i < g.weights.size(); ++i) {
        g.weights[i] = static_cast<float>(inq_code_value(L.codes[i], L.min_exp));
      }
      ml.inq = compare(ref, float_conv2d(g, x));
      ml.total = compare(ref, dequantize(yq, L.q_out));
      const int ho = L.h_out(), wo = L.w_out(), groups = (L.c_out + 15) / 16;
      for (int gi = 0; gi < groups; ++gi) {
        std::string nm = ml.check;
        if (groups > 1) {
          nm += "_c" + std::to_string(16 * gi) + "_" + std::to_string(std::min(16 * gi + 15, L.c_out - 1));
        }
        wl.expected[nm] = group_tensor(expect, gi, ho, wo);
        ml.group_checks.push_back(nm);
        ml.group_addrs.push_back(ml.program.layers[0].out_addr + static_cast<uint64_t>(gi) * ho * wo * 16);
      }
    } catch (const InputError& e) {
      ml.reason = std::string("does not fit the TF2 device: ") + e.what();
      st.layers.push_back(std::move(ml));
      continue;
    }
    ml.supported = true;
    ml.q_in = L.q_in;
    ml.q_out = L.q_out;
    ml.min_exp = L.min_exp;
    ml.macs = static_cast<uint64_t>(L.c_out) * L.h_out() * L.w_out() * L.c_in * L.k * L.k;
    wl.macs += ml.macs;
    ++n_run;
    st.layers.push_back(std::move(ml));
  }
  if (n_run == 0) sc["ops"].fail("none of the selected operators runs on the TF2 engine");
  wl.summary = "model " + fs::path(st.model_path).filename().string() + ": " + std::to_string(n_run) + " of " +
               std::to_string(st.layers.size()) +
               " selected layers on TF2 (float weights INQ-compressed, seeded random input per layer)";
  wl.state = std::move(st);
  return wl;
}

trace::Trace compile_model(const scenario::Scenario& sc, const tb::Workload& w) {
  const auto& st = std::any_cast<const ModelState&>(w.state);
  trace::Trace t;
  t.target = "tf2";
  for (const ModelLayer& l : st.layers) {
    if (!l.supported) continue;
    // Every layer's image starts at 0: it is checked before the next load.
    t.mem_load(0, l.program.dram, l.check);
    t.reg_write(reg::kDescAddr, l.program.desc_addr);
    t.reg_write(reg::kDescCount, l.program.desc_count);
    t.reg_write(reg::kCtrl, reg::ctrl::kStartMask);
    t.wait_done(sc.testbench.timeout_cycles);
    for (std::size_t g = 0; g < l.group_checks.size(); ++g) {
      t.mem_check(l.group_addrs[g], w.expected.at(l.group_checks[g]), l.group_checks[g]);
    }
  }
  return t;
}

tb::Metrics model_metrics(const tb::Workload& w, const tb::SimOutcome& run) {
  const auto& st = std::any_cast<const ModelState&>(w.state);
  tb::Metrics m;
  m.macs = w.macs;
  nlohmann::json layers = nlohmann::json::array();
  std::ostringstream head;
  head << std::left << std::setw(5) << "op" << std::setw(34) << "shapes" << std::right << std::setw(7) << "exact"
       << std::setw(6) << "Qin" << std::setw(6) << "Qout" << std::setw(8) << "minexp" << std::setw(10) << "inq_snr"
       << std::setw(10) << "inq_err" << std::setw(10) << "int8_snr" << std::setw(10) << "int8_err";
  m.table.push_back("  layers (SNR in dB vs the float layer; err = max abs error)");
  m.table.push_back("    " + head.str());
  int supported = 0, exact_n = 0;
  for (const ModelLayer& l : st.layers) {
    nlohmann::json j{{"op", l.op_index}, {"type", l.type}, {"check", l.check}, {"shapes", l.shapes}};
    std::ostringstream row;
    row << std::left << std::setw(5) << l.op_index;
    if (!l.supported) {
      j["status"] = "unsupported";
      j["reason"] = l.reason;
      row << l.type << " unsupported: " << l.reason;
      m.table.push_back("    " + row.str());
      layers.push_back(j);
      continue;
    }
    ++supported;
    bool exact = !l.group_checks.empty();
    for (const std::string& g : l.group_checks) {
      bool found = false;
      for (const auto& c : run.play.checks) {
        if (c.desc.name == g) {
          found = true;
          exact = exact && c.expected == c.actual;
        }
      }
      exact = exact && found;
    }
    exact_n += exact ? 1 : 0;
    row << std::setw(34) << l.shapes << std::right << std::setw(7) << (exact ? "yes" : "NO") << std::setw(6) << l.q_in
        << std::setw(6) << l.q_out << std::setw(8) << l.min_exp << std::setw(10) << fmt(l.inq.snr_db, 1)
        << std::setw(10) << fmt(l.inq.max_abs_err, 4) << std::setw(10) << fmt(l.total.snr_db, 1) << std::setw(10)
        << fmt(l.total.max_abs_err, 4);
    m.table.push_back("    " + row.str());
    const std::string p = l.check + ".";
    m.extra[p + "bit_exact"] = exact ? 1.0 : 0.0;
    m.extra[p + "inq_snr_db"] = l.inq.snr_db;
    m.extra[p + "inq_max_abs_err"] = l.inq.max_abs_err;
    m.extra[p + "int8_snr_db"] = l.total.snr_db;
    m.extra[p + "int8_max_abs_err"] = l.total.max_abs_err;
    m.extra[p + "q_in"] = l.q_in;
    m.extra[p + "q_out"] = l.q_out;
    m.extra[p + "min_exp"] = l.min_exp;
    j["status"] = "tf2";
    j["bit_exact"] = exact;
    j["q_in"] = l.q_in;
    j["q_out"] = l.q_out;
    j["min_exp"] = l.min_exp;
    j["inq_snr_db"] = std::isinf(l.inq.snr_db) ? nlohmann::json("inf") : nlohmann::json(l.inq.snr_db);
    j["inq_max_abs_err"] = l.inq.max_abs_err;
    j["int8_snr_db"] = std::isinf(l.total.snr_db) ? nlohmann::json("inf") : nlohmann::json(l.total.snr_db);
    j["int8_max_abs_err"] = l.total.max_abs_err;
    j["macs"] = l.macs;
    layers.push_back(j);
  }
  m.extra["layers_on_tf2"] = supported;
  m.extra["layers_bit_exact"] = exact_n;
  m.extra["layers_unsupported"] = static_cast<double>(st.layers.size()) - supported;
  m.report_json = nlohmann::json{{"model", st.model_path}, {"layers", layers}}.dump();
  return m;
}

}  // namespace cosim::tf2
