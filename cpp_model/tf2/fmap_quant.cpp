#include "tf2/fmap_quant.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.hpp"

namespace cosim::tf2 {

double round_half_away(double v) { return std::round(v); }

int8_t saturate_int8(int64_t v) {
  if (v > 127) return 127;
  if (v < -128) return -128;
  return static_cast<int8_t>(v);
}

int8_t quantize_value(float v, int q) {
  const double s = round_half_away(std::ldexp(static_cast<double>(v), q));
  if (s > 127.0) return 127;
  if (s < -128.0) return -128;
  return static_cast<int8_t>(s);
}

int choose_channel_q(const float* values, std::size_t n) {
  double max_abs = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(values[i])) {
      throw InputError("tf2 feature Q: value " + std::to_string(i) + " is not finite");
    }
    max_abs = std::fmax(max_abs, std::fabs(static_cast<double>(values[i])));
  }
  if (max_abs == 0.0) return 0;
  const double l = std::log2(127.0 / max_abs);
  int q = static_cast<int>(l < 0 ? std::floor(l) : std::nearbyint(l));  // nearbyint: half to even
  const float m = static_cast<float>(max_abs);
  while (m * std::ldexp(1.0f, q) > 127.0f) --q;
  return q;
}

std::vector<int> pull_toward_mean(std::vector<int> q, const std::vector<bool>& skip) {
  double sum = 0;
  int n = 0;
  for (std::size_t c = 0; c < q.size(); ++c) {
    if (c < skip.size() && skip[c]) continue;
    sum += q[c];
    ++n;
  }
  if (n == 0) return q;
  const double mean = sum / n;
  for (std::size_t c = 0; c < q.size(); ++c) {
    if (c < skip.size() && skip[c]) continue;
    if (q[c] > 0 && q[c] > mean) q[c] = static_cast<int>(std::floor(mean));
    if (q[c] < 0 && q[c] < mean) q[c] = static_cast<int>(std::ceil(mean));
  }
  return q;
}

std::vector<int> choose_map_q(const std::vector<float>& chw, int channels) {
  if (channels <= 0 || chw.size() % static_cast<std::size_t>(channels) != 0) {
    throw InputError("tf2 feature Q: map of " + std::to_string(chw.size()) + " values does not split into " +
                     std::to_string(channels) + " channels");
  }
  const std::size_t plane = chw.size() / static_cast<std::size_t>(channels);
  std::vector<int> q(static_cast<std::size_t>(channels));
  std::vector<bool> zero(static_cast<std::size_t>(channels));
  for (int c = 0; c < channels; ++c) {
    const float* v = chw.data() + c * plane;
    q[c] = choose_channel_q(v, plane);
    zero[c] = std::all_of(v, v + plane, [](float x) { return x == 0.0f; });
  }
  return pull_toward_mean(q, zero);
}

std::vector<int> choose_q_from_max(const std::vector<float>& max_abs) {
  std::vector<int> q(max_abs.size());
  std::vector<bool> zero(max_abs.size());
  for (std::size_t c = 0; c < max_abs.size(); ++c) {
    q[c] = choose_channel_q(&max_abs[c], 1);  // the channel's Q depends on its maximum only
    zero[c] = max_abs[c] == 0.0f;
  }
  return pull_toward_mean(q, zero);
}

int choose_layer_q(const std::vector<float>& chw, int channels) {
  const std::vector<int> q = choose_map_q(chw, channels);
  int m = q.empty() ? 0 : q[0];
  for (int v : q) m = v < m ? v : m;
  return m;
}

std::string q_range(const std::vector<int>& q) {
  if (q.empty()) return "-";
  const auto [lo, hi] = std::minmax_element(q.begin(), q.end());
  return *lo == *hi ? std::to_string(*lo) : std::to_string(*lo) + ".." + std::to_string(*hi);
}

namespace {
// The Q of every element of a CHW map of `values` elements: one per channel
// (q.size() == channels) or one shared; InputError naming `what` otherwise.
std::vector<int> element_q(const char* what, std::size_t values, int channels, const std::vector<int>& q) {
  if (channels <= 0 || values % static_cast<std::size_t>(channels) != 0 ||
      (q.size() != 1 && q.size() != static_cast<std::size_t>(channels))) {
    throw InputError(std::string("tf2 ") + what + ": shape/Q count mismatch (" + std::to_string(values) +
                     " values, " + std::to_string(channels) + " channels, " + std::to_string(q.size()) + " Qs)");
  }
  const std::size_t plane = values / static_cast<std::size_t>(channels);
  std::vector<int> e(values);
  for (std::size_t i = 0; i < values; ++i) e[i] = q.size() == 1 ? q[0] : q[i / plane];
  return e;
}
}  // namespace

std::vector<int8_t> quantize_map(const std::vector<float>& chw, int channels, const std::vector<int>& q) {
  const std::vector<int> eq = element_q("quantize_map", chw.size(), channels, q);
  std::vector<int8_t> out(chw.size());
  for (std::size_t i = 0; i < chw.size(); ++i) out[i] = quantize_value(chw[i], eq[i]);
  return out;
}

std::vector<float> dequantize_map(const std::vector<int8_t>& q, int qexp) { return dequantize_map(q, 1, {qexp}); }

std::vector<float> dequantize_map(const std::vector<int8_t>& q, int channels, const std::vector<int>& qexp) {
  const std::vector<int> eq = element_q("dequantize_map", q.size(), channels, qexp);
  std::vector<float> out(q.size());
  for (std::size_t i = 0; i < q.size(); ++i) out[i] = static_cast<float>(std::ldexp(q[i], -eq[i]));
  return out;
}

}  // namespace cosim::tf2
