// Tensor value type: sizes, row-major offsets, typed access, equality.
#include <gtest/gtest.h>

#include <stdexcept>

#include "tensor/tensor.hpp"

namespace {

using cosim::DType;
using cosim::Tensor;

TEST(Tensor, DtypeSizesAndNames) {
  EXPECT_EQ(cosim::dtype_size(DType::kInt8), 1u);
  EXPECT_EQ(cosim::dtype_size(DType::kInt16), 2u);
  EXPECT_EQ(cosim::dtype_size(DType::kInt32), 4u);
  EXPECT_EQ(cosim::dtype_size(DType::kBf16), 2u);
  EXPECT_EQ(cosim::dtype_size(DType::kFp32), 4u);
  EXPECT_EQ(cosim::dtype_size(DType::kUint8), 1u);
  EXPECT_EQ(cosim::dtype_size(DType::kUint16), 2u);
  EXPECT_EQ(cosim::dtype_size(DType::kUint32), 4u);
  EXPECT_STREQ(cosim::dtype_name(DType::kBf16), "bf16");
  EXPECT_STREQ(cosim::dtype_name(DType::kUint8), "uint8");
  EXPECT_STREQ(cosim::dtype_name(DType::kUint32), "uint32");
  EXPECT_EQ(cosim::dtype_size(DType::kInt64), 8u);
  EXPECT_EQ(cosim::dtype_size(DType::kUint64), 8u);
  EXPECT_STREQ(cosim::dtype_name(DType::kInt64), "int64");
  EXPECT_STREQ(cosim::dtype_name(DType::kUint64), "uint64");
  EXPECT_THROW(Tensor(DType::kInt64, {1}).data<uint64_t>(), std::logic_error);
}

TEST(Tensor, ShapeBytesAndZeroInit) {
  Tensor t(DType::kInt32, {2, 3, 4});
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.nbytes(), 96u);
  EXPECT_EQ(t.rank(), 3u);
  for (uint8_t b : t.bytes()) EXPECT_EQ(b, 0);
  EXPECT_THROW(Tensor(DType::kInt8, {2, -1}), std::invalid_argument);
}

TEST(Tensor, RowMajorOffsets) {
  Tensor t(DType::kInt16, {2, 3, 4});
  EXPECT_EQ(t.offset({0, 0, 0}), 0);
  EXPECT_EQ(t.offset({0, 0, 3}), 3);
  EXPECT_EQ(t.offset({0, 2, 0}), 8);
  EXPECT_EQ(t.offset({1, 2, 3}), 23);
  t.at<int16_t>({1, 0, 2}) = -7;
  EXPECT_EQ(t.data<int16_t>()[14], -7);
  EXPECT_THROW(t.offset({1, 3, 0}), std::out_of_range);
  EXPECT_THROW(t.offset({0, 0}), std::out_of_range);
}

TEST(Tensor, TypedAccessChecksDtype) {
  Tensor t(DType::kBf16, {2});
  EXPECT_NO_THROW(t.data<uint16_t>());
  EXPECT_THROW(t.data<int16_t>(), std::logic_error);
  const Tensor& c = t;
  EXPECT_THROW(c.data<float>(), std::logic_error);
  // uint16_t serves uint16 too; the other unsigned types only their own.
  EXPECT_NO_THROW(Tensor(DType::kUint16, {1}).data<uint16_t>());
  EXPECT_NO_THROW(Tensor(DType::kUint8, {1}).data<uint8_t>());
  EXPECT_THROW(Tensor(DType::kUint8, {1}).data<int8_t>(), std::logic_error);
  EXPECT_THROW(Tensor(DType::kInt32, {1}).data<uint32_t>(), std::logic_error);
}

TEST(Tensor, EqualityIsDtypeShapeBytes) {
  Tensor a(DType::kInt8, {2, 2}, cosim::Layout::kNHWC), b(DType::kInt8, {2, 2});
  EXPECT_TRUE(a == b);  // layout is a tag only
  b.data<int8_t>()[3] = 1;
  EXPECT_TRUE(a != b);
  EXPECT_TRUE(Tensor(DType::kInt8, {4}) != Tensor(DType::kInt8, {2, 2}));
  EXPECT_TRUE(Tensor(DType::kInt16, {2}) != Tensor(DType::kBf16, {2}));
}

}  // namespace
