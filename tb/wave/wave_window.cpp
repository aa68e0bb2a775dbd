#include "wave/wave_window.hpp"

#include <algorithm>

namespace cosim::wave {

namespace {
constexpr uint64_t kFirstCheck = 1024;    // cycles after opening
constexpr uint64_t kMinSpacing = 256;     // a flush costs a compressed block
constexpr uint64_t kMaxSpacing = 65536;
}  // namespace

WaveWindow::WaveWindow(WaveSettings s) : s_(std::move(s)) {}

void WaveWindow::opened(uint64_t c) {
  state_ = State::kOpen;
  opened_ = true;
  first_ = last_ = c;
  next_check_ = c + kFirstCheck;
}

bool WaveWindow::check_size(uint64_t c, uint64_t bytes) {
  if (bytes >= s_.max_bytes) {
    truncated_ = true;
    return true;
  }
  // Bytes per cycle so far; the next check comes when, at that rate, a
  // tenth of the limit would have been added (or the limit reached, if sooner).
  const uint64_t span = std::max<uint64_t>(1, c - first_ + 1);
  const uint64_t rate = std::max<uint64_t>(1, bytes / span);
  const uint64_t budget = std::min(s_.max_bytes - bytes, std::max<uint64_t>(1, s_.max_bytes / 10));
  // The rate is bursty (a loading phase, then compute), so the spacing also
  // grows only geometrically: at most a quarter of the cycles dumped so far.
  const uint64_t spacing = std::min(budget / rate, std::max(kMinSpacing, span / 4));
  next_check_ = c + std::clamp<uint64_t>(spacing, kMinSpacing, kMaxSpacing);
  return false;
}

}  // namespace cosim::wave
