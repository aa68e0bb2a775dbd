// The anomaly-detection score (tb/model_replay/anomaly_score.hpp): the
// reconstruction MSE worked out by hand, the largest relative difference,
// and which models count as autoencoders (ad01 yes, ResNet-8 no; skipped
// without the models).
#include <gtest/gtest.h>

#include <string>

#include "model_replay/anomaly_score.hpp"
#include "support/models.hpp"
#include "tflite/model.hpp"

namespace mr = cosim::tb::model_replay;

TEST(AnomalyScore, ReconstructionErrorIsTheMeanSquaredDifference) {
  // (1-1)^2 + (4-2)^2 + (0-3)^2 = 13, over 3 elements.
  EXPECT_DOUBLE_EQ(mr::reconstruction_error({1, 2, 3}, {1, 4, 0}), 13.0 / 3.0);
  EXPECT_DOUBLE_EQ(mr::reconstruction_error({0.5f}, {0.5f}), 0.0);
  EXPECT_THROW(mr::reconstruction_error({1, 2}, {1}), std::logic_error);
}

TEST(AnomalyScore, ReportHoldsBothSidesAndTheLargestRelativeDifference) {
  const mr::AnomalyScores s{"vta", "tflite_double", {10.0, 21.0}, {10.0, 20.0}};
  const nlohmann::json j = mr::anomaly_json(s);
  EXPECT_EQ(j["vta"], nlohmann::json({10.0, 21.0}));
  EXPECT_EQ(j["tflite_double"], nlohmann::json({10.0, 20.0}));
  EXPECT_DOUBLE_EQ(j["max_relative_difference"].get<double>(), 0.05);  // |21 - 20| / 20
  const std::string line = mr::anomaly_line(s);
  EXPECT_NE(line.find("vta 10 .. 21"), std::string::npos) << line;
  EXPECT_NE(line.find("from tflite_double 5 %"), std::string::npos) << line;
}

TEST(AnomalyScore, AutoencodersAreModelsWhoseOutputIsShapedLikeTheirInput) {
  const std::string ad01 = cosim::test::model_path("ad01_int8.tflite");
  const std::string resnet8 = cosim::test::model_path("resnet8_int8.tflite");
  COSIM_REQUIRE_MODEL(ad01);
  COSIM_REQUIRE_MODEL(resnet8);
  EXPECT_TRUE(mr::is_autoencoder(cosim::tflite::load_model(ad01)));
  EXPECT_FALSE(mr::is_autoencoder(cosim::tflite::load_model(resnet8)));
}
