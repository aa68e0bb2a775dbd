// Host-side layout transforms between TFLite tensors and the VTA blocked
// layouts (channel counts zero-padded up to multiples of 16):
//   activations NHWC  <-> [N][ceil(C/16)][H][W][16]   (one INP / OUT element = 16 channels of a pixel)
//   filter OHWI        -> [ceil(O/16)][KH][KW][ceil(C/16)] blocks of 16x16,
//                          block row j = output channel j, column k = input channel k
#pragma once

#include <cstdint>
#include <vector>

#include "tensor/tensor.hpp"

namespace cosim::vta {

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// int8 NHWC -> blocked bytes (16 per element).
std::vector<uint8_t> pack_activations(const Tensor& nhwc);
// Blocked bytes -> int8 NHWC of `shape` (throws cosim::InputError when short).
Tensor unpack_activations(const std::vector<uint8_t>& blocked, const std::vector<int64_t>& shape);
// Each element of `shape` (row-major, zero-padded to `padded` values) as
// `lut[x + 128]` of the int8 element of `t` that broadcasts onto it (NumPy
// rules: `t`'s dims align to the right, size-1 dims repeat): a host-side
// rescale of an ADD input, which is a pure function of the int8 value.
std::vector<int32_t> broadcast_through_lut(const Tensor& t, const std::vector<int64_t>& shape, int64_t padded,
                                           const int32_t* lut);
// int8 OHWI -> 256-byte weight blocks in [ob][kh][kw][cb] order.
std::vector<uint8_t> pack_weights(const Tensor& ohwi);

}  // namespace cosim::vta
