// Where tests write what they leave behind for a person to inspect (failing
// programs, dumps): $COSIM_TEST_ARTIFACTS when set, otherwise a folder under
// the build tree fixed at configure time. Never the current directory, so a
// test run from the source tree cannot litter it.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#ifndef COSIM_TEST_ARTIFACT_DIR
#error "COSIM_TEST_ARTIFACT_DIR must be defined by the build (cmake/cosim.cmake)"
#endif

namespace cosim::testing {

// The folder for `name` (created), e.g. artifact_dir("vta_cosim_fail_seed7").
inline std::filesystem::path artifact_dir(const std::string& name) {
  const char* env = std::getenv("COSIM_TEST_ARTIFACTS");
  const std::filesystem::path root = env != nullptr && *env != '\0' ? env : COSIM_TEST_ARTIFACT_DIR;
  const std::filesystem::path dir = root / name;
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace cosim::testing
