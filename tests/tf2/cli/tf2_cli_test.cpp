// `cosim run scenarios/tf2_*.yaml` end to end: bit-exact exit 0, report.json
// with the float reference's cost per layer and the MAC utilisation from the
// perf counters, replay, .npy weights (INQ-compressed by the golden model),
// bad input (exit 2) and a hang (exit 3).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cosim_cli.hpp"
#include "tensor/tensor.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Result = cosim::test::CliResult;

class Tf2Scenario : public cosim::test::CosimCliWithParam<const char*> {};
class Tf2Cli : public cosim::test::CosimCli {
 public:
  // `cosim run <args> --out work()/<out>` is bad input (exit 2) whose message
  // names each of `names`.
  static void expect_bad_input(const std::string& args, const std::string& out,
                               std::initializer_list<const char*> names = {}) {
    const Result r = cosim("run " + args + " --out " + work() + "/" + out);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    for (const char* name : names) EXPECT_NE(r.out.find(name), std::string::npos) << args << ": " << r.out;
  }
};

TEST_P(Tf2Scenario, RunsBitExactWithMetrics) {
  const std::string name = GetParam();
  Result r;
  const json j = run_passing(scenario(name), name, r);
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("float ref"), std::string::npos) << r.out;
  EXPECT_EQ(j["target"], "tf2");
  EXPECT_GT(j["macs"].get<double>(), 0);
  ASSERT_TRUE(j["utilization"].is_number()) << j.dump();
  EXPECT_GT(j["utilization"].get<double>(), 0.0);
  EXPECT_LE(j["utilization"].get<double>(), 1.0);
  const json& m = j["metrics"];
  const std::string layer = name == std::string("tf2_resnet_block") ? "block" : "conv";
  for (const std::string k : {".inq_snr_db", ".int8_snr_db", ".inq_max_abs_err", ".int8_max_abs_err"}) {
    ASSERT_TRUE(m.contains(layer + k)) << m.dump();
  }
  // Compression costs something; int8 maps cost a little more on top.
  EXPECT_GT(m[layer + ".inq_snr_db"].get<double>(), 5.0);
  EXPECT_LT(m[layer + ".inq_snr_db"].get<double>(), 60.0);
  EXPECT_GT(m[layer + ".int8_max_abs_err"].get<double>(), 0.0);
  EXPECT_GT(j["perf_counters"]["pe_busy_cycles"].get<double>(), 0);
  // Memory wait counts cycles in which some access waited: part of the run,
  // never more (tf2_conv1x1 once summed overlapping latencies to 1,506 of 1,432).
  EXPECT_GT(j["memory"]["delay_cycles"].get<uint64_t>(), 0u);
  EXPECT_LE(j["memory"]["delay_cycles"].get<uint64_t>(), j["cycles"].get<uint64_t>());
  ASSERT_FALSE(j["distance"].empty());
  EXPECT_EQ(j["distance"][0]["reference"], "float_ref");
  // The trace replays to the same cycles.
  const std::string out = work() + "/" + name;
  const Result rr = cosim("replay " + out + "/trace --out " + out + "/replay");
  ASSERT_EQ(rr.code, 0) << rr.out;
  EXPECT_EQ(report(out + "/replay")["cycles"], j["cycles"]);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, Tf2Scenario, ::testing::Values("tf2_conv3x3", "tf2_conv1x1", "tf2_resnet_block"));

TEST_F(Tf2Cli, NpyWeightsAreCompressedByTheGoldenModel) {
  // Weights that are already powers of two lose nothing to INQ: infinite SNR.
  cosim::Tensor w(cosim::DType::kFp32, {8, 8, 3, 3});
  for (int64_t i = 0; i < w.numel(); ++i) w.data<float>()[i] = (i % 3 == 0 ? -1.0f : 1.0f) * std::ldexp(1.0f, -static_cast<int>(i % 5) - 2);
  cosim::write_npy(work() + "/w.npy", w);
  const std::string yaml = work() + "/npy.yaml";
  std::ofstream(yaml) << "target: tf2\nop: conv\nshapes: {input: [1, 6, 6, 8]}\n"
                         "params: {c_out: 8, kernel: 3, batch_norm: false, bias: false, relu: false}\n"
                         "data: {weights: {npy: w.npy}}\n";
  const Result r = cosim("run " + yaml + " --out " + work() + "/npy");
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = report(work() + "/npy");
  EXPECT_TRUE(j["metrics"]["conv.inq_snr_db"].is_null() || j["metrics"]["conv.inq_snr_db"].get<double>() > 200)
      << j["metrics"].dump();
  EXPECT_EQ(j["metrics"]["conv.inq_max_abs_err"].get<double>(), 0.0);
  // Wrong shape: one line naming the key and the expected shape.
  std::ofstream(yaml) << "target: tf2\nop: conv\nshapes: {input: [1, 6, 6, 8]}\n"
                         "params: {c_out: 4, kernel: 3}\ndata: {weights: {npy: w.npy}}\n";
  expect_bad_input(yaml, "npy_bad", {"data.weights.npy", "4,8,3,3"});
}

// requant: saturate runs the wide requantization bit-exact (the golden model
// and the RTL both switch on descriptor bit 11); another target's value is
// one clear error.
TEST_F(Tf2Cli, RequantSaturateKeyAndItsErrors) {
  const std::string s = scenario("tf2_resnet_block");
  const Result r = cosim("run " + s + " --set requant=saturate --out " + work() + "/sat");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("PASS bit-exact"), std::string::npos) << r.out;
  expect_bad_input(s + " --set requant=vta16", "sat_bad", {"requant", "expected saturate"});
}

TEST_F(Tf2Cli, BadInputAndHang) {
  const std::string s = scenario("tf2_conv3x3");
  expect_bad_input(s + " --set params.padding=3", "b1", {"params.padding"});
  expect_bad_input(s + " --set shapes.input=[1,64,64,64]", "b2", {"feature-cache"});
  expect_bad_input(s + " --set shapes.input=[2,8,8,8]", "b3");
  expect_bad_input(scenario("tf2_resnet_block") + " --set params.kernel=2", "b4", {"params.kernel"});
  const Result r =
      cosim("run " + s + " --set fault=no_start --set testbench.timeout_cycles=3000 --out " + work() + "/h");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("start bit was never written"), std::string::npos) << r.out;
  EXPECT_EQ(report(work() + "/h")["status"], "timeout");
}

}  // namespace
