// The `cosim` command on the tiny-dnn target: the four scenarios pass
// bit-exact with exit 0 and report the golden model's distance from float32;
// a hang exits 3 with the controller states, a protocol violation exits 1
// naming the cycle, bad input exits 2 with one line naming the key; replay
// repeats the cycle count.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <iterator>
#include <vector>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cosim_cli.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Result = cosim::test::CliResult;
class TinyDnnCli : public cosim::test::CosimCli {
 public:
  static void expect_pass(const std::string& name, const std::vector<std::string>& kinds);
};

void TinyDnnCli::expect_pass(const std::string& name, const std::vector<std::string>& kinds) {
  Result r;
  const json j = run_passing(scenario(name), name, r);
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("golden vs float32 rel. error"), std::string::npos) << r.out;
  EXPECT_EQ(j["bit_exact"], true);
  EXPECT_EQ(j["target"], "tinydnn");
  EXPECT_TRUE(j["dut_errors"].empty());
  // The hardware's own MAC count equals the workload's.
  EXPECT_EQ(j["macs"].get<double>(), j["metrics"]["mac_ops_counted"].get<double>());
  EXPECT_GT(j["utilization"].get<double>(), 0.0);
  EXPECT_LE(j["utilization"].get<double>(), 1.0);
  EXPECT_GT(j["perf_counters"]["mac_busy_cycles"].get<uint64_t>(), 0u);
  for (const auto& k : kinds) {
    const double mx = j["metrics"]["float32_max_rel_error_" + k].get<double>();
    const double mean = j["metrics"]["float32_mean_rel_error_" + k].get<double>();
    // Truncating bf16 arithmetic: close to float32 but not equal.
    EXPECT_GT(mx, 0.0) << k;
    EXPECT_LE(mean, mx) << k;
    EXPECT_LT(mean, 0.01) << k;
  }
  // One float32 distance per check.
  EXPECT_EQ(j["distance"].size(), kinds.size());
  for (const auto& d : j["distance"]) EXPECT_EQ(d["reference"], "float32");
}

TEST_F(TinyDnnCli, ForwardScenarioPasses) { expect_pass("tinydnn_fwd", {"y"}); }
TEST_F(TinyDnnCli, BackwardScenarioPasses) { expect_pass("tinydnn_bwd", {"dx"}); }
TEST_F(TinyDnnCli, WeightGradScenarioPasses) {
  expect_pass("tinydnn_dw", {"dW"});
  const json j = report(work() + "/tinydnn_dw");
  EXPECT_EQ(j["perf_counters"]["commands"], 1);  // the mini-batch of 8 in one run
}
TEST_F(TinyDnnCli, TrainStepScenarioPasses) {
  expect_pass("tinydnn_train_step", {"y", "dx", "dW"});
  const json j = report(work() + "/tinydnn_train_step");
  // fwd weights + bias + run, bwd weights + run, dW run.
  EXPECT_EQ(j["perf_counters"]["commands"], 6);
}

TEST_F(TinyDnnCli, ReplayRepeatsCyclesAndBits) {
  const std::string out = work() + "/replay_src";
  ASSERT_EQ(cosim("run " + scenario("tinydnn_train_step") + " --out " + out).code, 0);
  const Result r = cosim("replay " + out + "/trace --out " + work() + "/replay_dst");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(report(out)["cycles"], report(work() + "/replay_dst")["cycles"]);
}

// A minimal .npy 1.0 writer / reader (independent of cpp_model/tensor).
void write_npy(const std::string& path, const std::string& descr, const std::vector<int64_t>& shape, const void* data,
               std::size_t bytes) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < shape.size(); ++i) dict += std::to_string(shape[i]) + ", ";
  dict += "), }";
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  std::ofstream f(path, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  const uint16_t n = uint16_t(dict.size());
  f.put(char(n & 0xFF));
  f.put(char(n >> 8));
  f << dict;
  f.write(static_cast<const char*>(data), std::streamsize(bytes));
}
void write_f32_npy(const std::string& path, const std::vector<int64_t>& shape, const std::vector<float>& v) {
  write_npy(path, "<f4", shape, v.data(), v.size() * 4);
}

std::vector<uint16_t> read_u16_npy(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const std::size_t hl = uint8_t(all[8]) | (std::size_t(uint8_t(all[9])) << 8);
  std::vector<uint16_t> out((all.size() - 10 - hl) / 2);
  std::memcpy(out.data(), all.data() + 10 + hl, out.size() * 2);
  return out;
}

TEST_F(TinyDnnCli, NpyDataIsTruncatedToBf16ByTheHost) {
  // x from a float32 .npy; the host keeps the upper 16 bits of each float
  // (truncation, not rounding): 1.00390625 + a bit (0x3F808001) must become
  // 0x3F80, not 0x3F81.
  std::vector<float> x(2 * 4 * 12 * 12);
  for (std::size_t i = 0; i < x.size(); ++i) {
    uint32_t bits = 0x3F000000u + uint32_t(i % 256) * 0x10000u + 0xFFFFu;  // low half all ones
    std::memcpy(&x[i], &bits, 4);
  }
  const std::string npy = work() + "/x.npy";
  write_f32_npy(npy, {2, 4, 12, 12}, x);
  const std::string out = work() + "/npy_src";
  const Result r = cosim("run " + scenario("tinydnn_fwd") + " --set 'data.x={npy: " + npy + "}' --dump --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  const std::vector<uint16_t> got = read_u16_npy(out + "/x_input.npy");
  ASSERT_EQ(got.size(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(got[i], uint16_t(0x3F00 + i % 256)) << i;

  // The dump of x is bf16 ('<u2'): fed back where float32 is read it is
  // widened exactly (issue 31: a run's tensors round-trip), so the same bits go in.
  const Result again = cosim("run " + scenario("tinydnn_fwd") + " --set 'data.x={npy: " + out +
                             "/x_input.npy}' --dump --out " + work() + "/npy_again");
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_EQ(read_u16_npy(work() + "/npy_again/x_input.npy"), got);
  // Integers are not floats: exit 2 names the key and the dtype.
  const std::vector<int32_t> ints(x.size(), 1);
  write_npy(npy, "<i4", {2, 4, 12, 12}, ints.data(), ints.size() * 4);
  const Result bad = cosim("run " + scenario("tinydnn_fwd") + " --set 'data.x={npy: " + npy + "}' --out " + work() +
                           "/npy_bad");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("'data.x.npy'"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("expected fp32"), std::string::npos) << bad.out;
  // A wrong shape likewise.
  write_f32_npy(npy, {1, 4, 12, 12}, std::vector<float>(4 * 144, 0.5f));
  const Result shape = cosim("run " + scenario("tinydnn_fwd") + " --set 'data.x={npy: " + npy + "}' --out " + work() + "/npy_bad");
  EXPECT_EQ(shape.code, 2) << shape.out;
  EXPECT_NE(shape.out.find("expected [2,4,12,12]"), std::string::npos) << shape.out;
}

TEST_F(TinyDnnCli, HangExitsThreeWithControllerStates) {
  const std::string out = work() + "/hang";
  const Result r = cosim("run " + scenario("tinydnn_fwd") + " --set fault=no_start --set testbench.timeout_cycles=5000 --out " + out);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("batch controller StIdle"), std::string::npos) << r.out;
  const json j = report(out);
  EXPECT_EQ(j["status"], "timeout");
  EXPECT_NE(j["diagnosis"].get<std::string>().find("MM2S busy"), std::string::npos);
}

TEST_F(TinyDnnCli, ProtocolViolationExitsOneNamingTheCycle) {
  const std::string out = work() + "/dup";
  const Result r = cosim("run " + scenario("tinydnn_fwd") + " --set fault=duplicate_beat --out " + out);
  EXPECT_EQ(r.code, 1) << r.out;
  const json j = report(out);
  EXPECT_EQ(j["status"], "mismatch");
  ASSERT_FALSE(j["dut_errors"].empty());
  const std::string e = j["dut_errors"][0];
  EXPECT_NE(e.find("tinydnn.s_axis: cycle "), std::string::npos) << e;
  EXPECT_NE(e.find("duplicated"), std::string::npos) << e;

  const std::string out2 = work() + "/tdata";
  const Result r2 = cosim("run " + scenario("tinydnn_fwd") + " --set fault=tdata_change --out " + out2);
  EXPECT_EQ(r2.code, 1) << r2.out;
  EXPECT_EQ(report(out2)["status"], "dut_error");
  EXPECT_NE(r2.out.find("TDATA changed while stalled"), std::string::npos) << r2.out;
}

TEST_F(TinyDnnCli, BadInputExitsTwoNamingTheKey) {
  struct Case {
    std::string set, needle;
  };
  const Case cases[] = {
      {"sizes.out_channels=17", "OD (output channels = cores) = 17"},  // 16 cores
      {"sizes.kernel=13", "'sizes'"},                                   // kernel larger than the input
      {"sizes.kernel=[3,3,3]", "'sizes.kernel'"},
      {"streams.in_stall=0.95", "'streams.in_stall'"},
      {"batch=0", "'batch'"},
      {"bais=true", "'bais': unknown key"},
      {"fault=sometimes", "'fault'"},
  };
  for (const Case& c : cases) {
    const Result r = cosim("run " + scenario("tinydnn_fwd") + " --set '" + c.set + "' --out " + work() + "/bad");
    EXPECT_EQ(r.code, 2) << c.set << ": " << r.out;
    EXPECT_NE(r.out.find(c.needle), std::string::npos) << c.set << ": " << r.out;
    EXPECT_NE(r.out.find("cosim: error:"), std::string::npos) << r.out;
  }
  // dW takes no bias key; bwd's cores are the input channels (<= 16).
  const Result dw = cosim("run " + scenario("tinydnn_dw") + " --set bias=true --out " + work() + "/bad");
  EXPECT_EQ(dw.code, 2) << dw.out;
  const Result bwd = cosim("run " + scenario("tinydnn_bwd") + " --set sizes.in_channels=20 --out " + work() + "/bad");
  EXPECT_EQ(bwd.code, 2) << bwd.out;
  EXPECT_NE(bwd.out.find("OD (output channels = cores) = 20"), std::string::npos) << bwd.out;
}

}  // namespace
