// AVX-512 VNNI kernel: vpdpbusd on zmm, 16 output channels per register.
//
// A register tile is R output pixels x J blocks of 16 output channels. Per
// group of 4 input channels the tile loads J weight vectors (16 oc x 4 c each,
// contiguous in the packed filter), broadcasts 4 input bytes of each pixel and
// issues R*J dot products. The epilogue adds the per-channel offset and either
// stores int32 or requantizes to int8 in registers.
// GCC 12's avx512fintrin.h initialises "undefined" vectors as `__Y = __Y`,
// which -Wmaybe-uninitialized flags once inlined here (GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <cstdint>

#include "fastpath/kernels.hpp"

#define COSIM_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

namespace cosim::fastpath::detail {
namespace {

COSIM_AVX512 inline __m512i load_u32_bcast(const uint8_t* p) { return _mm512_set1_epi32(load_u32(p)); }

// (p + nudge) / 2^31 truncating toward zero, per 64-bit lane (SRDHM's tail).
COSIM_AVX512 inline __m512i srdhm_tail(__m512i p) {
  const __m512i zero = _mm512_setzero_si512();
  const __mmask8 neg = _mm512_cmplt_epi64_mask(p, zero);
  const __m512i nudge = _mm512_mask_blend_epi64(neg, _mm512_set1_epi64(int64_t{1} << 30),
                                                _mm512_set1_epi64(1 - (int64_t{1} << 30)));
  __m512i v = _mm512_add_epi64(p, nudge);
  const __mmask8 vneg = _mm512_cmplt_epi64_mask(v, zero);
  v = _mm512_mask_add_epi64(v, vneg, v, _mm512_set1_epi64((int64_t{1} << 31) - 1));
  return _mm512_srai_epi64(v, 31);
}

// Low 32 bits of the even-lane and odd-lane 64-bit results, interleaved back.
COSIM_AVX512 inline __m512i join_even_odd(__m512i even, __m512i odd) {
  return _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
}

// Per-channel constants of one 16-channel block.
struct Requant16 {
  __m512i mult, lshift, rshift, t_even, t_odd;
};

COSIM_AVX512 inline Requant16 load_requant(const ConvJob& job, int oc0) {
  const __m512i shift = _mm512_loadu_si512(job.shift + oc0);
  const __m512i zero = _mm512_setzero_si512();
  Requant16 r;
  r.mult = _mm512_loadu_si512(job.mult + oc0);
  r.lshift = _mm512_max_epi32(shift, zero);
  r.rshift = _mm512_max_epi32(_mm512_sub_epi32(zero, shift), zero);
  const __m512i t = _mm512_sub_epi32(_mm512_set1_epi32(31), shift);  // single rounding
  r.t_even = _mm512_and_si512(t, _mm512_set1_epi64(0xFFFFFFFF));
  r.t_odd = _mm512_srli_epi64(t, 32);
  return r;
}

COSIM_AVX512 inline __m512i requant_double(__m512i x, const Requant16& q) {
  x = _mm512_sllv_epi32(x, q.lshift);
  const __m512i pe = _mm512_mul_epi32(x, q.mult);
  const __m512i po = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(q.mult, 32));
  const __m512i h = join_even_odd(srdhm_tail(pe), srdhm_tail(po));
  // RoundingDivideByPOT(h, e).
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, q.rshift), one);
  const __m512i rem = _mm512_and_si512(h, mask);
  const __m512i thr = _mm512_sub_epi32(_mm512_srli_epi32(mask, 1), _mm512_srai_epi32(h, 31));
  const __m512i res = _mm512_srav_epi32(h, q.rshift);
  return _mm512_mask_add_epi32(res, _mm512_cmpgt_epi32_mask(rem, thr), res, one);
}

COSIM_AVX512 inline __m512i requant_single(__m512i x, const Requant16& q) {
  const __m512i one = _mm512_set1_epi64(1);
  const __m512i pe = _mm512_mul_epi32(x, q.mult);
  const __m512i po = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(q.mult, 32));
  const __m512i re = _mm512_sllv_epi64(one, _mm512_sub_epi64(q.t_even, one));
  const __m512i ro = _mm512_sllv_epi64(one, _mm512_sub_epi64(q.t_odd, one));
  // Saturate to int32 like the scalar reference (reachable only for shift > 0).
  const __m512i lo = _mm512_set1_epi64(INT32_MIN);
  const __m512i hi = _mm512_set1_epi64(INT32_MAX);
  const __m512i ve = _mm512_srav_epi64(_mm512_add_epi64(pe, re), q.t_even);
  const __m512i vo = _mm512_srav_epi64(_mm512_add_epi64(po, ro), q.t_odd);
  return join_even_odd(_mm512_max_epi64(_mm512_min_epi64(ve, hi), lo),
                       _mm512_max_epi64(_mm512_min_epi64(vo, hi), lo));
}

template <int R, int J>
COSIM_AVX512 void tile(const ConvJob& job, int64_t q0, int ob0) {
  const uint8_t* base[R];
  const int valid_px = job.tile_bases(q0, base);

  __m512i acc[R][J];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < J; ++j) acc[r][j] = _mm512_setzero_si512();

  const std::size_t wstride = job.group_stride();
  const int8_t* w = job.block_weights(ob0);
  for (int t = 0; t < job.taps; ++t) {
    const auto p = job.tap_pixels(base, t);
    for (int g = 0; g < job.groups; ++g) {
      __m512i wv[J];
#pragma GCC unroll 4
      for (int j = 0; j < J; ++j) wv[j] = _mm512_loadu_si512(w + j * 64);
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r) {
        const __m512i b = load_u32_bcast(p[r] + 4 * g);
#pragma GCC unroll 4
        for (int j = 0; j < J; ++j) acc[r][j] = _mm512_dpbusd_epi32(acc[r][j], b, wv[j]);
      }
      w += wstride;
    }
  }

#pragma GCC unroll 4
  for (int j = 0; j < J; ++j) {
    const int oc0 = (ob0 + j) * 16;
    const int left = job.o - oc0;
    const __mmask16 m = left >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1);
    const __m512i off = _mm512_loadu_si512(job.offset + oc0);
    if (job.q_out == nullptr) {
      for (int r = 0; r < valid_px; ++r) {
        const __m512i v = _mm512_add_epi32(acc[r][j], off);
        _mm512_mask_storeu_epi32(job.acc_out + (q0 + r) * job.o + oc0, m, v);
      }
      continue;
    }
    const Requant16 rq = load_requant(job, oc0);
    // clamp(y + zp, lo, hi) == clamp(y, lo - zp, hi - zp) + zp, without the
    // int32 overflow of y + zp.
    const __m512i zp = _mm512_set1_epi32(job.zp_out);
    const __m512i lo = _mm512_set1_epi32(job.act_min - job.zp_out);
    const __m512i hi = _mm512_set1_epi32(job.act_max - job.zp_out);
    const bool single = job.rounding == quant::Rounding::kSingle;
    for (int r = 0; r < valid_px; ++r) {
      const __m512i x = _mm512_add_epi32(acc[r][j], off);
      __m512i y = single ? requant_single(x, rq) : requant_double(x, rq);
      y = _mm512_add_epi32(_mm512_min_epi32(_mm512_max_epi32(y, lo), hi), zp);
      _mm_mask_storeu_epi8(job.q_out + (q0 + r) * job.o + oc0, m, _mm512_cvtepi32_epi8(y));
    }
  }
}

}  // namespace

COSIM_AVX512 void conv_avx512vnni(const ConvJob& job) {
  // Pixel tiles outside, channel blocks inside: the tile's input stays in L1
  // while every output channel group is computed from it.
  constexpr int kR = 6;  // pixels per tile when 4 blocks (64 channels) fit
  const int64_t pixels = job.pixels();
  if (job.ob >= 4) {
    for (int64_t q0 = 0; q0 < pixels; q0 += kR) {
      int ob0 = 0;
      for (; ob0 + 4 <= job.ob; ob0 += 4) tile<kR, 4>(job, q0, ob0);
      switch (job.ob - ob0) {
        case 3: tile<kR, 3>(job, q0, ob0); break;
        case 2: tile<kR, 2>(job, q0, ob0); break;
        case 1: tile<kR, 1>(job, q0, ob0); break;
        default: break;
      }
    }
    return;
  }
  // Narrow layers: more pixels per tile to keep enough independent sums.
  switch (job.ob) {
    case 3:
      for (int64_t q0 = 0; q0 < pixels; q0 += 8) tile<8, 3>(job, q0, 0);
      break;
    case 2:
      for (int64_t q0 = 0; q0 < pixels; q0 += 12) tile<12, 2>(job, q0, 0);
      break;
    case 1:
      for (int64_t q0 = 0; q0 < pixels; q0 += 12) tile<12, 1>(job, q0, 0);
      break;
    default:
      break;
  }
}

}  // namespace cosim::fastpath::detail
