// `cosim run scenarios/tf2_resnet8.yaml`: the float ResNet-8's CONV_2D
// layers on the TF2 engine (INQ weights), one simulation, every layer
// bit-exact against the golden model; `ops: all` lists the other operators
// as unsupported; a missing model skips (exit 0, status "skipped").
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kModel = std::string(COSIM_MODELS_DIR) + "/resnet8_float.tflite";

struct Result {
  int code = -1;
  std::string out;
};

std::string work() {
  static const fs::path d = [] {
    fs::path p = fs::temp_directory_path() / ("tf2_model_test_" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
  }();
  return d.string();
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

json report(const std::string& dir) {
  std::ifstream f(dir + "/report.json");
  return json::parse(f);
}

std::string write_scenario(const std::string& name, const std::string& model, const std::string& ops) {
  const std::string path = work() + "/" + name + ".yaml";
  std::ofstream(path) << "name: " << name << "\ntarget: tf2\nop: model\nseed: 3\nmodel: " << model
                      << "\nops: " << ops << "\n";
  return path;
}

TEST(Tf2Model, Resnet8ConvLayersBitExact) {
  if (!fs::exists(kModel)) GTEST_SKIP() << kModel << " not found (models are not on this machine)";
  const std::string out = work() + "/resnet8";
  const Result r = cosim("run " + std::string(COSIM_SOURCE_DIR) + "/scenarios/tf2_resnet8.yaml --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json rep = report(out);
  EXPECT_EQ(rep["status"], "pass");
  // The scenario selects the nine CONV_2D operators of ResNet-8.
  const std::set<int> want{0, 1, 2, 4, 5, 6, 8, 9, 10};
  std::set<int> got;
  for (const json& l : rep["layers"]) {
    got.insert(l["op"].get<int>());
    EXPECT_EQ(l["type"], "CONV_2D");
    ASSERT_EQ(l["status"], "tf2") << l.dump();
    EXPECT_TRUE(l["bit_exact"].get<bool>()) << l.dump();
    // INQ + int8 cost is finite and sane for real weights: not exact, but
    // far from noise.
    EXPECT_GT(l["inq_snr_db"].get<double>(), 8.0) << l.dump();
    EXPECT_GT(l["int8_snr_db"].get<double>(), 8.0) << l.dump();
    EXPECT_GT(l["inq_max_abs_err"].get<double>(), 0.0);
    EXPECT_GE(l["int8_max_abs_err"].get<double>(), 0.0);
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(rep["metrics"]["layers_bit_exact"].get<double>(), 9.0);
  EXPECT_NE(r.out.find("32x32x3 -> 32x32x16"), std::string::npos) << r.out;  // the console table
}

TEST(Tf2Model, AllOpsListsNonConvAsUnsupported) {
  if (!fs::exists(kModel)) GTEST_SKIP() << kModel << " not found (models are not on this machine)";
  const std::string out = work() + "/all";
  const Result r = cosim("run " + write_scenario("all", kModel, "all") + " --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json rep = report(out);
  int conv = 0, unsupported = 0;
  for (const json& l : rep["layers"]) {
    if (l["type"] == "CONV_2D") {
      ++conv;
      EXPECT_TRUE(l["bit_exact"].get<bool>()) << l.dump();
    } else {
      ++unsupported;
      EXPECT_EQ(l["status"], "unsupported");
      EXPECT_NE(l["reason"].get<std::string>().find("CONV_2D"), std::string::npos);
    }
  }
  EXPECT_EQ(conv, 9);
  EXPECT_EQ(unsupported, 7);  // 3 ADD, AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED, SOFTMAX
}

TEST(Tf2Model, MissingModelSkips) {
  const std::string out = work() + "/missing";
  const Result r = cosim("run " + write_scenario("missing", work() + "/no_such_model.tflite", "all") + " --out " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("skipped"), std::string::npos) << r.out;
  EXPECT_EQ(report(out)["status"], "skipped");
}

TEST(Tf2Model, NonExistentOperatorIndexIsInputError) {
  if (!fs::exists(kModel)) GTEST_SKIP() << kModel << " not found (models are not on this machine)";
  const Result r = cosim("run " + write_scenario("badop", kModel, "[99]") + " --out " + work() + "/badop");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("ops"), std::string::npos) << r.out;
}

}  // namespace
