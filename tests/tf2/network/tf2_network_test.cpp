// The pieces of a chained network on TF2: a layer reading an earlier map
// (input_from) in the golden chain and the compiler, Q from calibration
// maxima (spec/tf2.md rules worked out by hand), SAME padding folded into a
// (k+1) kernel against TFLite's float convolution (tflite_float, written
// independently), and the plan of the float ResNet-8 (skips without it).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "common/error.hpp"
#include "tf2/compiler.hpp"
#include "tf2/fmap_quant.hpp"
#include "tf2/map_layout.hpp"
#include "support/tf2_random_layer.hpp"
#include "tf2/reference.hpp"
#include "tf2/tflite_network.hpp"
#include "tflite_float/float_ops.hpp"

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
  const std::string path = std::string(COSIM_MODELS_DIR) + "/resnet8_float.tflite";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not found (models are not on this machine)";
  const cosim::tflite::Model m = cosim::tflite::load_model(path);
  std::vector<cosim::tflite_float::Values> runs;
  for (int n = 0; n < 2; ++n) {
    std::vector<float> img(32 * 32 * 3);
    for (std::size_t i = 0; i < img.size(); ++i) img[i] = static_cast<float>((i * (n + 7)) % 255) / 255.0f;
    runs.push_back(cosim::tflite_float::run(m, img));
  }
  const Network net = plan_network(m, channel_max(m, runs));
  ASSERT_EQ(net.layers.size(), 9u);
  EXPECT_EQ(net.host_ops, (std::vector<std::size_t>{12, 13, 14, 15}));
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
