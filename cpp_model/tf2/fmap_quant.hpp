// Feature maps: per-channel power-of-two quantization to int8 (TF2
// quantization tool). A value v becomes round_half_away(v * 2^Q), saturated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cosim::tf2 {

// Rounds halves away from zero (2.5 -> 3, -2.5 -> -3).
double round_half_away(double v);

// Saturates to int8.
int8_t saturate_int8(int64_t v);

// round_half_away(v * 2^q), saturated to [-128, 127].
int8_t quantize_value(float v, int q);

// Q for one channel as the Transform Kit picks it (spec/tf2.md), from the
// maximum of |x| (the -128 side is never used): log2(127 / max|x|), floor
// when negative, round half to even otherwise; then decreased while the
// unrounded max|x| * 2^Q (float32) is above 127. An all-zero (or empty)
// channel gets Q = 0.
int choose_channel_q(const float* values, std::size_t n);

// Step 3 of the Transform Kit over one map's channel Qs: a positive Q above
// their mean becomes floor(mean), a negative Q below it becomes ceil(mean).
// Channels marked in `skip` (all zero) neither count nor move.
std::vector<int> pull_toward_mean(std::vector<int> q, const std::vector<bool>& skip = {});

// Per-channel Q of a CHW map: choose_channel_q per channel, then
// pull_toward_mean over the map (all-zero channels left out).
std::vector<int> choose_map_q(const std::vector<float>& chw, int channels);

// Per-channel Q of a map from calibration maxima (max |x| per channel over a
// batch): choose_channel_q on each maximum, then pull_toward_mean (channels
// whose maximum is 0 neither count nor move; they get Q 0).
std::vector<int> choose_q_from_max(const std::vector<float>& max_abs);

// One Q shared by all channels of a layer output (the hardware path, which
// has one Q per map until per-channel Q lands): the smallest per-channel Q.
int choose_layer_q(const std::vector<float>& chw, int channels);

// A map's channel Qs for a report: "lo..hi", or the one Q they share.
std::string q_range(const std::vector<int>& q);

// Quantizes a CHW map with one Q per channel (q.size() == channels) or one
// shared Q (q.size() == 1).
std::vector<int8_t> quantize_map(const std::vector<float>& chw, int channels, const std::vector<int>& q);

// The float values of an int8 map at Q `qexp`: q * 2^-qexp.
std::vector<float> dequantize_map(const std::vector<int8_t>& q, int qexp);
// The same for a CHW map with one Q per channel (qexp.size() == channels)
// or one shared Q (qexp.size() == 1).
std::vector<float> dequantize_map(const std::vector<int8_t>& q, int channels, const std::vector<int>& qexp);

}  // namespace cosim::tf2
