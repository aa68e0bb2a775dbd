// Driver of the fast path: run-time dispatch, filter packing, input biasing
// and padding, and the scalar requantization used by the paths that do not
// fuse it.
#include "fastpath/fastpath.hpp"

#include <cpuid.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "common/error.hpp"
#include "fastpath/kernels.hpp"

namespace cosim::fastpath {

namespace {

constexpr int kBlock = 16;  // output channels per packed tile
constexpr int kGroup = 4;   // input channels per dot-product lane

std::string shape_str(const Tensor& t) {
  std::string s = "[";
  for (std::size_t i = 0; i < t.rank(); ++i) s += (i ? "," : "") + std::to_string(t.dim(i));
  return s + "]";
}

bool cpu_has_avx512vnni() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
}

bool cpu_has_avxvnni() {
  __builtin_cpu_init();
  // AVX-VNNI is CPUID leaf 7, sub-leaf 1, EAX bit 4; asked directly because
  // __builtin_cpu_supports("avxvnni") is GCC 11+ only (clang 14 rejects it).
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx)) return false;
  return __builtin_cpu_supports("avx2") && ((eax >> 4) & 1u) != 0;
}

// Output extent and leading padding of one axis (spec/quantization.md s.1).
struct Axis {
  int out = 0;
  int pad_before = 0;
  int padded = 0;  // input extent after padding on both sides
};

Axis axis(ops::Padding padding, int in, int k, int stride, int dilation, const char* name) {
  const int64_t eff = static_cast<int64_t>(k - 1) * dilation + 1;
  Axis a;
  if (padding == ops::Padding::kSame) {
    a.out = static_cast<int>((in + stride - 1) / stride);
    const int64_t total = std::max<int64_t>((static_cast<int64_t>(a.out) - 1) * stride + eff - in, 0);
    a.pad_before = static_cast<int>(total / 2);
    a.padded = static_cast<int>(in + total);
  } else {
    const int64_t span = in - eff + 1;
    a.out = span > 0 ? static_cast<int>((span + stride - 1) / stride) : 0;
    a.padded = in;
  }
  if (a.out <= 0)
    throw InputError(std::string("conv2d_fast: ") + name + " input extent " + std::to_string(in) +
                     " is smaller than the dilated kernel (" + std::to_string(eff) +
                     ") with VALID padding");
  return a;
}

void check_params(const ops::ConvParams& p) {
  if (p.stride_h < 1 || p.stride_w < 1 || p.dilation_h < 1 || p.dilation_w < 1)
    throw InputError("conv2d_fast: strides and dilations must be >= 1, got stride " +
                     std::to_string(p.stride_h) + "x" + std::to_string(p.stride_w) + " dilation " +
                     std::to_string(p.dilation_h) + "x" + std::to_string(p.dilation_w));
  if (p.input_zero_point < -128 || p.input_zero_point > 127)
    throw InputError("conv2d_fast: input_zero_point " + std::to_string(p.input_zero_point) +
                     " outside the int8 range");
}

// Whether the AVX-512 epilogue reproduces quant::multiply_by_quantized_multiplier
// for every channel: shifts in its valid range and no INT32_MIN multiplier
// (the one saturating case of SRDHM). Otherwise the scalar function runs.
bool simd_requant_ok(const std::vector<int32_t>& mult, const std::vector<int32_t>& shift) {
  for (std::size_t i = 0; i < mult.size(); ++i)
    if (shift[i] < -31 || shift[i] > 30 || mult[i] == std::numeric_limits<int32_t>::min())
      return false;
  return true;
}

}  // namespace

const char* name_of(Path path) {
  switch (path) {
    case Path::kAuto: return "auto";
    case Path::kPortable: return "portable";
    case Path::kAvxVnni: return "avxvnni";
    case Path::kAvx512Vnni: return "avx512vnni";
  }
  return "unknown";
}

Path path_from_name(const char* name) {
  const std::string s = name ? name : "";
  for (Path p : {Path::kAuto, Path::kPortable, Path::kAvxVnni, Path::kAvx512Vnni})
    if (s == name_of(p)) return p;
  throw InputError("COSIM_FASTPATH: unknown path '" + s +
                   "' (expected auto, portable, avxvnni or avx512vnni)");
}

bool supported(Path path) {
  switch (path) {
    case Path::kAuto:
    case Path::kPortable: return true;
    case Path::kAvxVnni: return cpu_has_avxvnni();
    case Path::kAvx512Vnni: return cpu_has_avx512vnni();
  }
  return false;
}

Path resolve(Path requested) {
  if (requested == Path::kAuto) {
    const char* env = std::getenv("COSIM_FASTPATH");
    if (env != nullptr && *env != '\0') requested = path_from_name(env);
  }
  if (requested == Path::kAuto) {
    if (cpu_has_avx512vnni()) return Path::kAvx512Vnni;
    if (cpu_has_avxvnni()) return Path::kAvxVnni;
    return Path::kPortable;
  }
  if (!supported(requested))
    throw InputError(std::string("fastpath: path '") + name_of(requested) +
                     "' is not supported by this CPU");
  return requested;
}

// ---------------------------------------------------------------------------
// Packing

PackedFilter::PackedFilter(const Tensor& filter, const Tensor& bias) {
  if (filter.dtype() != DType::kInt8 || filter.rank() != 4)
    throw InputError("conv2d_fast: filter must be int8 [O,KH,KW,C], got " +
                     std::string(dtype_name(filter.dtype())) + " " + shape_str(filter));
  for (std::size_t i = 0; i < 4; ++i)
    if (filter.dim(i) < 1 || filter.dim(i) > std::numeric_limits<int>::max() / 64)
      throw InputError("conv2d_fast: filter dimension " + std::to_string(i) + " of " +
                       shape_str(filter) + " out of range");
  o_ = static_cast<int>(filter.dim(0));
  kh_ = static_cast<int>(filter.dim(1));
  kw_ = static_cast<int>(filter.dim(2));
  c_ = static_cast<int>(filter.dim(3));
  if (!(bias.nbytes() == 0 || (bias.dtype() == DType::kInt32 && bias.rank() == 1 && bias.dim(0) == o_)))
    throw InputError("conv2d_fast: bias must be int32 [" + std::to_string(o_) + "] or empty, got " +
                     std::string(dtype_name(bias.dtype())) + " " + shape_str(bias));
  cg_ = (c_ + kGroup - 1) / kGroup;
  ob_ = (o_ + kBlock - 1) / kBlock;
  const int taps = kh_ * kw_;
  w_.assign(static_cast<std::size_t>(taps) * cg_ * ob_ * kBlock * kGroup, 0);
  wsum_.assign(static_cast<std::size_t>(ob_) * kBlock, 0);
  bias_.assign(static_cast<std::size_t>(ob_) * kBlock, 0);
  const int8_t* src = filter.data<int8_t>();
  for (int oc = 0; oc < o_; ++oc) {
    int32_t sum = 0;
    for (int t = 0; t < taps; ++t)
      for (int c = 0; c < c_; ++c) {
        const int8_t v = src[(static_cast<std::size_t>(oc) * taps + t) * c_ + c];
        sum += v;
        // [tap][group][block][16 oc][4 c]
        const std::size_t dst =
            ((static_cast<std::size_t>(t) * cg_ + c / kGroup) * ob_ + oc / kBlock) * kBlock * kGroup +
            (oc % kBlock) * kGroup + c % kGroup;
        w_[dst] = v;
      }
    wsum_[oc] = sum;
    if (bias.nbytes() != 0) bias_[oc] = bias.data<int32_t>()[oc];
  }
}

// ---------------------------------------------------------------------------
// Convolution

namespace {

struct Prepared {
  std::vector<uint8_t> in;       // padded, biased input
  std::vector<int32_t> tap_off;  // per tap
  std::vector<int32_t> offset;   // per padded channel
  detail::ConvJob job;
  int n = 0, oh = 0, ow = 0, o = 0;
};

Prepared prepare(const Tensor& input, const PackedFilter& f, const ops::ConvParams& p) {
  if (input.dtype() != DType::kInt8 || input.rank() != 4)
    throw InputError("conv2d_fast: input must be int8 [N,H,W,C], got " +
                     std::string(dtype_name(input.dtype())) + " " + shape_str(input));
  if (f.out_channels() == 0) throw InputError("conv2d_fast: empty packed filter");
  if (input.dim(3) != f.in_channels())
    throw InputError("conv2d_fast: input has " + std::to_string(input.dim(3)) +
                     " channels but the filter expects " + std::to_string(f.in_channels()));
  check_params(p);
  for (std::size_t i = 0; i < 3; ++i)
    if (input.dim(i) < 1 || input.dim(i) > (1 << 24))
      throw InputError("conv2d_fast: input shape " + shape_str(input) + " out of range");
  const int n = static_cast<int>(input.dim(0));
  const int h = static_cast<int>(input.dim(1));
  const int w = static_cast<int>(input.dim(2));
  const int c = f.in_channels();
  const Axis ay = axis(p.padding, h, f.kernel_h(), p.stride_h, p.dilation_h, "height");
  const Axis ax = axis(p.padding, w, f.kernel_w(), p.stride_w, p.dilation_w, "width");

  Prepared pr;
  pr.n = n;
  pr.oh = ay.out;
  pr.ow = ax.out;
  pr.o = f.out_channels();
  const int cp = f.channel_groups() * kGroup;

  // x + 128 as a byte is x ^ 0x80; the padding byte zp_in + 128 makes every
  // padded tap cancel against the (128 + zp_in) * sum(w) correction.
  const uint8_t pad = static_cast<uint8_t>(p.input_zero_point + 128);
  pr.in.assign(static_cast<std::size_t>(n) * ay.padded * ax.padded * cp, pad);
  const int8_t* src = input.data<int8_t>();
  for (int b = 0; b < n; ++b)
    for (int y = 0; y < h; ++y) {
      uint8_t* dst_row = pr.in.data() +
                         ((static_cast<std::size_t>(b) * ay.padded + y + ay.pad_before) * ax.padded +
                          ax.pad_before) * cp;
      const int8_t* src_row = src + (static_cast<std::size_t>(b) * h + y) * w * c;
      for (int x = 0; x < w; ++x) {
        uint8_t* d = dst_row + static_cast<std::size_t>(x) * cp;
        const int8_t* s = src_row + static_cast<std::size_t>(x) * c;
        for (int k = 0; k < c; ++k) d[k] = static_cast<uint8_t>(s[k]) ^ 0x80u;
        for (int k = c; k < cp; ++k) d[k] = 0;  // zero weights there
      }
    }

  for (int ky = 0; ky < f.kernel_h(); ++ky)
    for (int kx = 0; kx < f.kernel_w(); ++kx)
      pr.tap_off.push_back(static_cast<int32_t>(
          (static_cast<int64_t>(ky) * p.dilation_h * ax.padded + static_cast<int64_t>(kx) * p.dilation_w) *
          cp));

  // offset = bias - (128 + zp_in) * sum(w), modulo 2^32.
  const uint32_t corr = static_cast<uint32_t>(128 + p.input_zero_point);
  pr.offset.resize(static_cast<std::size_t>(f.oc_blocks()) * kBlock);
  for (std::size_t i = 0; i < pr.offset.size(); ++i)
    pr.offset[i] = static_cast<int32_t>(static_cast<uint32_t>(f.bias()[i]) -
                                        corr * static_cast<uint32_t>(f.weight_sums()[i]));

  detail::ConvJob& j = pr.job;
  j.in = pr.in.data();
  j.n = n;
  j.hp = ay.padded;
  j.wp = ax.padded;
  j.cp = cp;
  j.oh = ay.out;
  j.ow = ax.out;
  j.sh = p.stride_h;
  j.sw = p.stride_w;
  j.tap_off = pr.tap_off.data();
  j.taps = static_cast<int>(pr.tap_off.size());
  j.w = f.weights();
  j.groups = f.channel_groups();
  j.ob = f.oc_blocks();
  j.o = f.out_channels();
  j.offset = pr.offset.data();
  return pr;
}

void run_accumulate(detail::ConvJob& job, Path path, int32_t* out) {
  job.acc_out = out;
  job.q_out = nullptr;
  switch (path) {
    case Path::kAvx512Vnni: detail::conv_avx512vnni(job); break;
    case Path::kAvxVnni: detail::conv_avxvnni(job); break;
    default: detail::conv_portable(job); break;
  }
}

}  // namespace

Tensor conv2d_fast_accumulators(const Tensor& input, const PackedFilter& filter,
                                const ops::ConvParams& p, Path path) {
  const Path chosen = resolve(path);
  Prepared pr = prepare(input, filter, p);
  Tensor out(DType::kInt32, {pr.n, pr.oh, pr.ow, pr.o}, Layout::kNHWC);
  run_accumulate(pr.job, chosen, out.data<int32_t>());
  return out;
}

Tensor conv2d_fast_accumulators(const Tensor& input, const Tensor& filter, const Tensor& bias,
                                const ops::ConvParams& p, Path path) {
  return conv2d_fast_accumulators(input, PackedFilter(filter, bias), p, path);
}

Tensor conv2d_fast(const Tensor& input, const PackedFilter& filter, const ops::ConvParams& p,
                   Path path) {
  const Path chosen = resolve(path);
  const int o = filter.out_channels();
  const std::size_t nm = p.output_multiplier.size();
  if (nm != 1 && nm != static_cast<std::size_t>(o))
    throw InputError("conv2d_fast: output_multiplier has " + std::to_string(nm) +
                     " entries, expected 1 or " + std::to_string(o));
  if (p.act.min > p.act.max)
    throw InputError("conv2d_fast: activation range min " + std::to_string(p.act.min) + " > max " +
                     std::to_string(p.act.max));
  Prepared pr = prepare(input, filter, p);
  Tensor out(DType::kInt8, {pr.n, pr.oh, pr.ow, o}, Layout::kNHWC);
  // The clamp range, intersected with int8 as in the reference.
  const int32_t lo = std::max<int32_t>(p.act.min, -128);
  const int32_t hi = std::min<int32_t>(p.act.max, 127);

  // Per padded channel; padded channels repeat channel 0 (never stored).
  const std::size_t padded = static_cast<std::size_t>(filter.oc_blocks()) * kBlock;
  std::vector<int32_t> mult(padded), shift(padded);
  for (std::size_t i = 0; i < padded; ++i) {
    const quant::QuantizedMultiplier& m = p.output_multiplier[nm == 1 || i >= static_cast<std::size_t>(o) ? 0 : i];
    mult[i] = m.multiplier;
    shift[i] = m.shift;
  }

  // The SIMD epilogue clamps before adding zp_out (no int32 overflow), which
  // needs lo - zp_out and hi - zp_out to fit int32.
  const bool zp_ok = p.output_zero_point >= -(1 << 30) && p.output_zero_point <= (1 << 30);
  if (chosen == Path::kAvx512Vnni && zp_ok && simd_requant_ok(mult, shift)) {
    detail::ConvJob& j = pr.job;
    j.q_out = out.data<int8_t>();
    j.acc_out = nullptr;
    j.mult = mult.data();
    j.shift = shift.data();
    j.rounding = p.rounding;
    j.zp_out = p.output_zero_point;
    j.act_min = lo;
    j.act_max = hi;
    detail::conv_avx512vnni(j);
    return out;
  }

  std::vector<int32_t> acc(static_cast<std::size_t>(pr.n) * pr.oh * pr.ow * o);
  run_accumulate(pr.job, chosen, acc.data());
  int8_t* dst = out.data<int8_t>();
  for (std::size_t i = 0; i < acc.size(); ++i) {
    const std::size_t oc = i % static_cast<std::size_t>(o);
    const quant::QuantizedMultiplier m{mult[oc], shift[oc]};
    const int64_t v =
        int64_t{quant::multiply_by_quantized_multiplier(acc[i], m, p.rounding)} + p.output_zero_point;
    dst[i] = static_cast<int8_t>(std::clamp<int64_t>(v, lo, hi));
  }
  return out;
}

Tensor conv2d_fast(const Tensor& input, const Tensor& filter, const Tensor& bias,
                   const ops::ConvParams& p, Path path) {
  return conv2d_fast(input, PackedFilter(filter, bias), p, path);
}

// ---------------------------------------------------------------------------
// GEMM: a 1x1 convolution of a 1 x M image with K channels by N filters.

void gemm_s8(const int8_t* a, const int8_t* b, int32_t* c, int m, int n, int k, Path path) {
  if (m < 1 || n < 1 || k < 1)
    throw InputError("gemm_s8: sizes must be >= 1, got M=" + std::to_string(m) + " N=" +
                     std::to_string(n) + " K=" + std::to_string(k));
  Tensor at(DType::kInt8, {1, 1, m, k});
  Tensor bt(DType::kInt8, {n, 1, 1, k});
  std::memcpy(at.data<int8_t>(), a, static_cast<std::size_t>(m) * k);
  std::memcpy(bt.data<int8_t>(), b, static_cast<std::size_t>(n) * k);
  ops::ConvParams p;
  p.padding = ops::Padding::kValid;
  const Tensor acc = conv2d_fast_accumulators(at, PackedFilter(bt, Tensor(DType::kInt32, {0})), p, path);
  std::memcpy(c, acc.data<int32_t>(), static_cast<std::size_t>(m) * n * sizeof(int32_t));
}

Tensor gemm_s8(const Tensor& a, const Tensor& b, Path path) {
  if (a.dtype() != DType::kInt8 || b.dtype() != DType::kInt8 || a.rank() != 2 || b.rank() != 2 ||
      a.dim(1) != b.dim(1))
    throw InputError("gemm_s8: expected int8 A [M,K] and int8 B [N,K], got " +
                     std::string(dtype_name(a.dtype())) + " " + shape_str(a) + " and " +
                     std::string(dtype_name(b.dtype())) + " " + shape_str(b));
  for (const Tensor* t : {&a, &b})
    for (std::size_t i = 0; i < 2; ++i)
      if (t->dim(i) < 1 || t->dim(i) > (1 << 24))
        throw InputError("gemm_s8: shape " + shape_str(*t) + " out of range");
  Tensor c(DType::kInt32, {a.dim(0), b.dim(0)});
  gemm_s8(a.data<int8_t>(), b.data<int8_t>(), c.data<int32_t>(), static_cast<int>(a.dim(0)),
          static_cast<int>(b.dim(0)), static_cast<int>(a.dim(1)), path);
  return c;
}

}  // namespace cosim::fastpath
