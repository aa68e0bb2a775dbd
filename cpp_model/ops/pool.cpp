#include "ops/pool.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"

namespace cosim::ops {

Tensor average_pool2d(const Tensor& in, const PoolParams& p) {
  if (in.dtype() != DType::kInt8 || in.rank() != 4) throw InputError("average_pool2d: input must be int8 NHWC");
  if (p.stride_h < 1 || p.stride_w < 1 || p.filter_h < 1 || p.filter_w < 1)
    throw InputError("average_pool2d: strides and filter sizes must be >= 1");
  const int n = static_cast<int>(in.dim(0)), h = static_cast<int>(in.dim(1)), w = static_cast<int>(in.dim(2)),
            c = static_cast<int>(in.dim(3));
  const PadAmount ph = compute_padding(p.padding, h, p.filter_h, p.stride_h, 1);
  const PadAmount pw = compute_padding(p.padding, w, p.filter_w, p.stride_w, 1);
  if (ph.out < 1 || pw.out < 1) throw InputError("average_pool2d: the window does not fit the map");
  Tensor out(DType::kInt8, {n, ph.out, pw.out, c}, Layout::kNHWC);
  const int8_t* x = in.data<int8_t>();
  int8_t* y = out.data<int8_t>();
  for (int b = 0; b < n; ++b) {
    for (int oy = 0; oy < ph.out; ++oy) {
      for (int ox = 0; ox < pw.out; ++ox) {
        const int y0 = oy * p.stride_h - ph.before, x0 = ox * p.stride_w - pw.before;
        for (int ch = 0; ch < c; ++ch) {
          int32_t sum = 0, count = 0;
          for (int fy = std::max(0, -y0); fy < std::min(p.filter_h, h - y0); ++fy) {
            for (int fx = std::max(0, -x0); fx < std::min(p.filter_w, w - x0); ++fx) {
              sum += x[((static_cast<int64_t>(b) * h + y0 + fy) * w + x0 + fx) * c + ch];
              ++count;
            }
          }
          if (count == 0) throw InputError("average_pool2d: a window covers no input pixel");
          int32_t avg = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
          avg = std::clamp(avg, p.act.min, p.act.max);
          y[((static_cast<int64_t>(b) * ph.out + oy) * pw.out + ox) * c + ch] = static_cast<int8_t>(avg);
        }
      }
    }
  }
  return out;
}

}  // namespace cosim::ops
