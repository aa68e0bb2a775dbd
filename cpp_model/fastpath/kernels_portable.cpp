// Portable kernel: the same packed layout and uint8 bias trick in plain C++,
// one pixel x one 16-channel block at a time. Sums are uint32 so that wrap
// around is defined (the result is taken modulo 2^32, as in vpdpbusd).
#include <cstring>

#include "fastpath/kernels.hpp"

namespace cosim::fastpath::detail {

void conv_portable(const ConvJob& job) {
  const int64_t pixels = job.pixels();
  const std::size_t wstride = job.group_stride();
  for (int64_t q = 0; q < pixels; ++q) {
    const uint8_t* base = job.in + job.pixel_base(q);
    for (int ob = 0; ob < job.ob; ++ob) {
      uint32_t acc[16] = {};
      const int8_t* w = job.block_weights(ob);
      for (int t = 0; t < job.taps; ++t) {
        const uint8_t* p = base + job.tap_off[t];
        for (int g = 0; g < job.groups; ++g, w += wstride) {
          const uint8_t* x = p + 4 * g;
          for (int lane = 0; lane < 16; ++lane) {
            const int8_t* wl = w + 4 * lane;
            const int32_t dot = x[0] * wl[0] + x[1] * wl[1] + x[2] * wl[2] + x[3] * wl[3];
            acc[lane] += static_cast<uint32_t>(dot);
          }
        }
      }
      const int oc0 = ob * 16;
      const int n = job.o - oc0 < 16 ? job.o - oc0 : 16;
      for (int lane = 0; lane < n; ++lane) {
        const uint32_t v = acc[lane] + static_cast<uint32_t>(job.offset[oc0 + lane]);
        job.acc_out[q * job.o + oc0 + lane] = static_cast<int32_t>(v);
      }
    }
  }
}

}  // namespace cosim::fastpath::detail
