#include "tflite/depthwise_as_conv.hpp"

#include "common/error.hpp"
#include "common/text.hpp"

namespace cosim::tflite {

LayerWorkload depthwise_as_conv2d(const LayerWorkload& dw) {
  if (dw.code != kDepthwiseConv2d) throw InputError(dw.op + " " + quoted(dw.name) + " is not a DEPTHWISE_CONV_2D");
  // The depthwise filter is [1, KH, KW, C * m].
  const int64_t kh = dw.filter.dim(1), kw = dw.filter.dim(2), out_c = dw.filter.dim(3);
  const int64_t m = dw.conv.depth_multiplier;
  if (m < 1 || out_c % m != 0)
    throw InputError("DEPTHWISE_CONV_2D " + quoted(dw.name) + ": depth multiplier " + std::to_string(m) +
                     " does not divide " + std::to_string(out_c) + " channels");
  const int64_t in_c = out_c / m;
  LayerWorkload conv = dw;
  conv.code = kConv2d;
  conv.conv.depth_multiplier = 1;
  conv.filter = Tensor(DType::kInt8, {out_c, kh, kw, in_c});  // zero-filled
  const int8_t* w = dw.filter.data<int8_t>();
  int8_t* f = conv.filter.data<int8_t>();
  for (int64_t o = 0; o < out_c; ++o)
    for (int64_t y = 0; y < kh; ++y)
      for (int64_t x = 0; x < kw; ++x) f[((o * kh + y) * kw + x) * in_c + o / m] = w[(y * kw + x) * out_c + o];
  return conv;
}

}  // namespace cosim::tflite
