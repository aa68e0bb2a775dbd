// Trace format: round trip, strict validation of every malformed line (file:line
// and what was expected), and the raw VTA program conversion.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "common/error.hpp"
#include "support/scratch_dir.hpp"
#include "support/text_file.hpp"
#include "trace/trace.hpp"

namespace fs = std::filesystem;
using cosim::DType;
using cosim::InputError;
using cosim::Layout;
using cosim::Tensor;
using cosim::test::read_text;
using cosim::test::write_text;
namespace trace = cosim::trace;

namespace {

// A fresh trace directory per case, with its blobs/ (support/scratch_dir.hpp).
std::string fresh_trace_dir(const std::string& name) {
  const std::string d = cosim::test::fresh_dir("trace_test", name);
  fs::create_directories(fs::path(d) / "blobs");
  return d;
}

void write_bytes(const std::string& path, std::size_t n, uint8_t fill = 0) {
  trace::write_file_bytes(path, std::vector<uint8_t>(n, fill));
}

// Expects read_trace(dir) to fail with a message containing every fragment.
void expect_error(const std::string& dir, const std::vector<std::string>& fragments) {
  try {
    trace::read_trace(dir);
    FAIL() << "no error for " << dir;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    for (const auto& f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "'" << f << "' not in: " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line expected: " << msg;
  }
}

}  // namespace

TEST(Trace, RoundTripKeepsEveryStep) {
  trace::Trace t;
  t.target = "testdut";
  t.config["dram_latency"] = "7";
  t.config["scenario"] = "demo";
  t.mem_load(0x1000, {1, 2, 3, 4, 5}, "input");
  t.reg_write(0x0c, 0xdeadbeef);
  t.stream_send("in0", {9, 8, 7});
  t.wait_done(12345);
  Tensor e(DType::kInt16, {1, 2, 2, 3}, Layout::kNCHW);
  for (int i = 0; i < 12; ++i) e.data<int16_t>()[i] = static_cast<int16_t>(i * 1000 - 5000);
  t.mem_check(0x2000, e, "out");
  Tensor s(DType::kFp32, {3});
  s.data<float>()[0] = 1.5f;
  s.data<float>()[1] = -2.0f;
  s.data<float>()[2] = 0.25f;
  t.stream_check("out0", s, "y");
  t.stream_check("out1", s, "z", 4);  // packets of one float each
  t.mem_dump(0, 64, "dram_out.bin");

  const std::string dir = fresh_trace_dir("roundtrip");
  trace::write_trace(t, dir);
  const trace::Trace r = trace::read_trace(dir);
  EXPECT_EQ(r.target, "testdut");
  EXPECT_EQ(r.config.at("dram_latency"), "7");
  EXPECT_EQ(r.config.at("scenario"), "demo");
  ASSERT_EQ(r.steps.size(), 8u);
  EXPECT_EQ(r.steps[0].op, trace::Op::kMemLoad);
  EXPECT_EQ(r.steps[0].addr, 0x1000u);
  EXPECT_EQ(r.steps[0].data, (std::vector<uint8_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(r.steps[1].op, trace::Op::kRegWrite);
  EXPECT_EQ(r.steps[1].addr, 0x0cu);
  EXPECT_EQ(r.steps[1].value, 0xdeadbeefu);
  EXPECT_EQ(r.steps[2].op, trace::Op::kStreamSend);
  EXPECT_EQ(r.steps[2].stream, "in0");
  EXPECT_EQ(r.steps[2].data, (std::vector<uint8_t>{9, 8, 7}));
  EXPECT_EQ(r.steps[3].op, trace::Op::kWaitDone);
  EXPECT_EQ(r.steps[3].value, 12345u);
  EXPECT_EQ(r.steps[4].op, trace::Op::kMemCheck);
  EXPECT_EQ(r.steps[4].addr, 0x2000u);
  EXPECT_EQ(r.steps[4].tensor.name, "out");
  EXPECT_EQ(r.steps[4].tensor.dtype, DType::kInt16);
  EXPECT_EQ(r.steps[4].tensor.shape, (std::vector<int64_t>{1, 2, 2, 3}));
  EXPECT_EQ(r.steps[4].tensor.layout, Layout::kNCHW);
  EXPECT_EQ(trace::Trace::expected_tensor(r.steps[4]), e);
  EXPECT_EQ(r.steps[5].op, trace::Op::kStreamCheck);
  EXPECT_EQ(r.steps[5].stream, "out0");
  EXPECT_EQ(trace::Trace::expected_tensor(r.steps[5]), s);
  EXPECT_EQ(r.steps[5].value, 0u);  // compared whole
  EXPECT_EQ(r.steps[6].stream, "out1");
  EXPECT_EQ(r.steps[6].value, 4u);  // packets of 4 bytes, TLAST ending each
  EXPECT_EQ(r.steps[7].op, trace::Op::kMemDump);
  EXPECT_EQ(r.steps[7].value, 64u);
  EXPECT_EQ(r.steps[7].file, "dram_out.bin");
  EXPECT_THROW(t.stream_check("out1", s, "z", 5), cosim::InputError);  // 12 bytes are no packets of 5
  // Lines are numbered for error messages: header, comment, target and 2 config lines come first.
  EXPECT_EQ(r.steps[0].line, 6);
}

TEST(Trace, TextIsOneStepPerLine) {
  trace::Trace t;
  t.target = "x";
  t.reg_write(0x8, 3);
  t.wait_done(10);
  const std::string dir = fresh_trace_dir("text");
  trace::write_trace(t, dir);
  const std::string all = read_text(fs::path(dir) / "trace.txt");
  EXPECT_NE(all.find("cosim-trace 1\n"), std::string::npos);
  EXPECT_NE(all.find("target x\n"), std::string::npos);
  EXPECT_NE(all.find("reg_write 0x8 0x3\n"), std::string::npos);
  EXPECT_NE(all.find("wait_done 10\n"), std::string::npos);
}

struct BadLine {
  const char* name;
  const char* line;
  std::vector<std::string> fragments;
};

// A trace of `head` (its lines before) and b.line, beside one blob of
// `blob_bytes` zeros at `blob`: read_trace names trace.txt:LINE of b.line and
// every fragment.
void expect_bad_line(const BadLine& b, const std::string& head, const std::string& blob, std::size_t blob_bytes) {
  const std::string dir = fresh_trace_dir(b.name);
  write_bytes(dir + "/" + blob, blob_bytes);
  write_text(dir + "/trace.txt", head + b.line + "\n");
  std::vector<std::string> frags = b.fragments;
  frags.push_back("trace.txt:" + std::to_string(std::count(head.begin(), head.end(), '\n') + 1) + ":");
  expect_error(dir, frags);
}

class TraceBadLine : public ::testing::TestWithParam<BadLine> {};

TEST_P(TraceBadLine, NamesFileLineAndExpectation) {
  expect_bad_line(GetParam(), "cosim-trace 1\ntarget testdut\n# comment\n", "blobs/a.bin", 16);
}

INSTANTIATE_TEST_SUITE_P(
    Lines, TraceBadLine,
    ::testing::Values(
        BadLine{"unknown", "poke 0x10 1", {"unknown step 'poke'", "expected target|config|mem_load"}},
        BadLine{"arity", "reg_write 0x10", {"'reg_write' expects 2 argument(s)", "got 1"}},
        BadLine{"number", "reg_write 0x1g 5", {"expected register offset", "got '0x1g'"}},
        BadLine{"reg32", "reg_write 0x0 0x100000000", {"expected 32-bit register value", "0xffffffff"}},
        BadLine{"budget0", "wait_done 0", {"expected a cycle budget > 0"}},
        BadLine{"dtype", "mem_check 0x0 blobs/a.bin int9 16 any out", {"expected dtype int8|int16|int32|bf16|fp32|uint8|uint16|uint32", "'int9'"}},
        BadLine{"shape", "mem_check 0x0 blobs/a.bin int8 4,0 any out", {"expected shape as comma-separated positive integers", "'4,0'"}},
        BadLine{"layout", "mem_check 0x0 blobs/a.bin int8 16 nhwc out", {"layout nhwc needs a 4-D shape"}},
        BadLine{"size", "mem_check 0x0 blobs/a.bin int32 2,3 any out", {"has 16 bytes, expected 24", "int32 [2,3]"}},
        BadLine{"missing", "mem_load 0x0 blobs/none.bin", {"blob 'blobs/none.bin' not found"}},
        BadLine{"escape", "mem_load 0x0 ../a.bin", {"expected a blob path relative to the trace directory", "'../a.bin'"}},
        BadLine{"absolute", "mem_load 0x0 /etc/passwd", {"expected a blob path relative"}},
        BadLine{"stream", "stream_send in/0 blobs/a.bin", {"expected stream name", "'in/0'"}},
        // Shapes whose byte count overflows 64 bits (signed overflow in
        // TensorDesc::numel before the blob size check), seen while writing
        // tests/fuzz/trace, and the limits on sizes and address ranges.
        BadLine{"hugeshape", "mem_check 0x0 blobs/a.bin int8 99999999999,99999999999,99999999999,99999999999 any out",
                {"tensor int8 [99999999999,99999999999,99999999999,99999999999] is larger than the limit of 1073741824 bytes"}},
        BadLine{"hugeelems", "stream_check s blobs/a.bin int32 268435456,2 any out",
                {"tensor int32 [268435456,2] is larger than the limit of 1073741824 bytes"}},
        BadLine{"hugeblocked", "mem_check 0x0 blobs/a.bin int8 1,16384,16384,1 nchw4096c out",
                {"tensor int8 [1,16384,16384,1 in nchw4096c] is larger than the limit"}},
        BadLine{"pitchsmall", "mem_check 0x0 blobs/a.bin int8 1,2,1,8 nhwc_pitch7 out",
                {"row pitch 7 of nhwc_pitch7 is smaller than a row of [1,2,1,8] (8 bytes)"}},
        BadLine{"pitch0", "mem_check 0x0 blobs/a.bin int8 1,2,1,8 nhwc_pitch0 out",
                {"expected layout", "'nhwc_pitch0'"}},
        BadLine{"pitchhex", "mem_check 0x0 blobs/a.bin int8 1,2,1,8 nhwc_pitch0x10 out",
                {"expected layout", "nhwc_pitch<P>"}},
        BadLine{"pitch3d", "mem_check 0x0 blobs/a.bin int8 2,1,8 nhwc_pitch16 out", {"needs a 4-D shape"}},
        BadLine{"pitchstream", "stream_check s blobs/a.bin int8 1,2,1,8 nhwc_pitch16 out",
                {"a channel-blocked or row-pitched layout needs mem_check"}},
        BadLine{"packets0", "stream_check s blobs/a.bin int8 16 any out packets=0",
                {"expected packets=BYTES (the bytes of each packet, TLAST on its last), got 'packets=0'"}},
        BadLine{"packetsword", "stream_check s blobs/a.bin int8 16 any out tlast",
                {"expected packets=BYTES", "got 'tlast'"}},
        BadLine{"packetsuneven", "stream_check s blobs/a.bin int8 16 any out packets=5",
                {"packets=5: the check's 16 bytes are no whole number of packets"}},
        BadLine{"packetsmem", "mem_check 0x0 blobs/a.bin int8 16 any out packets=4",
                {"'mem_check' expects 6 argument(s)", "got 7"}},
        BadLine{"hugepitch", "mem_check 0x0 blobs/a.bin int8 1,16,1,1 nhwc_pitch1073741824 out",
                {"tensor int8 [1,16,1,1 in nhwc_pitch1073741824] is larger than the limit"}},
        BadLine{"dumplen", "mem_dump 0x0 0x40000001 out.bin", {"expected length in bytes", "at most 0x40000000"}},
        BadLine{"dumpwrap", "mem_dump 0xfffffffffffffff0 32 out.bin", {"address 0xfffffffffffffff0 + 32 bytes wraps"}},
        BadLine{"loadwrap", "mem_load 0xfffffffffffffff8 blobs/a.bin", {"address 0xfffffffffffffff8 + 16 bytes wraps"}},
        BadLine{"checkwrap", "mem_check 0xfffffffffffffff8 blobs/a.bin int8 16 any out", {"+ 16 bytes wraps"}},
        BadLine{"blobdir", "mem_load 0x0 blobs", {"blob 'blobs' not found", "expected a regular file"}},
        // Host steps that read (README: reg_check OFFSET EXPECTED MASK NAME,
        // reg_poll OFFSET EXPECTED MASK MAX_CYCLES NAME, wait_irq MAX_CYCLES).
        BadLine{"checkarity", "reg_check 0x0 0x2 0x2", {"'reg_check' expects 4 argument(s)", "got 3"}},
        BadLine{"checkextra", "reg_check 0x0 0x2 0x2 CTRL 5", {"'reg_check' expects 4 argument(s)", "got 5"}},
        BadLine{"checkoffset", "reg_check 0xg 0x2 0x2 CTRL", {"expected register offset", "got '0xg'"}},
        BadLine{"checkoffset32", "reg_check 0x100000000 0x2 0x2 CTRL", {"expected register offset", "0xffffffff"}},
        BadLine{"checkexpected", "reg_check 0x0 two 0x2 CTRL", {"expected 32-bit expected value", "got 'two'"}},
        BadLine{"checkexpected32", "reg_check 0x0 0x100000000 0x2 CTRL", {"expected 32-bit expected value", "0xffffffff"}},
        BadLine{"checkmask", "reg_check 0x0 0x2 -1 CTRL", {"expected 32-bit mask", "got '-1'"}},
        BadLine{"checkmask0", "reg_check 0x0 0x2 0 CTRL", {"expected a mask with at least one bit set", "got '0'"}},
        BadLine{"checkname", "reg_check 0x0 0x2 0x2 CTRL-0", {"expected register name ([A-Za-z0-9_.]+)", "got 'CTRL-0'"}},
        BadLine{"checkname2", "reg_check 0x0 0x2 0x2 ap/ctrl", {"expected register name", "got 'ap/ctrl'"}},
        BadLine{"pollarity", "reg_poll 0x0 0x2 0x2 CTRL", {"'reg_poll' expects 5 argument(s)", "got 4"}},
        BadLine{"polloffset", "reg_poll x 0x2 0x2 100 CTRL", {"expected register offset", "got 'x'"}},
        BadLine{"pollexpected", "reg_poll 0x0 0x1z 0x2 100 CTRL", {"expected 32-bit expected value", "got '0x1z'"}},
        BadLine{"pollmask", "reg_poll 0x0 0x2 0x200000000 100 CTRL", {"expected 32-bit mask", "got '0x200000000'"}},
        BadLine{"pollmask0", "reg_poll 0x0 0x2 0x0 100 CTRL", {"expected a mask with at least one bit set"}},
        BadLine{"pollbudget", "reg_poll 0x0 0x2 0x2 many CTRL", {"expected cycle budget", "got 'many'"}},
        BadLine{"pollbudget0", "reg_poll 0x0 0x2 0x2 0 CTRL", {"expected a cycle budget > 0, got 0"}},
        BadLine{"pollname", "reg_poll 0x0 0x2 0x2 100 CTRL!", {"expected register name", "got 'CTRL!'"}},
        BadLine{"irqarity", "wait_irq", {"'wait_irq' expects 1 argument(s)", "got 0"}},
        BadLine{"irqextra", "wait_irq 100 200", {"'wait_irq' expects 1 argument(s)", "got 2"}},
        BadLine{"irqbudget", "wait_irq 1e6", {"expected cycle budget", "got '1e6'"}},
        BadLine{"irqbudget0", "wait_irq 0", {"expected a cycle budget > 0, got 0"}}),
    [](const ::testing::TestParamInfo<BadLine>& i) { return std::string(i.param.name); });

// LAYOUT nhwc_pitch<P> (one channel group of a TF2 HC16W map): round trip
// through trace.txt, and element (n, h, w, c) at (n*H + h)*P + (w*C + c)*size,
// written out by hand here.
TEST(Trace, RowPitchedCheckRoundTripsAndAddressesRows) {
  Tensor e(DType::kInt16, {2, 3, 4, 5}, Layout::kNHWC);
  for (int i = 0; i < 120; ++i) e.data<int16_t>()[i] = static_cast<int16_t>(i - 60);
  trace::Trace t;
  t.target = "testdut";
  t.mem_check_rows(0x300, e, "group1", 100);
  EXPECT_THROW(t.mem_check_rows(0x300, e, "narrow", 39), std::invalid_argument);  // a row is 4*5*2 = 40 bytes
  EXPECT_THROW(t.mem_check_rows(0x300, Tensor(DType::kInt8, {4, 5}), "flat", 100), std::invalid_argument);
  const std::string dir = fresh_trace_dir("pitch");
  trace::write_trace(t, dir);
  const std::string text = read_text(dir + "/trace.txt");
  EXPECT_NE(text.find("mem_check 0x300 blobs/000_group1.bin int16 2,3,4,5 nhwc_pitch100 group1"), std::string::npos)
      << text;
  const trace::Trace back = trace::read_trace(dir);
  ASSERT_EQ(back.steps.size(), 1u);
  const trace::TensorDesc& d = back.steps[0].tensor;
  EXPECT_EQ(d.row_pitch, 100u);
  EXPECT_EQ(d.channel_block, 0);
  EXPECT_EQ(d.layout, Layout::kNHWC);
  EXPECT_TRUE(d.strided());
  EXPECT_EQ(back.steps[0].data, e.bytes());
  EXPECT_EQ(d.memory_bytes(), 5u * 100 + 40);  // 6 rows: the last one's 40 bytes
  EXPECT_EQ(d.memory_offset(0), 0u);
  // (n 1, h 2, w 3, c 4): row 1*3 + 2 = 5, in-row element 3*5 + 4 = 19.
  EXPECT_EQ(d.memory_offset(((1 * 3 + 2) * 4 + 3) * 5 + 4), 5u * 100 + 19 * 2);
  // (n 0, h 1, w 0, c 0): the second row's first element.
  EXPECT_EQ(d.memory_offset(20), 100u);
  EXPECT_FALSE(trace::TensorDesc{}.strided());
  // A pitch of one row is a dense check.
  t.mem_check_rows(0x300, e, "dense", 40);
  EXPECT_EQ(t.steps.back().tensor.row_pitch, 0u);
  EXPECT_FALSE(t.steps.back().tensor.strided());
}

// Found by tests/fuzz/trace: a blob path holding a NUL byte was accepted
// and opened by its prefix (blobs/a.bin), and a trace read with a long blob
// path could not be written back (its blob name passed the file system's
// 255-byte limit).
TEST(Trace, BlobPathsWithControlCharactersAreRejected) {
  const std::string dir = fresh_trace_dir("nulpath");
  write_bytes(dir + "/blobs/a.bin", 16);
  write_text(dir + "/trace.txt", std::string("cosim-trace 1\ntarget testdut\nmem_load 0x0 blobs/a.bin") +
                                     std::string(1, '\0') + "x\n");
  expect_error(dir, {"trace.txt:3:", "expected a blob path relative to the trace directory", "a.bin\\x00x"});
}

TEST(Trace, LongBlobPathsAreWrittenBack) {
  const std::string dir = fresh_trace_dir("longpath");
  std::string sub = "blobs";
  for (int i = 0; i < 30; ++i) sub += "/d" + std::to_string(i) + "_abcdefgh";
  fs::create_directories(dir + "/" + sub);
  write_bytes(dir + "/" + sub + "/in.bin", 8, 7);
  write_text(dir + "/trace.txt", "cosim-trace 1\ntarget testdut\nmem_load 0x40 " + sub + "/in.bin\n");
  const trace::Trace t = trace::read_trace(dir);
  const std::string out = fresh_trace_dir("longpath_out");
  trace::write_trace(t, out);
  const trace::Trace back = trace::read_trace(out);
  ASSERT_EQ(back.steps.size(), 1u);
  EXPECT_EQ(back.steps[0].addr, 0x40u);
  EXPECT_EQ(back.steps[0].data, std::vector<uint8_t>(8, 7));
}

TEST(Trace, HeaderAndTargetAreRequired) {
  std::string dir = fresh_trace_dir("noheader");
  write_text(dir + "/trace.txt", "target x\nwait_done 5\n");
  expect_error(dir, {"trace.txt:1:", "expected the header 'cosim-trace 1'", "got 'target'"});
  dir = fresh_trace_dir("version");
  write_text(dir + "/trace.txt", "cosim-trace 3\n");
  expect_error(dir, {"trace.txt:1:", "unsupported format version 3", "expected 1 to 2"});
  dir = fresh_trace_dir("version0");
  write_text(dir + "/trace.txt", "cosim-trace 0\n");
  expect_error(dir, {"trace.txt:1:", "unsupported format version 0"});
  dir = fresh_trace_dir("notarget");
  write_text(dir + "/trace.txt", "cosim-trace 1\nwait_done 5\n");
  expect_error(dir, {"no 'target NAME' line"});
  dir = fresh_trace_dir("empty");
  write_text(dir + "/trace.txt", "");
  expect_error(dir, {"file is empty"});
  dir = fresh_trace_dir("nothing");
  fs::remove(dir + "/trace.txt");
  expect_error(dir, {"no trace.txt"});
}

// More than kPackAbove blobs: packed into blobs/NNN_pack.bin ranges
// (format 2), identical bytes stored once; every step reads back as written.
TEST(Trace, ManyBlobsArePackedAndIdenticalOnesStoredOnce) {
  trace::Trace t;
  t.target = "testdut";
  const std::size_t n = trace::kPackAbove + 36;  // 100 loads, then 100 checks
  std::vector<std::vector<uint8_t>> distinct;
  for (std::size_t i = 0; i < n; ++i) {
    // Every fourth load repeats the bytes of load 0; the others differ.
    std::vector<uint8_t> b(64 + i, static_cast<uint8_t>(i));
    if (i % 4 == 0) b = std::vector<uint8_t>(64, 0);
    t.mem_load(0x1000 * i, b, "in" + std::to_string(i));
  }
  for (std::size_t i = 0; i < n; ++i) {
    Tensor e(DType::kInt8, {1, 2, 2, 4});
    for (int k = 0; k < 16; ++k) e.data<int8_t>()[k] = static_cast<int8_t>(i * 3 + k);
    t.mem_check(0x100000 + 0x100 * i, e, "out" + std::to_string(i));
  }
  const std::string dir = fresh_trace_dir("packed");
  trace::write_trace(t, dir);
  const std::string text = read_text(dir + "/trace.txt");
  EXPECT_NE(text.find("\ncosim-trace 2\n"), std::string::npos) << text.substr(0, 200);
  EXPECT_NE(text.find("mem_load 0x0 blobs/000_pack.bin@0:64\n"), std::string::npos);
  EXPECT_NE(text.find("mem_load 0x4000 blobs/000_pack.bin@0:64\n"), std::string::npos) << "load 4 repeats load 0";
  std::size_t files = 0;
  uintmax_t bytes = 0;
  for (const auto& e : fs::directory_iterator(dir + "/blobs")) {
    ++files;
    bytes += fs::file_size(e.path());
    EXPECT_EQ(e.path().filename(), "000_pack.bin");
  }
  EXPECT_EQ(files, 1u);
  // The distinct loads (i not a multiple of 4: 64 + i bytes each, plus load
  // 0's 64) and every check's 16 bytes.
  uintmax_t want = 64 + 16 * n;
  for (std::size_t i = 0; i < n; ++i) want += i % 4 ? 64 + i : 0;
  EXPECT_EQ(bytes, want);
  const trace::Trace back = trace::read_trace(dir);
  ASSERT_EQ(back.steps.size(), t.steps.size());
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    EXPECT_EQ(back.steps[i].op, t.steps[i].op) << i;
    EXPECT_EQ(back.steps[i].addr, t.steps[i].addr) << i;
    EXPECT_EQ(back.steps[i].data, t.steps[i].data) << i;
    EXPECT_EQ(back.steps[i].tensor.name, t.steps[i].tensor.name) << i;
  }
  // Written again (a replay's folder), still packed and equal.
  const std::string again = fresh_trace_dir("packed_again");
  trace::write_trace(back, again);
  const trace::Trace back2 = trace::read_trace(again);
  ASSERT_EQ(back2.steps.size(), t.steps.size());
  for (std::size_t i = 0; i < t.steps.size(); ++i) EXPECT_EQ(back2.steps[i].data, t.steps[i].data) << i;
  // clear_trace_dir takes the pack file for one of a trace's own.
  EXPECT_TRUE(trace::clear_trace_dir(dir).empty());
  EXPECT_FALSE(fs::exists(dir + "/blobs/000_pack.bin"));
}

// At kPackAbove blobs or fewer: one file each, format 1, as before.
TEST(Trace, FewBlobsKeepAFileEach) {
  trace::Trace t;
  t.target = "testdut";
  for (std::size_t i = 0; i < trace::kPackAbove; ++i) t.mem_load(0x1000 * i, std::vector<uint8_t>(8, 1), "in");
  const std::string dir = fresh_trace_dir("unpacked");
  trace::write_trace(t, dir);
  const std::string text = read_text(dir + "/trace.txt");
  EXPECT_NE(text.find("\ncosim-trace 1\n"), std::string::npos);
  EXPECT_EQ(text.find('@'), std::string::npos);
  EXPECT_EQ(static_cast<std::size_t>(std::distance(fs::directory_iterator(dir + "/blobs"), fs::directory_iterator())),
            trace::kPackAbove);
}

// Blob ranges (format 2): malformed or outside their file, one line naming
// trace.txt:LINE (the lines of TraceBadLine's kind, after a format-2 header
// beside a 32-byte pack file).
class TraceBadRange : public ::testing::TestWithParam<BadLine> {};

TEST_P(TraceBadRange, NamesFileLineAndExpectation) {
  expect_bad_line(GetParam(), "cosim-trace 2\ntarget testdut\n", "blobs/000_pack.bin", 32);
}

INSTANTIATE_TEST_SUITE_P(
    Ranges, TraceBadRange,
    ::testing::Values(
        BadLine{"range_nocolon", "mem_load 0x0 blobs/000_pack.bin@16", {"expected a blob range FILE@OFFSET:LENGTH (decimal)", "'blobs/000_pack.bin@16'"}},
        BadLine{"range_hex", "mem_load 0x0 blobs/000_pack.bin@0x10:4", {"expected a blob range FILE@OFFSET:LENGTH"}},
        BadLine{"range_negative", "mem_load 0x0 blobs/000_pack.bin@-1:4", {"expected a blob range"}},
        BadLine{"range_empty", "mem_load 0x0 blobs/000_pack.bin@:", {"expected a blob range"}},
        BadLine{"range_twenty", "mem_load 0x0 blobs/000_pack.bin@0:18446744073709551616", {"expected a blob range"}},
        BadLine{"range_past", "mem_load 0x0 blobs/000_pack.bin@16:17", {"blob range 'blobs/000_pack.bin@16:17' ends past the end of 'blobs/000_pack.bin' (32 bytes)"}},
        BadLine{"range_offset", "mem_load 0x0 blobs/000_pack.bin@33:0", {"ends past the end"}},
        BadLine{"range_wrap", "mem_load 0x0 blobs/000_pack.bin@16:9999999999999999999", {"ends past the end"}},
        BadLine{"range_checksize", "mem_check 0x0 blobs/000_pack.bin@0:8 int8 16 any out", {"has 8 bytes, expected 16"}},
        BadLine{"range_missing", "mem_load 0x0 blobs/001_pack.bin@0:8", {"blob 'blobs/001_pack.bin' not found"}},
        BadLine{"range_escape", "mem_load 0x0 ../000_pack.bin@0:8", {"expected a blob path relative to the trace directory", "'../000_pack.bin'"}}),
    [](const ::testing::TestParamInfo<BadLine>& i) { return std::string(i.param.name); });

TEST(Trace, RangesReadTheirBytesAndVersionOneKeepsAtSignsInNames) {
  std::string dir = fresh_trace_dir("range_ok");
  std::vector<uint8_t> bytes(32);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i);
  trace::write_file_bytes(dir + "/blobs/000_pack.bin", bytes);
  write_text(dir + "/trace.txt", "cosim-trace 2\ntarget testdut\nmem_load 0x40 blobs/000_pack.bin@5:3\n"
                                 "mem_load 0x80 blobs/000_pack.bin@32:0\n");
  trace::Trace t = trace::read_trace(dir);
  ASSERT_EQ(t.steps.size(), 2u);
  EXPECT_EQ(t.steps[0].data, (std::vector<uint8_t>{5, 6, 7}));
  EXPECT_TRUE(t.steps[1].data.empty());
  dir = fresh_trace_dir("at_v1");
  write_bytes(dir + "/blobs/a@0:4.bin", 8, 9);
  write_text(dir + "/trace.txt", "cosim-trace 1\ntarget testdut\nmem_load 0x0 blobs/a@0:4.bin\n");
  t = trace::read_trace(dir);
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_EQ(t.steps[0].data, std::vector<uint8_t>(8, 9));
}

TEST(Trace, WriterRefusesWhatTheReaderWouldReject) {
  trace::Trace t;
  t.target = "x";
  t.config["scenario"] = "has space";
  EXPECT_THROW(trace::write_trace(t, fresh_trace_dir("refuse1")), std::invalid_argument);
  t.config.clear();
  Tensor e(DType::kInt8, {1});
  t.mem_check(0, e, "out/0");
  EXPECT_THROW(trace::write_trace(t, fresh_trace_dir("refuse2")), std::invalid_argument);
}

// The host steps that read, as the README writes them: reg_check OFFSET
// EXPECTED MASK NAME, reg_poll OFFSET EXPECTED MASK MAX_CYCLES NAME,
// wait_irq MAX_CYCLES; written by the builders, read back field by field.
TEST(Trace, RegisterReadStepsRoundTrip) {
  trace::Trace t;
  t.target = "testdut";
  t.reg_write(0x0, 0x1);
  t.reg_poll(0x0, 0x2, 0x2, 5000, "CONTROL.done");
  t.reg_check(0x8, 0x400, 0xffffffff, "LENGTH");
  t.wait_irq(123456);
  t.reg_check(0x18, 0xdeadbeef, 0x8, "STATUS");
  const std::string dir = fresh_trace_dir("regread");
  trace::write_trace(t, dir);
  const std::string text = read_text(dir + "/trace.txt");
  EXPECT_NE(text.find("\nreg_poll 0x0 0x2 0x2 5000 CONTROL.done\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nreg_check 0x8 0x400 0xffffffff LENGTH\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nwait_irq 123456\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nreg_check 0x18 0xdeadbeef 0x8 STATUS\n"), std::string::npos) << text;

  const trace::Trace r = trace::read_trace(dir);
  ASSERT_EQ(r.steps.size(), 5u);
  EXPECT_EQ(r.steps[1].op, trace::Op::kRegPoll);
  EXPECT_EQ(r.steps[1].addr, 0x0u);
  EXPECT_EQ(r.steps[1].expected, 0x2u);
  EXPECT_EQ(r.steps[1].mask, 0x2u);
  EXPECT_EQ(r.steps[1].value, 5000u);
  EXPECT_EQ(r.steps[1].reg_name, "CONTROL.done");
  EXPECT_EQ(r.steps[2].op, trace::Op::kRegCheck);
  EXPECT_EQ(r.steps[2].addr, 0x8u);
  EXPECT_EQ(r.steps[2].expected, 0x400u);
  EXPECT_EQ(r.steps[2].mask, 0xffffffffu);
  EXPECT_EQ(r.steps[2].reg_name, "LENGTH");
  EXPECT_EQ(r.steps[3].op, trace::Op::kWaitIrq);
  EXPECT_EQ(r.steps[3].value, 123456u);
  EXPECT_EQ(r.steps[4].op, trace::Op::kRegCheck);
  EXPECT_EQ(r.steps[4].addr, 0x18u);
  EXPECT_EQ(r.steps[4].expected, 0xdeadbeefu);  // bits outside the mask are kept as written
  EXPECT_EQ(r.steps[4].mask, 0x8u);
  EXPECT_EQ(r.steps[4].reg_name, "STATUS");
  // header, comment, target: the steps start on line 4.
  EXPECT_EQ(r.steps[2].line, 6);
  EXPECT_STREQ(trace::op_name(trace::Op::kRegCheck), "reg_check");
  EXPECT_STREQ(trace::op_name(trace::Op::kRegPoll), "reg_poll");
  EXPECT_STREQ(trace::op_name(trace::Op::kWaitIrq), "wait_irq");

  // Written again from what was read: the same text.
  const std::string again = fresh_trace_dir("regread_again");
  trace::write_trace(r, again);
  EXPECT_EQ(read_text(again + "/trace.txt"), text);
}

// Decimal numbers are read as well as hex (README: "decimal or 0x hex").
TEST(Trace, RegisterReadStepsAcceptDecimal) {
  const std::string dir = fresh_trace_dir("regdec");
  write_text(dir + "/trace.txt",
             "cosim-trace 1\ntarget testdut\nreg_check 8 1024 4294967295 LENGTH  # comment\n"
             "reg_poll 0 2 2 77 ap_ctrl\nwait_irq 9\n");
  const trace::Trace r = trace::read_trace(dir);
  ASSERT_EQ(r.steps.size(), 3u);
  EXPECT_EQ(r.steps[0].addr, 8u);
  EXPECT_EQ(r.steps[0].expected, 1024u);
  EXPECT_EQ(r.steps[0].mask, 0xffffffffu);
  EXPECT_EQ(r.steps[1].value, 77u);
  EXPECT_EQ(r.steps[1].reg_name, "ap_ctrl");
  EXPECT_EQ(r.steps[2].value, 9u);
}

TEST(Trace, WriterRefusesBadRegisterSteps) {
  trace::Trace t;
  t.target = "x";
  t.reg_check(0x0, 1, 1, "CTRL-0");  // '-' is not in a register name
  EXPECT_THROW(trace::write_trace(t, fresh_trace_dir("refuse_reg1")), std::invalid_argument);
  t.steps.clear();
  t.reg_check(0x0, 1, 0, "CTRL");  // mask 0 compares nothing
  EXPECT_THROW(trace::write_trace(t, fresh_trace_dir("refuse_reg2")), std::invalid_argument);
  t.steps.clear();
  t.reg_poll(0x0, 1, 1, 0, "CTRL");  // no budget
  EXPECT_THROW(trace::write_trace(t, fresh_trace_dir("refuse_reg3")), std::invalid_argument);
  t.steps.clear();
  t.wait_irq(0);
  EXPECT_THROW(trace::write_trace(t, fresh_trace_dir("refuse_reg4")), std::invalid_argument);
  t.steps.clear();
  t.reg_poll(0x0, 1, 1, 10, "");
  EXPECT_THROW(trace::write_trace(t, fresh_trace_dir("refuse_reg5")), std::invalid_argument);
}

// scenario.yaml rides along: written when the trace has one, read back,
// deleted by clear_trace_dir like the files a trace writes (not listed as
// foreign), and absent when the trace has none.
TEST(Trace, TheScenarioBesideTheTraceRoundTripsAndIsCleared) {
  const std::string dir = fresh_trace_dir("scenario");
  cosim::trace::Trace t;
  t.target = "testdut";
  t.wait_done(100);
  t.scenario = "target: testdut\nop: add\n";
  cosim::trace::write_trace(t, dir);
  EXPECT_EQ(cosim::trace::read_trace(dir).scenario, t.scenario);
  EXPECT_TRUE(cosim::trace::clear_trace_dir(dir).empty());
  EXPECT_FALSE(fs::exists(dir + "/scenario.yaml"));
  t.scenario.clear();
  cosim::trace::write_trace(t, dir);
  EXPECT_FALSE(fs::exists(dir + "/scenario.yaml"));
  EXPECT_TRUE(cosim::trace::read_trace(dir).scenario.empty());
  fs::remove_all(dir);
}
