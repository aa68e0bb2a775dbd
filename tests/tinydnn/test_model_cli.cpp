// The tinydnn `model` op through the cosim CLI: the float ResNet-8's stride-1
// CONV_2D layers replay bit-exact (exit 0, every tile check 0 mismatches),
// the tiles of each layer cover its whole output, stride-2 layers are listed
// as unsupported, a missing model skips (exit 0, status "skipped") and a bad
// operator index exits 2. Skipped when the model is not on this machine.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Result {
  int code = -1;
  std::string out;
};

fs::path work() {
  static const fs::path d = [] {
    fs::path p = fs::temp_directory_path() / ("tinydnn_model_test_" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p / "scenarios");
    return p;
  }();
  return d;
}

Result cosim(const std::string& args) {
  const std::string cmd = std::string(COSIM_BIN) + " " + args + " 2>&1";
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

json report(const fs::path& dir) {
  std::ifstream f(dir / "report.json");
  return json::parse(f);
}

const fs::path kModel = fs::path(COSIM_SOURCE_DIR) / ".." / "shared" / "models" / "resnet8_float.tflite";

// A scenario file in work()/scenarios with the given model and ops lines.
std::string write_scenario(const std::string& name, const std::string& model, const std::string& ops) {
  const fs::path p = work() / "scenarios" / (name + ".yaml");
  std::ofstream(p) << "target: tinydnn\nop: model\nseed: 3\nmodel: " << model << "\nops: " << ops << "\n";
  return p.string();
}

TEST(TinyDnnModel, ResNet8ScenarioReplaysBitExact) {
  if (!fs::exists(kModel)) GTEST_SKIP() << "model absent: " << kModel;
  const fs::path out = work() / "resnet8";
  const Result r = cosim("run " + std::string(COSIM_SOURCE_DIR) + "/scenarios/tinydnn_resnet8.yaml --out " +
                         out.string());
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
  int unsupported = 0;
  for (const json& l : j["layers"]) {
    if (l["status"] == "unsupported") {
      ++unsupported;
      EXPECT_NE(l["reason"].get<std::string>().find("stride 2"), std::string::npos) << l.dump();
      continue;
    }
    EXPECT_EQ(l["status"], "tinydnn");
    EXPECT_TRUE(l["bit_exact"].get<bool>()) << l.dump();
    // bf16 operands: the golden is close to float32 on average, not equal.
    const double mean = l["float32_mean_rel_error"].get<double>();
    EXPECT_GT(mean, 0.0) << l.dump();
    EXPECT_LT(mean, 1e-2) << l.dump();
  }
  EXPECT_EQ(unsupported, 4);
  EXPECT_EQ(j["layers"].size(), 9u);
  EXPECT_NE(r.out.find("unsupported: stride 2"), std::string::npos) << r.out;
}

TEST(TinyDnnModel, OneListedLayerWithOtherSeed) {
  if (!fs::exists(kModel)) GTEST_SKIP() << "model absent: " << kModel;
  const fs::path out = work() / "op9";
  const Result r = cosim("run " + write_scenario("op9", kModel.string(), "[9]") + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = report(out);
  ASSERT_EQ(j["layers"].size(), 1u);
  EXPECT_TRUE(j["layers"][0]["bit_exact"].get<bool>());
  // 64 output channels: 4 passes of 16 channels.
  EXPECT_EQ(j["mismatch"]["checks"].size() % 4, 0u);
}

TEST(TinyDnnModel, MissingModelSkips) {
  const fs::path out = work() / "skip";
  const Result r = cosim("run " + write_scenario("skip", "/nonexistent/resnet8_float.tflite", "all") + " --out " +
                         out.string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(report(out)["status"], "skipped");
}

TEST(TinyDnnModel, NonConvOperatorIsInputError) {
  if (!fs::exists(kModel)) GTEST_SKIP() << "model absent: " << kModel;
  const Result r = cosim("run " + write_scenario("bad", kModel.string(), "[99]") + " --out " +
                         (work() / "bad").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("ops"), std::string::npos) << r.out;
}

}  // namespace
