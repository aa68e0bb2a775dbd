// INQ compression of the float ResNet-8's CONV_2D weights (issue 5 / 9):
// every code valid, every compressed weight 0 or +-2^e with e in
// [min_exp, min_exp + 6], the 1.5 * 2^e threshold checked against an
// independent log2 / pow computation, and the OHWI -> OIHW transposition.
// Skips when the model is not on this machine.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "support/models.hpp"
#include "tf2/inq.hpp"
#include "tf2/tflite_conv.hpp"
#include "tflite/model.hpp"

namespace {

const std::string kModel = cosim::test::model_path("resnet8_float.tflite");

// Independent INQ value: nearest power of two with the upper half rounding
// at 1.5 * 2^e, zero below 2^min_exp's band.
double expected_value(double w, int min_exp) {
  if (w == 0.0) return 0.0;
  const double a = std::fabs(w);
  int e = static_cast<int>(std::floor(std::log2(a)));
  if (std::pow(2.0, e) > a) --e;  // log2 rounding at exact powers
  if (std::pow(2.0, e + 1) <= a) ++e;
  if (a >= 1.5 * std::pow(2.0, e)) ++e;
  if (e < min_exp) return 0.0;
  return w < 0 ? -std::pow(2.0, e) : std::pow(2.0, e);
}

TEST(Tf2TfliteInq, Resnet8FloatWeightsCompress) {
  COSIM_REQUIRE_MODEL(kModel);
  const cosim::tflite::Model m = cosim::tflite::load_model(kModel);
  const std::vector<std::size_t> convs = cosim::tf2::conv2d_ops(m);
  ASSERT_FALSE(convs.empty());
  int checked_threshold = 0;
  for (std::size_t op : convs) {
    const cosim::tf2::TfliteConv c = cosim::tf2::read_float_conv(m, op);
    const auto& w = c.conv.weights;
    ASSERT_EQ(w.size(), static_cast<std::size_t>(c.conv.c_out) * c.conv.c_in * c.conv.k * c.conv.k);

    // OIHW element (o, i, y, x) is OHWI element (o, y, x, i) of the file.
    const auto& sg = m.subgraphs[0];
    const cosim::Tensor raw = cosim::tflite::constant_tensor(m, 0, sg.operators[op].inputs[1]);
    const int O = c.conv.c_out, I = c.conv.c_in, K = c.conv.k;
    for (int s = 0; s < 50; ++s) {
      const int o = (s * 7) % O, i = (s * 5) % I, y = s % K, x = (s / K) % K;
      EXPECT_EQ(w[static_cast<std::size_t>(o * I * K * K + i * K * K + y * K + x)],
                raw.data<float>()[o * K * K * I + y * K * I + x * I + i]);
    }

    const cosim::tf2::InqWeights q = cosim::tf2::inq_compress(w);
    ASSERT_EQ(q.codes.size(), w.size());
    double max_abs = 0;
    for (float v : w) max_abs = std::fmax(max_abs, std::fabs(v));
    // max |w| lands on the top exponent, min_exp is six below.
    EXPECT_EQ(std::fabs(expected_value(max_abs, -1000)), std::pow(2.0, q.min_exp + 6)) << "op " << op;

    double sig = 0, noise = 0;
    for (std::size_t j = 0; j < w.size(); ++j) {
      const uint8_t code = q.codes[j];
      ASSERT_LT(code, 15) << "op " << op << " weight " << j;
      const double v = cosim::tf2::inq_code_value(code, q.min_exp);
      if (v != 0.0) {
        int e = 0;
        const double mant = std::frexp(std::fabs(v), &e);
        EXPECT_EQ(mant, 0.5);
        EXPECT_GE(e - 1, q.min_exp);
        EXPECT_LE(e - 1, q.min_exp + 6);
        EXPECT_EQ(v < 0, w[j] < 0);
      }
      if (j % 3 == 0) {  // sample for the independent threshold
        EXPECT_EQ(v, expected_value(w[j], q.min_exp)) << "op " << op << " weight " << j << " = " << w[j];
        ++checked_threshold;
      }
      sig += static_cast<double>(w[j]) * w[j];
      noise += (w[j] - v) * (w[j] - v);
    }
    std::printf("op %2zu CONV_2D %dx%dx%d -> %d, k%d s%d: min_exp %d, INQ weight SNR %.1f dB\n", op, c.h_in, c.w_in,
                I, O, K, c.conv.stride, q.min_exp, 10 * std::log10(sig / noise));
  }
  EXPECT_GT(checked_threshold, 1000);
}

TEST(Tf2TfliteInq, ThresholdOracleSelfCheck) {
  // Hand values for the oracle itself: 1.5 rounds up, just below rounds down.
  EXPECT_EQ(expected_value(1.5, -10), 2.0);
  EXPECT_EQ(expected_value(1.4999, -10), 1.0);
  EXPECT_EQ(expected_value(-0.75, -10), -1.0);
  EXPECT_EQ(expected_value(0.74, -10), 0.5);
  EXPECT_EQ(expected_value(0.001, -3), 0.0);
}

}  // namespace
