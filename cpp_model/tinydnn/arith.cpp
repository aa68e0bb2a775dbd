#include "tinydnn/arith.hpp"

namespace cosim::tinydnn {

uint32_t normalise(const RunningSum& sum) {
  uint32_t s = sum.s;
  int32_t a = sum.a;
  if (a < 0) {
    a = detail::neg32(a);
    s ^= 1u;
  }
  const uint32_t ua = static_cast<uint32_t>(a);
  int lz = 31;  // the spec's lz for A == 0 (not 32)
  if (ua != 0) {
    lz = 0;
    while (!(ua & (0x80000000u >> lz))) ++lz;
  }
  const uint32_t n = ua << lz;
  const int32_t e = wrap10(sum.e - lz + 17 - 127);
  if (e <= 0) return 0;
  return (s << 31) | ((static_cast<uint32_t>(e) & 0xFFu) << 23) | ((n >> 8) & 0x7FFFFFu);
}

RunningSum accumulate_dest(uint32_t y, const RunningSum& in) {
  const uint32_t ey = (y >> 23) & 0xFFu;
  if (ey == 0) return in;
  const uint32_t sy = y >> 31;
  const int32_t f = static_cast<int32_t>((1u << 23) + (y & 0x7FFFFFu));
  const int32_t dd = wrap10(static_cast<int32_t>(ey) - in.e + 134);
  const int32_t a_al = (in.s ^ sy) ? detail::neg32(in.a) : in.a;
  int64_t aligned = 0;
  if (!detail::align(a_al, dd, &aligned)) return in;
  RunningSum out;
  out.s = sy;
  out.e = wrap10(static_cast<int32_t>(ey) + 118);
  out.a = static_cast<int32_t>(static_cast<uint32_t>(f) + static_cast<uint32_t>(aligned));
  return out;
}

}  // namespace cosim::tinydnn
