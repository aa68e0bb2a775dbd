// The interpreter on models written by hand (model_builder.hpp): option
// tables read from the file, operators chained, one error naming an
// operator it cannot run.
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.hpp"
#include "model_builder.hpp"
#include "tflite/model.hpp"
#include "tflite_float/interpreter.hpp"

namespace {

using namespace tfltest;
namespace tf = cosim::tflite_float;
constexpr int8_t kF32 = 0;

// input [1,4,4,1] -> AVERAGE_POOL_2D 2x2 s2 VALID -> RESHAPE [1,4] -> SOFTMAX.
ModelSpec pool_softmax() {
  ModelSpec m;
  m.codes = {{1, 1}, {22, 22}, {25, 25}};
  m.buffers.push_back({});
  auto tensor = [](std::vector<int32_t> shape, const char* name) {
    TensorSpec t;
    t.shape = std::move(shape);
    t.type = kF32;
    t.name = name;
    return t;
  };
  m.tensors = {tensor({1, 4, 4, 1}, "in"), tensor({1, 2, 2, 1}, "pool"), tensor({1, 4}, "flat"), tensor({1, 4}, "prob")};
  m.inputs = {0};
  m.outputs = {3};
  // Pool2DOptions (tag 5): padding VALID (1), stride_w, stride_h, filter_width, filter_height.
  m.ops = {{0, {0}, {1}, 5, {{0, 1, true}, {1, 2, false}, {2, 2, false}, {3, 2, false}, {4, 2, false}}},
           {1, {1}, {2}, 0, {}},
           {2, {2}, {3}, 9, {}}};  // SoftmaxOptions without beta: 1
  return m;
}

TEST(FloatInterpreter, PoolReshapeSoftmax) {
  const std::vector<uint8_t> bytes = build(pool_softmax());
  const cosim::tflite::Model m = cosim::tflite::parse_model(bytes.data(), bytes.size(), "pool.tflite");
  std::vector<float> x;
  for (int i = 1; i <= 16; ++i) x.push_back(static_cast<float>(i));
  const tf::Values v = tf::run(m, x);
  // 2x2 means of the 4x4 map 1..16 (row-major).
  EXPECT_EQ(v[1], (std::vector<float>{3.5f, 5.5f, 11.5f, 13.5f}));
  double sum = 0;
  for (float p : v[1]) sum += std::exp(p - 13.5);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(v[3][i], std::exp(v[1][i] - 13.5) / sum, 1e-6) << i;
  EXPECT_EQ(tf::argmax(v[3]), 3u);
}

TEST(FloatInterpreter, UnsupportedOperatorIsOneInputErrorNamingIt) {
  ModelSpec s = pool_softmax();
  s.codes[1] = {18, 18};  // MUL instead of RESHAPE
  const std::vector<uint8_t> bytes = build(s);
  const cosim::tflite::Model m = cosim::tflite::parse_model(bytes.data(), bytes.size(), "mul.tflite");
  try {
    tf::check_supported(m);
    FAIL() << "no error";
  } catch (const cosim::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("operator 1 (MUL): not supported"), std::string::npos) << e.what();
  }
}

TEST(FloatInterpreter, Int8TensorIsInputError) {
  ModelSpec s = pool_softmax();
  s.tensors[0].type = 9;  // INT8 input
  const std::vector<uint8_t> bytes = build(s);
  const cosim::tflite::Model m = cosim::tflite::parse_model(bytes.data(), bytes.size(), "int8.tflite");
  EXPECT_THROW(tf::check_supported(m), cosim::InputError);
}

TEST(FloatInterpreter, WrongInputSizeIsInputError) {
  const std::vector<uint8_t> bytes = build(pool_softmax());
  const cosim::tflite::Model m = cosim::tflite::parse_model(bytes.data(), bytes.size(), "pool.tflite");
  EXPECT_THROW(tf::run(m, std::vector<float>(15, 0.0f)), cosim::InputError);
}

}  // namespace
