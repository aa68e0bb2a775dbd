#include "tinydnn/tinydnn_model_op.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "common/error.hpp"
#include "tflite/model.hpp"
#include "tinydnn/host_program.hpp"
#include "tinydnn/program.hpp"

namespace cosim::tb::tinydnn {

namespace fs = std::filesystem;
using scenario::Schema;
using scenario::Value;

namespace {

// One tile: output channels [oc0, oc0 + job.out_c), output rows [row0, ...).
struct Tile {
  std::string check;
  LayerJob job;
  Golden golden;
};

struct ModelLayer {
  std::size_t op_index = 0;
  std::string check;   // "op07_conv2d": prefix of its tiles' checks
  std::string shapes;  // "32x32x16 -> 32x32x16, 3x3 s1"
  std::string reason;  // why not on the accelerator; empty = replayed
  std::vector<Tile> tiles;
  int oc_tiles = 0, row_tiles = 0;
  ErrorStats error;    // golden vs float32 over the whole layer
};

struct ModelState {
  std::string model_path;
  std::vector<ModelLayer> layers;
};

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string resolve_model(const scenario::Scenario& sc, const std::string& path) {
  const fs::path p(path);
  if (p.is_absolute()) return p.string();
  const fs::path dir = fs::absolute(sc.dir.empty() ? fs::path(".") : fs::path(sc.dir));
  return (dir.parent_path() / p).lexically_normal().string();
}

std::vector<std::size_t> selected_ops(const scenario::Scenario& sc, const tflite::Model& m) {
  const auto& ops = m.subgraphs[0].operators;
  const Value& v = sc["ops"];
  std::vector<std::size_t> out;
  if (v.is_string()) {
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (ops[i].code == tflite::kConv2d) out.push_back(i);
    return out;
  }
  for (std::size_t k = 0; k < v.items.size(); ++k) {
    const Value& e = v[k];
    const int64_t i = e.as_int();
    if (i < 0 || static_cast<std::size_t>(i) >= ops.size())
      e.fail("expected an operator index in [0, " + std::to_string(ops.size() - 1) + "], got " + std::to_string(i));
    const int32_t code = ops[static_cast<std::size_t>(i)].code;
    if (code != tflite::kConv2d)
      e.fail("operator " + std::to_string(i) + " is " + tflite::op_name(code) +
             ": expected a CONV_2D (the layers the tinydnn target replays)");
    if (std::find(out.begin(), out.end(), static_cast<std::size_t>(i)) != out.end())
      e.fail("operator " + std::to_string(i) + " is listed twice");
    out.push_back(static_cast<std::size_t>(i));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Whether a forward pass of shape `s` (with bias) fits the accelerator.
bool fits(const ConvShape& s) {
  try {
    s.validate();
    (void)cosim::tinydnn::map_layer(cosim::tinydnn::Op::kForward, s, true);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

// Builds the tiles of one stride-1 CONV_2D. x_pad is the SAME-padded input,
// CHW [in_c][ph][pw]; w is OIHW float32; bias per output channel.
void tile_layer(ModelLayer& ml, int in_c, int ph, int pw, int out_c, int kh, int kw, const std::vector<float>& x_pad,
                const std::vector<float>& w, const std::vector<float>& bias) {
  const int oh = ph - kh + 1;
  const int oc_step = std::min(out_c, cosim::tinydnn::kCores);
  // The largest band of output rows whose input band and results fit.
  int rows = 0;
  for (int r = std::min(oh, cosim::tinydnn::kMaxDim - kh + 1); r >= 1; --r) {
    ConvShape s{in_c, r + kh - 1, pw, oc_step, kh, kw};
    if (fits(s)) {
      rows = r;
      break;
    }
  }
  if (rows == 0) {
    ml.reason = "one output row of 16 channels exceeds the accelerator's buffers or size registers";
    return;
  }
  ml.oc_tiles = (out_c + oc_step - 1) / oc_step;
  ml.row_tiles = (oh + rows - 1) / rows;
  std::vector<uint32_t> all_bits;
  std::vector<float> all_ref;
  for (int c = 0; c < ml.oc_tiles; ++c) {
    const int oc0 = c * oc_step, noc = std::min(oc_step, out_c - oc0);
    for (int r = 0; r < ml.row_tiles; ++r) {
      const int row0 = r * rows, nrows = std::min(rows, oh - row0);
      Tile t;
      char buf[48];
      std::snprintf(buf, sizeof buf, "%s_c%d_r%d", ml.check.c_str(), c, r);
      t.check = buf;
      LayerJob& j = t.job;
      j.mode = Mode::kForward;
      j.shape = ConvShape{in_c, nrows + kh - 1, pw, noc, kh, kw};
      j.bias = true;
      // Weights and bias of the tile's channels, truncated to bf16 by the host.
      for (int o = oc0; o < oc0 + noc; ++o) {
        for (int i = 0; i < in_c * kh * kw; ++i)
          j.w.push_back(bf16::from_float(w[static_cast<std::size_t>(o) * in_c * kh * kw + i]));
        j.bias_v.push_back(bf16::from_float(bias[static_cast<std::size_t>(o)]));
      }
      std::vector<bf16> x;
      for (int ic = 0; ic < in_c; ++ic)
        for (int y = row0; y < row0 + nrows + kh - 1; ++y)
          for (int xx = 0; xx < pw; ++xx)
            x.push_back(bf16::from_float(x_pad[(static_cast<std::size_t>(ic) * ph + y) * pw + xx]));
      j.x.push_back(std::move(x));
      t.golden = golden(j);
      for (Output& o : t.golden.outputs) {
        o.name = t.check;  // batch 1: the one output "y"
        const auto n = static_cast<std::size_t>(o.golden.numel());
        const uint32_t* gb = reinterpret_cast<const uint32_t*>(o.golden.bytes().data());
        const float* rf = reinterpret_cast<const float*>(o.reference.bytes().data());
        all_bits.insert(all_bits.end(), gb, gb + n);
        all_ref.insert(all_ref.end(), rf, rf + n);
      }
      ml.tiles.push_back(std::move(t));
    }
  }
  ml.error = cosim::tinydnn::relative_error(all_bits, all_ref);
}

}  // namespace

Schema model_op_schema() {
  return Schema::map()
      .required("model", Schema::string())
      .optional("ops", Schema::any_of({Schema::one_of({"all"}), Schema::list(Schema::integer(), 1)}), "all");
}

bool is_model_workload(const Workload& w) { return w.state.type() == typeid(ModelState); }

Workload prepare_model(const scenario::Scenario& sc) {
  const Value& model_key = sc["model"];
  ModelState st;
  st.model_path = resolve_model(sc, model_key.as_string());
  if (!fs::exists(st.model_path))
    throw ScenarioSkipped("model " + model_key.as_string() + " not found (looked for " + st.model_path + ")");
  const tflite::Model m = [&] {
    try {
      return tflite::load_model(st.model_path);
    } catch (const InputError& e) {
      model_key.fail(e.what());
    }
  }();
  if (m.subgraphs.empty()) model_key.fail("expected a model with a subgraph");
  const auto& sg = m.subgraphs[0];

  Workload w;
  int replayed = 0;
  for (const std::size_t oi : selected_ops(sc, m)) {
    const tflite::Operator& op = sg.operators[oi];
    const auto& o = std::get<tflite::Conv2DOptions>(op.options);
    ModelLayer ml;
    ml.op_index = oi;
    char buf[16];
    std::snprintf(buf, sizeof buf, "op%02zu_conv2d", oi);
    ml.check = buf;
    const auto fail = [&](const std::string& what) {
      model_key.fail("operator " + std::to_string(oi) + " (CONV_2D): " + what);
    };
    if (op.inputs.size() < 2 || op.outputs.empty()) fail("expected input, filter and output tensors");
    const auto& ti = sg.tensors.at(static_cast<std::size_t>(op.inputs[0]));
    const auto& to = sg.tensors.at(static_cast<std::size_t>(op.outputs[0]));
    Tensor filt;
    try {
      filt = tflite::constant_tensor(m, 0, op.inputs[1]);
    } catch (const InputError& e) {
      fail(e.what());
    }
    if (filt.dtype() != DType::kFp32 || filt.rank() != 4)
      fail("expected a float32 OHWI filter (use the float model, not the int8 one)");
    if (ti.shape.size() != 4 || to.shape.size() != 4) fail("expected NHWC input and output");
    const int in_h = ti.shape[1], in_w = ti.shape[2], in_c = ti.shape[3];
    const int out_c = static_cast<int>(filt.dim(0)), kh = static_cast<int>(filt.dim(1)),
              kw = static_cast<int>(filt.dim(2));
    if (filt.dim(3) != in_c) fail("filter input channels do not match the input tensor");
    ml.shapes = std::to_string(in_h) + "x" + std::to_string(in_w) + "x" + std::to_string(in_c) + " -> " +
                std::to_string(to.shape[1]) + "x" + std::to_string(to.shape[2]) + "x" + std::to_string(to.shape[3]) +
                ", " + std::to_string(kh) + "x" + std::to_string(kw) + " s" + std::to_string(o.stride_h);
    if (o.stride_h != 1 || o.stride_w != 1) ml.reason = "stride " + std::to_string(o.stride_h) + " (hardware: stride 1)";
    else if (o.dilation_h != 1 || o.dilation_w != 1) ml.reason = "dilation > 1";
    if (!ml.reason.empty()) {
      st.layers.push_back(std::move(ml));
      continue;
    }
    std::vector<float> bias(static_cast<std::size_t>(out_c), 0.0f);
    if (op.inputs.size() > 2 && op.inputs[2] >= 0) {
      Tensor b;
      try {
        b = tflite::constant_tensor(m, 0, op.inputs[2]);
      } catch (const InputError& e) {
        fail(e.what());
      }
      if (b.dtype() != DType::kFp32 || b.numel() != out_c) fail("expected a float32 bias of out_channels elements");
      std::copy(b.data<float>(), b.data<float>() + out_c, bias.begin());
    }
    // OHWI -> OIHW.
    std::vector<float> wt(static_cast<std::size_t>(out_c) * in_c * kh * kw);
    const float* f = filt.data<float>();
    for (int oc = 0; oc < out_c; ++oc)
      for (int y = 0; y < kh; ++y)
        for (int x = 0; x < kw; ++x)
          for (int ic = 0; ic < in_c; ++ic)
            wt[((static_cast<std::size_t>(oc) * in_c + ic) * kh + y) * kw + x] =
                f[((static_cast<std::size_t>(oc) * kh + y) * kw + x) * in_c + ic];
    // Seeded random input, CHW, then TFLite SAME padding (stride 1: k - 1
    // in total, the smaller half before) or none for VALID.
    std::mt19937 rng(static_cast<uint32_t>(sc.seed + oi));
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    const bool same = o.padding == tflite::PaddingType::kSame;
    const int pt = same ? (kh - 1) / 2 : 0, pl = same ? (kw - 1) / 2 : 0;
    const int ph = same ? in_h + kh - 1 : in_h, pw = same ? in_w + kw - 1 : in_w;
    std::vector<float> xp(static_cast<std::size_t>(in_c) * ph * pw, 0.0f);
    for (int ic = 0; ic < in_c; ++ic)
      for (int y = 0; y < in_h; ++y)
        for (int x = 0; x < in_w; ++x) xp[(static_cast<std::size_t>(ic) * ph + y + pt) * pw + x + pl] = dist(rng);
    if (ph - kh + 1 != to.shape[1] || pw - kw + 1 != to.shape[2] || out_c != to.shape[3])
      fail("the output tensor's shape is not the stride-1 convolution's");
    tile_layer(ml, in_c, ph, pw, out_c, kh, kw, xp, wt, bias);
    if (ml.reason.empty()) {
      ++replayed;
      for (const Tile& t : ml.tiles) {
        for (const Output& out : t.golden.outputs) {
          w.expected[out.name] = out.golden;
          w.references.push_back({out.name, "float32", out.reference});
        }
        w.macs += t.golden.macs;
      }
    }
    st.layers.push_back(std::move(ml));
  }
  w.summary = "model " + fs::path(st.model_path).filename().string() + ": " + std::to_string(replayed) + " of " +
              std::to_string(st.layers.size()) + " selected CONV_2D layers as bf16 forward passes, " +
              std::to_string(st.layers.size() - static_cast<std::size_t>(replayed)) +
              " unsupported; random input, host SAME padding, tiled over 16 output channels and row bands";
  w.state = std::move(st);
  return w;
}

trace::Trace compile_model(const scenario::Scenario& sc, const Workload& w) {
  const auto& st = std::any_cast<const ModelState&>(w.state);
  trace::Trace t;
  t.target = "tinydnn";
  ProgramOptions opt;
  opt.in_limit = opt.out_base;
  opt.out_limit = TbConfig{}.dram_size;
  opt.timeout_cycles = sc.testbench.timeout_cycles;
  for (const ModelLayer& l : st.layers) {
    for (const Tile& tile : l.tiles) {
      // Each tile gets fresh regions: its results are checked before the next tile's run.
      ProgramOptions o = opt;
      try {
        emit_program(t, tile.job, tile.golden, o);
      } catch (const InputError& e) {
        sc["model"].fail(std::string("layer ") + l.check + ": " + e.what());
      }
    }
  }
  return t;
}

Metrics model_metrics(const Workload& w, const SimOutcome& run) {
  const auto& st = std::any_cast<const ModelState&>(w.state);
  Metrics m;
  m.macs = w.macs;
  if (run.cycles > 0) m.utilization = double(m.macs) / (double(cosim::tinydnn::kCores) * double(run.cycles));
  nlohmann::json layers = nlohmann::json::array();
  std::ostringstream head;
  head << std::left << std::setw(5) << "op" << std::setw(32) << "shapes" << std::right << std::setw(8) << "tiles"
       << std::setw(7) << "exact" << std::setw(12) << "max_rel" << std::setw(12) << "mean_rel";
  m.table.push_back("  layers (golden vs float32 relative error)");
  m.table.push_back("    " + head.str());
  std::size_t replayed = 0, exact_layers = 0;
  for (const ModelLayer& l : st.layers) {
    nlohmann::json j{{"op_index", l.op_index}, {"check", l.check}, {"shapes", l.shapes}};
    std::ostringstream row;
    row << std::left << std::setw(5) << l.op_index << std::setw(32) << l.shapes << std::right;
    if (!l.reason.empty()) {
      j["status"] = "unsupported";
      j["reason"] = l.reason;
      row << "  unsupported: " << l.reason;
    } else {
      ++replayed;
      std::size_t seen = 0, exact = 0;
      for (const Tile& t : l.tiles) {
        for (const auto& c : run.play.checks) {
          if (c.desc.name != t.check) continue;
          ++seen;
          exact += c.expected == c.actual ? 1 : 0;
        }
      }
      const bool all_exact = seen == l.tiles.size() && exact == seen;
      exact_layers += all_exact ? 1 : 0;
      j["status"] = "tinydnn";
      j["tiles"] = l.tiles.size();
      j["tiles_bit_exact"] = exact;
      j["bit_exact"] = all_exact;
      j["float32_max_rel_error"] = l.error.max_rel;
      j["float32_mean_rel_error"] = l.error.mean_rel;
      m.extra[l.check + ".bit_exact"] = all_exact ? 1.0 : 0.0;
      m.extra[l.check + ".float32_max_rel_error"] = l.error.max_rel;
      m.extra[l.check + ".float32_mean_rel_error"] = l.error.mean_rel;
      const std::string tiles = std::to_string(l.oc_tiles) + "x" + std::to_string(l.row_tiles);
      row << std::setw(8) << tiles << std::setw(7) << (seen == 0 ? "-" : all_exact ? "yes" : "NO") << std::setw(12)
          << sci(l.error.max_rel) << std::setw(12) << sci(l.error.mean_rel);
    }
    layers.push_back(j);
    m.table.push_back("    " + row.str());
  }
  m.extra["layers_on_tinydnn"] = double(replayed);
  m.extra["layers_bit_exact"] = double(exact_layers);
  m.extra["layers_unsupported"] = double(st.layers.size() - replayed);
  m.report_json = nlohmann::json{{"model", st.model_path}, {"layers", layers}}.dump();
  return m;
}

}  // namespace cosim::tb::tinydnn
