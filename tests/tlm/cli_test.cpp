// The `cosim` command line, end to end on the test DMA: exit codes (0 pass,
// 1 mismatch, 2 bad input, 3 timeout), one-line errors naming file:line and
// key, report.json fields, replay, --dump, --set and determinism.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/cosim_cli.hpp"
#include "support/spawn.hpp"
#include "support/text_file.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Result = cosim::test::CliResult;
using cosim::test::read_text;

// The fixture; scenario() is testdut's shipped scenario here.
class Cli : public cosim::test::CosimCli {
 public:
  static std::string scenario() { return cosim::test::scenario_file("selftest_vadd"); }
  static std::string write(const std::string& name, const std::string& text) {
    return write_file(name + ".yaml", text);
  }
  static void expect_input_error(const std::string& name, const std::string& text, int line, const std::string& key,
                                 const std::string& expected);
  static Result expect_timeout(const std::string& args, const std::string& out, const std::string& diagnosis);
};

const char* kVadd =
    "target: testdut\n"              // 1
    "op: vadd\n"                     // 2
    "testbench:\n"                   // 3
    "  dram_latency: 10\n"           // 4
    "  timeout_cycles: 100000\n"     // 5
    "shapes:\n"                      // 6
    "  input: [1, 4, 4, 16]\n";      // 7

// One line "cosim: error: FILE:LINE: 'KEY': ..." and exit 2.
void Cli::expect_input_error(const std::string& name, const std::string& text, int line, const std::string& key,
                             const std::string& expected) {
  const std::string path = write(name, text);
  const Result r = cosim("run " + path + " --out " + work() + "/" + name);
  EXPECT_EQ(r.code, 2) << r.out;
  const std::string head = "cosim: error: " + path + ":" + std::to_string(line) + ": '" + key + "': ";
  EXPECT_EQ(r.out.rfind(head, 0), 0u) << "expected prefix " << head << "\n got: " << r.out;
  EXPECT_NE(r.out.find(expected), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

// `cosim ARGS` times out: exit 3 well within the wall-clock budget, and OUT's
// report.json says timeout with a diagnosis naming DIAGNOSIS. Returns the run
// for the checks on its console.
Result Cli::expect_timeout(const std::string& args, const std::string& out, const std::string& diagnosis) {
  const auto t0 = std::chrono::steady_clock::now();
  const Result r = cosim(args);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_LT(secs, 20.0);
  const json j = report(out);
  EXPECT_EQ(j["status"], "timeout");
  EXPECT_NE(j["diagnosis"].get<std::string>().find(diagnosis), std::string::npos) << j["diagnosis"];
  return r;
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  return s.replace(s.find(from), from.size(), to);
}

}  // namespace

TEST_F(Cli, SelftestPassesAndWritesTheReport) {
  const std::string out = work() + "/pass";
  const Result r = cosim("run " + scenario() + " --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("PASS bit-exact"), std::string::npos) << r.out;
  const json j = report(out);
  for (const char* k : {"scenario", "target", "op", "seed", "status", "cycles", "macs", "utilization", "mismatch",
                        "distance", "wall_seconds", "simulated_khz"}) {
    EXPECT_TRUE(j.contains(k)) << k;
  }
  EXPECT_EQ(j["scenario"], "selftest_vadd");
  EXPECT_EQ(j["target"], "testdut");
  EXPECT_EQ(j["op"], "vadd");
  EXPECT_EQ(j["seed"], 1);
  EXPECT_EQ(j["status"], "pass");
  EXPECT_GT(j["cycles"].get<uint64_t>(), 128u);  // at least one cycle per 8-byte read beat
  EXPECT_EQ(j["mismatch"]["count"], 0);
  EXPECT_EQ(j["mismatch"]["elements"], 1024);
  EXPECT_TRUE(j["utilization"].is_null());  // the adder has no MAC array
  EXPECT_TRUE(fs::exists(out + "/trace/trace.txt"));
}

TEST_F(Cli, SameSeedSameCyclesAndReplayAgrees) {
  const Result a = cosim("run " + scenario() + " --out " + work() + "/det_a --seed 9");
  const Result b = cosim("run " + scenario() + " --out " + work() + "/det_b --seed 9");
  ASSERT_EQ(a.code, 0) << a.out;
  ASSERT_EQ(b.code, 0) << b.out;
  const json ja = report(work() + "/det_a");
  EXPECT_EQ(ja["seed"], 9);
  EXPECT_EQ(ja["cycles"], report(work() + "/det_b")["cycles"]);
  const Result r = cosim("replay " + work() + "/det_a/trace --out " + work() + "/det_replay");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(report(work() + "/det_replay")["cycles"], ja["cycles"]);
  EXPECT_EQ(report(work() + "/det_replay")["seed"], 9);
}

TEST_F(Cli, SetOverridesAndDump) {
  const std::string out = work() + "/set";
  const Result r = cosim("run " + scenario() + " --out " + out +
                         " --set shapes.input=[2,4,4,8] --set testbench.dram_latency=0 --dump");
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = report(out);
  EXPECT_EQ(j["mismatch"]["elements"], 256);
  EXPECT_TRUE(fs::exists(out + "/output_expected.npy"));
  EXPECT_TRUE(fs::exists(out + "/output_actual.npy"));
  EXPECT_TRUE(fs::exists(out + "/a_input.npy"));
  EXPECT_TRUE(fs::exists(out + "/b_input.npy"));
  EXPECT_EQ(fs::file_size(out + "/output_expected.npy"), fs::file_size(out + "/output_actual.npy"));
  // --set before the positional file does not swallow it.
  const Result r2 = cosim("run --set seed=3 --set shapes.input=[8] " + scenario() + " --out " + out + "_2");
  ASSERT_EQ(r2.code, 0) << r2.out;
  EXPECT_EQ(report(out + "_2")["seed"], 3);
  EXPECT_EQ(report(out + "_2")["mismatch"]["elements"], 8);
}

TEST_F(Cli, CorruptedExpectedElementGivesExit1AndItsCoordinates) {
  const std::string out = work() + "/corrupt";
  ASSERT_EQ(cosim("run " + scenario() + " --out " + out).code, 0);
  // Flip element n=0,h=3,w=5,c=9 of the 1x8x8x16 NHWC output: byte 3*128 + 5*16 + 9 = 473.
  fs::path blob;
  for (const auto& e : fs::directory_iterator(out + "/trace/blobs")) {
    if (e.path().filename().string().find("output") != std::string::npos) blob = e.path();
  }
  ASSERT_FALSE(blob.empty());
  std::fstream f(blob, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(473);
  char c;
  f.get(c);
  f.seekp(473);
  f.put(static_cast<char>(c ^ 0x40));
  f.close();
  const Result r = cosim("replay " + out + "/trace --out " + work() + "/corrupt_replay");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("output[n=0,h=3,w=5,c=9]"), std::string::npos) << r.out;
  // Output at 0x100000: the element's address is 0x100000 + 473 = 0x1001d9.
  EXPECT_NE(r.out.find("at 0x1001d9, written at cycle"), std::string::npos) << r.out;
  const json j = report(work() + "/corrupt_replay");
  EXPECT_EQ(j["status"], "mismatch");
  EXPECT_EQ(j["mismatch"]["count"], 1);
  const json m = j["mismatch"]["checks"][0]["first_mismatches"][0];
  EXPECT_EQ(m["coords"], "n=0,h=3,w=5,c=9");
  EXPECT_EQ(m["index"], (std::vector<int>{0, 3, 5, 9}));
  EXPECT_EQ(static_cast<int>(m["expected"].get<double>()), static_cast<int8_t>(c ^ 0x40));
  EXPECT_EQ(static_cast<int>(m["actual"].get<double>()), static_cast<int8_t>(c));
  EXPECT_FALSE(m["write_cycle"].is_null());
}

TEST_F(Cli, HungDutGivesExit3WithinTheBudgetNamingTheState) {
  const std::string out = work() + "/hang";
  const Result r = expect_timeout(
      "run " + scenario() + " --out " + out + " --set fault=no_start --set testbench.timeout_cycles=200000", out,
      "StIdle");
  EXPECT_EQ(r.out.rfind("cosim: timeout: DUT did not finish within 200000 cycles", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("stuck in state StIdle"), std::string::npos) << r.out;
}

TEST_F(Cli, ScenarioErrorsExit2WithFileLineAndKey) {
  expect_input_error("unknown_key", std::string(kVadd) + "adresses: {src: 0}\n", 8, "adresses",
                     "unknown key; expected one of:");
  expect_input_error("wrong_type", replace(kVadd, "dram_latency: 10", "dram_latency: slow"), 4,
                     "testbench.dram_latency", "expected an integer in [0, 100000], got 'slow'");
  expect_input_error("missing_key", replace(kVadd, "shapes:\n  input: [1, 4, 4, 16]\n", "shapes: {}\n"), 6,
                     "shapes.input", "missing required key; expected a shape");
  expect_input_error("out_of_range", replace(kVadd, "timeout_cycles: 100000", "timeout_cycles: 0"), 5,
                     "testbench.timeout_cycles", "expected an integer in [1, 1000000000000], got '0'");
  expect_input_error("impossible_shape", replace(kVadd, "[1, 4, 4, 16]", "[1, 3, 3, 3]"), 7, "shapes.input",
                     "expected a shape whose size is a multiple of 8 bytes (the adder moves 64-bit beats), got 27 bytes");
  expect_input_error("bad_target", replace(kVadd, "target: testdut", "target: nvdla"), 1, "target",
                     "expected one of");
}

TEST_F(Cli, OtherBadInputExits2) {
  Result r = cosim("run " + work() + "/missing.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("missing.yaml: no such scenario file"), std::string::npos) << r.out;
  r = cosim("run " + scenario() + " --set testbench.dram_latency=-4 --out " + work() + "/seterr");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "cosim: error: --set testbench.dram_latency=-4: 'testbench.dram_latency': expected an integer in "
                   "[0, 100000], got '-4'\n");
  r = cosim("run");
  EXPECT_EQ(r.code, 2) << r.out;
  r = cosim("frobnicate");
  EXPECT_EQ(r.code, 2) << r.out;
  // A malformed trace names trace.txt:line.
  const std::string dir = work() + "/badtrace";
  fs::create_directories(dir);
  std::ofstream(dir + "/trace.txt") << "cosim-trace 1\ntarget testdut\nreg_write 0x0\n";
  r = cosim("replay " + dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("trace.txt:3: 'reg_write' expects 2 argument(s)"), std::string::npos) << r.out;
  // A trace for a target that is not built.
  std::ofstream(dir + "/trace.txt") << "cosim-trace 1\ntarget nvdla\n";
  r = cosim("replay " + dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown target 'nvdla'"), std::string::npos) << r.out;
}

// Host steps that read (cpp_model/trace/README.md), end to end through
// `cosim replay` on hand-written traces for testdut (LENGTH at 0x08,
// CONTROL at 0x00: bit 0 busy, bit 1 done). Exit statuses from DESIGN.md:
// 0 pass, 1 mismatch, 2 bad input, 3 timeout.
namespace {
std::string reg_trace(const std::string& name, const std::string& steps) {
  const std::string dir = cosim::test::CosimCli::work() + "/" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir + "/trace.txt") << "cosim-trace 1\ntarget testdut\n" << steps;
  return dir;
}
}  // namespace

TEST_F(Cli, RegisterChecksAloneCanPass) {
  const std::string dir = reg_trace("regpass", "reg_write 0x8 0x400\nreg_check 0x8 0x400 0xffffffff LENGTH\n");
  const Result r = cosim("replay " + dir + " --out " + work() + "/regpass_out");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
  const json j = report(work() + "/regpass_out");
  EXPECT_EQ(j["status"], "pass");
  EXPECT_EQ(j["register_checks"]["count"], 1);
  EXPECT_EQ(j["register_checks"]["failed"], 0);
  EXPECT_EQ(j["register_checks"]["checks"][0]["held"], true);
  EXPECT_EQ(j["register_checks"]["checks"][0]["value"], 0x400);
}

TEST_F(Cli, FailingRegisterCheckGivesExit1NamingTheRegister) {
  const std::string dir = reg_trace("regfail", "reg_write 0x8 0x400\nreg_check 0x8 0x401 0xffffffff LENGTH\n");
  const std::string out = work() + "/regfail_out";
  const Result r = cosim("replay " + dir + " --out " + out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("FAIL"), std::string::npos) << r.out;
  const std::string text = "register LENGTH (0x8): read 0x00000400, expected 0x00000401 under mask 0xffffffff";
  EXPECT_NE(r.out.find(text), std::string::npos) << r.out;
  const json j = report(out);
  EXPECT_EQ(j["status"], "mismatch");
  EXPECT_EQ(j["bit_exact"], false);
  EXPECT_EQ(j["register_checks"]["failed"], 1);
  const json c = j["register_checks"]["checks"][0];
  EXPECT_EQ(c["name"], "LENGTH");
  EXPECT_EQ(c["offset"], "0x8");
  EXPECT_EQ(c["value"], 0x400);
  EXPECT_EQ(c["expected"], 0x401);
  EXPECT_EQ(c["mask"], 0xffffffffu);
  EXPECT_EQ(c["held"], false);
  EXPECT_EQ(c["line"], 4);
  EXPECT_EQ(c["text"], text);
  const std::string page = read_text(out + "/report.html");
  EXPECT_NE(page.find(text), std::string::npos);
  EXPECT_NE(page.find("id=\"register-checks\""), std::string::npos);
}

TEST_F(Cli, PollThatNeverMatchesGivesExit3WithinItsBound) {
  // Never started: CONTROL's done bit never comes.
  const std::string dir = reg_trace("regpoll", "reg_write 0x8 0x400\nreg_poll 0x0 0x2 0x2 1000 CONTROL\n");
  const std::string out = work() + "/regpoll_out";
  const Result r = expect_timeout("replay " + dir + " --out " + out, out, "register CONTROL");
  EXPECT_EQ(r.out.rfind("cosim: timeout: register CONTROL (0x0) did not match within 1000 cycles", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("last read 0x00000000, expected 0x00000002 under mask 0x00000002"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("trace.txt:4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("start bit was never written"), std::string::npos) << r.out;
}

TEST_F(Cli, HostFlowPollingControlGivesTheSameBits) {
  // The shipped scenario's trace with its wait_done replaced by the XRT-style
  // poll of CONTROL's done bit, then a check that done is set and the DUT idle.
  const std::string out = work() + "/pollflow";
  ASSERT_EQ(cosim("run " + scenario() + " --out " + out).code, 0);
  std::string text = read_text(out + "/trace/trace.txt");
  const auto at = text.find("\nwait_done ");
  ASSERT_NE(at, std::string::npos) << text;
  const auto end = text.find('\n', at + 1);
  text.replace(at + 1, end - at - 1, "reg_poll 0x0 0x2 0x2 1000000 CONTROL\nreg_check 0x0 0x2 0x3 CONTROL");
  std::ofstream(out + "/trace/trace.txt") << text;
  const Result r = cosim("replay " + out + "/trace --out " + out + "_replay");
  ASSERT_EQ(r.code, 0) << r.out << text;
  const json j = report(out + "_replay");
  EXPECT_EQ(j["status"], "pass");
  EXPECT_EQ(j["mismatch"]["count"], 0);
  EXPECT_EQ(j["mismatch"]["elements"], 1024);
  EXPECT_EQ(j["register_checks"]["count"], 1);
  EXPECT_GE(j["cycles"].get<uint64_t>(), report(out)["cycles"].get<uint64_t>());
}

TEST_F(Cli, WaitIrqWithoutAnInterruptPinExits2) {
  const std::string dir = reg_trace("irq", "reg_write 0x0 0x1\nwait_irq 1000\n");
  const Result r = cosim("replay " + dir + " --out " + work() + "/irq_out");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out.rfind("cosim: error: ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("trace.txt:4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("target 'testdut' has no interrupt pin"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

TEST_F(Cli, ListShowsScenariosAndTargets) {
  const Result r = cosim("list --dir " + std::string(COSIM_SOURCE_DIR) + "/scenarios");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("selftest_vadd"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("testdut"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("vadd"), std::string::npos) << r.out;
  // Every shipped scenario's row ends in its description (issue 32 item 7:
  // kws and resnet8 had none): the row is more than name, target and op.
  for (const auto& e : fs::directory_iterator(std::string(COSIM_SOURCE_DIR) + "/scenarios")) {
    if (e.path().extension() != ".yaml") continue;
    const std::string name = e.path().stem().string();
    std::istringstream lines(r.out);
    bool described = false;
    for (std::string line; std::getline(lines, line);) {
      std::istringstream words(line);
      std::string first, target, op, rest;
      words >> first >> target >> op;
      std::getline(words, rest);
      if (first == name) described = rest.find_first_not_of(' ') != std::string::npos;
    }
    EXPECT_TRUE(described) << name << " is listed without a description:\n" << r.out;
  }
}

// `cosim --version`: the compiler and the architecture of the hot targets
// (issue 35, cmake/cosim_arch.cmake), exit 0.
TEST_F(Cli, VersionNamesTheCompilerAndArchitecture) {
  const Result r = cosim("--version");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("cosim ("), std::string::npos) << r.out;
  EXPECT_TRUE(r.out.find("Clang") != std::string::npos || r.out.find("GNU") != std::string::npos) << r.out;
  EXPECT_TRUE(r.out.find("arch: portable") != std::string::npos || r.out.find("arch: x86-64-v3") != std::string::npos ||
              r.out.find("arch: native") != std::string::npos)
      << r.out;
}

// A key only a --set override names is reported at the override, not at a
// line of the file (issue 32 item 7).
TEST_F(Cli, AnUnknownKeyFromSetNamesTheOverride) {
  const Result r = cosim("run " + scenario() + " --set foo.bar=1 --out " + work() + "/set_foo");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--set foo.bar=1: 'foo': unknown key"), std::string::npos) << r.out;
}

// A protocol fault the scenario asks the testbench to inject (tiny-dnn's
// fault=tdata_change: its stream source changes TDATA while stalled) is
// named as injected in report.json and on the console, not as a DUT error.
TEST_F(Cli, AnInjectedFaultIsNotCalledADutError) {
  const std::string out = work() + "/injected";
  const Result r = cosim("run " + cosim::test::scenario_file("tinydnn_fwd") + " --set fault=tdata_change --out " + out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("injected    fault=tdata_change"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fault seen  AXI-Stream protocol"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("DUT error"), std::string::npos) << r.out;
  std::ifstream f(out + "/report.json");
  const nlohmann::json j = nlohmann::json::parse(f);
  EXPECT_EQ(j["injected_fault"], "tdata_change");
  EXPECT_EQ(j["status"], "dut_error");
  const std::string page = read_text(out + "/report.html");
  EXPECT_NE(page.find("injected fault</th><td>fault=tdata_change"), std::string::npos);
  EXPECT_EQ(page.find("DUT error"), std::string::npos);
  // Without the fault the same scenario names none.
  const Result clean = cosim("run " + cosim::test::scenario_file("tinydnn_fwd") + " --out " + out + "_clean");
  EXPECT_EQ(clean.code, 0) << clean.out;
  std::ifstream g(out + "_clean/report.json");
  EXPECT_TRUE(nlohmann::json::parse(g)["injected_fault"].is_null());
}

// The waveform flags are --wave*; the --trace* spellings stay as aliases.
TEST_F(Cli, WaveformIsWritten) {
  for (const std::string flag : {"--wave", "--trace"}) {
    const std::string out = work() + "/wave" + flag;
    const Result r = cosim("run " + scenario() + " --out " + out + " " + flag + " " + flag + "-from 10 " + flag +
                           "-to 200");
    ASSERT_EQ(r.code, 0) << r.out;
    ASSERT_TRUE(fs::exists(out + "/wave.fst")) << flag;
    EXPECT_GT(fs::file_size(out + "/wave.fst"), 100u);
  }
  const Result bad = cosim("run " + scenario() + " --out " + work() + "/wave_bad --wave --wave-from 20 --wave-to 10");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("--wave-from must not exceed --wave-to"), std::string::npos) << bad.out;
}

#ifdef COSIM_TEST_DISASM
TEST_F(Cli, DisassemblesVtaInstructions) {
  // spec/vta-isa.md: opcode [2:0], FINISH = 3; one instruction = 16 bytes.
  const std::string path = work() + "/insn.bin";
  {
    std::ofstream f(path, std::ios::binary);
    const unsigned char finish[16] = {3};
    f.write(reinterpret_cast<const char*>(finish), 16);
  }
  Result r = cosim("disasm " + path);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("0: FINISH"), std::string::npos) << r.out;
  {
    std::ofstream f(path, std::ios::binary);
    f.write("abc", 3);
  }
  r = cosim("disasm " + path);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(": not a run folder, a trace directory or a raw program (as a VTA instruction stream: 3 bytes, "
                       "not a multiple of 16)"),
            std::string::npos)
      << r.out;
}

// Issue 32 item 3: `cosim disasm` of what a run executed. The run folder,
// its trace directory and a raw program folder holding the same stream give
// one numbered line per instruction the trace makes the core fetch
// (INSN_COUNT, written by the trace's reg_write 0x8), the last a FINISH.
TEST_F(Cli, DisassemblesTheProgramARunExecuted) {
  const std::string out = work() + "/disasm_run";
  Result r = cosim("run " + cosim::test::scenario_file("conv2d") + " --out " + out + " --no-timeline");
  ASSERT_EQ(r.code, 0) << r.out;
  // The trace's own account of the stream: INSN_COUNT and INSN_ADDR.
  std::ifstream tr(out + "/trace/trace.txt");
  uint64_t count = 0, addr = 0;
  for (std::string line; std::getline(tr, line);) {
    if (line.rfind("reg_write 0x8 ", 0) == 0) count = std::stoull(line.substr(14), nullptr, 0);
    if (line.rfind("reg_write 0xc ", 0) == 0) addr = std::stoull(line.substr(14), nullptr, 0);
  }
  ASSERT_GT(count, 0u);
  for (const std::string& where : {out, out + "/trace"}) {
    r = cosim("disasm " + where);
    ASSERT_EQ(r.code, 0) << where << "\n" << r.out;
    std::istringstream lines(r.out);
    std::string first, line, last;
    std::getline(lines, first);
    uint64_t n = 0;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      EXPECT_EQ(line.find(std::to_string(n) + ": "), line.find_first_not_of(' ')) << line;
      last = line;
      ++n;
    }
    char at[32];
    std::snprintf(at, sizeof at, "0x%llx", static_cast<unsigned long long>(addr));
    EXPECT_EQ(first, "== run 0: " + std::to_string(count) + " instructions at " + at);
    EXPECT_EQ(n, count) << where;
    EXPECT_NE(last.find("FINISH"), std::string::npos) << last;
  }
  // The stream cut out of the DRAM image by hand (the trace loads one image
  // at address 0), as a raw program folder: the same lines.
  const std::string image = read_text(out + "/trace/blobs/000_dram.bin");
  ASSERT_GE(image.size(), addr + 16 * count);
  fs::create_directories(work() + "/disasm_raw");
  std::ofstream(work() + "/disasm_raw/insn.bin", std::ios::binary) << image.substr(addr, 16 * count);
  const Result raw = cosim("disasm " + work() + "/disasm_raw");
  ASSERT_EQ(raw.code, 0) << raw.out;
  EXPECT_EQ(raw.out, r.out.substr(r.out.find('\n') + 1)) << "the raw stream differs from the run's";
}
#endif

// Issue 31, item 2 (CTest label `faults`): a run deletes only what a trace
// writes (trace.txt, blobs/NNN_*.bin) from --out DIR/trace; a user's files
// there survive, are named in one warning line, and the new trace beside
// them replays bit-exact.
class CliFaults : public Cli {};

TEST_F(CliFaults, UserFilesInTheTraceFolderSurviveARerun) {
  const std::string out = work() + "/keep_user_files";
  fs::remove_all(out);
  ASSERT_EQ(cosim("run " + scenario() + " --out " + out).code, 0);
  const fs::path tr = fs::path(out) / "trace";
  fs::create_directories(tr / "waves");
  std::ofstream(tr / "README") << "my notes\n";
  std::ofstream(tr / "waves" / "run1.fst") << "my waveform";
  std::ofstream(tr / "blobs" / "notes.txt") << "not a blob name";
  std::ofstream(tr / "blobs" / "099_stale.bin") << "a blob name: the trace's own";
  const Result r = cosim("run " + scenario() + " --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(read_text(tr / "README"), "my notes\n");
  EXPECT_EQ(read_text(tr / "waves" / "run1.fst"), "my waveform");
  EXPECT_EQ(read_text(tr / "blobs" / "notes.txt"), "not a blob name");
  EXPECT_FALSE(fs::exists(tr / "blobs" / "099_stale.bin"));
  const std::string warning = "cosim: warning: " + tr.string() +
                              " holds 3 files cosim did not write, left in place: README, blobs/notes.txt, "
                              "waves/run1.fst\n";
  EXPECT_NE(r.out.find(warning), std::string::npos) << r.out;
  const Result replay = cosim("replay " + tr.string() + " --out " + work() + "/keep_user_files_replay");
  EXPECT_EQ(replay.code, 0) << replay.out;
  EXPECT_NE(replay.out.find("PASS bit-exact"), std::string::npos) << replay.out;
  EXPECT_EQ(replay.out.find("warning"), std::string::npos) << replay.out;
}

TEST_F(CliFaults, AForeignTraceTxtStopsTheRunAndIsKept) {
  const std::string out = work() + "/foreign_trace_txt";
  fs::remove_all(out);
  fs::create_directories(fs::path(out) / "trace" / "blobs");
  std::ofstream(fs::path(out) / "trace" / "trace.txt") << "my own trace.txt\n";
  std::ofstream(fs::path(out) / "trace" / "blobs" / "000_a.bin") << "kept too";
  const Result r = cosim("run " + scenario() + " --out " + out);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("cosim: error: " + out + "/trace/trace.txt: not a cosim trace"), std::string::npos) << r.out;
  EXPECT_EQ(read_text(fs::path(out) / "trace" / "trace.txt"), "my own trace.txt\n");
  EXPECT_EQ(read_text(fs::path(out) / "trace" / "blobs" / "000_a.bin"), "kept too");
}

TEST_F(CliFaults, ALinkAtABlobNameIsNotWrittenThrough) {
  const std::string out = work() + "/blob_link";
  fs::remove_all(out);
  fs::create_directories(fs::path(out) / "trace" / "blobs");
  const fs::path mine = fs::path(work()) / "blob_link_target.dat";
  std::ofstream(mine) << "precious";
  fs::create_symlink(mine, fs::path(out) / "trace" / "blobs" / "000_a.bin");
  const Result r = cosim("run " + scenario() + " --out " + out);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("000_a.bin: not a regular file"), std::string::npos) << r.out;
  EXPECT_EQ(read_text(mine), "precious");
  EXPECT_TRUE(fs::is_symlink(fs::path(out) / "trace" / "blobs" / "000_a.bin"));
}

// Issue 31, items 3 and 4 (CTest label `faults`): a run's folder is locked
// while the run owns it, report.json says "running" from the start and
// "interrupted" after SIGINT / SIGTERM (exit 130 / 143), and a failed or
// interrupted rerun never leaves the previous run's PASS behind.
namespace {

using cosim::test::spawn_cosim;

// Exit status of `pid`; -1 when it died of a signal.
int wait_exit(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -2;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// report.json's status, "" while absent or unreadable.
std::string report_status(const std::string& dir) {
  std::ifstream f(dir + "/report.json");
  if (!f) return "";
  try {
    return json::parse(f).value("status", "");
  } catch (const std::exception&) {
    return "";
  }
}

// A VTA conv2d long enough (a few seconds) to signal.
const std::vector<std::string> kLongRun = {"--set", "shapes.input=[1,128,128,64]", "--set",
                                           "testbench.dram_latency=200"};

}  // namespace

TEST_F(CliFaults, ARerunThatFailsValidationLeavesNoPass) {
  const std::string out = work() + "/stale_pass_validation";
  fs::remove_all(out);
  ASSERT_EQ(cosim("run " + scenario() + " --out " + out).code, 0);
  ASSERT_EQ(report(out)["status"], "pass");
  const Result r = cosim("run " + scenario() + " --out " + out + " --set shapes.input=bad");
  EXPECT_EQ(r.code, 2) << r.out;
  const json j = report(out);
  EXPECT_EQ(j["status"], "error") << j.dump();
  EXPECT_NE(j.value("reason", "").find("shapes.input"), std::string::npos) << j.dump();
  EXPECT_EQ(read_text(fs::path(out) / "report.html").find(">pass<"), std::string::npos);
  EXPECT_FALSE(fs::exists(fs::path(out) / "report.json.tmp"));
}

#ifdef COSIM_TEST_DISASM  // the VTA target is built
TEST_F(CliFaults, ASignalledRunSaysInterruptedAndExits128PlusSignal) {
  for (const int sig : {SIGTERM, SIGINT}) {
    const std::string out = work() + "/interrupted_" + std::to_string(sig);
    fs::remove_all(out);
    ASSERT_EQ(cosim("run " + scenario() + " --out " + out).code, 0);  // an earlier PASS in the folder
    std::vector<std::string> args = {"run", cosim::test::scenario_file("conv2d"), "--out", out};
    args.insert(args.end(), kLongRun.begin(), kLongRun.end());
    const pid_t pid = spawn_cosim(args, out + ".log");
    ASSERT_GT(pid, 0);
    bool running = false;
    for (int i = 0; i < 1000 && !running; ++i) {  // up to 10 s
      if (report_status(out) == "running" && report(out).value("target", "") == "vta") running = true;
      else ::usleep(10000);
    }
    EXPECT_TRUE(running) << "no running report in " << out;
    ::usleep(300000);  // into the work
    ::kill(pid, sig);
    EXPECT_EQ(wait_exit(pid), 128 + sig) << read_text(out + ".log");
    const json j = report(out);
    EXPECT_EQ(j["status"], "interrupted") << j.dump();
    EXPECT_EQ(j["scenario"], "conv2d");
    EXPECT_EQ(read_text(fs::path(out) / "report.html").find(">pass<"), std::string::npos);
    EXPECT_NE(read_text(fs::path(out) / "report.html").find(">interrupted<"), std::string::npos);
  }
}

TEST_F(CliFaults, TwoRunsIntoOneFolderOneRunsTheOtherStopsAtTheLock) {
  const std::string out = work() + "/locked";
  fs::remove_all(out);
  // The 20 pairs: conv2d as shipped runs for a good part of a second,
  // far longer than the two starts lie apart, so every pair overlaps.
  const std::vector<std::string> args = {"run", cosim::test::scenario_file("conv2d"), "--out", out};
  for (int trial = 0; trial < 20; ++trial) {
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t a = spawn_cosim(args, out + ".a.log");
    const pid_t b = spawn_cosim(args, out + ".b.log");
    ASSERT_GT(a, 0);
    ASSERT_GT(b, 0);
    // The loser ends first, at once; the winner runs to its PASS.
    int sa = -3;
    int sb = -3;
    pid_t first = 0;
    for (int done = 0; done < 2;) {
      int status = 0;
      const pid_t p = ::waitpid(-1, &status, 0);
      if (p != a && p != b) continue;
      const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      (p == a ? sa : sb) = code;
      if (done++ == 0) first = p;
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
    const bool a_won = sa == 0;
    EXPECT_TRUE((sa == 0 && sb == 2) || (sa == 2 && sb == 0)) << "trial " << trial << ": " << sa << " " << sb;
    const pid_t winner = a_won ? a : b;
    const std::string loser_log = read_text(a_won ? out + ".b.log" : out + ".a.log");
    EXPECT_EQ(first, a_won ? b : a) << "the loser should stop at once";
    EXPECT_EQ(loser_log, "cosim: error: " + out + ": in use by another cosim run (pid " + std::to_string(winner) +
                             " holds " + out + "/.cosim.lock)\n");
    EXPECT_LT(took.count(), 60.0);
    const json j = report(out);
    EXPECT_EQ(j["status"], "pass") << j.dump();
    EXPECT_EQ(j["seed"], 1);
  }
  // The winner's folder is whole: its trace replays bit-exact.
  const Result replay = cosim("replay " + out + "/trace --out " + work() + "/locked_replay");
  EXPECT_EQ(replay.code, 0) << replay.out;
  EXPECT_NE(replay.out.find("PASS bit-exact"), std::string::npos) << replay.out;
}
#endif
