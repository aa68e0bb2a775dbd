// INQ compression of weights read from .npy files.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "tensor/tensor.hpp"
#include "tf2/npy_weights.hpp"

namespace cosim::tf2 {
namespace {

std::string tmp_path(const std::string& name) {
  return ::testing::TempDir() + "tf2_" + name + ".npy";
}

TEST(Tf2Npy, CompressesFloatWeightsFromNpy) {
  Tensor t(DType::kFp32, {2, 1, 1, 2});
  float* d = t.data<float>();
  d[0] = 1.0f; d[1] = -0.1875f; d[2] = 0.01f; d[3] = 0.0f;  // min_exp -6
  const std::string path = tmp_path("w");
  write_npy(path, t);
  std::vector<int64_t> shape;
  const InqWeights w = inq_compress_npy(path, &shape);
  EXPECT_EQ(shape, (std::vector<int64_t>{2, 1, 1, 2}));
  EXPECT_EQ(w.min_exp, -6);
  // 1.0 -> +2^0 (14); -0.1875 = -1.5*2^-3 -> -2^-2 (4); 0.01 < 1.5*2^-7 -> 0.
  EXPECT_EQ(w.codes, (std::vector<uint8_t>{14, 4, 7, 7}));
  std::remove(path.c_str());
}

TEST(Tf2Npy, RejectsNonFloatAndTruncatedFiles) {
  Tensor t(DType::kInt8, {4});
  const std::string path = tmp_path("i8");
  write_npy(path, t);
  try {
    inq_compress_npy(path);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "\x93NUMPY";
  EXPECT_THROW(inq_compress_npy(path), InputError);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace cosim::tf2
