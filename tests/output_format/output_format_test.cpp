// The conversions of tb/cosim/output_format against values worked out by hand
// from the format rules (spec/quantization.md s.3: fx value = q / 2^frac_bits,
// sa value = (q - zero_point) * scale, rounding half away from zero).
#include "cosim/output_format.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "common/error.hpp"

namespace {

using cosim::DType;
using cosim::Tensor;
using cosim::scenario::Int8Quant;
using cosim::scenario::MliSource;

template <class T>
Tensor tensor(DType dtype, const std::vector<T>& v) {
  Tensor t(dtype, {static_cast<int64_t>(v.size())});
  for (std::size_t i = 0; i < v.size(); ++i) t.data<T>()[i] = v[i];
  return t;
}

template <class T>
std::vector<T> values(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

MliSource fx(cosim::mli::Format f, int frac_bits) {
  MliSource m;
  m.format = f;
  m.params.frac_bits = frac_bits;
  return m;
}

MliSource sa(cosim::mli::Format f, float scale, int32_t zero_point) {
  MliSource m;
  m.format = f;
  m.params.scales = {scale};
  m.params.zero_points = {zero_point};
  return m;
}

TEST(OutputFormat, Int8WithItsQuantizationConvertsThroughItsValues) {
  // scale 0.5, zero point -2: q 10, -2, 127 are 6, 0, 64.5; in fx16 with 8
  // fractional bits 6 * 256, 0, 64.5 * 256.
  const Tensor q = tensor<int8_t>(DType::kInt8, {10, -2, 127});
  const Tensor out = cosim::tb::in_output_format(q, fx(cosim::mli::Format::kFx16, 8), Int8Quant{0.5f, -2}, "output");
  ASSERT_EQ(out.dtype(), DType::kInt16);
  EXPECT_EQ(values<int16_t>(out), (std::vector<int16_t>{1536, 0, 16512}));
}

TEST(OutputFormat, FloatIsQuantizedIntoTheFormat) {
  // 1.3 / 0.1 + 5 = 18; -0.7 / 0.1 + 5 = -2; 100 / 0.1 + 5 saturates at 127.
  const Tensor f = tensor<float>(DType::kFp32, {1.3f, -0.7f, 100.0f});
  const Tensor out = cosim::tb::in_output_format(f, sa(cosim::mli::Format::kSa8, 0.1f, 5), std::nullopt, "output");
  ASSERT_EQ(out.dtype(), DType::kInt8);
  EXPECT_EQ(values<int8_t>(out), (std::vector<int8_t>{18, -2, 127}));
}

TEST(OutputFormat, AnIntegerWithoutQuantizationIsReadInAFormatOfItsContainer) {
  const Tensor acc = tensor<int32_t>(DType::kInt32, {70000, -3});
  const Tensor same = cosim::tb::in_output_format(acc, sa(cosim::mli::Format::kSa32, 0.01f, 0), std::nullopt, "acc");
  EXPECT_EQ(values<int32_t>(same), (std::vector<int32_t>{70000, -3}));
  try {
    cosim::tb::in_output_format(acc, fx(cosim::mli::Format::kFx8, 3), std::nullopt, "acc");
    FAIL() << "int32 read as fx8";
  } catch (const cosim::InputError& e) {
    EXPECT_STREQ(e.what(),
                 "output_format fx8: output 'acc' is int32, so it is read as fx8 only if that format's container is "
                 "int32 (fx8's is int8)");
  }
}

TEST(OutputFormat, DistanceInTheFormatsValuesAndSteps) {
  // sa8 at scale 0.25 over int8 outputs without quantization of their own:
  // 1 of 3 elements equal, the largest gap 3 steps, 0.75 in values.
  cosim::tb::Workload w;
  w.output_format = sa(cosim::mli::Format::kSa8, 0.25f, 0);
  const Tensor ref = tensor<int8_t>(DType::kInt8, {0, 4, -8});
  const Tensor act = tensor<int8_t>(DType::kInt8, {1, 4, -5});
  const nlohmann::json d = cosim::tb::format_distance(w, "output", ref, act);
  EXPECT_EQ(d["format"], "sa8");
  EXPECT_NEAR(d["exact_pct"].get<double>(), 100.0 / 3.0, 1e-9);
  EXPECT_EQ(d["max_abs_diff_steps"].get<int64_t>(), 3);
  EXPECT_DOUBLE_EQ(d["max_abs_diff"].get<double>(), 0.75);
  // A format that fits no output is found before a run.
  w.output_format = fx(cosim::mli::Format::kFx16, 4);
  w.expected["output"] = ref;
  EXPECT_THROW(cosim::tb::check_output_format(w), cosim::InputError);
  w.output_quant["output"] = Int8Quant{0.25f, 0};
  EXPECT_NO_THROW(cosim::tb::check_output_format(w));
}

}  // namespace
