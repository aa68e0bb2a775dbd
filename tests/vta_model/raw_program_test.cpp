// Raw program directories and the two command-line tools.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

#include "common/error.hpp"
#include "matmul_program.hpp"
#include "vta/raw_program.hpp"

namespace cosim::vta {
namespace {

std::string temp_dir(const std::string& name) {
  const std::string d = ::testing::TempDir() + "vta_raw_" + name + "_" + std::to_string(::getpid());
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

RawProgram matmul_raw() {
  testing::MatmulCase c = testing::make_matmul_case(9);
  return make_raw_program(c.program.insn_bytes(), c.dram, c.program.insn_region.byte_addr);
}

TEST(VtaRawProgram, DirRoundTripAndRun) {
  const std::string d = temp_dir("rt");
  RawProgram p = matmul_raw();
  write_raw_program_dir(d, p);
  RawProgram q = read_raw_program_dir(d);
  EXPECT_EQ(q.dram, p.dram);
  EXPECT_EQ(q.insn_addr, p.insn_addr);
  EXPECT_EQ(q.insn_count, p.insn_count);
  const ModelStats s = run_raw_program(q);
  EXPECT_TRUE(s.finished);
  testing::MatmulCase c = testing::make_matmul_case(9);
  EXPECT_TRUE(std::equal(c.expect.begin(), c.expect.end(), q.dram.begin() + c.out.byte_addr));
}

TEST(VtaRawProgram, MakePlacesTheStream) {
  const std::vector<uint8_t> insn(32, 0xAB);
  RawProgram p = make_raw_program(insn, std::vector<uint8_t>(40, 1), 48);
  EXPECT_EQ(p.dram.size(), 80u);  // grown to hold the stream
  EXPECT_EQ(p.dram[39], 1);
  EXPECT_EQ(p.dram[40], 0);
  EXPECT_EQ(p.dram[48], 0xAB);
  EXPECT_EQ(p.insn_count, 2u);
  EXPECT_THROW(make_raw_program(insn, {}, 8), InputError);                       // misaligned
  EXPECT_THROW(make_raw_program(std::vector<uint8_t>(17), {}, 0), InputError);  // not 16 x n
}

void expect_dir_error(const std::string& meta, const std::string& needle, std::size_t insn_bytes = 16) {
  const std::string d = temp_dir("bad");
  std::ofstream(d + "/meta") << meta;
  write_binary_file(d + "/insn.bin", std::vector<uint8_t>(insn_bytes, 0));
  write_binary_file(d + "/dram.bin", std::vector<uint8_t>(64, 0));
  try {
    read_raw_program_dir(d);
    FAIL() << "expected InputError containing '" << needle << "'";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(VtaRawProgram, MetaErrorsNameFileAndKey) {
  expect_dir_error("insn_addr 0x10\ncolour blue\n", "meta:2: key 'colour': unknown key");
  expect_dir_error("insn_count 1\n", "missing key 'insn_addr'");
  expect_dir_error("insn_addr 12zz\n", "key 'insn_addr': expected a non-negative integer");
  expect_dir_error("insn_addr -16\n", "expected a non-negative integer");
  expect_dir_error("insn_addr 16 32\n", "expected exactly one value");
  expect_dir_error("insn_addr 16\ninsn_count 3\n", "insn_count 3 does not match insn.bin (1 instructions)");
  expect_dir_error("insn_addr 16\n", "insn.bin: 20 bytes is not a multiple of 16", 20);
  EXPECT_THROW(read_raw_program_dir(temp_dir("empty")), InputError);
  EXPECT_THROW(read_binary_file("/nonexistent/vta/file.bin"), InputError);
}

#if defined(VTA_DISASM_EXE) && defined(VTA_RUN_MODEL_EXE)
struct Cmd {
  int status;
  std::string out;
};

Cmd run(const std::string& cmd) {
  Cmd r{-1, ""};
  FILE* f = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!f) return r;
  char buf[512];
  while (std::fgets(buf, sizeof buf, f)) r.out += buf;
  const int st = ::pclose(f);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

TEST(VtaTools, DisasmPrintsOrRejects) {
  const std::string d = temp_dir("tool");
  std::vector<uint8_t> words(32, 0);
  words[0] = 3;                                                // FINISH
  words[16] = 2 | (1 << 3);                                    // GEMM pop_prev
  write_binary_file(d + "/ok.bin", words);
  Cmd ok = run(std::string(VTA_DISASM_EXE) + " " + d + "/ok.bin");
  EXPECT_EQ(ok.status, 0);
  EXPECT_EQ(ok.out,
            "   0: FINISH | -\n"
            "   1: GEMM uop=[0,0) iter_out=0 iter_in=0 dst_factor=0,0 src_factor=0,0 wgt_factor=0,0 | pop_prev\n");
  Cmd missing = run(std::string(VTA_DISASM_EXE) + " " + d + "/missing.bin");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("missing.bin: cannot open"), std::string::npos) << missing.out;
  write_binary_file(d + "/odd.bin", std::vector<uint8_t>(18, 0));
  Cmd odd = run(std::string(VTA_DISASM_EXE) + " " + d + "/odd.bin");
  EXPECT_EQ(odd.status, 2);
  EXPECT_NE(odd.out.find("18 bytes is not a multiple of 16"), std::string::npos) << odd.out;
}

TEST(VtaTools, RunModelFromFilesAndDir) {
  const std::string d = temp_dir("runmodel");
  RawProgram p = matmul_raw();
  write_raw_program_dir(d + "/prog", p);
  Cmd r = run(std::string(VTA_RUN_MODEL_EXE) + " --dir " + d + "/prog --out " + d + "/out1.bin --stats");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("finished=1"), std::string::npos) << r.out;
  RawProgram expect = p;
  run_raw_program(expect);
  EXPECT_EQ(read_binary_file(d + "/out1.bin"), expect.dram);
  Cmd r2 = run(std::string(VTA_RUN_MODEL_EXE) + " " + d + "/prog/insn.bin " + d + "/prog/dram.bin --insn-addr " +
               std::to_string(p.insn_addr) + " --out " + d + "/out2.bin");
  EXPECT_EQ(r2.status, 0) << r2.out;
  EXPECT_EQ(read_binary_file(d + "/out2.bin"), expect.dram);
  // A deadlocked program exits 3 with the diagnosis; bad input exits 2.
  std::vector<uint8_t> dead(16, 0);
  dead[0] = 3 | (1 << 3);  // FINISH popping load->compute, never pushed
  write_binary_file(d + "/dead.bin", dead);
  write_binary_file(d + "/zero.bin", std::vector<uint8_t>(64, 0));
  Cmd r3 = run(std::string(VTA_RUN_MODEL_EXE) + " " + d + "/dead.bin " + d + "/zero.bin --insn-addr 0 --out " + d +
               "/o3.bin");
  EXPECT_EQ(r3.status, 3) << r3.out;
  EXPECT_NE(r3.out.find("deadlock"), std::string::npos) << r3.out;
  Cmd r4 = run(std::string(VTA_RUN_MODEL_EXE) + " " + d + "/dead.bin " + d + "/zero.bin --insn-addr 8 --out " + d +
               "/o4.bin");
  EXPECT_EQ(r4.status, 2) << r4.out;
  EXPECT_NE(r4.out.find("not a multiple of 16"), std::string::npos) << r4.out;
}
#endif

}  // namespace
}  // namespace cosim::vta
