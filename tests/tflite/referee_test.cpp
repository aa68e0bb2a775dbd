// External referee: our golden chain in SINGLE rounding against the TFLite
// runtime compiled to WebAssembly (@tensorflow/tfjs-tflite, XNNPACK inside),
// run under Node. Every CONV_2D, DEPTHWISE_CONV_2D, ADD, AVERAGE_POOL_2D,
// RESHAPE, FULLY_CONNECTED and SOFTMAX output is read out of the runtime by
// repointing the model's output at it (a four-byte edit) and compared bit
// for bit. Skips when node or the runtime is absent:
// tests/tflite/referee/install.sh installs it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "support/models.hpp"
#include "support/scratch_dir.hpp"
#include "support/text_file.hpp"
#include "tflite/layers.hpp"
#include "tflite/model.hpp"
#include "tflite/patch.hpp"
#include "tflite/reference.hpp"

namespace fs = std::filesystem;
using namespace cosim;

namespace {

const std::string kReferee = std::string(COSIM_SOURCE_DIR) + "/tests/tflite/referee";

std::string modules_dir() {
  const char* env = std::getenv("COSIM_TFLITE_REFEREE_MODULES");
  return env ? env : kReferee + "/node_modules";
}

bool have_node() { return std::system("node --version > /dev/null 2>&1") == 0; }

// CI sets COSIM_REQUIRE_REFEREE=1: there an absent model, node or runtime is
// a failure, not a skip, so the external referee cannot silently drop out.
bool referee_required() {
  const char* env = std::getenv("COSIM_REQUIRE_REFEREE");
  return env != nullptr && std::string(env) == "1";
}
#define REFEREE_SKIP_OR_FAIL(why)                        \
  do {                                                   \
    if (referee_required()) FAIL() << why << " (COSIM_REQUIRE_REFEREE=1)"; \
    GTEST_SKIP() << why;                                 \
  } while (0)

void write_bytes(const fs::path& p, const uint8_t* d, std::size_t n) {
  std::ofstream o(p, std::ios::binary);
  o.write(reinterpret_cast<const char*>(d), static_cast<std::streamsize>(n));
}
std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Tally {
  int tensors = 0;
  int64_t elements = 0;
  int64_t diffs = 0;
};

// Compares every supported operator's output; per-tensor zero-difference
// expectations only when `expect_exact` (the single-rounding claim).
void referee_model(const std::string& file, uint32_t seed, quant::Rounding rounding, bool expect_exact, Tally& tally) {
  const std::string path = cosim::test::model_path(file);
  if (const std::string why = cosim::test::model_missing(path); !why.empty()) REFEREE_SKIP_OR_FAIL(why);
  if (!have_node()) REFEREE_SKIP_OR_FAIL("node not found; the referee needs Node.js (apt-get install nodejs npm)");
  if (!fs::exists(modules_dir() + "/@tensorflow/tfjs-tflite/wasm/tflite_web_api_cc.js"))
    REFEREE_SKIP_OR_FAIL("referee runtime not installed in " << modules_dir()
                                                              << "; run tests/tflite/referee/install.sh");

  const std::vector<uint8_t> bytes = tflite::read_file_bytes(path);
  const tflite::Model model = tflite::parse_model(bytes.data(), bytes.size(), path);
  const Tensor input = tflite::random_input(model, seed);
  const tflite::TensorMap golden = tflite::run_reference(model, input, rounding);
  // Every tensor the golden chain computes for a compared operator.
  struct Compared {
    std::size_t op_index;
    std::string op, name;
    int32_t output_tensor;
    Tensor expected;
  };
  std::vector<Compared> layers;
  for (const auto& w : tflite::extract_layers(model, {}, rounding, &golden)) {
    ASSERT_TRUE(w.has_data) << w.op << " '" << w.name << "' not reached by the golden chain";
    layers.push_back({w.op_index, w.op, w.name, w.output_tensor, w.expected});
  }
  const auto& ops = model.subgraphs[0].operators;
  for (std::size_t o = 0; o < ops.size(); ++o) {
    const int32_t code = ops[o].code;
    // The host operators extract_layers does not return (FULLY_CONNECTED is a workload).
    if (code != tflite::kAveragePool2d && code != tflite::kReshape && code != tflite::kSoftmax) continue;
    const int32_t out_t = ops[o].outputs.at(0);
    const auto it = golden.find(out_t);
    ASSERT_NE(it, golden.end()) << tflite::op_name(code) << " op " << o << " not reached by the golden chain";
    layers.push_back({o, tflite::op_name(code), model.subgraphs[0].tensors[static_cast<std::size_t>(out_t)].name,
                      out_t, it->second});
  }
  std::sort(layers.begin(), layers.end(), [](const Compared& a, const Compared& b) { return a.op_index < b.op_index; });

  const fs::path dir = cosim::test::scratch_dir("referee_" + fs::path(file).stem().string());
  write_bytes(dir / "input.bin", input.bytes().data(), input.nbytes());
  std::ofstream manifest(dir / "manifest.txt");
  int expected_layers = 0;
  for (const auto& w : layers) {
    const std::vector<uint8_t> patched = tflite::repoint_output(bytes, model, 0, w.output_tensor);
    const std::string stem = "op" + std::to_string(w.op_index);
    write_bytes(dir / (stem + ".tflite"), patched.data(), patched.size());
    manifest << (dir / (stem + ".tflite")).string() << ' ' << (dir / "input.bin").string() << ' '
             << (dir / (stem + ".out")).string() << '\n';
    ++expected_layers;
  }
  manifest.close();
  const std::string cmd = "node " + kReferee + "/referee.js " + (dir / "manifest.txt").string() + " " + modules_dir() +
                          " > " + (dir / "node.log").string() + " 2>&1";
  const int rc = std::system(cmd.c_str());
  const std::string log = cosim::test::read_text(dir / "node.log");
  ASSERT_EQ(rc, 0) << "referee failed: " << log;

  for (const auto& w : layers) {
    const std::vector<uint8_t> got = read_bytes(dir / ("op" + std::to_string(w.op_index) + ".out"));
    ASSERT_EQ(got.size(), w.expected.nbytes()) << w.op << " '" << w.name << "': runtime output size";
    const int8_t* e = w.expected.data<int8_t>();
    int64_t diffs = 0, first = -1, max_abs = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const int d = static_cast<int8_t>(got[i]) - e[i];
      if (d != 0) {
        if (first < 0) first = static_cast<int64_t>(i);
        ++diffs;
        max_abs = std::max<int64_t>(max_abs, std::abs(d));
      }
    }
    if (expect_exact) {
      EXPECT_EQ(diffs, 0) << file << " op " << w.op_index << " " << w.op << " '" << w.name << "': " << diffs << " of "
                          << got.size() << " elements differ (first at flat index " << first << ": runtime "
                          << (first >= 0 ? int{static_cast<int8_t>(got[static_cast<std::size_t>(first)])} : 0)
                          << ", golden " << (first >= 0 ? int{e[first]} : 0) << "), max |diff| " << max_abs;
    }
    ++tally.tensors;
    tally.elements += static_cast<int64_t>(got.size());
    tally.diffs += diffs;
  }
  std::printf("referee %s seed %u %s rounding: %d tensors, %lld elements compared, %lld differences\n", file.c_str(),
              seed, rounding == quant::Rounding::kSingle ? "single" : "double", tally.tensors,
              static_cast<long long>(tally.elements), static_cast<long long>(tally.diffs));
  EXPECT_EQ(tally.tensors, expected_layers);
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

}  // namespace

TEST(TfliteReferee, Resnet8SingleRoundingMatchesRuntime) {
  Tally t;
  referee_model("resnet8_int8.tflite", 20240601u, quant::Rounding::kSingle, true, t);
  if (!IsSkipped()) {
    EXPECT_EQ(t.tensors, 16);  // 9 CONV_2D + 3 ADD + AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED, SOFTMAX
  }
}

TEST(TfliteReferee, KwsDscnnSingleRoundingMatchesRuntime) {
  Tally t;
  referee_model("kws_dscnn_int8.tflite", 20240601u, quant::Rounding::kSingle, true, t);
  if (!IsSkipped()) {
    EXPECT_EQ(t.tensors, 13);  // 5 CONV_2D + 4 DEPTHWISE_CONV_2D + AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED, SOFTMAX
  }
}

// The referee must be able to tell the rounding modes apart, or the two
// tests above would prove nothing: the double-rounding chain (TFLite
// reference kernels / TFLM) has to disagree with the runtime somewhere.
TEST(TfliteReferee, DoubleRoundingChainDisagreesWithRuntime) {
  Tally t;
  referee_model("resnet8_int8.tflite", 20240601u, quant::Rounding::kDouble, false, t);
  if (!IsSkipped()) {
    EXPECT_EQ(t.tensors, 16);
    EXPECT_GT(t.diffs, 0) << "double and single rounding gave the same bits on every layer";
  }
}

// More seeds on demand: COSIM_REFEREE_SEEDS="1,2,3" (skipped otherwise).
TEST(TfliteReferee, ExtraSeedsFromEnvironment) {
  const char* env = std::getenv("COSIM_REFEREE_SEEDS");
  if (env == nullptr || *env == '\0') GTEST_SKIP() << "set COSIM_REFEREE_SEEDS=1,2,... to run more seeds";
  std::string list = env;
  std::size_t pos = 0;
  while (pos < list.size()) {
    const std::size_t comma = std::min(list.find(',', pos), list.size());
    const auto seed = static_cast<uint32_t>(std::stoul(list.substr(pos, comma - pos)));
    for (const char* file : {"resnet8_int8.tflite", "kws_dscnn_int8.tflite"}) {
      Tally t;
      referee_model(file, seed, quant::Rounding::kSingle, true, t);
      if (IsSkipped()) return;
      EXPECT_EQ(t.diffs, 0) << file << " seed " << seed;
    }
    pos = comma + 1;
  }
}
