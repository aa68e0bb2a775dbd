// Scenario loader: every problem is one InputError line naming file:line, the
// key path and what was expected; defaults, --set overrides and data sources.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include <filesystem>
#include <functional>
#include <fstream>
#include <string>

#include "common/error.hpp"
#include "scenario/resolved_yaml.hpp"
#include "scenario/scenario.hpp"
#include "scenario/buffer_addresses.hpp"
#include "support/expect_text.hpp"
#include "support/scratch_dir.hpp"
#include "support/text_file.hpp"
#include "tensor/tensor.hpp"

namespace fs = std::filesystem;
using cosim::DType;
using cosim::InputError;
using cosim::Layout;
using cosim::Tensor;
namespace sc = cosim::scenario;

namespace {

// A made-up target with the kind of op schema a real backend registers.
std::vector<sc::TargetSchema> targets() {
  sc::TargetSchema demo;
  demo.name = "demo";
  demo.ops = {"conv2d", "add"};
  demo.op_schema = [](const std::string& op) {
    sc::Schema s = sc::Schema::map();
    s.required("shapes", sc::Schema::map()
                             .required("input", sc::Schema::shape(4, 4, 1024))
                             .optional("kernel", sc::Schema::shape(2, 2, 11), "[3, 3]"));
    s.optional("quant", sc::Schema::map()
                            .optional("input", sc::schemas::quant_tensor(), "{scale: 0.5}")
                            .optional("filter_scales", sc::schemas::filter_scales(), "random"),
               "{}");
    s.optional("data", sc::Schema::map().optional("input", sc::schemas::data_source(), "random"), "{}");
    if (op == "conv2d") s.optional("stride", sc::Schema::integer(1, 4), "1");
    return s;
  };
  sc::TargetSchema other;
  other.name = "other";
  other.ops = {"copy"};
  // A DRAM-to-DRAM op: two inputs and an output (buffer_addresses).
  other.op_schema = [](const std::string&) {
    return sc::Schema::map().optional("addresses",
                                      sc::Schema::map()
                                          .optional("a", sc::Schema::integer(0, 0xffffffffll), "0x1000")
                                          .optional("b", sc::Schema::integer(0, 0xffffffffll), "0x2000")
                                          .optional("c", sc::Schema::integer(0, 0xffffffffll), "0x3000"),
                                      "{}");
  };
  return {demo, other};
}

std::string dir() { return cosim::test::scratch_dir("scenario_test"); }

std::string write(const std::string& name, const std::string& text) {
  const std::string path = dir() + "/" + name + ".yaml";
  cosim::test::write_text(path, text);
  return path;
}

const char* kValid =
    "name: demo_conv\n"          // 1
    "target: demo\n"             // 2
    "op: conv2d\n"               // 3
    "seed: 7\n"                  // 4
    "testbench:\n"               // 5
    "  dram_latency: 30\n"       // 6
    "  stall_probability: 0.1\n" // 7
    "shapes:\n"                  // 8
    "  input: [1, 8, 8, 16]\n"   // 9
    "quant:\n"                   // 10
    "  input: {scale: 0.25, zero_point: -3}\n"  // 11
    "  filter_scales: [0.5, 0.25]\n";           // 12

// Loads `text` (written as name.yaml) expecting an InputError whose message
// starts with "<file>:<line>: '<key>': " and contains `expected`.
void expect_error(const std::string& name, const std::string& text, int line, const std::string& key,
                  const std::string& expected, const std::vector<std::string>& overrides = {}) {
  const std::string path = write(name, text);
  try {
    sc::load_scenario(path, targets(), overrides);
    FAIL() << name << ": no error";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    const std::string head = path + ":" + std::to_string(line) + ": '" + key + "': ";
    EXPECT_EQ(msg.rfind(head, 0), 0u) << "expected prefix " << head << "\n got: " << msg;
    EXPECT_NE(msg.find(expected), std::string::npos) << "'" << expected << "' not in: " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return s.replace(pos, from.size(), to);
}

}  // namespace

TEST(Scenario, ValidFileWithDefaults) {
  const sc::Scenario s = sc::load_scenario(write("valid", kValid), targets());
  EXPECT_EQ(s.name, "demo_conv");
  EXPECT_EQ(s.target, "demo");
  EXPECT_EQ(s.op, "conv2d");
  EXPECT_EQ(s.seed, 7u);
  EXPECT_FALSE(s.requant.has_value());
  EXPECT_EQ(s.testbench.dram_latency, 30u);
  EXPECT_EQ(s.testbench.bytes_per_cycle, 8u);  // default
  EXPECT_DOUBLE_EQ(s.testbench.stall_probability, 0.1);
  EXPECT_EQ(s.testbench.timeout_cycles, 10000000u);  // default
  EXPECT_EQ(s["shapes"]["input"].as_ints(), (std::vector<int64_t>{1, 8, 8, 16}));
  EXPECT_EQ(s["shapes"]["kernel"].as_ints(), (std::vector<int64_t>{3, 3}));  // default
  EXPECT_DOUBLE_EQ(s["quant"]["input"]["scale"].as_float(), 0.25);
  EXPECT_EQ(s["quant"]["input"]["zero_point"].as_int(), -3);
  EXPECT_EQ(s["quant"]["filter_scales"].as_floats(), (std::vector<double>{0.5, 0.25}));
  EXPECT_EQ(s["stride"].as_int(), 1);
  EXPECT_EQ(s["data"]["input"].as_string(), "random");
  // Values remember where they came from.
  EXPECT_EQ(s["shapes"]["input"].loc.line, 9);
  EXPECT_EQ(s["shapes"]["input"].path, "shapes.input");
}

TEST(Scenario, NameDefaultsToFileStemAndRequantParses) {
  std::string text = replace(kValid, "name: demo_conv\n", "requant: tflite_single\n");
  const sc::Scenario s = sc::load_scenario(write("stem_name", text), targets());
  EXPECT_EQ(s.name, "stem_name");
  ASSERT_TRUE(s.requant.has_value());
  EXPECT_EQ(*s.requant, sc::Requant::kTfliteSingle);
}

TEST(Scenario, UnknownKeyNamesLineAndKey) {
  expect_error("unknown_top", std::string(kValid) + "strid: 2\n", 13, "strid",
               "unknown key; expected one of: name, description, target, op, seed, requant, testbench, output_format, shapes");
  expect_error("unknown_nested", replace(kValid, "  dram_latency: 30\n", "  dram_latncy: 30\n"), 6,
               "testbench.dram_latncy", "unknown key; expected one of: dram_latency, bytes_per_cycle");
  // An op-specific key is unknown for another op of the same target.
  expect_error("unknown_for_op", replace(std::string(kValid) + "stride: 2\n", "op: conv2d", "op: add"), 13, "stride",
               "unknown key");
}

TEST(Scenario, WrongTypeNamesLineAndKey) {
  expect_error("type_int", replace(kValid, "dram_latency: 30", "dram_latency: fast"), 6, "testbench.dram_latency",
               "expected an integer in [0, 100000], got 'fast'");
  expect_error("type_quoted_int", replace(kValid, "seed: 7", "seed: \"7\""), 4, "seed",
               "expected an integer >= 0, got '7'");
  expect_error("type_map", replace(kValid, "  input: [1, 8, 8, 16]", "  input: {n: 1}"), 9, "shapes.input",
               "expected a shape: a list of 4 integers in [1, 1024], got a map");
  expect_error("type_scale", replace(kValid, "scale: 0.25", "scale: big"), 11, "quant.input.scale",
               "expected a number > 0, got 'big'");
  expect_error("type_enum", replace(kValid, "seed: 7\n", "seed: 7\nrequant: vta8\n"), 5, "requant",
               "expected one of vta16|tflite_double|tflite_single|saturate, got 'vta8'");
}

TEST(Scenario, MissingKeyNamesLineAndKey) {
  // A missing key is reported at the map that should hold it.
  expect_error("missing_scale", replace(kValid, "{scale: 0.25, zero_point: -3}", "{zero_point: -3}"), 11,
               "quant.input.scale", "missing required key; expected a number > 0");
  expect_error("missing_shapes", replace(kValid, "shapes:\n  input: [1, 8, 8, 16]\n", ""), 1, "shapes",
               "missing required key; expected a map with keys input, kernel");
  expect_error("missing_target", replace(kValid, "target: demo\n", ""), 1, "target",
               "missing required key; expected one of demo|other");
}

TEST(Scenario, OutOfRangeNamesLineAndKey) {
  expect_error("range_prob", replace(kValid, "stall_probability: 0.1", "stall_probability: 1.5"), 7,
               "testbench.stall_probability", "expected a number in [0, 0.9], got '1.5'");
  expect_error("range_zp", replace(kValid, "zero_point: -3", "zero_point: -129"), 11, "quant.input.zero_point",
               "expected an integer in [-128, 127], got '-129'");
  expect_error("range_scale", replace(kValid, "scale: 0.25", "scale: 0"), 11, "quant.input.scale",
               "expected a number > 0, got '0'");
  expect_error("range_stride", std::string(kValid) + "stride: 9\n", 13, "stride",
               "expected an integer in [1, 4], got '9'");
}

TEST(Scenario, ImpossibleShapeNamesLineAndKey) {
  expect_error("shape_zero", replace(kValid, "[1, 8, 8, 16]", "[1, 0, 8, 16]"), 9, "shapes.input[1]",
               "expected an integer in [1, 1024], got '0'");
  expect_error("shape_rank", replace(kValid, "[1, 8, 8, 16]", "[8, 8, 16]"), 9, "shapes.input",
               "expected a shape: a list of 4 integers in [1, 1024], got a list");
  expect_error("shape_big", replace(kValid, "[1, 8, 8, 16]", "[1, 8, 8, 4096]"), 9, "shapes.input[3]",
               "got '4096'");
  // A backend's semantic check reports through Value::fail with the same form.
  const sc::Scenario s = sc::load_scenario(write("shape_semantic", kValid), targets());
  try {
    s["shapes"]["input"].fail("expected channels to be a multiple of 32, got 16");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), write("shape_semantic", kValid) + ":9: 'shapes.input': expected channels to be a multiple of 32, got 16");
  }
}

TEST(Scenario, TargetAndOpAreCheckedFirst) {
  expect_error("bad_target", replace(kValid, "target: demo", "target: gpu"), 2, "target",
               "expected one of demo|other, got 'gpu'");
  expect_error("bad_op", replace(kValid, "op: conv2d", "op: copy"), 3, "op", "expected one of conv2d|add, got 'copy'");
}

TEST(Scenario, YamlSyntaxErrorNamesLine) {
  const std::string path = write("syntax", "target: demo\nop: [conv2d\nseed: 1\n");
  try {
    sc::load_scenario(path, targets());
    FAIL();
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(path + ":", 0), 0u) << msg;
    EXPECT_NE(msg.find("YAML syntax error"), std::string::npos) << msg;
  }
  try {
    sc::load_scenario(dir() + "/absent.yaml", targets());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("absent.yaml: no such scenario file"), std::string::npos) << e.what();
  }
  try {
    sc::load_scenario(dir(), targets());  // a folder of scenarios, not one
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), dir() + ": a folder, not a scenario file (give one of its .yaml files; `cosim list "
                                             "--dir " + dir() + "` lists them)");
  }
  try {
    sc::load_scenario(write("list_top", "- a\n- b\n"), targets());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":1: '(top level)': expected a map"), std::string::npos) << e.what();
  }
}

// Found by tests/fuzz/scenario: messages quoting scalars, YAML parser
// messages or --set text held their control characters, so one error
// spanned lines. They are written as \xNN.
TEST(Scenario, ControlCharactersInMessagesAreEscaped) {
  expect_error("ctl_scalar", replace(kValid, "op: conv2d", "op: \"conv\\nx\""), 3, "op",
               "expected one of conv2d|add, got 'conv\\x0ax'");
  const std::string bad_escape = write("ctl_escape", "target: demo\nop: \"a\\\x01" "b\"\n");
  try {
    sc::load_scenario(bad_escape, targets());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), bad_escape + ":2: YAML syntax error: unknown escape character: \\x01");
  }
  try {
    sc::load_scenario(write("ctl_set", kValid), targets(), {"name=[a\nb"});
    FAIL();
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("--set name=[a\\x0ab: value is not valid YAML", 0), 0u) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST(Scenario, SetOverridesApplyBeforeValidation) {
  const std::string path = write("set", kValid);
  const sc::Scenario s = sc::load_scenario(
      path, targets(),
      {"testbench.dram_latency=5", "shapes.input=[2, 4, 4, 8]", "testbench.timeout_cycles=99", "quant.input.scale=2",
       "shapes.input.0=3", "stride=4"});
  EXPECT_EQ(s.testbench.dram_latency, 5u);
  EXPECT_EQ(s.testbench.timeout_cycles, 99u);
  EXPECT_EQ(s["shapes"]["input"].as_ints(), (std::vector<int64_t>{3, 4, 4, 8}));
  EXPECT_DOUBLE_EQ(s["quant"]["input"]["scale"].as_float(), 2.0);
  EXPECT_EQ(s["stride"].as_int(), 4);
  // A section missing from the file is created by --set.
  const std::string bare = write("set_bare", "target: demo\nop: add\nshapes: {input: [1, 1, 1, 8]}\n");
  const sc::Scenario b = sc::load_scenario(bare, targets(), {"testbench.bytes_per_cycle=16"});
  EXPECT_EQ(b.testbench.bytes_per_cycle, 16u);
  EXPECT_EQ(b.testbench.dram_latency, 20u);
}

TEST(Scenario, SetOverrideErrorsNameTheOverride) {
  const std::string path = write("set_err", kValid);
  auto expect_msg = [&](const std::vector<std::string>& sets, const std::string& expected) {
    try {
      sc::load_scenario(path, targets(), sets);
      FAIL() << expected;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), expected);
    }
  };
  expect_msg({"testbench.dram_latency=-1"},
             "--set testbench.dram_latency=-1: 'testbench.dram_latency': expected an integer in [0, 100000], got '-1'");
  expect_msg({"testbench.dram_latncy=1"},
             "--set testbench.dram_latncy=1: 'testbench.dram_latncy': unknown key; expected one of: dram_latency, "
             "bytes_per_cycle, stall_probability, timeout_cycles");
  expect_msg({"shapes.input=[1,2]"},
             "--set shapes.input=[1,2]: 'shapes.input': expected a shape: a list of 4 integers in [1, 1024], got a list");
  expect_msg({"seed.x=1"}, "--set seed.x=1: 'seed' is not a map, cannot set 'x'");
  expect_msg({"noequals"}, "--set noequals: expected key.path=value");
  expect_msg({"shapes.input.9=1"}, "--set shapes.input.9=1: 'shapes.input' is a list of 4 elements; expected an index, got '9'");
  // An index too long for any integer type is the same one-line error.
  expect_msg({"shapes.input.99999999999999999999=1"},
             "--set shapes.input.99999999999999999999=1: 'shapes.input' is a list of 4 elements; expected an index, "
             "got '99999999999999999999'");
}

// A shape is refused by its element count while it is validated: no tensor
// of that size is ever allocated, so the error is immediate and small.
TEST(Scenario, ShapeBeyondTheElementLimitIsRejectedBeforeAllocation) {
  const std::vector<sc::TargetSchema> wide = [] {
    sc::TargetSchema t;
    t.name = "demo";
    t.ops = {"conv2d"};
    t.op_schema = [](const std::string&) {
      return sc::Schema::map().required("shapes", sc::Schema::map().required("input", sc::Schema::shape(4, 4)));
    };
    return std::vector<sc::TargetSchema>{t};
  }();
  auto expect_limit = [&](const std::string& shape, bool rejected) {
    const std::string path = write("limit", "target: demo\nop: conv2d\nshapes:\n  input: " + shape + "\n");
    try {
      sc::load_scenario(path, wide);
      EXPECT_FALSE(rejected) << shape << " was accepted";
    } catch (const InputError& e) {
      EXPECT_TRUE(rejected) << shape << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(":4: 'shapes.input': shape of more than 16777216 elements"),
                std::string::npos)
          << e.what();
    }
  };
  expect_limit("[1, 1048576, 1048576, 1024]", true);
  expect_limit("[1, 4096, 4096, 64]", true);
  expect_limit("[1, 4096, 4096, 2]", true);   // 2^25
  expect_limit("[1, 4096, 4096, 1]", false);  // 2^24 exactly: the limit itself is allowed
  EXPECT_EQ(sc::kMaxShapeElements, int64_t{1} << 24);

  // A backend may derive a tensor's shape from several keys; make_tensor
  // refuses one beyond the limit at the data key, before allocating it.
  const sc::Scenario s = sc::load_scenario(write("limit_data", kValid), targets());
  try {
    sc::make_tensor(s, s["data"]["input"], DType::kFp32, {255, 255, 255, 255}, Layout::kNCHW, "x");
    FAIL() << "a 4.2 G-element tensor was made";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tensor 'x' of shape [255,255,255,255] has more than 16777216"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(sc::make_tensor(s, s["data"]["input"], DType::kInt8, {1, 8, 8, 16}, Layout::kNHWC, "x"));
}

TEST(Scenario, SeedArgumentWinsOverFile) {
  const sc::Scenario s = sc::load_scenario(write("seed", kValid), targets(), {}, 42);
  EXPECT_EQ(s.seed, 42u);
}

TEST(Scenario, RngIsSplitmix64) {
  // splitmix64 reference outputs for state 0 (published with the algorithm).
  sc::Rng r(0);
  EXPECT_EQ(r.next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(r.next(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(r.next(), 0x06c45d188009454full);
}

TEST(Scenario, RandomDataIsSeededPerTensor) {
  const sc::Scenario s = sc::load_scenario(write("data", kValid), targets());
  const sc::Value& src = s["data"]["input"];
  const Tensor a = sc::make_tensor(s, src, DType::kInt8, {1, 4, 4, 8}, Layout::kNHWC, "input");
  const Tensor b = sc::make_tensor(s, src, DType::kInt8, {1, 4, 4, 8}, Layout::kNHWC, "input");
  const Tensor c = sc::make_tensor(s, src, DType::kInt8, {1, 4, 4, 8}, Layout::kNHWC, "filter");
  EXPECT_EQ(a, b);
  EXPECT_NE(a.bytes(), c.bytes());
  const sc::Scenario s2 = sc::load_scenario(write("data", kValid), targets(), {}, 8);
  EXPECT_NE(a.bytes(), sc::make_tensor(s2, s2["data"]["input"], DType::kInt8, {1, 4, 4, 8}, Layout::kNHWC, "input").bytes());
  // Value i is lo + (splitmix64 output i % span), stream state = seed ^ FNV-1a(name).
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : std::string("input")) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  sc::Rng ref(7 ^ h);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(a.data<int8_t>()[i], static_cast<int8_t>(-128 + static_cast<int64_t>(ref.next() % 256)));
}

TEST(Scenario, RandomRangeIsRespectedAndChecked) {
  const std::string text = std::string(kValid) + "data:\n  input: {random: {min: -3, max: 4}}\n";
  const sc::Scenario s = sc::load_scenario(write("range", text), targets());
  const Tensor t = sc::make_tensor(s, s["data"]["input"], DType::kInt8, {1000}, Layout::kAny, "input");
  int lo = 127, hi = -128;
  for (int i = 0; i < 1000; ++i) {
    lo = std::min<int>(lo, t.data<int8_t>()[i]);
    hi = std::max<int>(hi, t.data<int8_t>()[i]);
  }
  EXPECT_EQ(lo, -3);
  EXPECT_EQ(hi, 4);
  const std::string bad = std::string(kValid) + "data:\n  input: {random: {min: -300}}\n";
  const std::string path = write("range_bad", bad);
  const sc::Scenario sb = sc::load_scenario(path, targets());
  try {
    sc::make_tensor(sb, sb["data"]["input"], DType::kInt8, {4}, Layout::kAny, "input");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":14: 'data.input.random': expected a range inside int8", 0), 0u) << e.what();
  }
}

// The message of the InputError `f` throws ("" and a failure when none).
std::string input_error_of(const std::function<void()>& f) { return cosim::test::what_of<InputError>(f); }

TEST(Scenario, UnsignedTensorsComeFromRandomAndNpy) {
  // random: the whole unsigned range by default, none of it negative.
  const sc::Scenario s = sc::load_scenario(write("unsigned", std::string(kValid) + "data:\n  input: random\n"), targets());
  const Tensor u8 = sc::make_tensor(s, s["data"]["input"], DType::kUint8, {4000}, Layout::kAny, "input");
  const auto [lo, hi] = std::minmax_element(u8.data<uint8_t>(), u8.data<uint8_t>() + 4000);
  EXPECT_EQ(*lo, 0);
  EXPECT_EQ(*hi, 255);
  const Tensor u32 = sc::make_tensor(s, s["data"]["input"], DType::kUint32, {4000}, Layout::kAny, "input");
  EXPECT_GT(*std::max_element(u32.data<uint32_t>(), u32.data<uint32_t>() + 4000), 0x80000000u);
  // 64-bit: the whole range (words above 2^63 unsigned, below -2^62 signed), or the range asked.
  const Tensor u64 = sc::make_tensor(s, s["data"]["input"], DType::kUint64, {4000}, Layout::kAny, "input");
  EXPECT_GT(*std::max_element(u64.data<uint64_t>(), u64.data<uint64_t>() + 4000), uint64_t{1} << 63);
  const Tensor i64 = sc::make_tensor(s, s["data"]["input"], DType::kInt64, {4000}, Layout::kAny, "input");
  EXPECT_LT(*std::min_element(i64.data<int64_t>(), i64.data<int64_t>() + 4000), -(int64_t{1} << 62));
  const sc::Scenario r = sc::load_scenario(write("range64", std::string(kValid) + "data:\n  input: {random: {min: -3, max: 5}}\n"), targets());
  const Tensor small = sc::make_tensor(r, r["data"]["input"], DType::kInt64, {4000}, Layout::kAny, "input");
  const auto [slo, shi] = std::minmax_element(small.data<int64_t>(), small.data<int64_t>() + 4000);
  EXPECT_EQ(*slo, -3);
  EXPECT_EQ(*shi, 5);

  // npy: a uint16 tensor is saved as '<u2' and taken back as uint16; a file of
  // another element type is one error.
  Tensor words(DType::kUint16, {3});
  words.data<uint16_t>()[0] = 0;
  words.data<uint16_t>()[1] = 40000;
  words.data<uint16_t>()[2] = 65535;
  cosim::write_npy(dir() + "/words.npy", words);
  const std::string path = write("unsigned_npy", std::string(kValid) + "data:\n  input: {npy: words.npy}\n");
  const sc::Scenario sn = sc::load_scenario(path, targets());
  const Tensor got = sc::make_tensor(sn, sn["data"]["input"], DType::kUint16, {3}, Layout::kAny, "input");
  EXPECT_EQ(got.dtype(), DType::kUint16);
  EXPECT_EQ(got.bytes(), words.bytes());
  EXPECT_NE(input_error_of([&] { sc::make_tensor(sn, sn["data"]["input"], DType::kUint8, {3}, Layout::kAny, "input"); })
                .find("words.npy holds '<u2' (uint16 or bf16 bits), expected uint8"),
            std::string::npos);
}


TEST(Scenario, InMemoryTensorsReplaceTheirDataSourceAndAreChecked) {
  Tensor t(DType::kInt8, {1, 2, 2, 8}, Layout::kNHWC);
  for (int i = 0; i < 32; ++i) t.data<int8_t>()[i] = static_cast<int8_t>(3 * i - 40);
  const std::string path = write("memory", std::string(kValid) + "data:\n  input: random\n");
  const sc::Scenario s = sc::load_scenario(path, targets(), {}, std::nullopt, {{"input", t}});
  const Tensor got = sc::make_tensor(s, s["data"]["input"], DType::kInt8, {1, 2, 2, 8}, Layout::kNHWC, "input");
  EXPECT_EQ(got.bytes(), t.bytes());
  const std::string shape_msg = input_error_of(
      [&] { sc::make_tensor(s, s["data"]["input"], DType::kInt8, {1, 4, 4, 8}, Layout::kNHWC, "input"); });
  EXPECT_NE(shape_msg.find("'data.input.npy': inputs['input'] has shape [1,2,2,8], expected [1,4,4,8]"),
            std::string::npos) << shape_msg;
  EXPECT_EQ(input_error_of([&] { sc::load_scenario(path, targets(), {}, std::nullopt, {{"inptu", t}}); }),
            path + ": inputs['inptu']: the scenario has no tensor of that name; its data keys: input");
}

TEST(Scenario, NpyDataIsRelativeToTheFileAndChecked) {
  Tensor t(DType::kInt8, {1, 2, 2, 8}, Layout::kNHWC);
  for (int i = 0; i < 32; ++i) t.data<int8_t>()[i] = static_cast<int8_t>(i - 16);
  fs::create_directories(dir() + "/npy");
  cosim::write_npy(dir() + "/npy/x.npy", t);
  const std::string text = std::string(kValid) + "data:\n  input: {npy: npy/x.npy}\n";
  const std::string path = write("npy", text);
  const sc::Scenario s = sc::load_scenario(path, targets());
  const Tensor got = sc::make_tensor(s, s["data"]["input"], DType::kInt8, {1, 2, 2, 8}, Layout::kNHWC, "input");
  EXPECT_EQ(got.bytes(), t.bytes());
  const std::string msg = input_error_of(
      [&] { sc::make_tensor(s, s["data"]["input"], DType::kInt8, {1, 4, 4, 8}, Layout::kNHWC, "input"); });
  EXPECT_EQ(msg.rfind(path + ":14: 'data.input.npy': ", 0), 0u) << msg;
  EXPECT_NE(msg.find("has shape [1,2,2,8], expected [1,4,4,8]"), std::string::npos) << msg;
  const std::string missing = write("npy_missing", std::string(kValid) + "data:\n  input: {npy: nope.npy}\n");
  const sc::Scenario sm = sc::load_scenario(missing, targets());
  try {
    sc::make_tensor(sm, sm["data"]["input"], DType::kInt8, {1, 2, 2, 8}, Layout::kNHWC, "input");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(missing + ":14: 'data.input.npy': ", 0), 0u) << e.what();
  }
  // A data source that is neither random nor npy is rejected by the schema.
  expect_error("npy_typo", std::string(kValid) + "data:\n  input: {nyp: x.npy}\n", 14, "data.input",
               "expected one of random or a map with keys random or a map with keys npy");
}

// A source in an MLI format: the .npy holds the format's container and the
// values convert to the tensor's (float32 as they are, int8 at its own
// quantization); the values are worked out here from the format definitions
// (spec/quantization.md s.3), not with cpp_model/mli.
TEST(Scenario, MliSourcesConvertToTheTensorsValues) {
  fs::create_directories(dir() + "/mli");
  Tensor fx(DType::kInt8, {1, 2, 2, 8}, Layout::kNHWC);
  for (int i = 0; i < 32; ++i) fx.data<int8_t>()[i] = static_cast<int8_t>(i * 8 - 128);
  cosim::write_npy(dir() + "/mli/fx8.npy", fx);
  const sc::Scenario s = sc::load_scenario(
      write("mli_fx8", std::string(kValid) + "data:\n  input: {npy: mli/fx8.npy, mli: fx8, frac_bits: 5}\n"), targets());
  // float32: q / 2^5.
  const Tensor f = sc::make_tensor(s, s["data"]["input"], DType::kFp32, {1, 2, 2, 8}, Layout::kNHWC, "input");
  for (int i = 0; i < 32; ++i) EXPECT_EQ(f.data<float>()[i], static_cast<float>(i * 8 - 128) / 32.0f) << i;
  // int8 at scale 0.25, zero point 3: round half away from zero, saturate.
  const Tensor q = sc::make_tensor(s, s["data"]["input"], DType::kInt8, {1, 2, 2, 8}, Layout::kNHWC, "input",
                                   sc::Int8Quant{0.25f, 3});
  for (int i = 0; i < 32; ++i) {
    const double v = (i * 8 - 128) / 32.0 / 0.25 + 3;
    const double r = v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5);
    EXPECT_EQ(q.data<int8_t>()[i], static_cast<int8_t>(std::clamp(r, -128.0, 127.0))) << i;
  }
  // sa32 into float32: (q - zero_point) * scale.
  Tensor sa(DType::kInt32, {4}, Layout::kAny);
  for (int i = 0; i < 4; ++i) sa.data<int32_t>()[i] = 1000 * i - 7;
  cosim::write_npy(dir() + "/mli/sa32.npy", sa);
  const sc::Scenario s32 = sc::load_scenario(
      write("mli_sa32", std::string(kValid) + "data:\n  input: {npy: mli/sa32.npy, mli: sa32, scale: 0.5, zero_point: -7}\n"),
      targets());
  const Tensor g = sc::make_tensor(s32, s32["data"]["input"], DType::kFp32, {4}, Layout::kAny, "input");
  for (int i = 0; i < 4; ++i) EXPECT_EQ(g.data<float>()[i], 500.0f * static_cast<float>(i)) << i;
}

// A wrong MLI source is one error line naming the key.
TEST(Scenario, MliSourceErrorsNameTheKey) {
  fs::create_directories(dir() + "/mli");
  Tensor fx(DType::kInt8, {4}, Layout::kAny);
  cosim::write_npy(dir() + "/mli/err.npy", fx);
  const auto error_of = [&](const std::string& name, const std::string& source, DType dtype,
                            std::optional<sc::Int8Quant> quant) {
    const std::string path = write(name, std::string(kValid) + "data:\n  input: " + source + "\n");
    const sc::Scenario s = sc::load_scenario(path, targets());
    return input_error_of([&] { sc::make_tensor(s, s["data"]["input"], dtype, {4}, Layout::kAny, "input", quant); });
  };
  EXPECT_NE(error_of("mli_nofrac", "{npy: mli/err.npy, mli: fx8}", DType::kFp32, {}).find("fx8 needs frac_bits"),
            std::string::npos);
  EXPECT_NE(error_of("mli_noscale", "{npy: mli/err.npy, mli: sa8}", DType::kFp32, {}).find("sa8 needs scale"),
            std::string::npos);
  EXPECT_NE(error_of("mli_mixed", "{npy: mli/err.npy, mli: sa8, scale: 1, frac_bits: 2}", DType::kFp32, {})
                .find("frac_bits belongs to the fx formats"),
            std::string::npos);
  const std::string container = error_of("mli_dtype", "{npy: mli/err.npy, mli: fx16, frac_bits: 2}", DType::kFp32, {});
  EXPECT_NE(container.find("fx16 data is int16, the file holds int8"), std::string::npos) << container;
  const std::string noquant = error_of("mli_noquant", "{npy: mli/err.npy, mli: fx8, frac_bits: 2}", DType::kInt8, {});
  EXPECT_NE(noquant.find("without one scale and zero point of its own"), std::string::npos) << noquant;
  EXPECT_EQ(noquant.find('\n'), std::string::npos) << noquant;
  expect_error("mli_unknown", std::string(kValid) + "data:\n  input: {npy: x.npy, mli: fx32}\n", 14, "data.input.mli",
               "expected one of fx8|fx16|sa8|sa32, got 'fx32'");
}

TEST(Scenario, FilterScalesAcceptTheThreeForms) {
  for (const char* form : {"random", "0.5", "[0.5, 0.25, 1.0]"}) {
    const sc::Scenario s =
        sc::load_scenario(write("fs", replace(kValid, "[0.5, 0.25]", form)), targets());
    EXPECT_TRUE(s["quant"].has("filter_scales"));
  }
  expect_error("fs_bad", replace(kValid, "[0.5, 0.25]", "[0.5, -1]"), 12, "quant.filter_scales",
               "expected one of random or a number > 0 or a list of at least 1 elements");
}

// yaml-cpp 0.7 loops forever (allocating) on a ',' at a document's top level
// outside any flow collection. Each text must end, within seconds, in one
// line of InputError naming the file and line (scenario file) or the --set.
// The load runs in a child so a regression fails here instead of hanging.
TEST(Scenario, AStrayCommaIsASyntaxErrorNotAHang) {
  struct Case {
    std::string text;
    std::vector<std::string> overrides;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {", x\n", {}, ":1: YAML syntax error"},
      {"# a comment\n, qume\nname: add\n", {}, ":2: YAML syntax error"},
      {"\"s\"\n,\n", {}, ":2: YAML syntax error"},
      {"[1]\n,\n", {}, ":2: YAML syntax error"},
      {"--- , x\n", {}, ":1: YAML syntax error"},
      {kValid, {"seed=,"}, "--set seed=,: value is not valid YAML"},
  };
  int k = 0;
  for (const Case& c : cases) {
    const std::string path = write("stray_comma_" + std::to_string(k++), c.text);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int code = 3;
      try {
        sc::load_scenario(path, targets(), c.overrides);
        code = 1;  // loaded: wrong
      } catch (const InputError& e) {
        const std::string msg = e.what();
        code = msg.find(c.expected) != std::string::npos && msg.find('\n') == std::string::npos ? 0 : 2;
        if (code) std::fprintf(stderr, "got: %s\n", msg.c_str());
      } catch (...) {
        code = 4;
      }
      std::_Exit(code);
    }
    int status = 0;
    bool ended = false;
    for (int i = 0; i < 200 && !ended; ++i) {  // 10 s
      ended = ::waitpid(pid, &status, WNOHANG) == pid;
      if (!ended) ::usleep(50000);
    }
    if (!ended) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      ADD_FAILURE() << "loading " << c.text << " did not end within 10 s";
      continue;
    }
    ASSERT_TRUE(WIFEXITED(status)) << c.text;
    EXPECT_EQ(WEXITSTATUS(status), 0) << c.text << " (1: it loaded, 2: another message, 4: another exception)";
  }
}

// The resolved YAML a run keeps beside its trace loads, from another folder,
// to the same scenario: every key and value (floats to the last bit), the
// relative npy: path made absolute from the scenario's folder, an override
// kept. In-memory tensors cannot be written back: empty.
TEST(Scenario, ResolvedYamlLoadsToTheSameScenarioFromAnywhere) {
  const std::string text = replace(kValid, "quant:\n", "data:\n  input: {npy: in/x.npy}\nquant:\n");
  const sc::Scenario a = sc::load_scenario(write("resolved", text), targets(), {"testbench.dram_latency=44"});
  const std::string yaml = sc::resolved_yaml(a);
  ASSERT_FALSE(yaml.empty());
  const fs::path elsewhere = fs::path(dir()) / "elsewhere";
  fs::create_directories(elsewhere);
  std::ofstream(elsewhere / "s.yaml") << yaml;
  const sc::Scenario b = sc::load_scenario((elsewhere / "s.yaml").string(), targets());
  EXPECT_EQ(b.name, "demo_conv");
  EXPECT_EQ(b.seed, uint64_t{7});
  EXPECT_EQ(static_cast<int64_t>(b.testbench.dram_latency), 44);
  EXPECT_EQ(b.testbench.stall_probability, 0.1);
  EXPECT_EQ(b["shapes"]["input"].as_ints(), (std::vector<int64_t>{1, 8, 8, 16}));
  EXPECT_EQ(b["quant"]["input"]["scale"].as_float(), 0.25);
  EXPECT_EQ(b["quant"]["filter_scales"].as_floats(), (std::vector<double>{0.5, 0.25}));
  EXPECT_EQ(b["data"]["input"]["npy"].as_string(), (fs::path(dir()) / "in" / "x.npy").string());
  const sc::Scenario m = sc::load_scenario(write("resolved_memory", text), targets(), {}, {},
                                           {{"input", cosim::Tensor(cosim::DType::kInt8, {1, 8, 8, 16}, cosim::Layout::kAny)}});
  EXPECT_TRUE(sc::resolved_yaml(m).empty());
}

// An op's buffers: aligned, inside DRAM, the output clear of the inputs;
// each rule's failure is the key's one line, with the file and line.
TEST(BufferAddresses, AlignmentDramAndOverlapEachNameTheirKey) {
  auto load = [](const std::string& name, const std::string& addresses) {
    return sc::load_scenario(write(name, "target: other\nop: copy\naddresses: " + addresses + "\n"), targets());
  };
  const sc::Scenario ok = load("buf_ok", "{a: 0x1000, b: 0x2000, c: 0x3000}");
  EXPECT_EQ(sc::buffer_addresses(ok, {"a", "b", "c"}, 0x1000, 16, 64 << 20),
            (std::vector<uint64_t>{0x1000, 0x2000, 0x3000}));
  auto expect_fail = [&](const sc::Scenario& s, uint64_t bytes, uint64_t align, const std::string& key,
                         const std::string& words) {
    try {
      sc::buffer_addresses(s, {"a", "b", "c"}, bytes, align, 64 << 20);
      FAIL() << words << ": no error";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(":3: 'addresses." + key + "': "), std::string::npos) << msg;
      EXPECT_NE(msg.find(words), std::string::npos) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
  };
  expect_fail(load("buf_align", "{a: 0x1000, b: 0x2008, c: 0x3000}"), 0x100, 16, "b",
              "expected a 16-byte aligned address");
  expect_fail(load("buf_dram", "{a: 0x1000, b: 0x2000, c: 0x3fff000}"), 0x2000, 16, "c",
              "expected the 8192 bytes from it to fit in DRAM (64 MiB)");
  // C's first 0x1000 bytes lie inside A's 0x2000 (the inputs may overlap each other).
  expect_fail(load("buf_overlap", "{a: 0x1000, b: 0x1000, c: 0x2000}"), 0x2000, 16, "c",
              "expected c not to overlap a");
  EXPECT_EQ(sc::buffer_addresses(load("buf_touch", "{a: 0x1000, b: 0x1000, c: 0x3000}"), {"a", "b", "c"}, 0x2000,
                                 16, 64 << 20)[2], 0x3000u);  // ends touching: no overlap
}
