// An SNR written to report.json (model_replay::snr_db_json) and read back by
// report.html's layer table (report_html::layer_drift): JSON has no
// infinity, so an exact result is "inf" and a reference of zeros "-inf".
#include <gtest/gtest.h>

#include <limits>

#include "model_replay/model_replay.hpp"
#include "report_html/layer_table.hpp"

namespace cosim::tb {
namespace {

TEST(SnrJson, InfinitiesAreStringsAndReadBack) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(model_replay::snr_db_json(inf), nlohmann::json("inf"));
  EXPECT_EQ(model_replay::snr_db_json(-inf), nlohmann::json("-inf"));
  EXPECT_EQ(model_replay::snr_db_json(7.25), nlohmann::json(7.25));
  for (double db : {inf, -inf, 7.25}) {
    const nlohmann::json layer = {
        {"float32_drift", {{"snr_db", model_replay::snr_db_json(db)}, {"max_abs_diff", 0.5}}}};
    const auto d = report_html::layer_drift(layer);
    ASSERT_TRUE(d && d->snr_db) << layer.dump();
    EXPECT_EQ(*d->snr_db, db) << layer.dump();
  }
}

}  // namespace
}  // namespace cosim::tb
