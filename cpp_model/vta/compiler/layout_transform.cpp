#include "vta/compiler/layout_transform.hpp"

#include <string>

#include "common/error.hpp"
#include "vta/isa.hpp"

namespace cosim::vta {

namespace {

void need_int8_rank4(const Tensor& t, const char* what) {
  if (t.dtype() != DType::kInt8 || t.rank() != 4)
    throw InputError(std::string("VTA layout: ") + what + " must be int8 rank 4, got " + dtype_name(t.dtype()) +
                     " rank " + std::to_string(t.rank()));
}

}  // namespace

std::vector<uint8_t> pack_activations(const Tensor& t) {
  need_int8_rank4(t, "activation");
  const int64_t n = t.dim(0), h = t.dim(1), w = t.dim(2), c = t.dim(3);
  const int64_t cb = ceil_div(c, kBlock);
  std::vector<uint8_t> out(static_cast<std::size_t>(n * cb * h * w * kBlock), 0);
  const int8_t* x = t.data<int8_t>();
  for (int64_t in = 0; in < n; ++in)
    for (int64_t ih = 0; ih < h; ++ih)
      for (int64_t iw = 0; iw < w; ++iw)
        for (int64_t ic = 0; ic < c; ++ic) {
          const int64_t blk = ((in * cb + ic / kBlock) * h + ih) * w + iw;
          out[static_cast<std::size_t>(blk * kBlock + ic % kBlock)] = static_cast<uint8_t>(*x++);
        }
  return out;
}

Tensor unpack_activations(const std::vector<uint8_t>& blocked, const std::vector<int64_t>& shape) {
  if (shape.size() != 4) throw InputError("VTA layout: activation shape must be rank 4");
  const int64_t n = shape[0], h = shape[1], w = shape[2], c = shape[3];
  const int64_t cb = ceil_div(c, kBlock);
  const uint64_t need = static_cast<uint64_t>(n * cb * h * w * kBlock);
  if (blocked.size() < need)
    throw InputError("VTA layout: " + std::to_string(blocked.size()) + " blocked bytes, need " + std::to_string(need));
  Tensor t(DType::kInt8, shape, Layout::kNHWC);
  int8_t* y = t.data<int8_t>();
  for (int64_t in = 0; in < n; ++in)
    for (int64_t ih = 0; ih < h; ++ih)
      for (int64_t iw = 0; iw < w; ++iw)
        for (int64_t ic = 0; ic < c; ++ic) {
          const int64_t blk = ((in * cb + ic / kBlock) * h + ih) * w + iw;
          *y++ = static_cast<int8_t>(blocked[static_cast<std::size_t>(blk * kBlock + ic % kBlock)]);
        }
  return t;
}

std::vector<uint8_t> pack_weights(const Tensor& f) {
  need_int8_rank4(f, "filter");
  const int64_t o = f.dim(0), kh = f.dim(1), kw = f.dim(2), c = f.dim(3);
  const int64_t ob = ceil_div(o, kBlock), cb = ceil_div(c, kBlock);
  std::vector<uint8_t> out(static_cast<std::size_t>(ob * kh * kw * cb * kBlock * kBlock), 0);
  const int8_t* x = f.data<int8_t>();
  for (int64_t io = 0; io < o; ++io)
    for (int64_t y = 0; y < kh; ++y)
      for (int64_t xx = 0; xx < kw; ++xx)
        for (int64_t ic = 0; ic < c; ++ic) {
          const int64_t blk = ((io / kBlock * kh + y) * kw + xx) * cb + ic / kBlock;
          out[static_cast<std::size_t>(blk * kBlock * kBlock + (io % kBlock) * kBlock + ic % kBlock)] =
              static_cast<uint8_t>(*x++);
        }
  return out;
}

std::vector<int32_t> broadcast_through_lut(const Tensor& t, const std::vector<int64_t>& shape, int64_t padded,
                                           const int32_t* lut) {
  std::vector<int32_t> v(static_cast<std::size_t>(padded), 0);
  std::vector<int64_t> idx(shape.size(), 0);
  const std::size_t lead = shape.size() - t.rank();
  const int8_t* d = t.data<int8_t>();
  int64_t total = 1;
  for (int64_t s : shape) total *= s;
  for (int64_t i = 0; i < total; ++i) {
    int64_t off = 0;
    for (std::size_t k = 0; k < t.rank(); ++k) off = off * t.dim(k) + (t.dim(k) == 1 ? 0 : idx[lead + k]);
    v[static_cast<std::size_t>(i)] = lut[d[off] + 128];
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  return v;
}

}  // namespace cosim::vta
