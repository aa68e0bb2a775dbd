// The names the reader prints for operator codes and tensor types: the TFLite
// schema's (schema.fbs: BuiltinOperator, TensorType), and a numbered
// placeholder for a code it does not name.
#include <gtest/gtest.h>

#include "tflite/model.hpp"

namespace cosim::tflite {
namespace {

TEST(TfliteNames, OperatorCodesHaveTheSchemasNames) {
  // Values from the schema, not from model.hpp's enum.
  const std::pair<int32_t, const char *> cases[] = {
      {0, "ADD"},
      {1, "AVERAGE_POOL_2D"},
      {2, "CONCATENATION"},
      {3, "CONV_2D"},
      {4, "DEPTHWISE_CONV_2D"},
      {6, "DEQUANTIZE"},
      {9, "FULLY_CONNECTED"},
      {17, "MAX_POOL_2D"},
      {18, "MUL"},
      {19, "RELU"},
      {21, "RELU6"},
      {22, "RESHAPE"},
      {25, "SOFTMAX"},
      {34, "PAD"},
      {40, "MEAN"},
      {114, "QUANTIZE"},
  };
  for (const auto &[code, name] : cases)
    EXPECT_EQ(op_name(code), name) << "code " << code;
}

TEST(TfliteNames, UnnamedOperatorCodeIsNumbered) {
  EXPECT_EQ(op_name(5),
            "BUILTIN_5"); // DEPTH_TO_SPACE: a code the reader does not name
  EXPECT_EQ(op_name(-1), "BUILTIN_-1");
}

TEST(TfliteNames, TensorTypesHaveTheSchemasNames) {
  const std::pair<int8_t, const char *> cases[] = {
      {0, "FLOAT32"}, {1, "FLOAT16"}, {2, "INT32"}, {3, "UINT8"}, {4, "INT64"},
      {5, "STRING"},  {6, "BOOL"},    {7, "INT16"}, {9, "INT8"},
  };
  for (const auto &[type, name] : cases)
    EXPECT_EQ(tensor_type_name(type), name) << "type " << int{type};
  EXPECT_EQ(tensor_type_name(8), "TYPE_8"); // COMPLEX64: not named
}

} // namespace
} // namespace cosim::tflite
