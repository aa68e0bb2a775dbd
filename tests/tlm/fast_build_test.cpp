// `cosim run --fast`: each accelerator's fast build (its Verilated variant
// without assertions, <dut>_rtl_fast) gives the same bits, cycles and
// counters as the default, checked build; report.json, report.html and the
// console name the build that ran; --fast and --no-fast exclude each other.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cosim_cli.hpp"
#include "support/text_file.hpp"

namespace {

using cosim::test::read_text;
using nlohmann::json;

// Its own scratch folder: cli_test runs in parallel.
std::string scratch() { return cosim::test::scratch_dir("fast_build_test"); }

class FastBuild : public cosim::test::CosimCliWithParam<const char*> {};
class FastFlags : public cosim::test::CosimCli {};

TEST_P(FastBuild, SameBitsAndCyclesAsTheCheckedBuild) {
  const std::string name = GetParam();
  const std::string checked = scratch() + "/" + name + "_checked", fast = scratch() + "/" + name + "_fast";
  const auto a = cosim("run " + scenario(name) + " --out " + checked);
  ASSERT_EQ(a.code, 0) << a.out;
  const auto b = cosim("run " + scenario(name) + " --fast --out " + fast);
  ASSERT_EQ(b.code, 0) << b.out;
  EXPECT_NE(b.out.find("(fast build, no assertions)"), std::string::npos) << b.out;
  EXPECT_EQ(a.out.find("fast build"), std::string::npos) << a.out;
  const json ja = report(checked), jb = report(fast);
  EXPECT_EQ(ja["build"], "checked");
  EXPECT_EQ(jb["build"], "fast");
  for (const char* k : {"status", "bit_exact", "cycles", "mismatch", "perf_counters", "metrics", "memory", "macs",
                        "utilization", "timeline"}) {
    EXPECT_EQ(ja[k], jb[k]) << name << ": " << k;
  }
  EXPECT_NE(read_text(fast + "/report.html").find("<th>build</th><td>fast"), std::string::npos);
  EXPECT_NE(read_text(checked + "/report.html").find("<th>build</th><td>checked"), std::string::npos);
  // The trace is the same: the build is a run option, not part of the workload.
  EXPECT_EQ(read_text(checked + "/trace/trace.txt"), read_text(fast + "/trace/trace.txt"));
}

// One small scenario per accelerator of the product.
INSTANTIATE_TEST_SUITE_P(Accelerators, FastBuild, ::testing::Values("conv2d_1x1", "tf2_conv3x3", "tinydnn_fwd"));

// A whole-network run of more than 16 inputs takes the fast build by
// itself and says so; --no-fast keeps the assertions. Skipped without the
// model (../shared/models).
TEST_F(FastFlags, ManyInputsTakeTheFastBuildUnlessNoFast) {
  const std::string out = scratch() + "/resnet8_17";
  const auto r = cosim("run " + scenario("resnet8") + " --set inputs=17 --out " + out);
  if (report(out).value("status", "") == "skipped") GTEST_SKIP() << r.out;
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("cosim: inputs 17: the fast build (no assertions) runs; --no-fast keeps assertions"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(report(out)["build"], "fast");
  const std::string kept = scratch() + "/resnet8_17_checked";
  const auto c = cosim("run " + scenario("resnet8") + " --set inputs=17 --no-fast --out " + kept);
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_EQ(c.out.find("fast build"), std::string::npos) << c.out;
  EXPECT_EQ(report(kept)["build"], "checked");
  EXPECT_EQ(report(kept)["cycles"], report(out)["cycles"]);
}

TEST_F(FastFlags, FastAndNoFastExcludeEachOther) {
  const auto r = cosim("run " + scenario("selftest_vadd") + " --fast --no-fast --out " + scratch() + "/both");
  EXPECT_EQ(r.code, 2) << r.out;
}

TEST_F(FastFlags, ATargetWithoutAFastBuildRunsItsCheckedOne) {
  const std::string out = scratch() + "/selftest_fast";
  const auto r = cosim("run " + scenario("selftest_vadd") + " --fast --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(report(out)["build"], "checked");
}

}  // namespace
