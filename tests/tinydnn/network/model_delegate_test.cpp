// The tinydnn `model` op in mode delegate through the cosim CLI: the float
// ResNet-8 end to end, stride-1 CONV_2D on the RTL in bf16, the rest in
// float32 on the CPU.
// - The run is bit-exact, and its network output equals an independent
//   recomputation: the float interpreter with every stride-1 CONV_2D
//   replaced by a bf16 convolution written here from the spec's rules
//   (shared/spec/tinydnn.md), not from cpp_model/tinydnn.
// - `inputs: 3` reports 3 network outputs and the agreement count.
// - Bad keys are one clear error line, exit 2.
// Skipped when the model is not on this machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "support/cosim_cli.hpp"
#include "support/models.hpp"
#include "tensor/tensor.hpp"
#include "tflite/model.hpp"
#include "tflite_float/float_ops.hpp"
#include "tflite_float/interpreter.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
namespace tf = cosim::tflite_float;

namespace {

using Result = cosim::test::CliResult;

const fs::path kModel = cosim::test::model_path("resnet8_float.tflite");

// ---- The accelerator's arithmetic, from the spec's text. ----

// The running sum: sign, 10-bit exponent, unnormalised 32-bit mantissa.
struct Sum {
  uint32_t s = 0;
  int32_t e = 0;
  int32_t a = 0;
};

int32_t wrap10(int32_t x) {
  x &= 0x3FF;
  return x >= 512 ? x - 1024 : x;
}

uint16_t to_bf16(float f) {  // the host truncates
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>(u >> 16);
}

void mac(Sum& sum, uint16_t w, uint16_t d) {
  const int32_t p = (128 + (w & 0x7F)) * (128 + (d & 0x7F));
  const int32_t ep = ((w >> 7) & 0xFF) + ((d >> 7) & 0xFF);
  const uint32_t sp = (w >> 15) ^ (d >> 15);
  const int32_t a = (sum.s ^ sp) ? static_cast<int32_t>(0u - static_cast<uint32_t>(sum.a)) : sum.a;
  const int32_t dd = wrap10(ep - sum.e + 16);
  if (dd < 0) return;  // the product is far smaller than the sum
  const int64_t aligned = dd >= 64 ? 0 : (static_cast<int64_t>(a) * 65536) >> dd;  // arithmetic shift
  if (aligned < -(int64_t{1} << 30) || aligned >= (int64_t{1} << 30)) return;
  sum = {sp, wrap10(ep), static_cast<int32_t>(static_cast<uint32_t>(p) + static_cast<uint32_t>(aligned))};
}

float normalise(Sum sum) {
  if (sum.a < 0) {
    sum.a = static_cast<int32_t>(0u - static_cast<uint32_t>(sum.a));
    sum.s ^= 1u;
  }
  const auto a = static_cast<uint32_t>(sum.a);
  const int lz = a == 0 ? 31 : __builtin_clz(a);
  const uint32_t n = a << lz;
  const int32_t e = wrap10(sum.e - lz + 17 - 127);
  const uint32_t bits = e <= 0 ? 0u : (sum.s << 31) | ((static_cast<uint32_t>(e) & 0xFF) << 23) | ((n >> 8) & 0x7FFFFF);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// A stride-1 CONV_2D in bf16 as the spec orders it (over ic, then ky, then
// kx, then the bias step with d = 1.0), on the host's SAME padding (zeros
// are MAC steps like any other value), then the fused activation.
std::vector<float> bf16_conv(const cosim::tflite::Model& m, std::size_t op_index, const std::vector<float>& in) {
  const auto& sg = m.subgraphs[0];
  const auto& op = sg.operators[op_index];
  const auto& o = std::get<cosim::tflite::Conv2DOptions>(op.options);
  const auto& ti = sg.tensors.at(static_cast<std::size_t>(op.inputs[0]));
  const cosim::Tensor filt = cosim::tflite::constant_tensor(m, 0, op.inputs[1]);
  const cosim::Tensor bias = cosim::tflite::constant_tensor(m, 0, op.inputs[2]);
  const int h = ti.shape[1], w = ti.shape[2], c = ti.shape[3];
  const int oc_n = static_cast<int>(filt.dim(0)), kh = static_cast<int>(filt.dim(1)), kw = static_cast<int>(filt.dim(2));
  const int pt = (kh - 1) / 2, pl = (kw - 1) / 2;  // SAME, stride 1: the odd pixel after
  const float* f = filt.data<float>();
  std::vector<float> out(static_cast<std::size_t>(h) * w * oc_n);
  for (int oc = 0; oc < oc_n; ++oc)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        Sum s;
        for (int ic = 0; ic < c; ++ic)
          for (int ky = 0; ky < kh; ++ky)
            for (int kx = 0; kx < kw; ++kx) {
              const int iy = y + ky - pt, ix = x + kx - pl;
              const float v = iy < 0 || iy >= h || ix < 0 || ix >= w ? 0.0f : in[(static_cast<std::size_t>(iy) * w + ix) * c + ic];
              mac(s, to_bf16(f[((static_cast<std::size_t>(oc) * kh + ky) * kw + kx) * c + ic]), to_bf16(v));
            }
        mac(s, to_bf16(bias.data<float>()[oc]), 0x3F80);
        out[(static_cast<std::size_t>(y) * w + x) * oc_n + oc] = normalise(s);
      }
  tf::activate(out, o.activation);
  return out;
}

// A FULLY_CONNECTED in bf16 as the accelerator runs it, a 1x1 convolution
// over a 1 x rows map: per row and unit the MACs over the depth, then the
// bias step, then the fused activation.
std::vector<float> bf16_dense(const cosim::tflite::Model& m, std::size_t op_index, const std::vector<float>& in) {
  const auto& op = m.subgraphs[0].operators[op_index];
  const cosim::Tensor filt = cosim::tflite::constant_tensor(m, 0, op.inputs[1]);
  const cosim::Tensor bias = cosim::tflite::constant_tensor(m, 0, op.inputs[2]);
  const int64_t units = filt.dim(0), depth = filt.dim(1), rows = static_cast<int64_t>(in.size()) / depth;
  std::vector<float> out(static_cast<std::size_t>(rows * units));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t u = 0; u < units; ++u) {
      Sum s;
      for (int64_t d = 0; d < depth; ++d)
        mac(s, to_bf16(filt.data<float>()[u * depth + d]), to_bf16(in[static_cast<std::size_t>(r * depth + d)]));
      mac(s, to_bf16(bias.data<float>()[u]), 0x3F80);
      out[static_cast<std::size_t>(r * units + u)] = normalise(s);
    }
  tf::activate(out, std::get<cosim::tflite::FullyConnectedOptions>(op.options).activation);
  return out;
}

// The network on input `x` with the operators `on_rtl` names recomputed in
// bf16 (CONV_2D or FULLY_CONNECTED), the others by the float interpreter.
template <class OnRtl>
std::vector<float> recompute(const cosim::tflite::Model& m, const std::vector<float>& x, OnRtl on_rtl) {
  tf::Values v(m.subgraphs[0].tensors.size());
  v[static_cast<std::size_t>(tf::input_tensor(m))] = x;
  for (std::size_t op = 0; op < m.subgraphs[0].operators.size(); ++op) {
    const auto& o = m.subgraphs[0].operators[op];
    const auto& in = v[static_cast<std::size_t>(o.inputs[0])];
    if (!on_rtl(op))
      tf::run_op(m, op, v);
    else if (o.code == cosim::tflite::kFullyConnected)
      v[static_cast<std::size_t>(o.outputs[0])] = bf16_dense(m, op, in);
    else
      v[static_cast<std::size_t>(o.outputs[0])] = bf16_conv(m, op, in);
  }
  return v[static_cast<std::size_t>(m.subgraphs[0].outputs[0])];
}

bool stride1_conv(const cosim::tflite::Model& m, std::size_t op) {
  const auto* o = std::get_if<cosim::tflite::Conv2DOptions>(&m.subgraphs[0].operators[op].options);
  return m.subgraphs[0].operators[op].code == cosim::tflite::kConv2d && o != nullptr && o->stride_h == 1 &&
         o->stride_w == 1;
}

// The report's network output on input `x` against recompute(): the same
// top-1 classes and the same distance to the float model.
template <class OnRtl>
void expect_network_output(const cosim::tflite::Model& m, const std::vector<float>& x, const json& net, OnRtl on_rtl) {
  const std::vector<float> mine = recompute(m, x, on_rtl);
  const tf::Values ref = tf::run(m, x);
  const std::vector<float>& want = ref[static_cast<std::size_t>(m.subgraphs[0].outputs[0])];
  double max_diff = 0;
  for (std::size_t i = 0; i < mine.size(); ++i) max_diff = std::max(max_diff, std::fabs(double(mine[i]) - want[i]));
  EXPECT_EQ(net["top1"]["delegate"].get<std::size_t>(), tf::argmax(mine)) << net.dump();
  EXPECT_EQ(net["top1"]["float32"].get<std::size_t>(), tf::argmax(want)) << net.dump();
  // The same bits give the same distance to the float model.
  EXPECT_DOUBLE_EQ(net["float32"]["max_abs_diff"].get<double>(), max_diff) << net.dump();
  EXPECT_GT(max_diff, 0.0);  // bf16 is not float32
}

class TinyDnnDelegate : public cosim::test::CosimCli {};

TEST_F(TinyDnnDelegate, NetworkOutputEqualsAnIndependentRecomputation) {
  COSIM_REQUIRE_MODEL(kModel);
  const cosim::tflite::Model m = cosim::tflite::load_model(kModel.string());
  // One image of our own, as the .npy the run reads.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  cosim::Tensor img(cosim::DType::kFp32, {1, 32, 32, 3}, cosim::Layout::kNHWC);
  for (int64_t i = 0; i < img.numel(); ++i) img.data<float>()[i] = dist(rng);
  const std::string npy = work() + "/image.npy";
  cosim::write_npy(npy, img);
  const fs::path out = fs::path(work()) / "one";
  const Result r = cosim("run " + scenario("tinydnn_resnet8") + " --set inputs=1 --set 'images={npy: " + npy +
                         "}' --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = report(out);
  EXPECT_EQ(j["status"], "pass");
  EXPECT_TRUE(j["bit_exact"].get<bool>());
  ASSERT_EQ(j["layers"].size(), m.subgraphs[0].operators.size());
  for (const json& l : j["layers"]) {
    const auto op = l["op_index"].get<std::size_t>();
    if (stride1_conv(m, op) || m.subgraphs[0].operators[op].code == cosim::tflite::kFullyConnected) {
      EXPECT_EQ(l["where"], "tinydnn") << l.dump();
      EXPECT_TRUE(l["bit_exact"].get<bool>()) << l.dump();
      EXPECT_GT(l["cycles"].get<uint64_t>(), 0u) << l.dump();
    } else {
      EXPECT_EQ(l["where"], "cpu") << l.dump();
      EXPECT_FALSE(l["reason"].get<std::string>().empty()) << l.dump();
      // Nothing of a CPU operator is checked: neither passed nor failed.
      EXPECT_TRUE(l["bit_exact"].is_null()) << l.dump();
      EXPECT_FALSE(l["shapes"].get<std::string>().empty()) << l.dump();
    }
  }
  // The recomputation: the float interpreter, each stride-1 CONV_2D and the dense layer in bf16.
  const std::vector<float> x(img.data<float>(), img.data<float>() + img.numel());
  expect_network_output(m, x, j["network_outputs"].at(0), [&](std::size_t op) {
    return stride1_conv(m, op) || m.subgraphs[0].operators[op].code == cosim::tflite::kFullyConnected;
  });
}

// Issue 34: the anomaly-detection autoencoder's dense layers on tiny-dnn as
// 1x1 convolutions, but the first (640 inputs: one row of 16 units does not
// fit the buffers), which stays on the CPU with that reason; the network
// output against the same recomputation.
TEST_F(TinyDnnDelegate, DenseLayersRunAsOneByOneConvolutions) {
  const fs::path ad01 = cosim::test::model_path("ad01_fp32.tflite");
  COSIM_REQUIRE_MODEL(ad01);
  const cosim::tflite::Model m = cosim::tflite::load_model(ad01.string());
  // One feature vector of our own, as the .npy the run reads.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  cosim::Tensor vec(cosim::DType::kFp32, {1, 640});
  for (int64_t i = 0; i < vec.numel(); ++i) vec.data<float>()[i] = dist(rng);
  const std::string npy = work() + "/ad01_input.npy";
  cosim::write_npy(npy, vec);
  const fs::path out = fs::path(work()) / "ad01";
  const Result r = cosim("run " + scenario("tinydnn_resnet8") + " --set inputs=1 --set model=" + ad01.string() +
                         " --set 'images={npy: " + npy + "}' --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = report(out);
  EXPECT_TRUE(j["bit_exact"].get<bool>());
  ASSERT_EQ(j["layers"].size(), 10u);
  EXPECT_EQ(j["layers"][0]["where"], "cpu");
  EXPECT_NE(j["layers"][0]["reason"].get<std::string>().find("exceeds the accelerator's buffers"), std::string::npos);
  for (std::size_t k = 1; k < 10; ++k) {
    EXPECT_EQ(j["layers"][k]["where"], "tinydnn") << j["layers"][k].dump();
    EXPECT_TRUE(j["layers"][k]["bit_exact"].get<bool>()) << j["layers"][k].dump();
  }
  const std::vector<float> x(vec.data<float>(), vec.data<float>() + vec.numel());
  expect_network_output(m, x, j["network_outputs"].at(0), [](std::size_t op) { return op != 0; });
  // The autoencoder's own score: the float model's, recomputed here, beside
  // the delegate's.
  const std::vector<float> y = cosim::tflite_float::run(m, x).at(static_cast<std::size_t>(m.subgraphs[0].outputs[0]));
  double sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sum += (static_cast<double>(y[i]) - x[i]) * (static_cast<double>(y[i]) - x[i]);
  const json& a = j["anomaly_score"];
  ASSERT_EQ(a["float"].size(), 1u) << j.dump();
  EXPECT_NEAR(a["float"][0].get<double>(), sum / static_cast<double>(x.size()), 1e-9 * sum);
  ASSERT_EQ(a["tinydnn"].size(), 1u);
  EXPECT_GT(a["tinydnn"][0].get<double>(), 0.0);
}

TEST_F(TinyDnnDelegate, ThreeInputsGiveThreeNetworkOutputsAndTheAgreement) {
  COSIM_REQUIRE_MODEL(kModel);
  const fs::path out = fs::path(work()) / "three";
  const Result r = cosim("run " + scenario("tinydnn_resnet8") + " --set inputs=3 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = report(out);
  EXPECT_EQ(j["mode"], "delegate");
  ASSERT_EQ(j["network_outputs"].size(), 3u);
  EXPECT_EQ(j["top1_agreement"]["inputs"], 3);
  int agree = 0;
  for (const json& n : j["network_outputs"]) agree += n["top1_agree"].get<bool>() ? 1 : 0;
  EXPECT_EQ(j["top1_agreement"]["float32"].get<int>(), agree);
  EXPECT_TRUE(j["network_drift"]["snr_db"].contains("median"));
  // Every input's checks ran (opNN_conv2d_inK_...).
  bool last_input = false;
  for (const json& c : j["mismatch"]["checks"]) {
    last_input = last_input || c["name"].get<std::string>().find("_in2_") != std::string::npos;
  }
  EXPECT_TRUE(last_input);
  EXPECT_NE(r.out.find("top-1 agreement with the float model (float32 on the CPU) over 3 input(s): "), std::string::npos)
      << r.out;
}

// Issue 34: MobileNetV1 (vww_96_float) as a delegate. Its DEPTHWISE_CONV_2D
// run on the CPU in float32; a stride-1 CONV_2D whose one output row of 16
// channels does not fit the accelerator's buffers goes to the CPU with that
// reason instead of failing the run; the others are bit-exact on tiny-dnn
// and the network's top-1 equals the float model's.
TEST_F(TinyDnnDelegate, MobileNetDepthwiseOnTheCpuTheRestOnTheRtl) {
  const fs::path vww = cosim::test::model_path("vww_96_float.tflite");
  COSIM_REQUIRE_MODEL(vww);
  const fs::path out = fs::path(work()) / "vww";
  const Result r = cosim("run " + scenario("tinydnn_resnet8") + " --set model=" + vww.string() +
                         " --set inputs=1 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = report(out);
  int on_dut = 0, depthwise = 0, too_wide = 0;
  for (const json& l : j["layers"]) {
    if (l["type"] == "DEPTHWISE_CONV_2D") {
      ++depthwise;
      EXPECT_EQ(l["where"], "cpu") << l.dump();
    }
    if (l["where"] == "tinydnn") {
      ++on_dut;
      EXPECT_TRUE(l["bit_exact"].get<bool>()) << l.dump();
    }
    if (l.contains("reason") && l["reason"].get<std::string>().find("exceeds the accelerator's buffers") !=
                                    std::string::npos) {
      ++too_wide;
    }
  }
  EXPECT_EQ(depthwise, 13);
  EXPECT_GT(on_dut, 0);
  EXPECT_GT(too_wide, 0);
  EXPECT_TRUE(j["network_output"]["top1_agree"].get<bool>()) << j["network_output"].dump();
}

// One clear line, exit 2, naming the key.
void expect_one_error(const Result& r, const std::string& text) {
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find(text), std::string::npos) << r.out;
}

TEST_F(TinyDnnDelegate, BadKeysAreOneClearError) {
  COSIM_REQUIRE_MODEL(kModel);
  const std::string run = "run " + scenario("tinydnn_resnet8") + " --out " + work() + "/bad ";
  expect_one_error(cosim(run + "--set inputs=0"), "'inputs': expected an integer in [1, 256], got '0'");
  expect_one_error(cosim(run + "--set mode=bogus"), "'mode': expected one of delegate|layers, got 'bogus'");
  expect_one_error(cosim(run + "--set mode=layers --set inputs=2"), "'inputs': applies to mode: delegate");
  expect_one_error(cosim(run + "--set ops=[1]"), "'ops': mode delegate runs the whole network: expected `all`");
  // Two images for one input.
  cosim::Tensor two(cosim::DType::kFp32, {2, 32, 32, 3}, cosim::Layout::kNHWC);
  const std::string npy = work() + "/two.npy";
  cosim::write_npy(npy, two);
  expect_one_error(cosim(run + "--set inputs=1 --set 'images={npy: " + npy + "}'"), "'images");
}

}  // namespace
