// A failing test's artifacts go to $COSIM_TEST_ARTIFACTS or the build tree,
// never to the directory the test runs in.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "support/artifact_dir.hpp"

namespace fs = std::filesystem;

namespace {

// Runs the body with the current directory set to a fresh scratch folder.
class InScratchDir : public ::testing::Test {
 protected:
  void SetUp() override {
    old_ = fs::current_path();
    scratch_ = fs::temp_directory_path() / ("cosim_artifact_test_" + std::to_string(::getpid()));
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
    fs::current_path(scratch_);
  }
  void TearDown() override {
    fs::current_path(old_);
    fs::remove_all(scratch_);
    ::unsetenv("COSIM_TEST_ARTIFACTS");
  }
  fs::path old_, scratch_;
};

TEST_F(InScratchDir, DefaultIsUnderTheBuildTreeNotTheCurrentDirectory) {
  ::unsetenv("COSIM_TEST_ARTIFACTS");
  const fs::path d = cosim::testing::artifact_dir("probe_default");
  EXPECT_TRUE(d.is_absolute()) << d;
  EXPECT_EQ(d.parent_path(), fs::path(COSIM_TEST_ARTIFACT_DIR));
  EXPECT_TRUE(fs::is_directory(d));
  EXPECT_TRUE(fs::is_empty(scratch_)) << "something was written into the current directory";
  fs::remove_all(d);
}

TEST_F(InScratchDir, EnvironmentVariableChoosesTheRoot) {
  const fs::path root = scratch_ / "elsewhere";
  ::setenv("COSIM_TEST_ARTIFACTS", root.c_str(), 1);
  const fs::path d = cosim::testing::artifact_dir("probe_env");
  EXPECT_EQ(d, root / "probe_env");
  EXPECT_TRUE(fs::is_directory(d));
}

}  // namespace
