#include "tinydnn/tinydnn_model_op.hpp"

#include <algorithm>
#include <cstdio>
#include <random>

#include "common/error.hpp"
#include "tinydnn/host_program.hpp"
#include "tinydnn/program.hpp"

namespace cosim::tb::tinydnn {

using namespace cosim::tinydnn;

namespace {

// One tile: output channels [oc0, oc0 + job.out_c), output rows [row0, ...).
struct Tile {
  std::string check;
  LayerJob job;
  Golden golden;
};

struct Tiles {
  std::vector<Tile> tiles;
  int oc_tiles = 0, row_tiles = 0;
  ErrorStats error;  // golden vs float32 over the whole layer
};

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// Whether a forward pass of shape `s` (with bias) fits the accelerator.
bool fits(const ConvShape& s) {
  try {
    s.validate();
    (void)map_layer(Op::kForward, s, true);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

// The tiles of one stride-1 CONV_2D. x_pad is the SAME-padded input,
// CHW [in_c][ph][pw]; w is OIHW float32; bias per output channel.
Tiles tile_layer(const std::string& check, int in_c, int ph, int pw, int out_c, int kh, int kw,
                 const std::vector<float>& x_pad, const std::vector<float>& w, const std::vector<float>& bias) {
  const int oh = ph - kh + 1;
  const int oc_step = std::min(out_c, kCores);
  // The largest band of output rows whose input band and results fit.
  int rows = 0;
  for (int r = std::min(oh, kMaxDim - kh + 1); r >= 1; --r) {
    if (fits(ConvShape{in_c, r + kh - 1, pw, oc_step, kh, kw})) {
      rows = r;
      break;
    }
  }
  if (rows == 0) throw InputError("one output row of 16 channels exceeds the accelerator's buffers or size registers");
  Tiles ts;
  ts.oc_tiles = (out_c + oc_step - 1) / oc_step;
  ts.row_tiles = (oh + rows - 1) / rows;
  std::vector<uint32_t> all_bits;
  std::vector<float> all_ref;
  for (int c = 0; c < ts.oc_tiles; ++c) {
    const int oc0 = c * oc_step, noc = std::min(oc_step, out_c - oc0);
    for (int r = 0; r < ts.row_tiles; ++r) {
      const int row0 = r * rows, nrows = std::min(rows, oh - row0);
      Tile t;
      char buf[48];
      std::snprintf(buf, sizeof buf, "%s_c%d_r%d", check.c_str(), c, r);
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
      ts.tiles.push_back(std::move(t));
    }
  }
  ts.error = relative_error(all_bits, all_ref);
  return ts;
}

std::string conv_support(const tflite::Model& m, std::size_t i) {
  const tflite::Operator& op = m.subgraphs[0].operators[i];
  const auto* o = std::get_if<tflite::Conv2DOptions>(&op.options);
  if (o == nullptr) return "no CONV_2D options";
  if (o->stride_h != 1 || o->stride_w != 1) {
    return "stride " + std::to_string(o->stride_h) + ", the hardware has stride 1 only";
  }
  if (o->dilation_h != 1 || o->dilation_w != 1) return "dilation > 1";
  if (op.inputs.size() >= 2 && op.inputs[1] >= 0) {
    const auto& f = m.subgraphs[0].tensors.at(static_cast<std::size_t>(op.inputs[1]));
    if (f.type != static_cast<int8_t>(tflite::TensorType::kFloat32)) {
      return "expected a float32 filter (use the float model, not the int8 one)";
    }
  }
  return "";
}

const Tiles& tiles(const model_replay::ReplayedLayer& l) { return std::any_cast<const Tiles&>(l.layer.program); }

}  // namespace

class TinyDnnModelTarget : public model_replay::ModelTarget {
 public:
  std::string name() const override { return "tinydnn"; }

  std::vector<model_replay::OpSupport> supported_ops() const override {
    return {{tflite::kConv2d, "float32 weights, stride 1, dilation 1", conv_support}};
  }

  std::string summary(const scenario::Scenario& sc) const override {
    (void)sc;
    return "bf16 forward passes of random input, host SAME padding, tiled over 16 output channels and row bands";
  }

  model_replay::Layer lower(const model_replay::LayerContext& ctx) const override {
    const tflite::Model& m = ctx.model;
    const auto& sg = m.subgraphs[0];
    const tflite::Operator& op = sg.operators[ctx.op_index];
    const auto& o = std::get<tflite::Conv2DOptions>(op.options);
    if (op.inputs.size() < 2 || op.outputs.empty()) throw InputError("expected input, filter and output tensors");
    const auto& ti = sg.tensors.at(static_cast<std::size_t>(op.inputs[0]));
    const auto& to = sg.tensors.at(static_cast<std::size_t>(op.outputs[0]));
    const Tensor filt = tflite::constant_tensor(m, 0, op.inputs[1]);
    if (filt.dtype() != DType::kFp32 || filt.rank() != 4)
      throw InputError("expected a float32 OHWI filter (use the float model, not the int8 one)");
    if (ti.shape.size() != 4 || to.shape.size() != 4) throw InputError("expected NHWC input and output");
    const int in_h = ti.shape[1], in_w = ti.shape[2], in_c = ti.shape[3];
    const int out_c = static_cast<int>(filt.dim(0)), kh = static_cast<int>(filt.dim(1)),
              kw = static_cast<int>(filt.dim(2));
    if (filt.dim(3) != in_c) throw InputError("filter input channels do not match the input tensor");
    model_replay::Layer out;
    out.shapes = std::to_string(in_h) + "x" + std::to_string(in_w) + "x" + std::to_string(in_c) + " -> " +
                 std::to_string(to.shape[1]) + "x" + std::to_string(to.shape[2]) + "x" + std::to_string(to.shape[3]) +
                 ", " + std::to_string(kh) + "x" + std::to_string(kw) + " s" + std::to_string(o.stride_h);
    std::vector<float> bias(static_cast<std::size_t>(out_c), 0.0f);
    if (op.inputs.size() > 2 && op.inputs[2] >= 0) {
      const Tensor b = tflite::constant_tensor(m, 0, op.inputs[2]);
      if (b.dtype() != DType::kFp32 || b.numel() != out_c) {
        throw InputError("expected a float32 bias of out_channels elements");
      }
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
    std::mt19937 rng(static_cast<uint32_t>(ctx.sc.seed + ctx.op_index));
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    const bool same = o.padding == tflite::PaddingType::kSame;
    const int pt = same ? (kh - 1) / 2 : 0, pl = same ? (kw - 1) / 2 : 0;
    const int ph = same ? in_h + kh - 1 : in_h, pw = same ? in_w + kw - 1 : in_w;
    std::vector<float> xp(static_cast<std::size_t>(in_c) * ph * pw, 0.0f);
    for (int ic = 0; ic < in_c; ++ic)
      for (int y = 0; y < in_h; ++y)
        for (int x = 0; x < in_w; ++x) xp[(static_cast<std::size_t>(ic) * ph + y + pt) * pw + x + pl] = dist(rng);
    if (ph - kh + 1 != to.shape[1] || pw - kw + 1 != to.shape[2] || out_c != to.shape[3])
      throw InputError("the output tensor's shape is not the stride-1 convolution's");
    Tiles ts = tile_layer(ctx.check, in_c, ph, pw, out_c, kh, kw, xp, wt, bias);
    for (const Tile& t : ts.tiles) {
      for (const Output& g : t.golden.outputs) {
        out.checks.push_back({g.name, g.golden, {{g.name, "float32", g.reference}}});
      }
      out.macs += t.golden.macs;
    }
    out.program = std::move(ts);
    return out;
  }

  void emit(trace::Trace& t, const scenario::Scenario& sc, const model_replay::ReplayedLayer& l) const override {
    // Each tile gets fresh regions: its results are checked before the next tile's run.
    ProgramOptions opt;
    opt.in_limit = opt.out_base;
    opt.out_limit = TbConfig{}.dram_size;
    opt.timeout_cycles = sc.testbench.timeout_cycles;
    for (const Tile& tile : tiles(l).tiles) {
      ProgramOptions o = opt;
      try {
        emit_program(t, tile.job, tile.golden, o);
      } catch (const InputError& e) {
        sc["model"].fail(std::string("layer ") + l.check + ": " + e.what());
      }
    }
  }

  std::vector<model_replay::Column> columns() const override {
    // Golden vs float32 relative error.
    return {{"tiles", 8}, {"max_rel", 12}, {"mean_rel", 12}};
  }

  model_replay::Figures figures(const model_replay::ReplayedLayer& l, const model_replay::LayerRun& run,
                                const SimOutcome& out) const override {
    (void)out;
    const Tiles& ts = tiles(l);
    std::size_t exact = 0;
    for (const CheckCapture* c : run.captures) exact += c != nullptr && c->expected == c->actual ? 1 : 0;
    model_replay::Figures f;
    f.cells = {std::to_string(ts.oc_tiles) + "x" + std::to_string(ts.row_tiles), sci(ts.error.max_rel),
               sci(ts.error.mean_rel)};
    f.json = {{"tiles", ts.tiles.size()},
              {"tiles_bit_exact", exact},
              {"float32_max_rel_error", ts.error.max_rel},
              {"float32_mean_rel_error", ts.error.mean_rel}};
    f.metrics = {{"float32_max_rel_error", ts.error.max_rel}, {"float32_mean_rel_error", ts.error.mean_rel}};
    return f;
  }

  void totals(const std::vector<model_replay::ReplayedLayer>& layers, const SimOutcome& out,
              Metrics& m) const override {
    (void)layers;
    if (out.cycles > 0) m.utilization = double(m.macs) / (double(kCores) * double(out.cycles));
  }
};

std::unique_ptr<model_replay::ModelTarget> make_model_target() {
  return std::make_unique<TinyDnnModelTarget>();
}

}  // namespace cosim::tb::tinydnn
