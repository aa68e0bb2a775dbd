// The vta target's `conv2d` op: one int8 CONV2D layer as a VTA program.
//
//   op: conv2d
//   shapes: {input: [1, 28, 28, 64], filter: [64, 3, 3, 64]}  # or kernel: 3, out_channels: 64
//   params: {stride: 1, padding: same, activation: none}
//   quant: {input: {scale: 0.02, zero_point: -5}, output: {scale: 0.2, zero_point: 3}, filter_scales: random}
//   data: {input: random, filter: random, bias: random}         # bias: none for no bias
//   compile: {threads: 2}                                       # compiler knobs
//
// The output sits in DRAM in channel blocks (nchw16c); the check reads it
// back as NHWC and mismatches are named (n,h,w,c).
#include <cstdio>
#include <sstream>

#include "common/error.hpp"
#include "model_replay/model_replay.hpp"
#include "ops/conv2d.hpp"
#include "vta/golden/vta_conv2d.hpp"
#include "vta/golden/vta_quant.hpp"
#include "vta/vta_model_op.hpp"
#include "vta/vta_program_op.hpp"
#include "vta/vta_schema.hpp"
#include "vta/compiler/conv2d_compiler.hpp"
#include "vta/compiler/tflite_requant_program.hpp"

namespace cosim::tb::vta {

namespace {

using cosim::vta::CompiledProgram;
using model_replay::dims;
using scenario::Value;

quant::Activation activation(const std::string& s) {
  if (s == "relu") return quant::Activation::kRelu;
  if (s == "relu6") return quant::Activation::kRelu6;
  return quant::Activation::kNone;
}

// Two ints from `stride` / `kernel`: one integer, or a [h, w] list.
std::pair<int64_t, int64_t> pair_of(const Value& v) {
  if (v.is_list()) {
    if (v.items.size() != 2) v.fail("expected one integer or a list [h, w]");
    return {v[0].as_int(), v[1].as_int()};
  }
  return {v.as_int(), v.as_int()};
}

// `random` (seeded, per channel in [0.002, 0.008]), one scale, or one per channel.
std::vector<float> filter_scales(const scenario::Scenario& sc, const Value& v, int64_t channels) {
  std::vector<float> s;
  if (v.is_string()) {
    scenario::Rng rng(sc.seed, "filter_scales");
    for (int64_t c = 0; c < channels; ++c) s.push_back(static_cast<float>(rng.uniform(0.002, 0.008)));
  } else if (v.is_list()) {
    for (double d : v.as_floats()) s.push_back(static_cast<float>(d));
    if (s.size() != 1 && static_cast<int64_t>(s.size()) != channels) {
      v.fail("expected 1 or " + std::to_string(channels) + " filter scales (one per output channel), got " +
             std::to_string(s.size()));
    }
  } else {
    s.push_back(static_cast<float>(v.as_float()));
  }
  return s;
}

// The filter's OHWI shape: explicit, or kernel + out_channels.
std::vector<int64_t> filter_shape(const Value& shapes, const std::vector<int64_t>& in_shape) {
  if (!shapes.has("filter")) {
    if (!shapes.has("kernel") || !shapes.has("out_channels")) {
      shapes.fail("expected 'filter: [O, KH, KW, I]', or 'kernel' and 'out_channels'");
    }
    const auto k = pair_of(shapes["kernel"]);
    return {shapes["out_channels"].as_int(), k.first, k.second, in_shape[3]};
  }
  std::vector<int64_t> f_shape = shapes["filter"].as_ints();
  if (f_shape[3] != in_shape[3]) {
    shapes["filter"].fail("expected the filter's input channels [3] to equal the input's channels " +
                          std::to_string(in_shape[3]) + ", got " + std::to_string(f_shape[3]));
  }
  if (shapes.has("kernel")) {
    const auto k = pair_of(shapes["kernel"]);
    if (k.first != f_shape[1] || k.second != f_shape[2]) shapes["kernel"].fail("expected the filter's kernel size");
  }
  if (shapes.has("out_channels") && shapes["out_channels"].as_int() != f_shape[0]) {
    shapes["out_channels"].fail("expected the filter's output channels " + std::to_string(f_shape[0]));
  }
  return f_shape;
}

class Conv2dOp : public VtaProgramOp {
 public:
  std::string name() const override { return "conv2d"; }
  scenario::Schema schema() const override { return conv2d_schema(); }  // vta_schema.hpp

  // Replay: one 16x16 GEMM uop per cycle is the array's peak.
  void replay_metrics(const SimOutcome& run, Metrics& m) const override {
    (void)run;
    const auto uops = m.extra.find("gemm_uops");
    const auto cycles = m.extra.find("vta_cycles");
    if (uops == m.extra.end() || cycles == m.extra.end() || cycles->second <= 0) return;
    m.utilization = uops->second / cycles->second;
    m.extra["useful_mac_fraction"] = static_cast<double>(m.macs) / (256.0 * cycles->second);
  }

 protected:
  CompiledProgram lower(const scenario::Scenario& sc, std::optional<quant::Rounding> tfl, Workload& w) const override;

  void figures(const CompiledProgram& p, double cycles, Metrics& m) const override {
    // One 16x16 GEMM uop per cycle is the array's peak.
    const double out_entries = static_cast<double>(p.output.bytes / 16);
    m.utilization = static_cast<double>(p.gemm_uops) / cycles;
    m.extra["useful_mac_fraction"] = static_cast<double>(p.macs) / (256.0 * cycles);
    const double bound = p.compute_bound();
    m.extra["compute_bound"] = bound;
    m.extra["utilization_of_bound"] = *m.utilization / bound;
    char line[240];
    std::snprintf(line, sizeof line,
                  "  bound       GEMM utilization %.1f %% of a compute bound of %.1f %% (%.1f %%): %llu GEMM, "
                  "%llu reset, %llu ALU uops (%.1f per output entry), %llu own-load cycles on COMPUTE",
                  100.0 * *m.utilization, 100.0 * bound, 100.0 * *m.utilization / bound,
                  static_cast<unsigned long long>(p.gemm_uops), static_cast<unsigned long long>(p.reset_uops),
                  static_cast<unsigned long long>(p.alu_uops), static_cast<double>(p.alu_uops) / out_entries,
                  static_cast<unsigned long long>(p.compute_load_cycles()));
    m.table.push_back(line);
  }
};

CompiledProgram Conv2dOp::lower(const scenario::Scenario& sc, std::optional<quant::Rounding> tfl, Workload& w) const {
  const Value& shapes = sc["shapes"];
  const std::vector<int64_t> in_shape = shapes["input"].as_ints();
  const std::vector<int64_t> f_shape = filter_shape(shapes, in_shape);
  const Value& params = sc["params"];
  const auto stride = pair_of(params["stride"]);
  ops::ConvParams geom;
  geom.padding = params["padding"].as_string() == "valid" ? ops::Padding::kValid : ops::Padding::kSame;
  geom.stride_h = static_cast<int>(stride.first);
  geom.stride_w = static_cast<int>(stride.second);
  if (geom.padding == ops::Padding::kValid && (f_shape[1] > in_shape[1] || f_shape[2] > in_shape[2])) {
    shapes.fail("expected a kernel (" + std::to_string(f_shape[1]) + "x" + std::to_string(f_shape[2]) +
                ") no larger than the input (" + std::to_string(in_shape[1]) + "x" + std::to_string(in_shape[2]) +
                ") with padding valid");
  }
  const quant::Activation act = activation(params["activation"].as_string());

  const Value& q = sc["quant"];
  const QParams qin = qparams(q["input"]), qout = qparams(q["output"]);
  geom.input_zero_point = qin.zero_point;
  geom.output_zero_point = qout.zero_point;
  const std::vector<float> fscales = filter_scales(sc, q["filter_scales"], f_shape[0]);

  const Value& data = sc["data"];
  Tensor input = scenario::make_tensor(sc, data["input"], DType::kInt8, in_shape, Layout::kNHWC, "input",
                                       scenario::Int8Quant{qin.scale, qin.zero_point});
  Tensor filter = scenario::make_tensor(sc, data["filter"], DType::kInt8, f_shape, Layout::kAny, "filter");
  Tensor bias;
  const Value& bias_v = data["bias"];
  if (!(bias_v.is_string() && bias_v.as_string() == "none")) {
    bias = scenario::make_tensor(sc, bias_v, DType::kInt32, {f_shape[0]}, Layout::kAny, "bias");
  }

  // TFLite's parameters in one rounding (the references, and the TFLite modes).
  const auto tflite_params = [&](quant::Rounding rounding) {
    ops::ConvParams p = q.rethrow_here([&] {
      return ops::make_conv_params(qin.scale, qin.zero_point, fscales, qout.scale, qout.zero_point, act, rounding);
    });
    p.padding = geom.padding;
    p.stride_h = geom.stride_h;
    p.stride_w = geom.stride_w;
    return p;
  };
  CompiledProgram prog;
  Tensor golden;
  if (tfl) {
    // TFLite requantization on the ALU; the 16-bit scheme only as a distance
    // (when its plans exist for these scales).
    const ops::ConvParams p = tflite_params(*tfl);
    const cosim::vta::TfliteRequantProgram rq = q.rethrow_here([&] {
      return cosim::vta::make_tflite_requant_program(p.output_multiplier, *tfl, qout.zero_point, p.act);
    });
    prog = shapes["input"].rethrow_here(
        [&] { return cosim::vta::compile_conv2d(input, filter, bias, geom, rq, compile_options(sc)); });
    golden = ops::conv2d(input, filter, bias, p);
    try {
      const std::vector<quant::VtaRequantPlan> plans =
          ops::vta_plan_conv2d(filter, bias, qin.scale, qin.zero_point, fscales, qout.scale, qout.zero_point, act);
      w.references.push_back({"output", "vta16", as_nhwc(ops::vta_conv2d(input, filter, bias, geom, plans))});
    } catch (const InputError&) {
      // no 16-bit program for these scales: nothing to compare with
    }
  } else {
    const std::vector<quant::VtaRequantPlan> plans = q.rethrow_here([&] {
      return ops::vta_plan_conv2d(filter, bias, qin.scale, qin.zero_point, fscales, qout.scale, qout.zero_point, act);
    });
    prog = shapes["input"].rethrow_here(
        [&] { return cosim::vta::compile_conv2d(input, filter, bias, geom, plans, compile_options(sc)); });
    golden = ops::vta_conv2d(input, filter, bias, geom, plans);
  }
  Tensor expected = as_nhwc(golden);
  for (const auto& [sem, rounding] : {std::pair{"tflite_double", quant::Rounding::kDouble},
                                      std::pair{"tflite_single", quant::Rounding::kSingle}}) {
    w.references.push_back({"output", sem, as_nhwc(ops::conv2d(input, filter, bias, tflite_params(rounding)))});
  }
  std::ostringstream sum;
  sum << "conv2d " << dims(in_shape) << " -> " << dims(expected.shape()) << ", " << f_shape[1] << "x" << f_shape[2]
      << " s" << geom.stride_h << (geom.stride_w != geom.stride_h ? "x" + std::to_string(geom.stride_w) : "") << " "
      << params["padding"].as_string() << "; " << prog.insn_count << " instructions, " << prog.tiling;
  w.summary = sum.str();
  w.macs = prog.macs;
  w.expected["output"] = std::move(expected);
  w.output_quant["output"] = scenario::Int8Quant{qout.scale, qout.zero_point};
  w.inputs["input"] = std::move(input);
  w.inputs["filter"] = std::move(filter);
  if (bias.numel() > 0) w.inputs["bias"] = std::move(bias);
  return prog;
}

}  // namespace

std::unique_ptr<Operator> make_conv2d_op() { return std::make_unique<Conv2dOp>(); }

}  // namespace cosim::tb::vta
