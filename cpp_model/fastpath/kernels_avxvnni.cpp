// AVX-VNNI kernel: VEX vpdpbusd on ymm (16 registers), 8 output channels per
// register. A tile is R pixels x one 16-channel block (two ymm halves of the
// packed 64-byte weight tile). Writes int32 accumulators only; the driver
// requantizes.
#include <immintrin.h>


#include "fastpath/kernels.hpp"

#define COSIM_AVXVNNI __attribute__((target("avx2,avxvnni")))

namespace cosim::fastpath::detail {
namespace {

COSIM_AVXVNNI inline __m256i load_u32_bcast(const uint8_t* p) { return _mm256_set1_epi32(load_u32(p)); }

// Lanes [0, n) of a store mask.
COSIM_AVXVNNI inline __m256i lane_mask(int n) {
  const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), idx);
}

template <int R>
COSIM_AVXVNNI void tile(const ConvJob& job, int64_t q0, int ob0) {
  const uint8_t* base[R];
  const int valid_px = job.tile_bases(q0, base);
  __m256i lo[R], hi[R];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) lo[r] = hi[r] = _mm256_setzero_si256();

  const std::size_t wstride = job.group_stride();
  const int8_t* w = job.block_weights(ob0);
  for (int t = 0; t < job.taps; ++t) {
    const auto p = job.tap_pixels(base, t);
    for (int g = 0; g < job.groups; ++g) {
      const __m256i w_lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w));
      const __m256i w_hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 32));
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r) {
        const __m256i b = load_u32_bcast(p[r] + 4 * g);
        lo[r] = _mm256_dpbusd_avx_epi32(lo[r], b, w_lo);
        hi[r] = _mm256_dpbusd_avx_epi32(hi[r], b, w_hi);
      }
      w += wstride;
    }
  }

  const int oc0 = ob0 * 16;
  const int left = job.o - oc0;
  const __m256i off_lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(job.offset + oc0));
  const __m256i off_hi =
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(job.offset + oc0 + 8));
  const __m256i m_lo = lane_mask(left);
  const __m256i m_hi = lane_mask(left - 8);
  for (int r = 0; r < valid_px; ++r) {
    int* dst = reinterpret_cast<int*>(job.acc_out + (q0 + r) * job.o + oc0);
    _mm256_maskstore_epi32(dst, m_lo, _mm256_add_epi32(lo[r], off_lo));
    if (left > 8) _mm256_maskstore_epi32(dst + 8, m_hi, _mm256_add_epi32(hi[r], off_hi));
  }
}

}  // namespace

COSIM_AVXVNNI void conv_avxvnni(const ConvJob& job) {
  constexpr int kR = 6;
  const int64_t pixels = job.pixels();
  for (int64_t q0 = 0; q0 < pixels; q0 += kR)
    for (int ob0 = 0; ob0 < job.ob; ++ob0) tile<kR>(job, q0, ob0);
}

}  // namespace cosim::fastpath::detail
