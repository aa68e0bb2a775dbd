// A firing RTL assertion inside a full DUT run through `cosim run` is a
// failure with a report, for every DUT: a mutant of the schemata build that
// breaks an asserted property (COSIM_MUTANT=<its id>, rtl/<dut>/mutants.yaml)
// must end as exit 1, "FAIL (RTL assertion)" on the console, and report.json
// with status "assertion" naming the property, its instance and the cycle.
// The same scenario without the mutant passes, so the assertion is the
// mutant's doing. Runs only in the schemata build (ctest -L mutants).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cosim_cli.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Result = cosim::test::CliResult;
using cosim::test::run_command;

// The schemata build's number for a named mutant (scripts/mutant_schemata.py).
int mutant_id(const std::string& name) {
  std::ifstream f(COSIM_MUTANTS_JSON);
  const json rows = json::parse(f);
  for (const json& r : rows) {
    if (r.at("name") == name) return r.at("id").get<int>();
  }
  return 0;
}

struct Case {
  const char* dut;
  const char* scenario;   // scenarios/<name>.yaml
  const char* mutant;     // rtl/<dut>/mutants.yaml
  const char* assertion;  // the property's label
  const char* instance;   // a part of its instance path
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.dut << "/" << c.mutant; }

class MutantAssertion : public ::testing::TestWithParam<Case> {};

TEST_P(MutantAssertion, CosimRunReportsTheAssertion) {
  const Case& c = GetParam();
  const int id = mutant_id(c.mutant);
  ASSERT_GT(id, 0) << c.mutant << " is not in " << COSIM_MUTANTS_JSON;
  const fs::path out = fs::path(COSIM_MUTANT_OUT) / c.dut;
  fs::remove_all(out);
  const std::string scenario = std::string(COSIM_SOURCE_DIR) + "/scenarios/" + c.scenario + ".yaml";
  const std::string args = " run " + scenario + " --out " + out.string();

  // Without the mutant the run passes: the assertion below is the mutant's.
  const Result clean = run_command("env -u COSIM_MUTANT " + std::string(COSIM_BIN) + args + "/clean");
  ASSERT_EQ(clean.code, 0) << clean.out;

  const Result r = run_command("COSIM_MUTANT=" + std::to_string(id) + " " + COSIM_BIN + args + "/mutant");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("FAIL (RTL assertion)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(c.assertion), std::string::npos) << r.out;
  std::ifstream f(out / "mutant" / "report.json");
  ASSERT_TRUE(f.good()) << "no report.json in " << (out / "mutant").string() << "\n" << r.out;
  const json j = json::parse(f);
  EXPECT_EQ(j.value("status", ""), "assertion") << j.dump(1);
  ASSERT_TRUE(j.contains("assertion")) << j.dump(1);
  const json& a = j["assertion"];
  EXPECT_EQ(a.value("name", ""), c.assertion) << a.dump(1);
  EXPECT_NE(a.value("instance", "").find(c.instance), std::string::npos) << a.dump(1);
  EXPECT_EQ(a.value("dut", ""), c.dut) << a.dump(1);
  EXPECT_GT(a.value("cycle", uint64_t{0}), 0u) << a.dump(1);
  EXPECT_FALSE(a.value("file", "").empty()) << a.dump(1);
  EXPECT_GT(a.value("line", 0), 0) << a.dump(1);
}

INSTANTIATE_TEST_SUITE_P(
    EveryDut, MutantAssertion,
    ::testing::Values(
        // COMPUTE pops a load->compute token that is not there. On the
        // memory-bound ADD the COMPUTE engine reaches its pops first; the
        // CONV_2D program keeps COMPUTE busy until the first loads are in.
        Case{"vta", "add", "vta_compute_ignores_l2c_token", "a_no_underflow", "u_tok_l2c"},
        // A finished output block lands in a full result slot. With 16 input
        // channels a 3x3 block of 5 pixels finishes every 3 cycles, faster
        // than the Writer moves it into its ring (a pixel a cycle).
        Case{"tf2", "tf2_resnet_block", "tf2_sched_no_slot_stall", "a_slot_no_overflow", "u_sched"},
        // The next sample is received into a source bank still being computed.
        Case{"tinydnn", "tinydnn_dw", "tinydnn_bc_src_overwrite", "a_src_no_overflow", "u_batch"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.dut); });

}  // namespace
