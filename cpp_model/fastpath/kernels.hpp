// Internal: the job description shared by the driver and the per-ISA kernels.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "quant/tflite_quant.hpp"

namespace cosim::fastpath::detail {

// One convolution over a padded, uint8-biased NHWC input. Pixels are the
// flattened output positions (n, oy, ox); each one reads KH*KW taps of `cp`
// contiguous bytes at pixel_base + tap_off[t].
struct ConvJob {
  const uint8_t* in = nullptr;  // [n][hp][wp][cp], x + 128, padding = zp_in + 128
  int n = 0, hp = 0, wp = 0, cp = 0;
  int oh = 0, ow = 0, sh = 1, sw = 1;
  const int32_t* tap_off = nullptr;  // [taps] byte offsets
  int taps = 0;
  // Packed weights [taps][groups][ob][16][4], groups = cp / 4.
  const int8_t* w = nullptr;
  int groups = 0, ob = 0, o = 0;
  // Per padded output channel [ob*16]: bias - (128 + zp_in) * sum(w).
  const int32_t* offset = nullptr;

  // Exactly one output: int32 accumulators [pixels][o], or int8 [pixels][o]
  // requantized (only the AVX-512 kernel fuses requantization).
  int32_t* acc_out = nullptr;
  int8_t* q_out = nullptr;
  // Requantization, per padded output channel [ob*16].
  const int32_t* mult = nullptr;
  const int32_t* shift = nullptr;
  quant::Rounding rounding = quant::Rounding::kDouble;
  int32_t zp_out = 0, act_min = -128, act_max = 127;  // clamp range within int8

  int64_t pixels() const { return static_cast<int64_t>(n) * oh * ow; }
  // Byte offset of the first tap of flattened output pixel q.
  int64_t pixel_base(int64_t q) const {
    const int64_t per_image = static_cast<int64_t>(oh) * ow;
    const int64_t img = q / per_image;
    const int64_t rem = q - img * per_image;
    const int64_t oy = rem / ow;
    const int64_t ox = rem - oy * ow;
    return ((img * hp + oy * sh) * wp + ox * sw) * cp;
  }
  // First-tap addresses of the R pixels of a register tile starting at q0;
  // returns how many of them exist. A tail tile repeats its last pixel so
  // the kernel's loops keep their fixed trip count instead of branching.
  template <int R>
  int tile_bases(int64_t q0, const uint8_t* (&base)[R]) const {
    const int64_t left = pixels() - q0;
    const int valid = static_cast<int>(left < R ? left : R);
    for (int r = 0; r < R; ++r) base[r] = in + pixel_base(r < valid ? q0 + r : q0 + valid - 1);
    return valid;
  }
  // The R pixels' bytes at tap t, from their first-tap addresses (tile_bases).
  template <int R>
  std::array<const uint8_t*, R> tap_pixels(const uint8_t* const (&base)[R], int t) const {
    std::array<const uint8_t*, R> p;
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) p[r] = base[r] + tap_off[t];
    return p;
  }
  // Output block `block`'s packed weights at tap 0, group 0; each next group
  // (and tap) is group_stride() bytes on.
  const int8_t* block_weights(int block) const { return w + static_cast<std::size_t>(block) * 64; }
  std::size_t group_stride() const { return static_cast<std::size_t>(ob) * 64; }
};

// Four input bytes (one channel group of a pixel) as one 32-bit lane value,
// for the kernels' broadcast: unaligned, so through memcpy.
inline int32_t load_u32(const uint8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

void conv_portable(const ConvJob& job);
void conv_avxvnni(const ConvJob& job);
// Honors job.q_out (fused requantization) as well as job.acc_out.
void conv_avx512vnni(const ConvJob& job);

}  // namespace cosim::fastpath::detail
