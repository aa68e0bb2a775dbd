// tf2::float_conv2d (cpp_model/tf2/reference.cpp) accumulates a row of
// output pixels at a time so that the loop vectorizes; the referee here is
// the pixel-by-pixel loop it replaced, written out again: on random layers
// (kernel 1..5, stride 1..3, padding, bias, batch-norm, ReLU) every output
// float must be the same bit pattern.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tf2/reference.hpp"

namespace {

using cosim::tf2::FloatConv;

// One pixel at a time, its taps in the order c, ky, kx, in double.
std::vector<float> pixel_by_pixel(const FloatConv& f, const std::vector<float>& in) {
  const int ho = (f.h_in + 2 * f.pad - f.k) / f.stride + 1;
  const int wo = (f.w_in + 2 * f.pad - f.k) / f.stride + 1;
  std::vector<float> out(static_cast<std::size_t>(f.c_out) * ho * wo);
  for (int o = 0; o < f.c_out; ++o) {
    for (int y = 0; y < ho; ++y) {
      for (int x = 0; x < wo; ++x) {
        double acc = f.bias.empty() ? 0.0 : f.bias[o];
        for (int c = 0; c < f.c_in; ++c) {
          for (int ky = 0; ky < f.k; ++ky) {
            const int iy = y * f.stride + ky - f.pad;
            if (iy < 0 || iy >= f.h_in) continue;
            for (int kx = 0; kx < f.k; ++kx) {
              const int ix = x * f.stride + kx - f.pad;
              if (ix < 0 || ix >= f.w_in) continue;
              acc += static_cast<double>(in[(static_cast<std::size_t>(c) * f.h_in + iy) * f.w_in + ix]) *
                     f.weights[((static_cast<std::size_t>(o) * f.c_in + c) * f.k + ky) * f.k + kx];
            }
          }
        }
        if (!f.bn_alpha.empty()) acc = f.bn_alpha[o] * acc + f.bn_beta[o];
        if (f.relu && acc < 0) acc = 0;
        out[(static_cast<std::size_t>(o) * ho + y) * wo + x] = static_cast<float>(acc);
      }
    }
  }
  return out;
}

std::vector<uint32_t> bits(const std::vector<float>& v) {
  std::vector<uint32_t> b(v.size());
  std::memcpy(b.data(), v.data(), v.size() * sizeof(float));
  return b;
}

TEST(Tf2FloatConv, RowAtATimeIsBitIdenticalToPixelByPixel) {
  std::mt19937 rng(20261129);
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  const auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 300; ++trial) {
    FloatConv f;
    f.k = pick(1, 5);
    f.stride = pick(1, 3);
    f.pad = pick(0, f.k - 1);
    f.c_in = pick(1, 6);
    f.c_out = pick(1, 5);
    f.h_in = pick(f.k, 12);
    f.w_in = pick(std::max(1, f.k - 2 * f.pad), 19);
    f.relu = pick(0, 1) == 1;
    f.weights.resize(static_cast<std::size_t>(f.c_out) * f.c_in * f.k * f.k);
    for (float& w : f.weights) w = value(rng);
    if (pick(0, 1)) {
      for (int o = 0; o < f.c_out; ++o) f.bias.push_back(value(rng));
    }
    if (pick(0, 1)) {
      for (int o = 0; o < f.c_out; ++o) {
        f.bn_alpha.push_back(value(rng));
        f.bn_beta.push_back(value(rng));
      }
    }
    std::vector<float> in(static_cast<std::size_t>(f.c_in) * f.h_in * f.w_in);
    for (float& x : in) x = value(rng);
    ASSERT_EQ(bits(cosim::tf2::float_conv2d(f, in)), bits(pixel_by_pixel(f, in)))
        << "trial " << trial << ": k " << f.k << " stride " << f.stride << " pad " << f.pad << " c_in " << f.c_in
        << " c_out " << f.c_out << " h_in " << f.h_in << " w_in " << f.w_in;
  }
}

}  // namespace
