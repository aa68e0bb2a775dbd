// Fast int8 CONV_2D / GEMM on the host CPU, bit-identical to ops::conv2d.
//
// Filters are packed once into tiles of 16 output channels x 4 input
// channels (the operand shape of a 32-bit-lane int8 dot-product instruction).
// The input is read directly from NHWC (no im2col): every filter tap reads C
// contiguous channels. Dot-product instructions multiply unsigned by signed
// bytes, so the input is biased to uint8 (x + 128) and the kernel subtracts
// (128 + zp_in) * sum(w) per output channel; padding is filled with the byte
// of zp_in, whose taps therefore contribute exactly zero. All arithmetic is
// modulo 2^32, so the result equals the reference whenever the reference's
// int32 sum is exact.
//
// The instruction path is chosen at run time (AVX-512 VNNI, AVX-VNNI or a
// portable C++ loop); the library itself builds with default compiler flags.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/conv2d.hpp"
#include "tensor/tensor.hpp"

namespace cosim::fastpath {

enum class Path {
  kAuto,        // COSIM_FASTPATH if set, else the best the CPU supports
  kPortable,    // plain C++
  kAvxVnni,     // VEX vpdpbusd on ymm (8 output channels per register)
  kAvx512Vnni,  // EVEX vpdpbusd on zmm (16 output channels per register)
};

// "auto", "portable", "avxvnni", "avx512vnni" (the COSIM_FASTPATH spellings).
const char* name_of(Path path);
// Parses a COSIM_FASTPATH spelling; throws cosim::InputError when unknown.
Path path_from_name(const char* name);
// Whether this CPU (and OS) can run the path; kAuto and kPortable always can.
bool supported(Path path);
// The concrete path a call with `requested` runs. kAuto reads COSIM_FASTPATH
// (if set) and otherwise picks the fastest supported path. Throws
// cosim::InputError when the forced path is unknown or not supported here.
Path resolve(Path requested);

// A filter [O,KH,KW,C] (OHWI) and its bias, packed once and reusable across
// calls with any input zero point and quantization parameters.
class PackedFilter {
 public:
  PackedFilter() = default;
  // filter int8 [O,KH,KW,C]; bias int32 [O] or empty. Throws InputError on
  // bad dtypes or shapes.
  PackedFilter(const Tensor& filter, const Tensor& bias);

  int out_channels() const { return o_; }
  int kernel_h() const { return kh_; }
  int kernel_w() const { return kw_; }
  int in_channels() const { return c_; }

  // Internal layout (used by the kernels).
  int channel_groups() const { return cg_; }  // ceil(C / 4)
  int oc_blocks() const { return ob_; }       // ceil(O / 16)
  const int8_t* weights() const { return w_.data(); }
  const int32_t* weight_sums() const { return wsum_.data(); }  // [ob*16]
  const int32_t* bias() const { return bias_.data(); }         // [ob*16]

 private:
  int o_ = 0, kh_ = 0, kw_ = 0, c_ = 0, cg_ = 0, ob_ = 0;
  // [kh*kw tap][channel group][oc block][16 oc][4 c], zero for padded
  // channels: the J blocks a register tile needs are 64-byte neighbours.
  std::vector<int8_t> w_;
  std::vector<int32_t> wsum_, bias_;
};

// Same semantics as ops::conv2d: NHWC int8 input, OHWI int8 filter, int32
// bias [O] or empty; returns int8 [N,OH,OW,O].
Tensor conv2d_fast(const Tensor& input, const Tensor& filter, const Tensor& bias,
                   const ops::ConvParams& p, Path path = Path::kAuto);
Tensor conv2d_fast(const Tensor& input, const PackedFilter& filter, const ops::ConvParams& p,
                   Path path = Path::kAuto);

// Same as ops::conv2d_accumulators: int32 [N,OH,OW,O], bias included.
Tensor conv2d_fast_accumulators(const Tensor& input, const Tensor& filter, const Tensor& bias,
                                const ops::ConvParams& p, Path path = Path::kAuto);
Tensor conv2d_fast_accumulators(const Tensor& input, const PackedFilter& filter,
                                const ops::ConvParams& p, Path path = Path::kAuto);

// C[m][n] = sum_k A[m][k] * B[n][k]: A int8 [M,K], B int8 [N,K] (row-major),
// C int32 [M,N], sums modulo 2^32.
void gemm_s8(const int8_t* a, const int8_t* b, int32_t* c, int m, int n, int k,
             Path path = Path::kAuto);
// Tensor form: a int8 [M,K], b int8 [N,K]; returns int32 [M,N].
Tensor gemm_s8(const Tensor& a, const Tensor& b, Path path = Path::kAuto);

}  // namespace cosim::fastpath
