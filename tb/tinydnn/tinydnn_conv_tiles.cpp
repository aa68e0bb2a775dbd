#include "tinydnn/tinydnn_conv_tiles.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "common/error.hpp"
#include "tflite/layers.hpp"
#include "tflite_float/float_ops.hpp"
#include "tinydnn/program.hpp"
#include "tlm/tb_config.hpp"

namespace cosim::tb::tinydnn {

using namespace cosim::tinydnn;

namespace {

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

}  // namespace

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
    // tile_conv's smallest job: one output row of one 16-channel group, its
    // input band held whole (host SAME padding widens the row by kw - 1).
    const auto& ti = m.subgraphs[0].tensors.at(static_cast<std::size_t>(op.inputs[0]));
    if (ti.shape.size() == 4 && f.shape.size() == 4) {
      const int in_c = ti.shape[3], in_w = ti.shape[2], out_c = f.shape[0], kh = f.shape[1], kw = f.shape[2];
      const int pw = o->padding == tflite::PaddingType::kSame ? in_w + kw - 1 : in_w;
      if (!fits(ConvShape{in_c, kh, pw, std::min(out_c, kCores), kh, kw})) {
        return "one output row of 16 channels (" + std::to_string(in_c) + " x " + std::to_string(pw) +
               " inputs) exceeds the accelerator's buffers or size registers";
      }
    }
  }
  return "";
}

TinyConv read_conv(const tflite::Model& m, std::size_t op_index) {
  const auto& sg = m.subgraphs[0];
  const tflite::Operator& op = sg.operators[op_index];
  const auto& o = std::get<tflite::Conv2DOptions>(op.options);
  if (op.inputs.size() < 2 || op.outputs.empty()) throw InputError("expected input, filter and output tensors");
  const auto& ti = sg.tensors.at(static_cast<std::size_t>(op.inputs[0]));
  const auto& to = sg.tensors.at(static_cast<std::size_t>(op.outputs[0]));
  const Tensor filt = tflite::constant_tensor(m, 0, op.inputs[1]);
  if (filt.dtype() != DType::kFp32 || filt.rank() != 4)
    throw InputError("expected a float32 OHWI filter (use the float model, not the int8 one)");
  if (ti.shape.size() != 4 || to.shape.size() != 4) throw InputError("expected NHWC input and output");
  TinyConv c;
  c.in_h = ti.shape[1], c.in_w = ti.shape[2], c.in_c = ti.shape[3];
  c.out_c = static_cast<int>(filt.dim(0)), c.kh = static_cast<int>(filt.dim(1)), c.kw = static_cast<int>(filt.dim(2));
  c.activation = o.activation;
  if (filt.dim(3) != c.in_c) throw InputError("filter input channels do not match the input tensor");
  c.shapes = std::to_string(c.in_h) + "x" + std::to_string(c.in_w) + "x" + std::to_string(c.in_c) + " -> " +
             std::to_string(to.shape[1]) + "x" + std::to_string(to.shape[2]) + "x" + std::to_string(to.shape[3]) +
             ", " + std::to_string(c.kh) + "x" + std::to_string(c.kw) + " s" + std::to_string(o.stride_h);
  c.bias.assign(static_cast<std::size_t>(c.out_c), 0.0f);
  if (op.inputs.size() > 2 && op.inputs[2] >= 0) {
    const Tensor b = tflite::constant_tensor(m, 0, op.inputs[2]);
    if (b.dtype() != DType::kFp32 || b.numel() != c.out_c) {
      throw InputError("expected a float32 bias of out_channels elements");
    }
    std::copy(b.data<float>(), b.data<float>() + c.out_c, c.bias.begin());
  }
  // OHWI -> OIHW.
  c.w_oihw.resize(static_cast<std::size_t>(c.out_c) * c.in_c * c.kh * c.kw);
  const float* f = filt.data<float>();
  for (int oc = 0; oc < c.out_c; ++oc)
    for (int y = 0; y < c.kh; ++y)
      for (int x = 0; x < c.kw; ++x)
        for (int ic = 0; ic < c.in_c; ++ic)
          c.w_oihw[((static_cast<std::size_t>(oc) * c.in_c + ic) * c.kh + y) * c.kw + x] =
              f[((static_cast<std::size_t>(oc) * c.kh + y) * c.kw + x) * c.in_c + ic];
  // TFLite's padding, done by the host: SAME pads k - 1 in total (the
  // smaller half before), VALID none.
  namespace tf = cosim::tflite_float;
  c.pad_top = tf::padding_before(c.in_h, c.kh, 1, 1, o.padding);
  c.pad_left = tf::padding_before(c.in_w, c.kw, 1, 1, o.padding);
  c.out_h = tf::output_size(c.in_h, c.kh, 1, 1, o.padding);
  c.out_w = tf::output_size(c.in_w, c.kw, 1, 1, o.padding);
  c.ph = c.out_h + c.kh - 1, c.pw = c.out_w + c.kw - 1;
  if (c.out_h != to.shape[1] || c.out_w != to.shape[2] || c.out_c != to.shape[3])
    throw InputError("the output tensor's shape is not the stride-1 convolution's");
  return c;
}

namespace {
// The [units, depth] float32 filter of FULLY_CONNECTED `op`, and its rows.
struct Dense {
  Tensor filter;
  int rows = 0;
};
Dense dense_of(const tflite::Model& m, const tflite::Operator& op) {
  const auto& sg = m.subgraphs[0];
  Dense d;
  if (op.inputs.size() < 2 || op.inputs[1] < 0) throw InputError("expected input and filter tensors");
  const auto& f = sg.tensors.at(static_cast<std::size_t>(op.inputs[1]));
  if (f.type != static_cast<int8_t>(tflite::TensorType::kFloat32) || f.shape.size() != 2 || f.shape[1] <= 0)
    throw InputError("expected a float32 [units, depth] filter (use the float model, not the int8 one)");
  int64_t in = 1;
  for (int32_t v : sg.tensors.at(static_cast<std::size_t>(op.inputs[0])).shape) in *= v;
  if (in <= 0 || in % f.shape[1] != 0) throw InputError("the input is not a whole number of rows of the filter's depth");
  d.rows = static_cast<int>(in / f.shape[1]);
  return d;
}
}  // namespace

std::string dense_support(const tflite::Model& m, std::size_t i) {
  const tflite::Operator& op = m.subgraphs[0].operators[i];
  const auto* o = std::get_if<tflite::FullyConnectedOptions>(&op.options);
  if (o == nullptr) return "no FULLY_CONNECTED options";
  if (o->weights_format != 0) return "weights format other than DEFAULT";
  Dense d;
  try {
    d = dense_of(m, op);
  } catch (const InputError& e) {
    return e.what();
  }
  const auto& f = m.subgraphs[0].tensors.at(static_cast<std::size_t>(op.inputs[1]));
  const int depth = f.shape[1], units = f.shape[0];
  if (!fits(ConvShape{depth, 1, d.rows, std::min(units, kCores), 1, 1}))
    return "one row of 16 units (" + std::to_string(depth) + " x " + std::to_string(d.rows) +
           " inputs) exceeds the accelerator's buffers or size registers";
  return "";
}

TinyConv read_dense(const tflite::Model& m, std::size_t op_index) {
  const tflite::Operator& op = m.subgraphs[0].operators[op_index];
  const Dense d = dense_of(m, op);
  const Tensor filt = tflite::constant_tensor(m, 0, op.inputs[1]);
  TinyConv c;
  c.in_h = 1, c.in_w = d.rows, c.in_c = static_cast<int>(filt.dim(1));
  c.out_h = 1, c.out_w = d.rows, c.out_c = static_cast<int>(filt.dim(0));
  c.kh = c.kw = 1;
  c.ph = 1, c.pw = d.rows;
  c.activation = std::get<tflite::FullyConnectedOptions>(op.options).activation;
  c.shapes = std::to_string(d.rows) + "x" + std::to_string(c.in_c) + " -> " + std::to_string(d.rows) + "x" +
             std::to_string(c.out_c) + ", dense as 1x1";
  // [units, depth] is OIHW with H = W = 1.
  c.w_oihw.assign(filt.data<float>(), filt.data<float>() + filt.numel());
  c.bias.assign(static_cast<std::size_t>(c.out_c), 0.0f);
  if (op.inputs.size() > 2 && op.inputs[2] >= 0) {
    const Tensor b = tflite::constant_tensor(m, 0, op.inputs[2]);
    if (b.dtype() != DType::kFp32 || b.numel() != c.out_c) throw InputError("expected a float32 bias of units elements");
    std::copy(b.data<float>(), b.data<float>() + c.out_c, c.bias.begin());
  }
  return c;
}

Tiles tile_conv(const std::string& check, const TinyConv& c, const std::vector<float>& x_pad, const TilePlan& plan) {
  const int kh = c.kh, pw = c.pw, in_c = c.in_c;
  const int oc_step = std::min(c.out_c, kCores);
  // The largest band of output rows whose input band and results fit.
  int rows = 0;
  for (int r = std::min(c.out_h, kMaxDim - kh + 1); r >= 1; --r) {
    if (fits(ConvShape{in_c, r + kh - 1, pw, oc_step, kh, c.kw})) {
      rows = r;
      break;
    }
  }
  if (rows == 0) throw InputError("one output row of 16 channels exceeds the accelerator's buffers or size registers");
  // Jobs per channel group: (first row, rows per band, bands).
  struct Bands {
    int row0, band, count;
  };
  std::vector<Bands> bands;
  if (plan.batch_row_bands) {
    if (c.out_h / rows > 0) bands.push_back({0, rows, c.out_h / rows});
    if (c.out_h % rows > 0) bands.push_back({c.out_h / rows * rows, c.out_h % rows, 1});
  } else {
    for (int row0 = 0; row0 < c.out_h; row0 += rows) bands.push_back({row0, std::min(rows, c.out_h - row0), 1});
  }
  Tiles ts;
  ts.oc_tiles = (c.out_c + oc_step - 1) / oc_step;
  ts.row_tiles = static_cast<int>(bands.size());
  std::vector<uint32_t> all_bits;
  std::vector<float> all_ref;
  const std::size_t per_oc = static_cast<std::size_t>(in_c) * kh * c.kw;
  const auto reference = plan.float32_reference ? WithReference::kFloat32 : WithReference::kNone;
  for (int ct = 0; ct < ts.oc_tiles; ++ct) {
    const int oc0 = ct * oc_step, noc = std::min(oc_step, c.out_c - oc0);
    for (std::size_t rt = 0; rt < bands.size(); ++rt) {
      const Bands& bd = bands[rt];
      Tile t;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s_c%d_r%zu", check.c_str(), ct, rt);
      t.check = buf;
      t.oc0 = oc0, t.row0 = bd.row0, t.band = bd.band;
      LayerJob& j = t.job;
      j.mode = Mode::kForward;
      j.shape = ConvShape{in_c, bd.band + kh - 1, pw, noc, kh, c.kw};
      j.batch = bd.count;
      j.bias = true;
      // Weights and bias of the tile's channels, truncated to bf16 by the host.
      for (int o = oc0; o < oc0 + noc; ++o) {
        for (std::size_t i = 0; i < per_oc; ++i) j.w.push_back(bf16::from_float(c.w_oihw[o * per_oc + i]));
        j.bias_v.push_back(bf16::from_float(c.bias[static_cast<std::size_t>(o)]));
      }
      for (int smp = 0; smp < bd.count; ++smp) {
        const int y0 = bd.row0 + smp * bd.band;
        std::vector<bf16> x;
        for (int ic = 0; ic < in_c; ++ic)
          for (int y = y0; y < y0 + bd.band + kh - 1; ++y)
            for (int xx = 0; xx < pw; ++xx)
              x.push_back(bf16::from_float(x_pad[(static_cast<std::size_t>(ic) * c.ph + y) * pw + xx]));
        j.x.push_back(std::move(x));
      }
      t.golden = golden(j, reference);
      for (Output& o : t.golden.outputs) {
        o.name = t.check + o.name.substr(1);  // "y" -> check, "y_s1" -> check_s1
        const auto n = static_cast<std::size_t>(o.golden.numel());
        const uint32_t* gb = reinterpret_cast<const uint32_t*>(o.golden.bytes().data());
        all_bits.insert(all_bits.end(), gb, gb + n);
        if (plan.float32_reference) {
          const float* rf = reinterpret_cast<const float*>(o.reference.bytes().data());
          all_ref.insert(all_ref.end(), rf, rf + n);
        }
      }
      ts.macs += t.golden.macs;
      ts.tiles.push_back(std::move(t));
    }
  }
  if (plan.float32_reference) ts.error = relative_error(all_bits, all_ref);
  return ts;
}

std::vector<float> golden_nhwc(const TinyConv& c, const Tiles& ts) {
  std::vector<float> y(static_cast<std::size_t>(c.out_h) * c.out_w * c.out_c);
  for (const Tile& t : ts.tiles) {
    // The job's outputs in order hold its samples in order, each [noc][band][out_w].
    std::vector<float> all;
    for (const Output& o : t.golden.outputs) {
      const float* p = reinterpret_cast<const float*>(o.golden.bytes().data());
      all.insert(all.end(), p, p + o.golden.numel());
    }
    const int noc = t.job.shape.out_c;
    for (int smp = 0; smp < t.job.batch; ++smp)
      for (int o = 0; o < noc; ++o)
        for (int r = 0; r < t.band; ++r)
          for (int x = 0; x < c.out_w; ++x)
            y[(static_cast<std::size_t>(t.row0 + smp * t.band + r) * c.out_w + x) * c.out_c + t.oc0 + o] =
                all[((static_cast<std::size_t>(smp) * noc + o) * t.band + r) * c.out_w + x];
  }
  return y;
}

int waits_per_tile(const Tile& t) { return t.job.bias ? 3 : 2; }

void emit_tiles(trace::Trace& t, const scenario::Scenario& sc, const std::string& layer, const Tiles& ts) {
  ProgramOptions opt;
  opt.in_limit = opt.out_base;
  opt.out_limit = TbConfig{}.dram_size;
  opt.timeout_cycles = sc.testbench.timeout_cycles;
  for (const Tile& tile : ts.tiles) {
    ProgramOptions o = opt;  // every tile from the same regions: checked before the next runs
    const std::size_t steps = t.steps.size();
    try {
      emit_program(t, tile.job, tile.golden, o);
    } catch (const InputError& e) {
      sc["model"].fail(std::string("layer ") + layer + ": " + e.what());
    }
    const auto waits = std::count_if(t.steps.begin() + static_cast<std::ptrdiff_t>(steps), t.steps.end(),
                                     [](const trace::Step& s) { return s.op == trace::Op::kWaitDone; });
    if (waits != waits_per_tile(tile)) throw std::logic_error("tinydnn tile " + tile.check + ": waits_per_tile is stale");
  }
}

}  // namespace cosim::tb::tinydnn
