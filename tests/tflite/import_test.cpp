// Importer: what it reads from hand-built flatbuffers and from the shared
// MLPerf Tiny models (facts from shared/models/README.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>

#include "common/error.hpp"
#include "model_builder.hpp"
#include "support/expect_text.hpp"
#include "support/models.hpp"
#include "tflite/layers.hpp"
#include "tflite/model.hpp"
#include "tflite/patch.hpp"

using namespace cosim;
using namespace cosim::tflite;

namespace {

Model parse(const std::vector<uint8_t>& bytes, const std::string& name = "mem.tflite") {
  return parse_model(bytes.data(), bytes.size(), name);
}

using cosim::test::expect_contains;
using cosim::test::model_path;
using cosim::test::what_of;

std::map<std::string, int> op_histogram(const Model& m) {
  std::map<std::string, int> h;
  for (const Operator& op : m.subgraphs[0].operators) ++h[op_name(op.code)];
  return h;
}

// One check per {operator, count}: how often the first subgraph has it.
void expect_op_counts(const Model& m, std::initializer_list<std::pair<std::string, int>> counts) {
  const std::map<std::string, int> h = op_histogram(m);
  for (const auto& [op, n] : counts) EXPECT_EQ(h.at(op), n) << op;
}

}  // namespace

TEST(TfliteImport, OperatorCodeIsMaxOfBuiltinAndDeprecated) {
  tfltest::ModelSpec m = tfltest::one_conv_model();
  // Older converters fill only the deprecated byte; newer ones write the
  // int32 field and clamp the byte to 127 (PLACEHOLDER_FOR_GREATER_OP_CODES).
  m.codes = {{3, 0}, {0, 4}, {127, 150}, {2, 2}};
  m.ops[0].opcode_index = 0;
  const Model model = parse(tfltest::build(m));
  ASSERT_EQ(model.operator_codes.size(), 4u);
  EXPECT_EQ(model.operator_codes[0], 3);
  EXPECT_EQ(model.operator_codes[1], 4);
  EXPECT_EQ(model.operator_codes[2], 150);
  EXPECT_EQ(model.operator_codes[3], 2);
  EXPECT_EQ(model.subgraphs[0].operators[0].code, kConv2d);
}

TEST(TfliteImport, ReadsTensorsQuantizationAndBuffers) {
  tfltest::ModelSpec m = tfltest::one_conv_model();
  m.tensors[1] = {{2, 1, 1, 1}, 9, 2, "filter", {0.25f, 0.5f}, {0, 0}, 0};
  m.buffers[2] = tfltest::le_bytes<int8_t>({2, -7});
  const Model model = parse(tfltest::build(m));
  EXPECT_EQ(model.version, 3u);
  ASSERT_EQ(model.buffers.size(), 5u);
  EXPECT_TRUE(model.buffers[0].empty());
  const SubGraph& sg = model.subgraphs[0];
  EXPECT_EQ(sg.name, "main");
  EXPECT_EQ(sg.inputs, std::vector<int32_t>({0}));
  EXPECT_EQ(sg.outputs, std::vector<int32_t>({3}));
  ASSERT_EQ(sg.tensors.size(), 4u);
  const TensorInfo& in = sg.tensors[0];
  EXPECT_EQ(in.name, "input");
  EXPECT_EQ(in.shape, std::vector<int32_t>({1, 2, 2, 1}));
  EXPECT_EQ(in.type, static_cast<int8_t>(TensorType::kInt8));
  EXPECT_EQ(in.buffer, 1u);
  EXPECT_EQ(in.quant.scale, std::vector<float>({0.5f}));
  EXPECT_EQ(in.quant.zero_point, std::vector<int64_t>({1}));
  const TensorInfo& f = sg.tensors[1];
  EXPECT_EQ(f.quant.scale, std::vector<float>({0.25f, 0.5f}));
  EXPECT_EQ(f.quant.quantized_dimension, 0);
  const Tensor ft = constant_tensor(model, 0, 1);
  EXPECT_EQ(ft.dtype(), DType::kInt8);
  EXPECT_EQ(ft.shape(), std::vector<int64_t>({2, 1, 1, 1}));
  EXPECT_EQ(ft.data<int8_t>()[0], 2);
  EXPECT_EQ(ft.data<int8_t>()[1], -7);
  const Tensor bt = constant_tensor(model, 0, 2);
  EXPECT_EQ(bt.dtype(), DType::kInt32);
  EXPECT_EQ(bt.data<int32_t>()[0], 4);
  EXPECT_EQ(sg.tensors[2].type, static_cast<int8_t>(TensorType::kInt32));
  // A tensor without data is not a constant.
  EXPECT_THROW(constant_tensor(model, 0, 0), InputError);
}

TEST(TfliteImport, ReadsConv2DOptions) {
  tfltest::ModelSpec m = tfltest::one_conv_model();
  m.ops[0].options = {{0, 0, true}, {1, 2, false}, {2, 3, false}, {3, 3, true}, {4, 4, false}, {5, 5, false}};
  const Model model = parse(tfltest::build(m));
  const Operator& op = model.subgraphs[0].operators[0];
  EXPECT_EQ(op.inputs, std::vector<int32_t>({0, 1, 2}));
  EXPECT_EQ(op.outputs, std::vector<int32_t>({3}));
  EXPECT_EQ(op.options_type, 1);
  const auto* o = std::get_if<Conv2DOptions>(&op.options);
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->padding, PaddingType::kSame);
  EXPECT_EQ(o->stride_w, 2);
  EXPECT_EQ(o->stride_h, 3);
  EXPECT_EQ(o->activation, FusedActivation::kRelu6);
  EXPECT_EQ(o->dilation_w, 4);
  EXPECT_EQ(o->dilation_h, 5);
}

TEST(TfliteImport, DilationDefaultsToOneWhenAbsent) {
  tfltest::ModelSpec m = tfltest::one_conv_model();  // writes no dilation fields
  const Model model = parse(tfltest::build(m));
  const auto* o = std::get_if<Conv2DOptions>(&model.subgraphs[0].operators[0].options);
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->padding, PaddingType::kValid);
  EXPECT_EQ(o->dilation_w, 1);
  EXPECT_EQ(o->dilation_h, 1);
}

TEST(TfliteImport, ReadsDepthwiseAndAddOptions) {
  tfltest::ModelSpec m = tfltest::one_conv_model();
  m.codes = {{4, 4}, {0, 0}};
  m.tensors.push_back({{1, 2, 2, 1}, 9, 0, "sum", {1.0f}, {0}, 0});
  m.ops[0].options_type = 2;
  m.ops[0].options = {{0, 1, true}, {1, 1, false}, {2, 2, false}, {3, 1, false},
                      {4, 1, true}, {5, 3, false}, {6, 2, false}};
  m.ops.push_back({1, {3, 0}, {4}, 11, {{0, 3, true}}});
  const Model model = parse(tfltest::build(m));
  const auto& ops = model.subgraphs[0].operators;
  ASSERT_EQ(ops.size(), 2u);
  const auto* d = std::get_if<DepthwiseConv2DOptions>(&ops[0].options);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->padding, PaddingType::kValid);
  EXPECT_EQ(d->stride_w, 1);
  EXPECT_EQ(d->stride_h, 2);
  EXPECT_EQ(d->depth_multiplier, 1);
  EXPECT_EQ(d->activation, FusedActivation::kRelu);
  EXPECT_EQ(d->dilation_w, 3);
  EXPECT_EQ(d->dilation_h, 2);
  EXPECT_EQ(ops[1].code, kAdd);
  const auto* a = std::get_if<AddOptions>(&ops[1].options);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->activation, FusedActivation::kRelu6);
}

TEST(TfliteImport, RepointOutputEditsFourBytesOnly) {
  const std::vector<uint8_t> bytes = tfltest::build(tfltest::one_conv_model());
  const Model model = parse(bytes);
  const std::vector<uint8_t> patched = repoint_output(bytes, model, 0, 1);
  ASSERT_EQ(patched.size(), bytes.size());
  std::size_t changed = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) changed += bytes[i] != patched[i];
  EXPECT_EQ(changed, 1u);  // 3 -> 1 differs in the low byte only
  EXPECT_EQ(parse(patched).subgraphs[0].outputs, std::vector<int32_t>({1}));
  EXPECT_THROW(repoint_output(bytes, model, 0, 0x0302), InputError);
  EXPECT_THROW(repoint_output(bytes, model, 1, 0), InputError);
  EXPECT_THROW(repoint_output(bytes, model, 0, 4), InputError);
}

TEST(TfliteImport, OpFilterNamesAndUnknownOp) {
  EXPECT_EQ(parse_op_filter({"CONV_2D", "ADD"}, "s.yaml: ops"), OpFilter({kConv2d, kAdd}));
  EXPECT_EQ(parse_op_filter({"DEPTHWISE_CONV_2D"}, "s.yaml: ops"), OpFilter({kDepthwiseConv2d}));
  const std::string msg = what_of<InputError>([] { parse_op_filter({"CONV_2D", "SOFTMAX"}, "scenarios/kws.yaml: ops"); });
  expect_contains(msg, {"scenarios/kws.yaml: ops", "'SOFTMAX'", "CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED or ADD"});
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(TfliteImport, ExtractLayersBuildsConvParams) {
  const Model model = parse(tfltest::build(tfltest::one_conv_model()));
  const auto layers = extract_layers(model, {}, quant::Rounding::kSingle);
  ASSERT_EQ(layers.size(), 1u);
  const LayerWorkload& w = layers[0];
  EXPECT_EQ(w.op, "CONV_2D");
  EXPECT_EQ(w.input_tensors, std::vector<int32_t>({0}));
  EXPECT_EQ(w.output_tensor, 3);
  EXPECT_EQ(w.conv.input_zero_point, 1);
  EXPECT_EQ(w.conv.output_zero_point, 0);
  EXPECT_EQ(w.conv.padding, ops::Padding::kValid);
  EXPECT_EQ(w.conv.rounding, quant::Rounding::kSingle);
  // m = 0.5 * 0.25 / 1 = 2^-3 = 0.5 * 2^-2: q_fixed 2^30, shift -2.
  ASSERT_EQ(w.conv.output_multiplier.size(), 1u);
  EXPECT_EQ(w.conv.output_multiplier[0].multiplier, 1 << 30);
  EXPECT_EQ(w.conv.output_multiplier[0].shift, -2);
  EXPECT_EQ(w.bias.data<int32_t>()[0], 4);
  EXPECT_FALSE(w.has_data);
  EXPECT_TRUE(extract_layers(model, {kAdd}).empty());
}

// ---- the shared MLPerf Tiny models ----

TEST(TfliteImport, Resnet8Int8Structure) {
  COSIM_REQUIRE_MODEL(model_path("resnet8_int8.tflite"));
  const Model m = load_model(model_path("resnet8_int8.tflite"));
  ASSERT_EQ(m.subgraphs.size(), 1u);
  expect_op_counts(m, {{"CONV_2D", 9}, {"ADD", 3}, {"AVERAGE_POOL_2D", 1}, {"FULLY_CONNECTED", 1}, {"SOFTMAX", 1}});
  const SubGraph& sg = m.subgraphs[0];
  const TensorInfo& in = sg.tensors[static_cast<std::size_t>(sg.inputs.at(0))];
  EXPECT_EQ(in.type, static_cast<int8_t>(TensorType::kInt8));
  EXPECT_EQ(in.shape, std::vector<int32_t>({1, 32, 32, 3}));
  for (const Operator& op : sg.operators) {
    if (op.code != kConv2d) continue;
    // OHWI filters, per-channel along dimension 0, zero points 0; int32 bias.
    const TensorInfo& f = sg.tensors[static_cast<std::size_t>(op.inputs.at(1))];
    EXPECT_EQ(f.type, static_cast<int8_t>(TensorType::kInt8)) << f.name;
    ASSERT_EQ(f.shape.size(), 4u);
    EXPECT_EQ(f.quant.quantized_dimension, 0) << f.name;
    EXPECT_EQ(f.quant.scale.size(), static_cast<std::size_t>(f.shape[0])) << f.name;
    for (int64_t z : f.quant.zero_point) EXPECT_EQ(z, 0) << f.name;
    const TensorInfo& b = sg.tensors[static_cast<std::size_t>(op.inputs.at(2))];
    EXPECT_EQ(b.type, static_cast<int8_t>(TensorType::kInt32)) << b.name;
    EXPECT_EQ(b.shape, std::vector<int32_t>({f.shape[0]})) << b.name;
    EXPECT_TRUE(std::holds_alternative<Conv2DOptions>(op.options));
  }
  const auto layers = extract_layers(m);
  EXPECT_EQ(layers.size(), 13u);  // 9 CONV_2D, 3 ADD, 1 FULLY_CONNECTED
  EXPECT_EQ(extract_layers(m, parse_op_filter({"FULLY_CONNECTED"}, "test")).size(), 1u);
  EXPECT_EQ(extract_layers(m, parse_op_filter({"ADD"}, "test")).size(), 3u);
  EXPECT_EQ(extract_layers(m, parse_op_filter({"CONV_2D"}, "test")).size(), 9u);
}

TEST(TfliteImport, KwsDscnnInt8Structure) {
  COSIM_REQUIRE_MODEL(model_path("kws_dscnn_int8.tflite"));
  const Model m = load_model(model_path("kws_dscnn_int8.tflite"));
  expect_op_counts(m, {{"CONV_2D", 5}, {"DEPTHWISE_CONV_2D", 4}});
  const SubGraph& sg = m.subgraphs[0];
  const TensorInfo& in = sg.tensors[static_cast<std::size_t>(sg.inputs.at(0))];
  EXPECT_EQ(in.shape, std::vector<int32_t>({1, 49, 10, 1}));
  int dw = 0;
  for (const LayerWorkload& w : extract_layers(m)) {
    if (w.code != kDepthwiseConv2d) continue;
    ++dw;
    // 1HWC filter, per-channel along dimension 3.
    EXPECT_EQ(w.filter.dim(0), 1) << w.name;
    const Operator& op = sg.operators[w.op_index];
    const TensorInfo& f = sg.tensors[static_cast<std::size_t>(op.inputs.at(1))];
    EXPECT_EQ(f.quant.quantized_dimension, 3) << f.name;
    EXPECT_EQ(w.conv.output_multiplier.size(), static_cast<std::size_t>(w.filter.dim(3))) << w.name;
    EXPECT_EQ(w.conv.depth_multiplier, 1) << w.name;
  }
  EXPECT_EQ(dw, 4);
}

TEST(TfliteImport, Resnet8FloatReadsFloatWeights) {
  COSIM_REQUIRE_MODEL(model_path("resnet8_float.tflite"));
  const Model m = load_model(model_path("resnet8_float.tflite"));
  expect_op_counts(m, {{"CONV_2D", 9}, {"ADD", 3}});
  int convs = 0;
  const SubGraph& sg = m.subgraphs[0];
  for (const Operator& op : sg.operators) {
    if (op.code != kConv2d) continue;
    const Tensor f = constant_tensor(m, 0, op.inputs.at(1));
    EXPECT_EQ(f.dtype(), DType::kFp32);
    EXPECT_EQ(f.rank(), 4u);
    ++convs;
  }
  EXPECT_EQ(convs, 9);
  // Float activations are not int8: the int8 extractor refuses with a reason.
  try {
    extract_layers(m);
    FAIL() << "float model accepted as int8";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("only INT8 activations"), std::string::npos) << e.what();
  }
}
