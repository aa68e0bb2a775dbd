// Runs the `cosim` command line as a child process, for googletest suites
// that test it end to end (exit status, console, report.json).
//
//   class MyCli : public cosim::test::CosimCli {};
//   TEST_F(MyCli, Passes) {
//     const auto r = cosim("run " + scenario("conv2d") + " --out " + work() + "/a");
//     ASSERT_EQ(r.code, 0) << r.out;
//     EXPECT_EQ(report(work() + "/a")["status"], "pass");
//   }
//
// The binary is $COSIM_BIN when set, else the path CMake compiles in as
// COSIM_BIN (target property `$<TARGET_FILE:cosim>`). work() is the
// process's scratch_dir("cosim_cli_test") (support/scratch_dir.hpp).
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/scratch_dir.hpp"
#include "support/text_file.hpp"

namespace cosim::test {

struct CliResult {
  int code = -1;    // exit status; -1 when the child did not exit normally
  std::string out;  // stdout + stderr
};

inline std::string cosim_binary() {
  const char* env = std::getenv("COSIM_BIN");
  if (env != nullptr && *env != '\0') return env;
#ifdef COSIM_BIN
  return COSIM_BIN;
#else
  return "cosim";
#endif
}

// A shell command line, `<cmd> 2>&1`: its exit status and output.
inline CliResult run_command(const std::string& cmd) {
  CliResult r;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// `cosim <args> 2>&1`.
inline CliResult run_cosim(const std::string& args) { return run_command(cosim_binary() + " " + args); }

// <out_dir>/report.json; an empty object (and a test failure) when absent.
inline nlohmann::json read_report(const std::string& out_dir) {
  std::ifstream f(out_dir + "/report.json");
  EXPECT_TRUE(f.good()) << "no report.json in " << out_dir;
  if (!f.good()) return nlohmann::json::object();
  return nlohmann::json::parse(f);
}

// <source>/scenarios/<name>.yaml (`name` may carry the .yaml already).
inline std::string scenario_file(const std::string& name) {
  const bool has_ext = name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0;
  return std::string(COSIM_SOURCE_DIR) + "/scenarios/" + name + (has_ext ? "" : ".yaml");
}

// The fixture: cosim(), work(), report(), run_passing(), scenario(), write_file().
class CosimCli : public ::testing::Test {
 public:
  static CliResult cosim(const std::string& args) { return run_cosim(args); }
  static std::string work() { return scratch_dir("cosim_cli_test"); }
  static nlohmann::json report(const std::string& out_dir) { return read_report(out_dir); }
  // `cosim run <yaml> --out work()/<out_name>`, a run that must pass: exit 0,
  // "PASS bit-exact" on the console (in r.out) and status pass in its
  // report.json, which it returns (an empty object when the run failed).
  static nlohmann::json run_passing(const std::string& yaml, const std::string& out_name, CliResult& r) {
    const std::string out = work() + "/" + out_name;
    r = cosim("run " + yaml + " --out " + out);
    EXPECT_EQ(r.code, 0) << r.out;
    if (r.code != 0) return nlohmann::json::object();
    EXPECT_NE(r.out.find("PASS bit-exact"), std::string::npos) << r.out;
    nlohmann::json j = report(out);
    EXPECT_EQ(j["status"], "pass") << j.dump();
    return j;
  }
  static std::string scenario(const std::string& name) { return scenario_file(name); }
  // Writes `text` to work()/<name> and returns the path.
  static std::string write_file(const std::string& name, const std::string& text) {
    const std::string path = work() + "/" + name;
    write_text(path, text);
    return path;
  }
};

// The same for parameterized suites.
template <class Param>
class CosimCliWithParam : public CosimCli, public ::testing::WithParamInterface<Param> {};

}  // namespace cosim::test
