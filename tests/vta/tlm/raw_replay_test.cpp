// `cosim replay` checks something or says it did not: a raw VTA program
// directory without dram_expected.bin is compared, byte for byte over the
// whole image, with the functional model's run of the same program; a
// wrong expected image names the first differing address and the STORE
// that wrote it; a trace with no check ends as NO CHECK, exit 1.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "vta/model/matmul_program.hpp"
#include "support/artifact_dir.hpp"
#include "support/cosim_cli.hpp"
#include "vta/raw_program.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace cosim::vta {
namespace {

using Cmd = cosim::test::CliResult;
using cosim::test::run_cosim;

std::string scratch(const std::string& name) {
  const fs::path d = cosim::testing::artifact_dir("raw_replay/" + name);  // under the build tree
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

json report(const std::string& out) {
  std::ifstream f(out + "/report.json");
  return f ? json::parse(f) : json();
}

RawProgram matmul_program() {
  testing::MatmulCase c = testing::make_matmul_case(9);
  return make_raw_program(c.program.insn_bytes(), c.dram, c.program.insn_region.byte_addr);
}

TEST(RawReplay, WithoutAnExpectedImageTheModelChecksTheWholeImage) {
  const std::string dir = scratch("prog");
  const RawProgram p = matmul_program();
  write_raw_program_dir(dir, p);
  const std::string out = scratch("out");
  const Cmd c = run_cosim("replay " + dir + " --out " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find("PASS bit-exact (1 check, " + std::to_string(p.dram.size()) + " elements)"),
            std::string::npos)
      << c.out;
  const json r = report(out);
  EXPECT_EQ(r["status"], "pass");
  EXPECT_EQ(r["mismatch"]["elements"].get<uint64_t>(), p.dram.size());
  EXPECT_EQ(r["mismatch"]["checks"][0]["name"], "dram");
}

TEST(RawReplay, WrongExpectedImageNamesTheAddressAndTheStore) {
  const std::string dir = scratch("prog_bad");
  RawProgram p = matmul_program();
  write_raw_program_dir(dir, p);
  // The right final image from the matrices themselves, then one byte of the
  // output region changed.
  testing::MatmulCase c = testing::make_matmul_case(9);
  std::vector<uint8_t> expected = p.dram;
  std::copy(c.expect.begin(), c.expect.end(), expected.begin() + static_cast<std::ptrdiff_t>(c.out.byte_addr));
  const uint64_t bad = c.out.byte_addr + 5;
  expected[bad] ^= 0x40;
  write_binary_file(dir + "/dram_expected.bin", expected);
  const std::string out = scratch("out_bad");
  const Cmd r = run_cosim("replay " + dir + " --out " + out);
  ASSERT_EQ(r.code, 1) << r.out;
  const json j = report(out);
  EXPECT_EQ(j["status"], "mismatch");
  EXPECT_EQ(j["mismatch"]["count"].get<int64_t>(), 1);
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(bad));
  EXPECT_EQ(j["first_divergence"]["address"], addr) << j.dump(1);
  EXPECT_NE(j["first_divergence"]["unit"]["text"].get<std::string>().find("STORE"), std::string::npos)
      << j.dump(1);
  // Issue 32 item 2: the waveform around the divergence works on a raw
  // program too, its marker on the diverging write.
  const std::string around = scratch("out_bad_around");
  const Cmd w = run_cosim("replay " + dir + " --out " + around + " --trace-around-mismatch 10");
  ASSERT_EQ(w.code, 1) << w.out;
  EXPECT_TRUE(std::filesystem::exists(around + "/wave_mismatch.fst")) << w.out;
  const json a = report(around);
  const uint64_t cycle = a["first_divergence"]["write_cycle"].get<uint64_t>();
  EXPECT_EQ(a["wave_around_mismatch"]["mismatch_cycle"].get<uint64_t>(), cycle) << a.dump(1);
  std::ifstream g(around + "/wave_mismatch.gtkw");
  const std::string view((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
  // GTKWave reads the marker in ps: 1000 a cycle.
  EXPECT_NE(view.find(" " + std::to_string(1000 * cycle) + " " + std::to_string(1000 * cycle) + " -1"),
            std::string::npos)
      << view;
}

TEST(RawReplay, ATraceWithoutChecksIsNoCheck) {
  const std::string dir = scratch("nocheck");
  std::ofstream(dir + "/trace.txt") << "cosim-trace 1\ntarget vta\nreg_write 0x0c 0\n";
  const std::string out = scratch("out_nocheck");
  const Cmd r = run_cosim("replay " + dir + " --out " + out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("NO CHECK (0 checks, 0 elements)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("PASS bit-exact"), std::string::npos) << r.out;
  const json j = report(out);
  EXPECT_EQ(j["status"], "no_check");
  EXPECT_FALSE(j["bit_exact"].get<bool>());
}

}  // namespace
}  // namespace cosim::vta
