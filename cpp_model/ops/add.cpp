// Reference TFLite int8 ADD with broadcasting.
#include "ops/add.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "common/text.hpp"

namespace cosim::ops {

namespace {
// Row-major strides of `shape` seen through an output of rank `rank`, with
// stride 0 on broadcast (size-1 or missing) axes.
std::vector<int64_t> broadcast_strides(const std::vector<int64_t>& shape, std::size_t rank) {
  std::vector<int64_t> st(rank, 0);
  int64_t s = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const std::size_t src = shape.size() - 1 - i, dst = rank - 1 - i;
    st[dst] = shape[src] == 1 ? 0 : s;
    s *= shape[src];
  }
  return st;
}
}  // namespace

AddParams make_add_params(float s1, int32_t zp1, float s2, int32_t zp2, float s_out, int32_t zp_out,
                          quant::Activation act, quant::Rounding rounding) {
  if (!(s1 > 0.0f) || !(s2 > 0.0f) || !(s_out > 0.0f))
    throw InputError("make_add_params: scales must be positive");
  AddParams p;
  p.input1_zero_point = zp1;
  p.input2_zero_point = zp2;
  p.output_zero_point = zp_out;
  p.rounding = rounding;
  const double t = 2.0 * std::max<double>(s1, s2);
  p.input1_multiplier = quant::quantize_multiplier(static_cast<double>(s1) / t);
  p.input2_multiplier = quant::quantize_multiplier(static_cast<double>(s2) / t);
  p.output_multiplier =
      quant::quantize_multiplier(t / (static_cast<double>(int64_t{1} << p.left_shift) * static_cast<double>(s_out)));
  p.act = quant::activation_range(act, s_out, zp_out);
  return p;
}

int8_t add_element(int8_t x1, int8_t x2, const AddParams& p) {
  // |x - zp| <= 255, so << 20 stays below 2^28.
  const int32_t s1 = (int32_t{x1} - p.input1_zero_point) * (1 << p.left_shift);
  const int32_t s2 = (int32_t{x2} - p.input2_zero_point) * (1 << p.left_shift);
  const int32_t a = quant::multiply_by_quantized_multiplier(s1, p.input1_multiplier, p.rounding);
  const int32_t b = quant::multiply_by_quantized_multiplier(s2, p.input2_multiplier, p.rounding);
  const int64_t y =
      int64_t{quant::multiply_by_quantized_multiplier(a + b, p.output_multiplier, p.rounding)} + p.output_zero_point;
  return static_cast<int8_t>(std::clamp<int64_t>(y, std::max(p.act.min, -128), std::min(p.act.max, 127)));
}

std::vector<int64_t> broadcast_shape(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      throw InputError("add: shapes " + shape_str(a) + " and " + shape_str(b) + " do not broadcast");
    out[rank - 1 - i] = da == 1 ? db : da;
  }
  return out;
}

Tensor add(const Tensor& x1, const Tensor& x2, const AddParams& p) {
  if (x1.dtype() != DType::kInt8 || x2.dtype() != DType::kInt8) throw InputError("add: inputs must be int8");
  if (p.left_shift < 0 || p.left_shift > 22) throw InputError("add: left_shift must be in 0..22");
  for (int32_t zp : {p.input1_zero_point, p.input2_zero_point, p.output_zero_point})
    if (zp < -128 || zp > 127) throw InputError("add: zero point " + std::to_string(zp) + " outside int8");
  const std::vector<int64_t> shape = broadcast_shape(x1.shape(), x2.shape());
  Tensor out(DType::kInt8, shape, x1.rank() >= x2.rank() ? x1.layout() : x2.layout());
  const std::vector<int64_t> st1 = broadcast_strides(x1.shape(), shape.size());
  const std::vector<int64_t> st2 = broadcast_strides(x2.shape(), shape.size());
  const int8_t* a = x1.data<int8_t>();
  const int8_t* b = x2.data<int8_t>();
  int8_t* y = out.data<int8_t>();
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t i = 0; i < out.numel(); ++i) {
    int64_t o1 = 0, o2 = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      o1 += idx[d] * st1[d];
      o2 += idx[d] * st2[d];
    }
    y[i] = add_element(a[o1], b[o2], p);
    for (std::size_t d = shape.size(); d-- > 0;) {  // odometer increment
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace cosim::ops
