// The MLPerf Tiny models a test may read, and the skip when they are absent.
// They live in ../shared/models beside the checkout, a folder that is
// optional: CMake passes its path to every test target as COSIM_MODELS_DIR
// (cmake/cosim.cmake), and a test that needs a model skips without it.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace cosim::test {

// `file` (e.g. "resnet8_int8.tflite") in the models folder.
inline std::string model_path(const std::string& file) { return std::string(COSIM_MODELS_DIR) + "/" + file; }

// Why the model at `path` (a full path) cannot be read here, or "" when it is
// there: the one message for an absent model, for COSIM_REQUIRE_MODEL and for
// the tests that may fail instead of skipping (the referees under
// COSIM_REQUIRE_REFEREE=1).
inline std::string model_missing(const std::filesystem::path& path) {
  if (std::filesystem::exists(path)) return "";
  return "model " + path.string() +
         " not found: the models folder (../shared/models, CMake's COSIM_MODELS_DIR) is optional";
}

}  // namespace cosim::test

// In a test body: skips the test unless the model at `path` (a std::string or
// std::filesystem::path, a full path) exists. One statement, safe under an
// unbraced if/else: the `if (...) {} else` form leaves no dangling else, and
// the switch in front (gtest's GTEST_AMBIGUOUS_ELSE_BLOCKER_ idea) keeps
// clang's -Wdangling-else quiet when the macro is itself the body of an if.
#define COSIM_REQUIRE_MODEL(path)                                                    \
  switch (0)                                                                         \
  case 0:                                                                            \
  default:                                                                           \
    if (const std::string cosim_model_missing_ = ::cosim::test::model_missing(path); \
        cosim_model_missing_.empty()) {                                              \
    } else                                                                           \
      GTEST_SKIP() << cosim_model_missing_
