// One self-rewriting progress line on stderr for long runs ("  running
// 37/1200 op05_conv2d_in3 ... 12 s"), shown only when stderr is a terminal
// (CI logs and captured output stay clean) and not disabled with
// COSIM_NO_PROGRESS=1. Redrawn at most five times a second; cleared at the end.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace cosim::tb {

class ProgressLine {
 public:
  explicit ProgressLine(std::string what);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool enabled() const { return enabled_; }
  // `done` of `total` units, the next one named `label`.
  void update(std::size_t done, std::size_t total, const std::string& label);
  // Erases the line (the summary follows).
  void finish();

 private:
  std::string what_;
  bool enabled_ = false;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace cosim::tb
