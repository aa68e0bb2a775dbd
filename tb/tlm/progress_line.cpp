#include "tlm/progress_line.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cosim::tb {

ProgressLine::ProgressLine(std::string what) : what_(std::move(what)) {
  const char* off = std::getenv("COSIM_NO_PROGRESS");
  enabled_ = isatty(STDERR_FILENO) != 0 && (off == nullptr || std::strcmp(off, "0") == 0);
  start_ = last_ = std::chrono::steady_clock::now();
}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::update(std::size_t done, std::size_t total, const std::string& label) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  shown_ = true;
  const double s = std::chrono::duration<double>(now - start_).count();
  std::string eta;
  if (done > 0 && done < total) eta = ", about " + std::to_string(static_cast<int>(s / done * (total - done))) + " s left";
  std::fprintf(stderr, "\r\033[K  %s %zu/%zu %s (%d s%s)", what_.c_str(), done, total, label.c_str(),
               static_cast<int>(s), eta.c_str());
  std::fflush(stderr);
}

void ProgressLine::finish() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace cosim::tb
