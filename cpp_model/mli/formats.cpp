// MLI format conversions: round half away from zero, then saturate.
#include "mli/formats.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/error.hpp"

namespace cosim::mli {

namespace {

// round(v) saturated to [lo, hi]; v is computed in double from a float.
int64_t round_sat(double v, int64_t lo, int64_t hi, const char* what) {
  if (std::isnan(v)) throw InputError(std::string(what) + ": NaN cannot be quantized");
  const double r = std::round(v);
  if (r <= static_cast<double>(lo)) return lo;
  if (r >= static_cast<double>(hi)) return hi;
  return static_cast<int64_t>(r);
}

void check_frac_bits(int n) {
  if (n < -64 || n > 64) throw InputError("mli: fractional bits " + std::to_string(n) + " outside -64..64");
}

void check_scale(float s) {
  if (!(s > 0.0f) || !std::isfinite(s)) throw InputError("mli: scale " + std::to_string(s) + " must be positive and finite");
}

}  // namespace

const char* format_name(Format f) {
  switch (f) {
    case Format::kFx8: return "fx8";
    case Format::kFx16: return "fx16";
    case Format::kSa8: return "sa8";
    case Format::kSa32: return "sa32";
    case Format::kFp32: return "fp32";
  }
  return "?";
}

DType container(Format f) {
  switch (f) {
    case Format::kFx8: return DType::kInt8;
    case Format::kFx16: return DType::kInt16;
    case Format::kSa8: return DType::kInt8;
    case Format::kSa32: return DType::kInt32;
    case Format::kFp32: return DType::kFp32;
  }
  throw std::invalid_argument("mli: unknown format");
}

int container_bits(Format f) { return static_cast<int>(dtype_size(container(f)) * 8); }

int significant_bits(Format f) {
  if (f == Format::kFp32) throw std::invalid_argument("mli: fp32 has no fixed significant bit count");
  return container_bits(f) - 1;
}

int8_t to_fx8(float x, int frac_bits) {
  check_frac_bits(frac_bits);
  return static_cast<int8_t>(round_sat(std::ldexp(static_cast<double>(x), frac_bits), -128, 127, "fx8"));
}

int16_t to_fx16(float x, int frac_bits) {
  check_frac_bits(frac_bits);
  return static_cast<int16_t>(round_sat(std::ldexp(static_cast<double>(x), frac_bits), -32768, 32767, "fx16"));
}

float from_fx(int32_t q, int frac_bits) {
  check_frac_bits(frac_bits);
  return static_cast<float>(std::ldexp(static_cast<double>(q), -frac_bits));
}

int8_t to_sa8(float x, float scale, int32_t zero_point) {
  check_scale(scale);
  return static_cast<int8_t>(
      round_sat(static_cast<double>(x) / static_cast<double>(scale) + zero_point, -128, 127, "sa8"));
}

int32_t to_sa32(float x, float scale, int32_t zero_point) {
  check_scale(scale);
  return static_cast<int32_t>(round_sat(static_cast<double>(x) / static_cast<double>(scale) + zero_point,
                                        std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
                                        "sa32"));
}

float from_sa(int32_t q, float scale, int32_t zero_point) {
  return static_cast<float>(static_cast<double>(int64_t{q} - zero_point) * static_cast<double>(scale));
}

namespace {

// Scale / zero point index of each element: per tensor 0, per axis the slice.
struct SliceIndexer {
  int64_t inner = 1, dim = 1;
  SliceIndexer(const Tensor& t, Format f, const QuantParams& q) {
    const bool fx = f == Format::kFx8 || f == Format::kFx16;
    if (fx) {
      if (q.axis != -1) throw InputError(std::string("mli: ") + format_name(f) + " is per tensor only");
      return;
    }
    if (q.axis == -1) {
      if (q.scales.size() != 1 || q.zero_points.size() > 1)
        throw InputError("mli: per-tensor quantization needs one scale and at most one zero point");
      return;
    }
    if (q.axis < 0 || q.axis >= static_cast<int>(t.rank()))
      throw InputError("mli: axis " + std::to_string(q.axis) + " outside a rank-" + std::to_string(t.rank()) +
                       " tensor");
    dim = t.dim(static_cast<std::size_t>(q.axis));
    for (std::size_t d = static_cast<std::size_t>(q.axis) + 1; d < t.rank(); ++d) inner *= t.dim(d);
    if (static_cast<int64_t>(q.scales.size()) != dim ||
        !(q.zero_points.size() <= 1 || static_cast<int64_t>(q.zero_points.size()) == dim))
      throw InputError("mli: per-axis quantization along axis " + std::to_string(q.axis) + " needs " +
                       std::to_string(dim) + " scales and 1 or " + std::to_string(dim) + " zero points");
  }
  std::size_t operator()(int64_t i) const { return static_cast<std::size_t>((i / inner) % dim); }
};

float scale_at(const QuantParams& q, std::size_t k) { return q.scales.size() == 1 ? q.scales[0] : q.scales[k]; }
int32_t zp_at(const QuantParams& q, std::size_t k) {
  if (q.zero_points.empty()) return 0;
  return q.zero_points.size() == 1 ? q.zero_points[0] : q.zero_points[k];
}

}  // namespace

Tensor quantize(const Tensor& fp32, Format f, const QuantParams& q) {
  if (fp32.dtype() != DType::kFp32) throw InputError("mli::quantize: input must be fp32");
  if (f == Format::kFp32) return fp32;
  const SliceIndexer slice(fp32, f, q);
  Tensor out(container(f), fp32.shape(), fp32.layout());
  const float* x = fp32.data<float>();
  for (int64_t i = 0; i < fp32.numel(); ++i) {
    const std::size_t k = slice(i);
    switch (f) {
      case Format::kFx8: out.data<int8_t>()[i] = to_fx8(x[i], q.frac_bits); break;
      case Format::kFx16: out.data<int16_t>()[i] = to_fx16(x[i], q.frac_bits); break;
      case Format::kSa8: out.data<int8_t>()[i] = to_sa8(x[i], scale_at(q, k), zp_at(q, k)); break;
      case Format::kSa32: out.data<int32_t>()[i] = to_sa32(x[i], scale_at(q, k), zp_at(q, k)); break;
      case Format::kFp32: break;
    }
  }
  return out;
}

Tensor dequantize(const Tensor& t, Format f, const QuantParams& q) {
  if (t.dtype() != container(f))
    throw InputError(std::string("mli::dequantize: ") + format_name(f) + " needs a " + dtype_name(container(f)) +
                     " tensor, got " + dtype_name(t.dtype()));
  if (f == Format::kFp32) return t;
  const SliceIndexer slice(t, f, q);
  Tensor out(DType::kFp32, t.shape(), t.layout());
  float* y = out.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    const std::size_t k = slice(i);
    switch (f) {
      case Format::kFx8: y[i] = from_fx(t.data<int8_t>()[i], q.frac_bits); break;
      case Format::kFx16: y[i] = from_fx(t.data<int16_t>()[i], q.frac_bits); break;
      case Format::kSa8: y[i] = from_sa(t.data<int8_t>()[i], scale_at(q, k), zp_at(q, k)); break;
      case Format::kSa32: y[i] = from_sa(t.data<int32_t>()[i], scale_at(q, k), zp_at(q, k)); break;
      case Format::kFp32: break;
    }
  }
  return out;
}

}  // namespace cosim::mli
