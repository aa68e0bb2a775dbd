#include "support/tf2_random_layer.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "tf2/inq.hpp"

namespace cosim::tf2 {

ConvLayer random_layer(const RandomLayerShape& s, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ConvLayer L;
  L.c_in = s.c_in; L.c_out = s.c_out; L.h_in = s.h_in; L.w_in = s.w_in;
  L.k = s.k; L.stride = s.stride; L.pad = s.pad;
  L.batch_norm = s.batch_norm;
  L.relu = s.relu;
  const std::size_t n = static_cast<std::size_t>(L.c_out) * L.c_in * L.k * L.k;
  L.codes.resize(n);
  const int zero_pct = uni(0, 40);
  for (auto& c : L.codes) {
    const int idx = uni(0, 6);
    c = uni(0, 99) < zero_pct ? kCodeZero : static_cast<uint8_t>(uni(0, 1) ? 8 + idx : idx);
  }
  L.min_exp = uni(-12, -3);
  L.q_in = uni(-2, 6);
  if (!s.input_q.empty()) {
    // Work from the mean of the given map's Qs; the channels keep theirs.
    double sum = 0;
    for (int q : s.input_q) sum += q;
    L.q_in = static_cast<int>(std::lround(sum / static_cast<double>(s.input_q.size())));
    if (!std::all_of(s.input_q.begin(), s.input_q.end(), [&](int q) { return q == s.input_q[0]; })) {
      L.q_in_ch = s.input_q;
    } else {
      L.q_in = s.input_q[0];
    }
  }
  // Aim the middle magnitude (index 3) at a shift that keeps sums near int8
  // after the >> 15, with a little jitter; low indices may clamp at 0.
  const int taps = L.c_in * L.k * L.k;
  const int spread = static_cast<int>(std::lround(0.5 * std::log2(static_cast<double>(taps)))) + 4;
  L.q_out = L.q_in - L.min_exp - 3 - spread + uni(-1, 1);
  // One layer in four shifts the small magnitudes below 0 so the clamp
  // (s = max(0, ...)) is exercised.
  if (uni(0, 3) == 0) L.q_out -= uni(3, 8);
  while (L.largest_shift() > kMaxShift) --L.q_out;
  const int shared_q_out = L.q_out;
  for (int o = 0; o < L.c_out; ++o) {
    L.bias.push_back(uni(-(1 << 21), 1 << 21));
    if (L.batch_norm) {
      L.alpha.push_back(uni(-(1 << 19), 3 << 20));
      L.beta.push_back(uni(-(40 << 15), 40 << 15));
    } else {
      L.alpha.push_back(kAlphaOne);
      L.beta.push_back(0);
    }
  }
  // Drawn last, so shared-Q layers stay what they were for a seed.
  if (s.per_channel_q) {
    if (s.input_q.empty()) {
      for (int c = 0; c < L.c_in; ++c) L.q_in_ch.push_back(L.q_in + uni(-3, 3));
    }
    for (int o = 0; o < L.c_out; ++o) L.q_out_ch.push_back(shared_q_out + uni(-3, 2));
    while (L.largest_shift() > kMaxShift) {
      for (int& q : L.q_out_ch) --q;
    }
  }
  return L;
}

std::vector<ConvLayer> random_chain(std::vector<RandomLayerShape> shapes, uint64_t seed) {
  std::vector<ConvLayer> layers;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (i > 0) shapes[i].input_q = layers.back().output_q();
    layers.push_back(random_layer(shapes[i], seed + i));
  }
  return layers;
}

std::vector<int8_t> random_input(int c, int h, int w, uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x9E3779B97F4A7C15ull);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> v(static_cast<std::size_t>(c) * h * w);
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}

}  // namespace cosim::tf2
