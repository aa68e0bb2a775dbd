// The tinydnn `model` op's mode layers through the cosim CLI (mode delegate:
// test_model_delegate.cpp): the float ResNet-8's stride-1 CONV_2D layers
// replay bit-exact (exit 0, every tile check 0 mismatches),
// the tiles of each layer cover its whole output, `ops: all` leaves the
// stride-2 layers out and names them, listing one is exit 2, a missing model
// skips (exit 0, status "skipped") and a bad operator index exits 2.
// Skipped when the model is not on this machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/cosim_cli.hpp"
#include "support/models.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Result = cosim::test::CliResult;

const fs::path kModel = cosim::test::model_path("resnet8_float.tflite");

class TinyDnnModel : public cosim::test::CosimCli {
 public:
  // A scenario file in work()/scenarios with the given model and ops lines.
  static std::string write_scenario(const std::string& name, const std::string& model, const std::string& ops) {
    std::filesystem::create_directories(work() + "/scenarios");
    return write_file("scenarios/" + name + ".yaml",
                      "target: tinydnn\nop: model\nmode: layers\nseed: 3\nmodel: " + model + "\nops: " + ops + "\n");
  }
};

TEST_F(TinyDnnModel, ResNet8ScenarioReplaysBitExact) {
  COSIM_REQUIRE_MODEL(kModel);
  const fs::path out = fs::path(work()) / "resnet8";
  const Result r = cosim("run " + scenario("tinydnn_resnet8") + " --set mode=layers --set inputs=1 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = report(out);
  EXPECT_EQ(j["status"], "pass");
  EXPECT_TRUE(j["bit_exact"].get<bool>());
  // Output elements per check prefix, all with zero mismatches.
  std::map<std::string, int64_t> elems;
  for (const json& c : j["mismatch"]["checks"]) {
    EXPECT_EQ(c["mismatches"].get<int64_t>(), 0) << c["name"];
    elems[c["name"].get<std::string>().substr(0, 11)] += c["elements"].get<int64_t>();
  }
  // ResNet-8 (32x32x3 input): stride-1 3x3 convs at 32x32x16 (ops 0, 1, 2),
  // 16x16x32 (op 5) and 8x8x64 (op 9); ops 4, 6, 8, 10 have stride 2.
  const std::map<std::string, int64_t> want{{"op00_conv2d", 32 * 32 * 16},
                                            {"op01_conv2d", 32 * 32 * 16},
                                            {"op02_conv2d", 32 * 32 * 16},
                                            {"op05_conv2d", 16 * 16 * 32},
                                            {"op09_conv2d", 8 * 8 * 64}};
  EXPECT_EQ(elems, want);
  for (const json& l : j["layers"]) {
    EXPECT_EQ(l["status"], "tinydnn");
    EXPECT_TRUE(l["bit_exact"].get<bool>()) << l.dump();
    // bf16 operands: the golden is close to float32 on average, not equal.
    const double mean = l["float32_mean_rel_error"].get<double>();
    EXPECT_GT(mean, 0.0) << l.dump();
    EXPECT_LT(mean, 1e-2) << l.dump();
  }
  EXPECT_EQ(j["layers"].size(), 5u);
  // `ops: all` leaves the stride-2 CONV_2D out and names them.
  std::vector<int> stride2;
  for (const json& n : j["not_supported"]) {
    if (n["type"] != "CONV_2D") continue;
    stride2.push_back(n["op_index"].get<int>());
    EXPECT_NE(n["reason"].get<std::string>().find("stride 2"), std::string::npos) << n.dump();
  }
  EXPECT_EQ(stride2, (std::vector<int>{4, 6, 8, 10}));
  EXPECT_NE(r.out.find("not supported by tinydnn: CONV_2D: stride 2, the hardware has stride 1 only (ops 4, 6, 8, 10)"),
            std::string::npos)
      << r.out;
}

TEST_F(TinyDnnModel, OneListedLayerWithOtherSeed) {
  COSIM_REQUIRE_MODEL(kModel);
  const fs::path out = fs::path(work()) / "op9";
  const Result r = cosim("run " + write_scenario("op9", kModel.string(), "[9]") + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = report(out);
  ASSERT_EQ(j["layers"].size(), 1u);
  EXPECT_TRUE(j["layers"][0]["bit_exact"].get<bool>());
  // 64 output channels: 4 passes of 16 channels.
  EXPECT_EQ(j["mismatch"]["checks"].size() % 4, 0u);
}

TEST_F(TinyDnnModel, MissingModelSkips) {
  const fs::path out = fs::path(work()) / "skip";
  const Result r = cosim("run " + write_scenario("skip", "/nonexistent/resnet8_float.tflite", "all") + " --out " +
                         out.string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(report(out)["status"], "skipped");
}

TEST_F(TinyDnnModel, NonConvOperatorIsInputError) {
  COSIM_REQUIRE_MODEL(kModel);
  const Result r = cosim("run " + write_scenario("bad", kModel.string(), "[99]") + " --out " +
                         work() + "/bad");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("ops"), std::string::npos) << r.out;
}

TEST_F(TinyDnnModel, ListedStride2LayerIsInputErrorNamingIt) {
  COSIM_REQUIRE_MODEL(kModel);
  // Op 4 is ResNet-8's first stride-2 CONV_2D; the accelerator has stride 1 only.
  const Result r = cosim("run " + write_scenario("s2", kModel.string(), "[1, 4]") + " --out " + work() + "/s2");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find("'ops': op 4 (CONV_2D: stride 2, the hardware has stride 1 only): not supported by target "
                       "tinydnn "
                       "(supports CONV_2D [float32 weights, stride 1, dilation 1])"),
            std::string::npos)
      << r.out;
}

}  // namespace
