// Bad sizes are rejected before memory is taken: for every target, a shape
// far beyond what the DUT can hold is one line on stderr, exit 2, within a
// second and under 100 MB of resident memory (measured on the child with
// wait4), as are a huge `--set` list index and a raw program whose meta
// points past the image limit.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int code = -1;
  std::string err;
  double seconds = 0;
  long max_rss_kb = 0;
};

// The runs' --out folder, one per process (ctest runs these tests as
// parallel processes, and a second run into a folder in use is refused by
// its lock), removed afterwards.
struct ScratchOut {
  const fs::path dir = fs::path(::testing::TempDir()) / ("cosim_limits_out_" + std::to_string(::getpid()));
  ~ScratchOut() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string option() const { return "--out=" + dir.string(); }
};

Outcome run_cosim(const std::vector<std::string>& args) {
  const fs::path err_file =
      fs::path(::testing::TempDir()) / ("cosim_limits_" + std::to_string(::getpid()) + ".err");
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    FILE* e = std::freopen(err_file.c_str(), "w", stderr);
    FILE* o = std::freopen("/dev/null", "w", stdout);
    (void)e, (void)o;
    std::vector<char*> argv{const_cast<char*>(COSIM_BIN)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(COSIM_BIN, argv.data());
    ::_exit(127);
  }
  int status = 0;
  struct rusage ru {};
  ::wait4(pid, &status, 0, &ru);
  Outcome r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.max_rss_kb = ru.ru_maxrss;
  std::ifstream in(err_file);
  r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  fs::remove(err_file);
  return r;
}

std::string scenario(const std::string& name) { return std::string(COSIM_SOURCE_DIR) + "/scenarios/" + name + ".yaml"; }

void expect_quick_one_line_exit2(const std::vector<std::string>& args, const std::string& needle) {
  std::string cmd;
  for (const auto& a : args) cmd += " " + a;
  const Outcome r = run_cosim(args);
  EXPECT_EQ(r.code, 2) << cmd << "\n" << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << cmd << "\n" << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << cmd << "\n" << r.err;
  EXPECT_LT(r.seconds, 1.0) << cmd;
  EXPECT_LT(r.max_rss_kb, 100 * 1024) << cmd;
}

TEST(BadInputLimits, HugeShapesPerTarget) {
  const ScratchOut scratch;
  const std::string out = scratch.option();
  // Beyond the per-tensor limit of the scenario schema.
  expect_quick_one_line_exit2({"run", scenario("conv2d"), "--set", "shapes.input=[1,1048576,1048576,1024]", out},
                              "shape of more than 16777216 elements");
  expect_quick_one_line_exit2({"run", scenario("conv2d"), "--set", "shapes.input=[1,4096,4096,64]", out},
                              "shape of more than 16777216 elements");
  // Within the schema's limit but beyond what each DUT can hold.
  expect_quick_one_line_exit2({"run", scenario("conv2d"), "--set", "shapes.input=[1,1024,1024,16]", "--set",
                               "shapes.filter=[64,3,3,16]", out},
                              "more than the DRAM limit");
  expect_quick_one_line_exit2({"run", scenario("add"), "--set", "shapes.input1=[1,4096,4096,1]", "--set",
                               "shapes.input2=[1,4096,4096,1]", out},
                              "more than the DRAM limit");
  expect_quick_one_line_exit2({"run", scenario("tf2_conv3x3"), "--set", "shapes.input=[1,1024,1024,16]", out},
                              "feature-cache words");
  expect_quick_one_line_exit2({"run", scenario("tf2_resnet_block"), "--set", "shapes.input=[1,1024,1024,16]", out},
                              "feature-cache words");
  // tiny-dnn: each size fits its register, the layer does not fit the
  // buffers (this once allocated 17 GB before the check).
  expect_quick_one_line_exit2({"run", scenario("tinydnn_fwd"), "--set", "sizes.in_height=255", "--set",
                               "sizes.in_width=255", "--set", "sizes.in_channels=255", "--set",
                               "sizes.out_channels=255", "--set", "batch=255", out},
                              "expected a layer the accelerator holds");
  expect_quick_one_line_exit2({"run", scenario("selftest_vadd"), "--set", "shapes.input=[1,8192,8192,1]", out},
                              "shape of more than 16777216 elements");
}

TEST(BadInputLimits, HugeSetIndex) {
  const ScratchOut scratch;
  const std::string out = scratch.option();
  expect_quick_one_line_exit2({"run", scenario("conv2d"), "--set", "shapes.input.99999999999999999999=1", out},
                              "expected an index, got '99999999999999999999'");
}

TEST(BadInputLimits, RawProgramAddressPastTheImageLimit) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("cosim_limits_raw_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "meta") << "insn_addr 0xfffffffffffffff0\n";
  std::ofstream(dir / "insn.bin", std::ios::binary) << std::string(16, '\0');
  std::ofstream(dir / "dram.bin", std::ios::binary) << std::string(64, '\0');
  const ScratchOut scratch;
  const std::string out = scratch.option();
  expect_quick_one_line_exit2({"replay", dir.string(), out}, "ends past the 64 MiB limit");
  fs::remove_all(dir);
}

}  // namespace
