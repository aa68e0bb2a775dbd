// The pieces of a chained network on TF2: a layer reading an earlier map
// (input_from) in the golden chain and the compiler, Q from calibration
// maxima (spec/tf2.md rules worked out by hand), SAME padding folded into a
// (k+1) kernel against TFLite's float convolution (tflite_float, written
// independently), and the plan of the float ResNet-8 (skips without it).
#include <gtest/gtest.h>

#include <cstring>

#include "common/error.hpp"
#include "tf2/compiler.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/map_layout.hpp"
#include "support/models.hpp"
#include "support/tf2_random_layer.hpp"
#include "tf2/reference.hpp"
#include "tf2/network_run.hpp"
#include "tf2/sac.hpp"
#include "tf2/tflite_network.hpp"
#include "tflite_float/float_ops.hpp"
#include "tflite_float/interpreter.hpp"

namespace {

using namespace cosim::tf2;

uint32_t word(const std::vector<uint8_t>& b, std::size_t at) {
  uint32_t v = 0;
  std::memcpy(&v, &b[at], 4);
  return v;
}

// Layer 2 reads layer 0's output (a shortcut), not layer 1's.
std::vector<ConvLayer> shortcut_chain() {
  RandomLayerShape a;
  a.c_in = 16, a.c_out = 16, a.h_in = a.w_in = 6;
  ConvLayer l0 = random_layer(a, 11);
  a.input_q = l0.output_q();
  ConvLayer l1 = random_layer(a, 12);
  RandomLayerShape b = a;
  b.k = 1, b.pad = 0, b.stride = 2;
  ConvLayer l2 = random_layer(b, 13);
  l2.input_from = 0;
  return {l0, l1, l2};
}

TEST(Tf2Network, InputFromAnEarlierLayerInGoldenAndDescriptor) {
  const std::vector<ConvLayer> layers = shortcut_chain();
  const std::vector<int8_t> x = random_input(16, 6, 6, 5);
  const std::vector<std::vector<int8_t>> maps = sac_chain(layers, x);
  // Layer 2 on its own, fed layer 0's map.
  EXPECT_EQ(maps[2], sac_conv2d(layers[2], sac_conv2d(layers[0], x)));
  const Program p = compile(layers, x);
  // Descriptor word 6 (input map address) of layer 2 = layer 0's output region.
  EXPECT_EQ(word(p.dram, p.layers[2].desc_addr + 24), p.layers[0].out_addr);
  EXPECT_EQ(word(p.dram, p.layers[1].desc_addr + 24), p.layers[0].out_addr);
}

TEST(Tf2Network, InputFromALaterLayerOrAnotherQIsInputError) {
  std::vector<ConvLayer> layers = shortcut_chain();
  const std::vector<int8_t> x = random_input(16, 6, 6, 5);
  layers[1].input_from = 2;
  EXPECT_THROW(sac_chain(layers, x), cosim::InputError);
  EXPECT_THROW(compile(layers, x), cosim::InputError);
  layers = shortcut_chain();
  layers[2].q_in_ch.assign(16, layers[0].qo(0) + 1);  // not the Q layer 0 wrote
  EXPECT_THROW(compile(layers, x), cosim::InputError);
}

TEST(Tf2Network, QFromCalibrationMaxima) {
  // 127/1 = 2^6.99: round 7, 1 * 2^7 > 127 so 6; 127/0.5: 8 -> 7. Mean over
  // the non-zero channels 6.5: 7 -> floor 6; a zero channel keeps Q 0.
  EXPECT_EQ(choose_q_from_max({1.0f, 0.5f, 0.0f}), (std::vector<int>{6, 6, 0}));
  // log2(127/200) = -0.65 -> floor -1; log2(127/770) = -2.6 -> -3; mean -2:
  // the negative Q below it becomes ceil(-2) = -2.
  EXPECT_EQ(choose_q_from_max({200.0f, 770.0f}), (std::vector<int>{-1, -2}));
}

TEST(Tf2Network, SamePaddingFoldedIntoALargerKernelMatchesTflite) {
  // 3x3 stride 2 SAME on an even map: 0 rows before, 1 after.
  const int c = 3, o = 4, h = 8, w = 8;
  TfliteConv t;
  t.h_in = h, t.w_in = w, t.h_out = 4, t.w_out = 4, t.extra_h = 1, t.extra_w = 1;
  FloatConv& f = t.conv;
  f.c_in = c, f.c_out = o, f.h_in = h + 1, f.w_in = w + 1, f.k = 3, f.stride = 2, f.pad = 0;
  std::vector<float> ohwi(static_cast<std::size_t>(o) * 9 * c);
  for (std::size_t i = 0; i < ohwi.size(); ++i) ohwi[i] = static_cast<float>((i * 37 % 17)) / 8.0f - 1.0f;
  f.weights.resize(ohwi.size());
  for (int oc = 0; oc < o; ++oc)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x)
        for (int ic = 0; ic < c; ++ic) f.weights[((oc * c + ic) * 3 + y) * 3 + x] = ohwi[((oc * 3 + y) * 3 + x) * c + ic];
  std::vector<float> nhwc(static_cast<std::size_t>(h) * w * c);
  for (std::size_t i = 0; i < nhwc.size(); ++i) nhwc[i] = static_cast<float>((i * 29 % 23)) / 11.0f - 1.0f;

  const FloatConv g = fold_trailing_padding(t);
  EXPECT_EQ(g.k, 4);
  EXPECT_EQ(g.pad, 1);
  EXPECT_EQ(g.h_in, h);
  const std::vector<float> dev = chw_to_nhwc(float_conv2d(g, nhwc_to_chw(nhwc, c, h, w)), o, 4, 4);
  cosim::tflite::Conv2DOptions opt;
  opt.padding = cosim::tflite::PaddingType::kSame;
  opt.stride_h = opt.stride_w = 2;
  const cosim::tflite_float::Map ref = cosim::tflite_float::conv2d({h, w, c, nhwc}, ohwi, o, 3, 3, {}, opt);
  ASSERT_EQ(ref.v.size(), dev.size());
  for (std::size_t i = 0; i < dev.size(); ++i) EXPECT_NEAR(dev[i], ref.v[i], 1e-5) << i;
}

TEST(Tf2Network, Resnet8Plan) {
  const std::string path = cosim::test::model_path("resnet8_float.tflite");
  COSIM_REQUIRE_MODEL(path);
  const cosim::tflite::Model m = cosim::tflite::load_model(path);
  std::vector<cosim::tflite_float::Values> runs;
  for (int n = 0; n < 2; ++n) {
    std::vector<float> img(32 * 32 * 3);
    for (std::size_t i = 0; i < img.size(); ++i) img[i] = static_cast<float>((i * (n + 7)) % 255) / 255.0f;
    runs.push_back(cosim::tflite_float::run(m, img));
  }
  const Network net = plan_network(m, channel_max(m, runs));
  // Nine convolutions in one segment; op 14 (FULLY_CONNECTED 64 -> 10) is a
  // 1x1 layer of its own segment, reading op 13's (RESHAPE) output from the host.
  ASSERT_EQ(net.layers.size(), 10u);
  EXPECT_EQ(net.host_ops, (std::vector<std::size_t>{12, 13, 15}));
  ASSERT_EQ(net.segments.size(), 2u);
  EXPECT_EQ(net.segments[0].first, 0u);
  EXPECT_EQ(net.segments[0].count, 9u);
  EXPECT_EQ(net.segments[0].input_tensor, net.input_tensor);
  EXPECT_EQ(net.segments[1].first, 9u);
  EXPECT_EQ(net.segments[1].count, 1u);
  EXPECT_EQ(net.segments[1].input_tensor, m.subgraphs[0].operators[13].outputs[0]);
  EXPECT_EQ(net.info[9].conv_op, 14u);
  EXPECT_EQ(net.layers[9].input_from, kChainInput);
  EXPECT_EQ(net.layers[9].c_in, 64);
  EXPECT_EQ(net.layers[9].c_out, 10);
  EXPECT_EQ(net.layers[9].k, 1);
  EXPECT_EQ(net.layers[9].h_in * net.layers[9].w_in, 1);
  EXPECT_EQ(net.segment_layers(1).front().input_from, kChainInput);
  EXPECT_EQ(net.host_reason.at(12), "TF2 runs CONV_2D and FULLY_CONNECTED (as a 1x1 CONV_2D) only");
  // tflite_dump: op 3 ADD(22 = op 0's output, 24 = op 2's), op 6 reads 25
  // (op 3's output, i.e. layer 2), op 7 ADD(28 = op 6's, 27 = op 5's).
  EXPECT_EQ(net.layers[2].residual_from, 0);
  EXPECT_EQ(net.info[2].add_op, 3);
  EXPECT_EQ(net.layers[5].input_from, 2);
  EXPECT_EQ(net.layers[5].residual_from, 4);
  EXPECT_EQ(net.layers[8].residual_from, 7);
  EXPECT_EQ(net.layers[3].k, 4);  // op 4: 3x3 stride 2 SAME, folded
  EXPECT_EQ(net.layers[5].k, 1);
  // Residual operands and sums share Q; readers use the writer's Q.
  EXPECT_EQ(net.layers[0].output_q(), net.layers[2].output_q());
  EXPECT_EQ(net.layers[4].output_q(), net.layers[5].output_q());
  EXPECT_EQ(net.layers[5].input_q(), net.layers[2].output_q());
  for (const ConvLayer& L : net.layers) EXPECT_LE(L.largest_shift(), kMaxShift);
  EXPECT_EQ(net.layers[0].input_q(), std::vector<int>(3, net.input_q));
}

}  // namespace

namespace {

std::vector<float> ramp(std::size_t n, int seed) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * (seed + 5)) % 97) / 97.0f;
  return v;
}

}  // namespace

// A dense layer is the 1x1 convolution over a 1x1 map with the input depth as
// its channels: the weights [units, depth] as they are in the file.
TEST(Tf2Network, FullyConnectedReadAsOneByOneConvolution) {
  const std::string path = cosim::test::model_path("ad01_fp32.tflite");
  COSIM_REQUIRE_MODEL(path);
  const cosim::tflite::Model m = cosim::tflite::load_model(path);
  const TfliteConv c = read_float_fully_connected(m, 0);
  const cosim::tflite::Operator& op = m.subgraphs[0].operators[0];
  const cosim::Tensor w = cosim::tflite::constant_tensor(m, 0, op.inputs[1]);
  EXPECT_EQ(c.conv.c_in, 640);
  EXPECT_EQ(c.conv.c_out, 128);
  EXPECT_EQ(c.conv.k, 1);
  EXPECT_EQ(c.conv.h_in * c.conv.w_in, 1);
  ASSERT_EQ(c.conv.weights.size(), static_cast<std::size_t>(w.numel()));
  for (std::size_t i = 0; i < c.conv.weights.size(); i += 997) EXPECT_EQ(c.conv.weights[i], w.data<float>()[i]) << i;
  // Its float convolution equals TFLite's dense layer on the same row.
  const std::vector<float> x = ramp(640, 1);
  FloatConv f = c.conv;
  const std::vector<float> conv = float_conv2d(f, x);
  const cosim::Tensor b = cosim::tflite::constant_tensor(m, 0, op.inputs[2]);
  const std::vector<float> dense = cosim::tflite_float::fully_connected(
      x, std::vector<float>(w.data<float>(), w.data<float>() + w.numel()), 128,
      std::vector<float>(b.data<float>(), b.data<float>() + 128),
      std::get<cosim::tflite::FullyConnectedOptions>(op.options).activation);
  ASSERT_EQ(conv.size(), dense.size());
  for (std::size_t i = 0; i < conv.size(); ++i) EXPECT_NEAR(conv[i], dense[i], 1e-4) << i;
  // Not a dense layer: one error line naming the operator.
  EXPECT_THROW(read_float_fully_connected(m, m.subgraphs[0].operators.size()), cosim::InputError);
}

// A dynamic-range model's int8 filter is read as the float values it stands
// for: each int8 weight times its output channel's scale.
TEST(Tf2Network, DynamicRangeFilterReadAsItsFloatValues) {
  const std::string path = cosim::test::model_path("kws_dscnn_float.tflite");
  COSIM_REQUIRE_MODEL(path);
  const cosim::tflite::Model m = cosim::tflite::load_model(path);
  const cosim::tflite::Operator& op = m.subgraphs[0].operators[2];  // the first pointwise CONV_2D
  const cosim::tflite::TensorInfo& ti = m.subgraphs[0].tensors[static_cast<std::size_t>(op.inputs[1])];
  ASSERT_EQ(ti.type, static_cast<int8_t>(cosim::tflite::TensorType::kInt8));
  const cosim::Tensor q = cosim::tflite::constant_tensor(m, 0, op.inputs[1]);
  const TfliteConv c = read_float_conv(m, 2);
  ASSERT_EQ(c.conv.k, 1);
  const std::size_t per_out = static_cast<std::size_t>(c.conv.c_in);
  for (int o = 0; o < c.conv.c_out; ++o) {
    const float scale = ti.quant.scale[ti.quant.scale.size() == 1 ? 0 : static_cast<std::size_t>(o)];
    for (std::size_t i = 0; i < per_out; ++i) {
      const std::size_t at = static_cast<std::size_t>(o) * per_out + i;
      ASSERT_EQ(c.conv.weights[at], scale * static_cast<float>(q.data<int8_t>()[at])) << o << " " << i;
    }
  }
}

// DS-CNN on TF2: the 10x4 first convolution (not square) and every depthwise
// convolution on the host, so each pointwise convolution and the dense layer
// is a segment of its own; a segment's input is the host's float output
// quantized at the map's per-channel Qs.
TEST(Tf2Network, KwsSegmentsReadWhatTheHostWrote) {
  const std::string path = cosim::test::model_path("kws_dscnn_float.tflite");
  COSIM_REQUIRE_MODEL(path);
  const cosim::tflite::Model m = cosim::tflite::load_model(path);
  std::vector<cosim::tflite_float::Values> runs;
  for (int n = 0; n < 2; ++n) runs.push_back(cosim::tflite_float::run(m, ramp(49 * 10, n)));
  const Network net = plan_network(m, channel_max(m, runs));
  std::vector<std::size_t> device_ops;
  for (const NetworkLayer& l : net.info) device_ops.push_back(l.conv_op);
  EXPECT_EQ(device_ops, (std::vector<std::size_t>{2, 4, 6, 8, 11}));
  EXPECT_EQ(net.segments.size(), 5u);
  EXPECT_NE(net.host_reason.at(0).find("kernel"), std::string::npos) << net.host_reason.at(0);
  // Segment 1 (op 4) reads op 3's output: the depthwise convolution run in
  // float here on segment 0's dequantized map, then quantized.
  const std::vector<float> image = ramp(49 * 10, 7);
  const NetworkRun run = run_network(m, net, image);
  cosim::tflite_float::Values v(m.subgraphs[0].tensors.size());
  const ConvLayer& L0 = net.layers[0];
  v[static_cast<std::size_t>(net.info[0].out_tensor)] =
      chw_to_nhwc(dequantize_map(run.maps[0], L0.c_out, L0.output_q()), L0.c_out, L0.h_out(), L0.w_out());
  cosim::tflite_float::run_op(m, 3, v);
  const ConvLayer& L1 = net.layers[1];
  const int32_t t3 = m.subgraphs[0].operators[3].outputs[0];
  EXPECT_EQ(net.segments[1].input_tensor, t3);
  EXPECT_EQ(run.segment_inputs[1], quantize_map(nhwc_to_chw(v[static_cast<std::size_t>(t3)], L1.c_in, L1.h_in, L1.w_in),
                                                L1.c_in, net.q.at(t3)));
  // Each segment's maps are its golden chain on that input.
  EXPECT_EQ(run.maps[1], sac_conv2d(L1, run.segment_inputs[1]));
}

// A layer whose input map does not fit the feature cache (VWW's 96x96x3
// image needs 9216 words of 4096) runs on the host, with the reason.
TEST(Tf2Network, LayerLargerThanTheDeviceRunsOnTheHost) {
  const std::string path = cosim::test::model_path("vww_96_float.tflite");
  COSIM_REQUIRE_MODEL(path);
  const cosim::tflite::Model m = cosim::tflite::load_model(path);
  std::vector<cosim::tflite_float::Values> runs{cosim::tflite_float::run(m, ramp(96 * 96 * 3, 1))};
  const Network net = plan_network(m, channel_max(m, runs));
  EXPECT_NE(net.info.front().conv_op, 0u);
  EXPECT_NE(net.host_reason.at(0).find("feature-cache words"), std::string::npos) << net.host_reason.at(0);
  EXPECT_EQ(net.layers.size(), 14u);  // 13 pointwise convolutions and the dense layer
}
