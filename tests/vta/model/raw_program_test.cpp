// Raw program directories and the two command-line tools.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

#include "common/error.hpp"
#include "support/artifact_dir.hpp"
#include "matmul_program.hpp"
#include "vta/raw_program.hpp"
#include "vta/raw_program_replay.hpp"

namespace cosim::vta {
namespace {

// Under the build tree (tests/support/artifact_dir.hpp), one folder a test
// case, emptied when it starts: nothing lands in the system's temp folder.
std::string temp_dir(const std::string& name) {
  const std::string d = cosim::testing::artifact_dir("vta_raw/" + name).string();
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
  // A folder per test case: ctest runs the cases that call this in parallel.
  const std::string d =
      temp_dir(std::string("bad-") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
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

// A meta file's numbers are decimal or 0x hex (common/parse_number.hpp): a
// leading zero does not make octal, and an overflowing value is bad input.
TEST(VtaRawProgram, MetaNumbersAreDecimalOrHexNeverOctal) {
  const auto insn_addr = [](const std::string& value) {
    const std::string d = temp_dir("numbers");
    std::ofstream(d + "/meta") << "insn_addr " << value << "\n";
    write_binary_file(d + "/insn.bin", std::vector<uint8_t>(16, 0));
    write_binary_file(d + "/dram.bin", std::vector<uint8_t>(64, 0));
    return read_raw_program_dir(d).insn_addr;
  };
  EXPECT_EQ(insn_addr("0160"), 160u);  // octal would read 112, also 16-aligned
  EXPECT_EQ(insn_addr("0x40"), 64u);
  expect_dir_error("insn_addr 99999999999999999999\n", "expected a non-negative integer");
  expect_dir_error("insn_addr +16\n", "expected a non-negative integer");
}

// Addresses and sizes from a meta file are checked, overflow-safe, against
// the documented limit before any memory is taken.
TEST(VtaRawProgram, HostileAddressesAreRejectedBeforeAllocating) {
  expect_dir_error("insn_addr 0xfffffffffffffff0\n", "ends past the 64 MiB limit");
  expect_dir_error("insn_addr 0x4000000\n", "ends past the 64 MiB limit");  // exactly the limit + 16 bytes
  const std::vector<uint8_t> insn(16, 0);
  EXPECT_THROW(make_raw_program(insn, {}, kMaxRawImageBytes), InputError);
  EXPECT_NO_THROW(make_raw_program(insn, {}, 4096));
}

TEST(VtaRawProgram, OversizedFileIsRefusedBeforeReading) {
  const std::string d = temp_dir("big");
  write_binary_file(d + "/f.bin", std::vector<uint8_t>(100, 0));
  try {
    read_binary_file(d + "/f.bin", 64);
    FAIL() << "a 100-byte file passed a 64-byte limit";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("100 bytes, more than the limit of 64 bytes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_binary_file(d + "/f.bin", 100).size(), 100u);
}

// A directory without meta: the instructions go after the image at the next
// 4 KiB boundary; the trace writes spec/vta-isa.md's host registers (0x0c
// address, 0x08 count, 0x00 start) and checks the whole image.
TEST(VtaRawTrace, DirectoryWithoutMetaPlacesTheStreamAfterTheImage) {
  const std::string d = temp_dir("nometa");
  std::vector<uint8_t> words(32, 0);
  words[0] = 3;  // FINISH
  words[16] = 3;
  write_binary_file(d + "/insn.bin", words);
  write_binary_file(d + "/dram.bin", std::vector<uint8_t>(5000, 0x11));
  ASSERT_TRUE(is_raw_program_dir(d));
  const trace::Trace t = raw_program_trace(d, 1000);
  EXPECT_EQ(t.target, "vta");
  EXPECT_EQ(t.config.at("expected"), "functional_model");
  ASSERT_EQ(t.steps.size(), 7u);
  EXPECT_EQ(t.steps[0].op, trace::Op::kMemLoad);
  EXPECT_EQ(t.steps[0].addr, 0u);
  ASSERT_EQ(t.steps[0].data.size(), 8192u + 32u);
  EXPECT_EQ(t.steps[0].data[4999], 0x11);
  EXPECT_EQ(t.steps[0].data[8192], 3);
  EXPECT_EQ(t.steps[1].addr, 0x0cu);
  EXPECT_EQ(t.steps[1].value, 8192u);
  EXPECT_EQ(t.steps[2].addr, 0x08u);
  EXPECT_EQ(t.steps[2].value, 2u);
  EXPECT_EQ(t.steps[3].addr, 0x00u);
  EXPECT_EQ(t.steps[3].value, 1u);
  EXPECT_EQ(t.steps[4].op, trace::Op::kWaitDone);
  EXPECT_EQ(t.steps[4].value, 1000u);
  EXPECT_EQ(t.steps[5].op, trace::Op::kMemCheck);
  EXPECT_EQ(t.steps[5].tensor.name, "dram");
  EXPECT_EQ(t.steps[5].data, t.steps[0].data);  // two FINISHes change nothing
  EXPECT_EQ(t.steps[6].op, trace::Op::kMemDump);
}

// Without dram_expected.bin the expected image is the functional model's:
// the matmul program's output region, computed in matmul_program.hpp from
// the matrices (not by the model), must be in it.
TEST(VtaRawTrace, ExpectedImageComesFromTheModelOrTheFile) {
  const std::string d = temp_dir("selfcheck");
  const RawProgram p = matmul_raw();
  write_raw_program_dir(d, p);
  const trace::Trace t = raw_program_trace(d, 1000);
  const trace::Step* check = nullptr;
  for (const auto& st : t.steps) {
    if (st.op == trace::Op::kMemCheck) check = &st;
  }
  ASSERT_NE(check, nullptr);
  ASSERT_EQ(check->data.size(), p.dram.size());
  testing::MatmulCase c = testing::make_matmul_case(9);
  EXPECT_TRUE(std::equal(c.expect.begin(), c.expect.end(), check->data.begin() + c.out.byte_addr));
  EXPECT_NE(check->data, p.dram);  // the program writes DRAM: the check can fail

  write_binary_file(d + "/dram_expected.bin", std::vector<uint8_t>(p.dram.size(), 7));
  const trace::Trace f = raw_program_trace(d, 1000);
  EXPECT_EQ(f.config.at("expected"), "dram_expected.bin");
  write_binary_file(d + "/dram_expected.bin", std::vector<uint8_t>(p.dram.size() - 1, 7));
  EXPECT_THROW(raw_program_trace(d, 1000), InputError);
}

TEST(VtaRawTrace, ProgramTheModelRejectsIsBadInput) {
  const std::string d = temp_dir("rejected");
  std::vector<uint8_t> words(16, 0);
  words[0] = 5;  // undefined opcode
  write_binary_file(d + "/insn.bin", words);
  write_binary_file(d + "/dram.bin", std::vector<uint8_t>(64, 0));
  try {
    raw_program_trace(d, 1000);
    FAIL() << "an undefined opcode was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the functional model rejects the program"), std::string::npos) << e.what();
  }
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
  // A meta file whose address would wrap the image size: one line, exit 2
  // (it once corrupted the heap).
  write_raw_program_dir(d + "/wrap", p);
  std::ofstream(d + "/wrap/meta") << "insn_addr 0xfffffffffffffff0\n";
  Cmd r5 = run(std::string(VTA_RUN_MODEL_EXE) + " --dir " + d + "/wrap --out " + d + "/o5.bin");
  EXPECT_EQ(r5.status, 2) << r5.out;
  EXPECT_NE(r5.out.find("ends past the 64 MiB limit"), std::string::npos) << r5.out;
}
#endif

}  // namespace
}  // namespace cosim::vta
