// External referee for the float32 interpreter (cpp_model/tflite_float):
// the same TFLite runtime compiled to WebAssembly (referee/referee.js, XNNPACK
// inside) runs generated one-operator models and the four float MLPerf Tiny
// models, and every output is compared with ours.
//
// Tolerances, and why:
// - Float kernels (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED with float
//   weights): ours sums in double and rounds once; the runtime sums in
//   float32 in its own order. A K-term dot product in float32 is off by at
//   most ~K * 2^-24 of sum |w x| (typically sqrt(K) * 2^-24); with K <= 1152
//   here that is <= 7e-5 worst case, ~2e-6 typical, of the tensor's scale. So
//   an operator fed the same inputs must agree within kFloatTol = 1e-5 of its
//   output tensor's largest magnitude (max(1, max |y|)).
// - Dynamic-range kernels (int8 weights): the activation is quantized on the
//   fly and the int8 x int8 sum is an exact int32, so given the same input
//   ours and TFLite's differ only if the final float multiply and add round
//   in another order. We follow the runtime's order, so they must agree bit
//   for bit (0 difference). A difference means a different quantized
//   activation or order: a deviation from TFLite, never something to
//   tolerate (measured: the depthwise order s_w[c] * s_in first is 1-2 ulps
//   off, a symmetric instead of asymmetric activation far more).
// - A whole model (our chain against the runtime's): the differences above
//   compound through the layers, and in the hybrid model one upstream ulp can
//   move an activation across a rounding boundary of the on-the-fly
//   quantization, which changes that layer's output by up to one input LSB.
//   So per-operator agreement is checked on the runtime's own inputs of each
//   operator ("isolated", the tolerances above), and the end-to-end outputs
//   are reported, with top-1 equal and a bound per model relative to
//   max(1, max |y|): 1e-5 for the float models (measured <= 1.4e-6), 1e-3 for
//   the hybrid KWS (one activation LSB of one conv input, averaged by the
//   pooling; measured 1.2e-7).
//
// Skips when node or the runtime is absent (tests/tflite/referee/install.sh,
// `make referee`), and the model tests when ../shared/models is absent;
// COSIM_REQUIRE_REFEREE=1 turns those skips into failures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "model_builder.hpp"
#include "support/models.hpp"
#include "support/scratch_dir.hpp"
#include "support/text_file.hpp"
#include "tflite/model.hpp"
#include "tflite/patch.hpp"
#include "tflite_float/interpreter.hpp"

namespace fs = std::filesystem;
namespace tfm = cosim::tflite;
namespace tff = cosim::tflite_float;

namespace {

constexpr double kFloatTol = 1e-5;   // of max(1, max |y|)
constexpr double kHybridTol = 0.0;  // bit for bit

const std::string kRefereeDir = std::string(COSIM_SOURCE_DIR) + "/tests/tflite/referee";

std::string runtime_modules() {
  const char* env = std::getenv("COSIM_TFLITE_REFEREE_MODULES");
  return env ? env : kRefereeDir + "/node_modules";
}

// Why the referee cannot run here, or "" when it can.
std::string referee_missing() {
  if (std::system("node --version > /dev/null 2>&1") != 0) return "node not found; the referee needs Node.js (apt-get install nodejs npm)";
  if (!fs::exists(runtime_modules() + "/@tensorflow/tfjs-tflite/wasm/tflite_web_api_cc.js"))
    return "referee runtime not installed in " + runtime_modules() + "; run `make referee` (tests/tflite/referee/install.sh)";
  return "";
}

bool must_run() {
  const char* env = std::getenv("COSIM_REQUIRE_REFEREE");
  return env != nullptr && std::string(env) == "1";
}

#define SKIP_UNLESS(missing)                                                        \
  do {                                                                              \
    const std::string why_ = (missing);                                             \
    if (!why_.empty()) {                                                            \
      if (must_run()) FAIL() << why_ << " (COSIM_REQUIRE_REFEREE=1)";               \
      GTEST_SKIP() << why_;                                                         \
    }                                                                               \
  } while (0)

using cosim::test::model_missing;
using cosim::test::model_path;
using cosim::test::read_text;

// One inference for the runtime: a model's bytes and its input's floats.
struct Job {
  std::vector<uint8_t> model;
  std::vector<float> input;
};

// Runs every job in one node process; returns each job's output 0 as floats.
std::vector<std::vector<float>> run_referee(const std::vector<Job>& jobs, const std::string& tag) {
  const fs::path dir = cosim::test::scratch_dir("float_referee_" + tag);
  std::ofstream manifest(dir / "manifest.txt");
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const std::string stem = (dir / ("job" + std::to_string(j))).string();
    std::ofstream(stem + ".tflite", std::ios::binary)
        .write(reinterpret_cast<const char*>(jobs[j].model.data()), static_cast<std::streamsize>(jobs[j].model.size()));
    std::ofstream(stem + ".in", std::ios::binary)
        .write(reinterpret_cast<const char*>(jobs[j].input.data()),
               static_cast<std::streamsize>(jobs[j].input.size() * sizeof(float)));
    manifest << stem << ".tflite " << stem << ".in " << stem << ".out\n";
  }
  manifest.close();
  const std::string log = (dir / "node.log").string();
  const std::string cmd = "node " + kRefereeDir + "/referee.js " + (dir / "manifest.txt").string() + " " + runtime_modules() +
                          " > " + log + " 2>&1";
  const int rc = std::system(cmd.c_str());
  const std::string text = read_text(log);
  if (rc != 0) {
    ADD_FAILURE() << "referee failed (" << dir.string() << "): " << text;
    return {};
  }
  std::vector<std::vector<float>> outs;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const std::string b = read_text(dir / ("job" + std::to_string(j) + ".out"));
    std::vector<float> v(b.size() / sizeof(float));
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(float));
    outs.push_back(std::move(v));
  }
  fs::remove_all(dir);
  return outs;
}

struct Diff {
  double max_abs = 0;  // max |ours - runtime|
  double scale = 1;    // max(1, max |runtime|)
  std::size_t at = 0;
};
Diff compare(const std::vector<float>& ours, const std::vector<float>& ref) {
  Diff d;
  for (std::size_t i = 0; i < std::min(ours.size(), ref.size()); ++i) {
    const double e = std::fabs(static_cast<double>(ours[i]) - ref[i]);
    if (e > d.max_abs) d.max_abs = e, d.at = i;
    d.scale = std::max(d.scale, std::fabs(static_cast<double>(ref[i])));
  }
  return d;
}

std::vector<float> uniform(std::size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(g);
  return v;
}
std::vector<int8_t> uniform_int8(std::size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> d(-127, 127);
  std::vector<int8_t> v(n);
  for (int8_t& x : v) x = static_cast<int8_t>(d(g));
  return v;
}

// ---- one-operator models -------------------------------------------------

constexpr int8_t kF32 = 0, kI8 = 9;
enum Padding : int32_t { kSame = 0, kValid = 1 };
enum Act : int32_t { kNone = 0, kRelu = 1, kRelu6 = 3 };

std::size_t numel(const std::vector<int32_t>& s) {
  std::size_t n = 1;
  for (int32_t d : s) n *= static_cast<std::size_t>(d);
  return n;
}

// input -> one operator (weights, bias) -> output. Weights float, or int8
// with `scales` (per tensor when one) when `scales` is not empty.
struct Layer {
  int32_t code = 0;  // 3 CONV_2D, 4 DEPTHWISE_CONV_2D, 9 FULLY_CONNECTED
  std::vector<int32_t> in_shape, w_shape, out_shape;
  std::vector<float> scales;  // empty: float weights
  int32_t quantized_dimension = 0;
  uint8_t options_type = 0;
  std::vector<tfltest::OptField> options;
  float in_lo = -1, in_hi = 1;
};

std::vector<uint8_t> build_layer(const Layer& l, uint32_t seed) {
  tfltest::ModelSpec m;
  m.codes = {{static_cast<int8_t>(l.code), l.code}};
  const std::size_t wn = numel(l.w_shape);
  const std::size_t channels = static_cast<std::size_t>(l.code == 4 ? l.w_shape.back() : l.w_shape[0]);
  m.buffers.push_back({});  // 1: input
  m.buffers.push_back(l.scales.empty() ? tfltest::le_bytes(uniform(wn, -0.5f, 0.5f, seed + 1))
                                       : tfltest::le_bytes(uniform_int8(wn, seed + 1)));
  m.buffers.push_back(tfltest::le_bytes(uniform(channels, -0.5f, 0.5f, seed + 2)));
  m.buffers.push_back({});  // 4: output
  tfltest::TensorSpec in{l.in_shape, kF32, 1, "in", {}, {}, 0};
  tfltest::TensorSpec w{l.w_shape, l.scales.empty() ? kF32 : kI8, 2, "weights", l.scales,
                        std::vector<int64_t>(l.scales.size(), 0), l.quantized_dimension};
  tfltest::TensorSpec b{{static_cast<int32_t>(channels)}, kF32, 3, "bias", {}, {}, 0};
  tfltest::TensorSpec out{l.out_shape, kF32, 4, "out", {}, {}, 0};
  m.tensors = {in, w, b, out};
  m.inputs = {0};
  m.outputs = {3};
  m.ops = {{0, {0, 1, 2}, {3}, l.options_type, l.options}};
  return tfltest::build(m);
}

tfltest::OptField byte(int id, int32_t v) { return {id, v, true}; }
tfltest::OptField word(int id, int32_t v) { return {id, v, false}; }

Layer conv(std::vector<int32_t> in, int o, int kh, int kw, Padding p, int sh, int sw, Act a, int oh, int ow) {
  Layer l;
  l.code = 3;
  l.in_shape = in;
  l.w_shape = {o, kh, kw, in[3]};
  l.out_shape = {1, oh, ow, o};
  l.options_type = 1;  // Conv2DOptions: padding, stride_w, stride_h, activation, dilation_w, dilation_h
  l.options = {byte(0, p), word(1, sw), word(2, sh), byte(3, a), word(4, 1), word(5, 1)};
  return l;
}
Layer depthwise(std::vector<int32_t> in, int mult, int kh, int kw, Padding p, int sh, int sw, int dil, Act a, int oh, int ow) {
  Layer l;
  l.code = 4;
  l.in_shape = in;
  l.w_shape = {1, kh, kw, in[3] * mult};
  l.out_shape = {1, oh, ow, in[3] * mult};
  l.quantized_dimension = 3;
  l.options_type = 2;  // DepthwiseConv2DOptions: padding, stride_w, stride_h, depth_multiplier, activation, dilation_w, dilation_h
  l.options = {byte(0, p), word(1, sw), word(2, sh), word(3, mult), byte(4, a), word(5, dil), word(6, dil)};
  return l;
}
Layer dense(int depth, int units, Act a, bool asymmetric) {
  Layer l;
  l.code = 9;
  l.in_shape = {1, depth};
  l.w_shape = {units, depth};
  l.out_shape = {1, units};
  l.options_type = 8;  // FullyConnectedOptions: activation, weights_format, keep_num_dims, asymmetric_quantize_inputs
  l.options = {byte(0, a), byte(1, 0), byte(2, 0), byte(3, asymmetric ? 1 : 0)};
  return l;
}
std::vector<float> scales(std::size_t n, uint32_t seed) {
  std::vector<float> s = uniform(n, 0.002f, 0.02f, seed);
  return s;
}

// Runs each layer on three seeded inputs through the runtime and ours.
void check_layers(const std::vector<Layer>& layers, bool hybrid, const std::string& tag) {
  std::vector<Job> jobs;
  std::vector<std::vector<float>> ours;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < layers.size(); ++i)
    for (uint32_t seed : {11u, 12u, 13u}) {
      const Layer& l = layers[i];
      const uint32_t s = seed * 101 + static_cast<uint32_t>(i);
      Job j{build_layer(l, s), uniform(numel(l.in_shape), l.in_lo, l.in_hi, s + 3)};
      const tfm::Model m = tfm::parse_model(j.model.data(), j.model.size(), tag + ".tflite");
      const tff::Values v = tff::run(m, j.input);
      ours.push_back(v[3]);
      names.push_back(tag + " layer " + std::to_string(i) + " seed " + std::to_string(s));
      jobs.push_back(std::move(j));
    }
  const auto ref = run_referee(jobs, tag);
  ASSERT_EQ(ref.size(), jobs.size());
  double worst = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    ASSERT_EQ(ref[j].size(), ours[j].size()) << names[j] << ": output size";
    const Diff d = compare(ours[j], ref[j]);
    const double tol = hybrid ? kHybridTol : kFloatTol * d.scale;
    EXPECT_LE(d.max_abs, tol) << names[j] << ": max |diff| " << d.max_abs << " at " << d.at << " (ours "
                              << ours[j][d.at] << ", runtime " << ref[j][d.at] << "), tensor scale " << d.scale;
    worst = std::max(worst, d.max_abs / d.scale);
  }
  std::printf("float referee %s: %zu runs, max |diff| / max(1, max |y|) = %.3g\n", tag.c_str(), jobs.size(), worst);
}

// ---- whole models ---------------------------------------------------------

struct ModelResult {
  double final_max_abs = 0;      // our chain vs the runtime, model output (absolute)
  double isolated_float = 0;     // worst isolated float operator, relative
  double isolated_hybrid = 0;    // worst isolated hybrid operator, relative
  int top1_disagreements = 0;
};

bool hybrid_op(const tfm::Model& m, const tfm::Operator& op) {
  return op.inputs.size() > 1 && op.inputs[1] >= 0 &&
         m.subgraphs[0].tensors[static_cast<std::size_t>(op.inputs[1])].type == static_cast<int8_t>(tfm::TensorType::kInt8);
}

// Every operator's output read from the runtime (repointing the model's
// output), for `seeds` random inputs in [lo, hi).
ModelResult check_model(const std::string& file, float lo, float hi, double model_tol) {
  ModelResult r;
  const std::string path = model_path(file);
  const std::vector<uint8_t> bytes = tfm::read_file_bytes(path);
  const tfm::Model m = tfm::parse_model(bytes.data(), bytes.size(), path);
  tff::check_supported(m);
  const auto& sg = m.subgraphs[0];
  const int32_t in_t = tff::input_tensor(m);
  const std::vector<uint32_t> seeds = {1u, 2u, 3u};
  std::vector<Job> jobs;
  for (uint32_t seed : seeds) {
    const std::vector<float> x = uniform(tff::tensor_size(m, in_t), lo, hi, seed);
    for (const auto& op : sg.operators) jobs.push_back({tfm::repoint_output(bytes, m, 0, op.outputs[0]), x});
  }
  const auto ref = run_referee(jobs, fs::path(file).stem().string());
  if (ref.size() != jobs.size()) {
    ADD_FAILURE() << file << ": referee gave " << ref.size() << " outputs for " << jobs.size() << " runs";
    return r;
  }
  const std::size_t n_ops = sg.operators.size();
  for (std::size_t s = 0; s < seeds.size(); ++s) {
    const std::vector<float>& x = jobs[s * n_ops].input;
    // The runtime's value of every tensor it computed, for the isolated runs.
    tff::Values runtime(sg.tensors.size());
    runtime[static_cast<std::size_t>(in_t)] = x;
    for (std::size_t o = 0; o < n_ops; ++o) runtime[static_cast<std::size_t>(sg.operators[o].outputs[0])] = ref[s * n_ops + o];
    for (std::size_t o = 0; o < n_ops; ++o) {
      tff::Values v = runtime;
      const int32_t out_t = sg.operators[o].outputs[0];
      v[static_cast<std::size_t>(out_t)].clear();
      tff::run_op(m, o, v);
      const Diff d = compare(v[static_cast<std::size_t>(out_t)], ref[s * n_ops + o]);
      const bool hybrid = hybrid_op(m, sg.operators[o]);
      const double tol = hybrid ? kHybridTol : kFloatTol * d.scale;
      EXPECT_LE(d.max_abs, tol) << file << " seed " << seeds[s] << " op " << o << " "
                                << tfm::op_name(sg.operators[o].code) << (hybrid ? " (hybrid)" : "")
                                << " on the runtime's inputs: max |diff| " << d.max_abs << " at " << d.at
                                << ", tensor scale " << d.scale;
      double& worst = hybrid ? r.isolated_hybrid : r.isolated_float;
      worst = std::max(worst, d.max_abs / d.scale);
    }
    const tff::Values chain = tff::run(m, x);
    const int32_t final_t = sg.outputs.at(0);
    std::size_t final_op = n_ops;
    for (std::size_t o = 0; o < n_ops; ++o)
      if (sg.operators[o].outputs[0] == final_t) final_op = o;
    if (final_op == n_ops) {
      ADD_FAILURE() << file << ": no operator writes the model output";
      return r;
    }
    const std::vector<float>& rt = ref[s * n_ops + final_op];
    const std::vector<float>& ours = chain[static_cast<std::size_t>(final_t)];
    const Diff d = compare(ours, rt);
    EXPECT_LE(d.max_abs, model_tol * d.scale) << file << " seed " << seeds[s] << ": model output max |diff| " << d.max_abs << " at "
                                    << d.at;
    r.final_max_abs = std::max(r.final_max_abs, d.max_abs);
    if (tff::argmax(ours) != tff::argmax(rt)) ++r.top1_disagreements;
  }
  std::printf("float referee %s: %zu operators x %zu seeds; isolated max |diff| / max(1, max |y|): float %.3g, hybrid "
              "%.3g; model output max |diff| %.3g; top-1 disagreements %d\n",
              file.c_str(), n_ops, seeds.size(), r.isolated_float, r.isolated_hybrid, r.final_max_abs,
              r.top1_disagreements);
  return r;
}

}  // namespace

// ---- float operators new to the interpreter -------------------------------

TEST(FloatReferee, DepthwiseConvFloatLayers) {
  SKIP_UNLESS(referee_missing());
  check_layers({depthwise({1, 9, 7, 4}, 1, 3, 3, kSame, 1, 1, 1, kRelu6, 9, 7),
                depthwise({1, 10, 10, 3}, 2, 3, 3, kValid, 2, 2, 1, kNone, 4, 4),
                depthwise({1, 8, 8, 2}, 1, 3, 3, kSame, 1, 1, 2, kRelu, 8, 8),
                depthwise({1, 12, 9, 8}, 1, 5, 3, kSame, 2, 2, 1, kRelu, 6, 5),
                depthwise({1, 6, 6, 128}, 1, 3, 3, kSame, 1, 1, 1, kRelu, 6, 6)},
               false, "dw_float");
}

TEST(FloatReferee, FullyConnectedFloatOn2DInput) {
  SKIP_UNLESS(referee_missing());
  check_layers({dense(40, 16, kRelu, false), dense(640, 128, kNone, false), dense(8, 128, kRelu, false)}, false, "fc_float");
}

// ---- dynamic-range ("hybrid") kernels -------------------------------------

TEST(FloatReferee, HybridConvPerTensor) {
  SKIP_UNLESS(referee_missing());
  Layer a = conv({1, 11, 6, 3}, 8, 3, 3, kSame, 2, 2, kRelu, 6, 3);
  Layer b = conv({1, 7, 5, 16}, 12, 1, 1, kValid, 1, 1, kNone, 7, 5);
  Layer c = conv({1, 49, 10, 1}, 16, 10, 4, kSame, 2, 2, kRelu, 25, 5);  // KWS's first layer, random weights
  a.scales = {0.01f};
  b.scales = {0.004f};
  c.scales = {0.02f};
  b.in_lo = 0, b.in_hi = 3;  // non-negative activations, as after a RELU
  check_layers({a, b, c}, true, "conv_hybrid_tensor");
}

TEST(FloatReferee, HybridConvPerChannel) {
  SKIP_UNLESS(referee_missing());
  Layer a = conv({1, 11, 6, 3}, 8, 3, 3, kSame, 2, 2, kRelu6, 6, 3);
  Layer b = conv({1, 7, 5, 16}, 12, 1, 1, kValid, 1, 1, kNone, 7, 5);
  Layer neg = conv({1, 6, 6, 4}, 4, 3, 3, kSame, 1, 1, kNone, 6, 6);  // all-negative input: zero point 127
  a.scales = scales(8, 5);
  b.scales = scales(12, 6);
  neg.scales = scales(4, 9);
  b.in_lo = 0, b.in_hi = 3;
  neg.in_lo = -4, neg.in_hi = -0.5f;
  check_layers({a, b, neg}, true, "conv_hybrid_channel");
}

TEST(FloatReferee, HybridDepthwisePerChannel) {
  SKIP_UNLESS(referee_missing());
  Layer a = depthwise({1, 9, 7, 4}, 1, 3, 3, kSame, 1, 1, 1, kRelu, 9, 7);
  Layer b = depthwise({1, 10, 10, 3}, 2, 3, 3, kValid, 2, 2, 1, kNone, 4, 4);
  a.scales = scales(4, 7);
  b.scales = scales(6, 8);
  b.in_lo = -0.2f, b.in_hi = 2;
  check_layers({a, b}, true, "dw_hybrid");
}

TEST(FloatReferee, HybridFullyConnectedSymmetric) {
  SKIP_UNLESS(referee_missing());
  Layer a = dense(64, 12, kNone, false);
  Layer b = dense(128, 32, kRelu, false);
  a.scales = {0.01f};
  b.scales = {0.003f};
  b.in_lo = 0, b.in_hi = 5;
  check_layers({a, b}, true, "fc_hybrid_symmetric");
}

TEST(FloatReferee, HybridFullyConnectedAsymmetric) {
  SKIP_UNLESS(referee_missing());
  Layer a = dense(64, 12, kNone, true);
  Layer b = dense(128, 32, kRelu, true);
  Layer zero = dense(16, 8, kNone, true);  // an all-zero row: output = bias
  a.scales = {0.01f};
  b.scales = {0.003f};
  zero.scales = {0.01f};
  b.in_lo = 0, b.in_hi = 5;
  zero.in_lo = 0, zero.in_hi = 0;
  check_layers({a, b, zero}, true, "fc_hybrid_asymmetric");
}

// ---- the four float models end to end -------------------------------------

TEST(FloatReferee, Resnet8Float) {
  SKIP_UNLESS(model_missing(model_path("resnet8_float.tflite")));
  SKIP_UNLESS(referee_missing());
  const ModelResult r = check_model("resnet8_float.tflite", 0, 1, 1e-5);
  EXPECT_EQ(r.top1_disagreements, 0);
}

TEST(FloatReferee, Vww96Float) {
  SKIP_UNLESS(model_missing(model_path("vww_96_float.tflite")));
  SKIP_UNLESS(referee_missing());
  const ModelResult r = check_model("vww_96_float.tflite", 0, 1, 1e-5);
  EXPECT_EQ(r.top1_disagreements, 0);
}

TEST(FloatReferee, Ad01Fp32) {
  SKIP_UNLESS(model_missing(model_path("ad01_fp32.tflite")));
  SKIP_UNLESS(referee_missing());
  const ModelResult r = check_model("ad01_fp32.tflite", -1, 1, 1e-5);
  EXPECT_EQ(r.top1_disagreements, 0);
}

TEST(FloatReferee, KwsDscnnFloatHybrid) {
  SKIP_UNLESS(model_missing(model_path("kws_dscnn_float.tflite")));
  SKIP_UNLESS(referee_missing());
  const ModelResult r = check_model("kws_dscnn_float.tflite", -1, 1, 1e-3);
  EXPECT_EQ(r.top1_disagreements, 0);
}
