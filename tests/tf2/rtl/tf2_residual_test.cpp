// The residual ADD (spec: "a saturating int8 add of two maps with the same
// Q, optionally followed by ReLU"): golden chain semantics, the descriptor
// encoding, and the RTL writer's fused add, against hand-computed values and
// the golden model.
#include <gtest/gtest.h>

#include <cstring>

#include "common/error.hpp"
#include "tf2/inq.hpp"
#include "tf2/tf2_rtl_util.hpp"

namespace cosim::tf2 {
namespace {

uint32_t word(const std::vector<uint8_t>& b, std::size_t at) {
  return static_cast<uint32_t>(b[at]) | static_cast<uint32_t>(b[at + 1]) << 8 | static_cast<uint32_t>(b[at + 2]) << 16 |
         static_cast<uint32_t>(b[at + 3]) << 24;
}

// 1x1 conv, 2 channels, 1x2 map, all weights zero: acc = bias, alpha = 2^20,
// beta = 0, so the conv output is bias / 2^15: 100 (ch 0) and -50 (ch 1).
// The residual is the input map (CHW): ch 0 = {60, -128}, ch 1 = {80, -100}.
ConvLayer hand_layer(bool relu) {
  ConvLayer L;
  L.c_in = 2; L.c_out = 2; L.h_in = 1; L.w_in = 2; L.k = 1;
  L.codes.assign(4, kCodeZero);
  L.bias = {100 * 32768, -50 * 32768};
  L.alpha = {1 << 20, 1 << 20};
  L.beta = {0, 0};
  L.relu = relu;
  L.residual_from = kResidualFromInput;
  return L;
}
const std::vector<int8_t> kHandInput = {60, -128, 80, -100};
// 100+60 = 160 -> 127; 100-128 = -28; -50+80 = 30 (ReLU before the add would
// give 80); -50-100 = -150 -> -128.
const std::vector<int8_t> kHandNoRelu = {127, -28, 30, -128};
const std::vector<int8_t> kHandRelu = {127, 0, 30, 0};

TEST(Tf2ResidualGolden, AddSaturatesThenRelu) {
  EXPECT_EQ(sac_chain({hand_layer(false)}, kHandInput)[0], kHandNoRelu);
  EXPECT_EQ(sac_chain({hand_layer(true)}, kHandInput)[0], kHandRelu);
  // Without the residual the same layer is the plain conv (ReLU in requant).
  ConvLayer plain = hand_layer(true);
  plain.residual_from = kNoResidual;
  EXPECT_EQ(sac_chain({plain}, kHandInput)[0], (std::vector<int8_t>{100, 100, 0, 0}));
}

TEST(Tf2ResidualGolden, SourceMustBeEarlierSameShapeSameQ) {
  ConvLayer L = hand_layer(false);
  L.q_out = 1;  // input Q is 0
  EXPECT_THROW(sac_chain({L}, kHandInput), InputError);
  L = hand_layer(false);
  L.residual_from = 0;  // itself
  EXPECT_THROW(sac_chain({L}, kHandInput), InputError);
  L = hand_layer(false);
  L.residual_from = -3;
  EXPECT_THROW(validate_residuals({L}), InputError);
  // Shape: a 3-channel output cannot take the 2-channel input.
  L = hand_layer(false);
  L.c_out = 3;
  L.codes.assign(6, kCodeZero);
  L.bias.push_back(0); L.alpha.push_back(1 << 20); L.beta.push_back(0);
  try {
    validate_residuals({L});
    FAIL() << "shape mismatch accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("layer 0 residual"), std::string::npos) << e.what();
  }
}

TEST(Tf2ResidualCompiler, DescriptorFlagAndAddress) {
  // Layer 0: 2 -> 2 plain; layer 1: residual from the input; layer 2: from layer 0.
  ConvLayer a = hand_layer(false);
  a.residual_from = kNoResidual;
  ConvLayer b = hand_layer(true);
  ConvLayer c = hand_layer(false);
  c.residual_from = 0;
  const Program p = compile({a, b, c}, kHandInput);
  const auto desc = [&](int i) { return p.layers[static_cast<std::size_t>(i)].desc_addr; };
  EXPECT_EQ(word(p.dram, desc(0)) & (1u << 10), 0u);
  EXPECT_EQ(word(p.dram, desc(0) + 40), 0u);
  EXPECT_EQ(word(p.dram, desc(1)), 1u | 1u << 8 | 1u << 10);  // conv, relu, residual
  EXPECT_EQ(word(p.dram, desc(1) + 40), p.layers[0].in_addr);
  EXPECT_EQ(word(p.dram, desc(2)), 1u | 1u << 10);
  EXPECT_EQ(word(p.dram, desc(2) + 40), p.layers[0].out_addr);
  EXPECT_EQ(p.layers[2].res_addr, p.layers[0].out_addr);
}

TEST(Tf2ResidualRtl, HandComputedOnChip) {
  for (bool relu : {false, true}) {
    Program p = compile({hand_layer(relu)}, kHandInput);
    tb::tf2::Tf2Bare dut(p.dram);
    const tb::tf2::Tf2RunResult r = dut.run(p);
    ASSERT_TRUE(r.done);
    ASSERT_FALSE(r.error) << std::hex << r.err_info;
    const std::vector<int8_t> got = from_hc16w(&p.dram[p.layers[0].out_addr], 2, 1, 2);
    EXPECT_EQ(got, relu ? kHandRelu : kHandNoRelu);
    // Padding channels 2..15 of each pixel word are written as zero.
    for (int x = 0; x < 2; ++x) {
      for (int ch = 2; ch < 16; ++ch) EXPECT_EQ(p.dram[p.layers[0].out_addr + 16 * x + ch], 0) << x << " " << ch;
    }
  }
}

// ResNet basic blocks (conv+ReLU, conv, + input, ReLU) and a residual taken
// from an earlier layer's output region, under DRAM latency and stalls.
TEST(Tf2ResidualRtl, BlocksAndEarlierOutputSources) {
  for (int i = 0; i < 8; ++i) {
    const SweepCase sc = residual_case(i, 515, 40, 9);
    const int c = sc.shape.c_in;
    RandomLayerShape s1 = sc.shape;
    s1.relu = true;
    ConvLayer l1 = random_layer(s1, sc.seed);
    ConvLayer l2 = random_layer(sc.shape, sc.seed + 1);
    set_input_q(l2, l1.output_q());  // reads conv1's map
    set_output_q(l2, l1.input_q());  // adds the input's
    l2.relu = sc.shape.relu;
    l2.residual_from = kResidualFromInput;
    std::vector<ConvLayer> layers = {l1, l2};
    if (i % 2 == 1) {  // a third layer adding layer 0's output
      RandomLayerShape s3 = sc.shape;
      s3.c_in = c;
      ConvLayer l3 = random_layer(s3, sc.seed + 2);
      set_input_q(l3, l2.output_q());
      set_output_q(l3, l1.output_q());  // adds conv1's map
      l3.residual_from = 0;
      layers.push_back(l3);
    }
    const RtlRun r = run_on_rtl(layers, random_input(c, sc.shape.h_in, sc.shape.w_in, sc.seed), sc.axi);
    ASSERT_TRUE(r.result.done) << describe(sc);
    ASSERT_FALSE(r.result.error) << describe(sc) << " err_info " << std::hex << r.result.err_info;
    ASSERT_EQ(r.mismatches, 0u) << describe(sc) << ": " << r.first_mismatch;
    ASSERT_TRUE(r.protocol_errors.empty()) << describe(sc);
  }
}

TEST(Tf2ResidualRtl, ResidualReadErrorAndMisalignedAddress) {
  const Program p = compile({hand_layer(false)}, kHandInput);
  // The residual map's address (descriptor word 10) beyond the image: SLVERR.
  EXPECT_EQ(error_code_with_descriptor_word(p, 40, 0x00F00000), 3u);  // ErrAxiRead
  // ... and not on a whole 16-byte pixel word.
  EXPECT_EQ(error_code_with_descriptor_word(p, 40, p.layers[0].in_addr + 8), 2u);  // ErrDesc
}

}  // namespace
}  // namespace cosim::tf2
