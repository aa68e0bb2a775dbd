// Malformed .tflite input: every case is one line of cosim::InputError naming
// the file, what is wrong and where; never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "common/error.hpp"
#include "support/artifact_dir.hpp"
#include "support/cosim_cli.hpp"
#include "support/models.hpp"
#include "model_builder.hpp"
#include "tflite/layers.hpp"
#include "tflite/model.hpp"
#include "tflite/patch.hpp"
#include "tflite/reference.hpp"

using namespace cosim;
using namespace cosim::tflite;

namespace {

const std::string kName = "bad.tflite";

// The InputError message, or "" when parsing succeeded.
std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    parse_model(bytes.data(), bytes.size(), kName);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_one_line(const std::string& msg, std::initializer_list<std::string> parts) {
  ASSERT_FALSE(msg.empty()) << "no error";
  EXPECT_EQ(msg.rfind(kName + ": ", 0), 0u) << msg;  // starts with the file name
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  for (const std::string& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
}

uint32_t u32(const std::vector<uint8_t>& b, std::size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
void put_u32(std::vector<uint8_t>& b, std::size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

// Byte position of field `id` of the root table, found by hand from the wire
// format: root offset -> table -> soffset to its vtable -> voffset of the field.
std::size_t root_field_pos(const std::vector<uint8_t>& b, int id) {
  const uint32_t root = u32(b, 0);
  int32_t soff;
  std::memcpy(&soff, b.data() + root, 4);
  const std::size_t vtable = static_cast<std::size_t>(static_cast<int64_t>(root) - soff);
  uint16_t vo;
  std::memcpy(&vo, b.data() + vtable + 4 + 2 * static_cast<std::size_t>(id), 2);
  return root + vo;
}

using cosim::test::model_path;

}  // namespace

// A file larger than FlatBuffers can address is refused from its size,
// before it is read (a sparse file: no disk space used).
TEST(TfliteMalformed, FileLargerThanFlatBuffersAllowIsNotRead) {
  const std::string path = ::testing::TempDir() + "tflite_huge.tflite";
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "TFL3";
  std::filesystem::resize_file(path, uint64_t{1} << 31);
  try {
    load_model(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("file of 2147483648 bytes is larger than the FlatBuffers limit of 2147483647"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

TEST(TfliteMalformed, TruncatedFile) {
  const std::vector<uint8_t> good = tfltest::build(tfltest::one_conv_model());
  ASSERT_EQ(error_of(good), "");
  expect_one_line(error_of({}), {"truncated", "0 bytes"});
  expect_one_line(error_of(std::vector<uint8_t>(good.begin(), good.begin() + 7)), {"truncated", "7 bytes"});
  // Every shorter prefix is an error with one line, never a crash.
  for (std::size_t n = 8; n < good.size(); ++n) {
    const std::string msg = error_of(std::vector<uint8_t>(good.begin(), good.begin() + static_cast<long>(n)));
    expect_one_line(msg, {});
    if (HasFailure()) {
      ADD_FAILURE() << "at length " << n;
      break;
    }
  }
}

TEST(TfliteMalformed, TruncatedRealModel) {
  COSIM_REQUIRE_MODEL(model_path("resnet8_int8.tflite"));
  const std::vector<uint8_t> good = read_file_bytes(model_path("resnet8_int8.tflite"));
  for (std::size_t n : {std::size_t{8}, std::size_t{100}, good.size() / 2, good.size() - 4, good.size() - 1}) {
    const std::string msg = error_of(std::vector<uint8_t>(good.begin(), good.begin() + static_cast<long>(n)));
    expect_one_line(msg, {"truncated or corrupted"});
    EXPECT_NE(msg.find(std::to_string(n)), std::string::npos) << msg;  // names the file size
  }
}

TEST(TfliteMalformed, CorruptedRootOffset) {
  std::vector<uint8_t> b = tfltest::build(tfltest::one_conv_model());
  put_u32(b, 0, 0x7ffffff0u);
  expect_one_line(error_of(b), {"root table offset 2147483632", "byte offset 0", "outside"});
}

TEST(TfliteMalformed, CorruptedSubgraphsOffset) {
  std::vector<uint8_t> b = tfltest::build(tfltest::one_conv_model());
  const std::size_t pos = root_field_pos(b, 2);  // Model.subgraphs
  put_u32(b, pos, 0x00fffff0u);
  expect_one_line(error_of(b), {"model.subgraphs: offset at byte offset " + std::to_string(pos), "points outside the",
                                "truncated or corrupted"});
}

TEST(TfliteMalformed, CorruptedVectorLength) {
  std::vector<uint8_t> b = tfltest::build(tfltest::one_conv_model());
  const Model m = parse_model(b.data(), b.size(), kName);
  // The element count sits just before the first element of subgraphs[0].outputs.
  put_u32(b, m.subgraphs[0].outputs_file_offset - 4, 1000000u);
  expect_one_line(error_of(b), {"subgraphs[0].outputs: vector of 1000000 elements", "runs past the end",
                                ("byte offset " + std::to_string(m.subgraphs[0].outputs_file_offset - 4)).c_str()});
}

TEST(TfliteMalformed, WrongFileIdentifier) {
  tfltest::ModelSpec spec = tfltest::one_conv_model();
  spec.identifier = "TFL2";
  expect_one_line(error_of(tfltest::build(spec)), {"wrong file identifier \"TFL2\"", "byte offset 4", "\"TFL3\""});
  std::vector<uint8_t> b = tfltest::build(tfltest::one_conv_model());
  b[5] = 0x01;
  expect_one_line(error_of(b), {"wrong file identifier \"T\\x01L3\""});
}

TEST(TfliteMalformed, BufferIndexOutOfRange) {
  tfltest::ModelSpec spec = tfltest::one_conv_model();
  spec.tensors[1].buffer = 99;
  expect_one_line(error_of(tfltest::build(spec)),
                  {"subgraphs[0].tensors[1]", "'filter'", "buffer index 99 out of range", "5 buffers"});
}

// Names come from the file: a newline or quote in one must not break the
// one-line message (found by the fuzzer).
TEST(TfliteMalformed, NamesInMessagesAreEscaped) {
  tfltest::ModelSpec spec = tfltest::one_conv_model();
  spec.tensors[1].name = "fil\nter'\x01";
  spec.tensors[1].buffer = 99;
  expect_one_line(error_of(tfltest::build(spec)), {"'fil\\x0ater\\x27\\x01'", "buffer index 99"});
  spec = tfltest::one_conv_model();
  spec.tensors[2].name = "bi\nas";
  spec.buffers[3] = tfltest::le_bytes<int32_t>({4, 5});
  const std::vector<uint8_t> b = tfltest::build(spec);
  try {
    extract_layers(parse_model(b.data(), b.size(), kName));
    FAIL() << "no error";
  } catch (const InputError& e) {
    expect_one_line(e.what(), {"'bi\\x0aas'"});
  }
}

TEST(TfliteMalformed, TensorIndexOutOfRange) {
  tfltest::ModelSpec spec = tfltest::one_conv_model();
  spec.ops[0].inputs[1] = 50;
  expect_one_line(error_of(tfltest::build(spec)),
                  {"subgraphs[0].operators[0].inputs[1]", "tensor index 50 out of range", "4 tensors"});
  spec = tfltest::one_conv_model();
  spec.outputs = {-2};
  expect_one_line(error_of(tfltest::build(spec)), {"subgraphs[0].outputs[0]", "tensor index -2 out of range"});
  // -1 marks an absent optional operator input and is accepted.
  spec = tfltest::one_conv_model();
  spec.ops[0].inputs[2] = -1;
  EXPECT_EQ(error_of(tfltest::build(spec)), "");
}

TEST(TfliteMalformed, OpcodeIndexOutOfRange) {
  tfltest::ModelSpec spec = tfltest::one_conv_model();
  spec.ops[0].opcode_index = 3;
  expect_one_line(error_of(tfltest::build(spec)), {"operators[0]", "opcode_index 3 out of range", "1 operator codes"});
}

TEST(TfliteMalformed, BadEnumsAndQuantization) {
  tfltest::ModelSpec spec = tfltest::one_conv_model();
  spec.ops[0].options[0] = {0, 7, true};  // padding 7
  expect_one_line(error_of(tfltest::build(spec)), {"padding", "unknown value 7"});
  spec = tfltest::one_conv_model();
  spec.tensors[1].scale = {0.25f, 0.5f, 1.0f};  // 3 scales on a dimension of 1
  spec.tensors[1].zero_point = {0, 0, 0};
  expect_one_line(error_of(tfltest::build(spec)), {"tensors[1]", "3 per-channel scales"});
  spec = tfltest::one_conv_model();
  spec.tensors[0].zero_point = {1, 2};
  expect_one_line(error_of(tfltest::build(spec)), {"1 scales but 2 zero points"});
}

TEST(TfliteMalformed, ConstantSizeMismatch) {
  tfltest::ModelSpec spec = tfltest::one_conv_model();
  spec.buffers[3] = tfltest::le_bytes<int32_t>({4, 5});  // bias [1] with 8 bytes
  const std::vector<uint8_t> b = tfltest::build(spec);
  const Model m = parse_model(b.data(), b.size(), kName);
  try {
    extract_layers(m);
    FAIL() << "no error";
  } catch (const InputError& e) {
    expect_one_line(e.what(), {"'bias'", "holds 8 bytes", "1 x 4"});
  }
}

// Sizes from the file are bounded before anything of that size exists: a
// tensor declaring more elements than the limit is refused when the model is
// read, and a RESHAPE whose declared output does not hold its input's
// elements is refused before its output is allocated.
TEST(TfliteMalformed, HugeDeclaredShapesAreRefusedBeforeAllocation) {
  tfltest::ModelSpec spec = tfltest::one_conv_model();
  spec.tensors[3].shape = {1, 65536, 65536, 16};  // 2^36 elements: 64 GiB as int8
  expect_one_line(error_of(tfltest::build(spec)),
                  {"tensors[3]", "'output'", "[1,65536,65536,16]", "more than 67108864 elements"});
  spec.tensors[3].shape = {1, 8192, 8192, 1};  // 2^26: the limit itself is allowed
  EXPECT_EQ(error_of(tfltest::build(spec)), "");

  tfltest::ModelSpec r;
  r.codes = {{22, 22}};  // RESHAPE
  r.buffers.push_back({});
  r.buffers.push_back({});
  r.tensors = {{{1, 2, 2, 1}, 9, 1, "x", {0.5f}, {0}, 0}, {{1, 4096, 4096, 1}, 9, 2, "y", {0.5f}, {0}, 0}};
  r.inputs = {0};
  r.outputs = {1};
  r.ops = {{0, {0}, {1}, 0, {}}};
  const std::vector<uint8_t> b = tfltest::build(r);
  const Model m = parse_model(b.data(), b.size(), kName);
  try {
    run_reference(m, random_input(m, 1), quant::Rounding::kDouble);
    FAIL() << "a RESHAPE from 4 to 2^24 elements was run";
  } catch (const InputError& e) {
    expect_one_line(e.what(), {"operator 0 (RESHAPE)", "[1,2,2,1]", "[1,4096,4096,1]", "changes the element count"});
  }
}

TEST(TfliteMalformed, MissingFile) {
  try {
    load_model("/nonexistent/x.tflite");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.tflite: cannot open"), std::string::npos) << e.what();
  }
}

// Deterministic mutations of a real model: byte flips and 32-bit overwrites
// anywhere; each either parses (and then extracts or refuses cleanly) or
// throws InputError. A crash here fails the whole executable.
TEST(TfliteMalformed, RandomMutationsNeverCrash) {
  std::vector<uint8_t> good;
  if (std::filesystem::exists(model_path("kws_dscnn_int8.tflite")))
    good = read_file_bytes(model_path("kws_dscnn_int8.tflite"));
  else
    good = tfltest::build(tfltest::one_conv_model());
  std::mt19937 gen(7);
  int errors = 0, parsed = 0;
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> b = good;
    const int edits = 1 + static_cast<int>(gen() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = gen() % (b.size() - 4);
      if (gen() % 2)
        b[at] = static_cast<uint8_t>(gen());
      else
        put_u32(b, at & ~std::size_t{3}, gen());
    }
    try {
      const Model m = parse_model(b.data(), b.size(), kName);
      ++parsed;
      extract_layers(m);
    } catch (const InputError& e) {
      ++errors;
      ASSERT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
  EXPECT_GT(errors, 0);
  EXPECT_GT(parsed, 0);
}

#ifdef TFLITE_DUMP_EXE
// The dump tool keeps the tools' contract (common/tool_main.hpp): a file that
// is not a model is one line naming the tool, exit 2.
TEST(TfliteMalformed, DumpToolReportsBadInputInOneLine) {
  const std::filesystem::path bad = cosim::testing::artifact_dir("tflite") / "not_a_model.tflite";
  std::ofstream(bad) << "not a flatbuffer";
  const cosim::test::CliResult r = cosim::test::run_command(std::string(TFLITE_DUMP_EXE) + " " + bad.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out.rfind("tflite_dump: ", 0), 0u) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}
#endif
