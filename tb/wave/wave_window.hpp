// When a DUT wrapper dumps its waveform: the cycle window asked for
// (--wave-from / --wave-to) and the size guard (--wave-max-mb). Pure
// bookkeeping, no Verilator: WaveTracer (wave_tracer.hpp) asks it at every
// cycle whether to open, dump, check the file size or close.
//
// Rules:
//   - the dump opens at the first cycle >= from and closes after cycle `to`
//     (the FST then holds exactly the cycles from..to that the run reached);
//   - without a window the whole run is dumped, as long as the file stays
//     under the size limit;
//   - the file size is observed (flush, stat) at checkpoints a tenth of the
//     limit apart at the growth rate so far, and at most a quarter of the
//     dumped cycles apart (the rate is bursty: loading, then compute), so a
//     dump overshoots the limit by a fraction of it; past the limit dumping
//     stops for good, a warning
//     names the last cycle dumped and the report marks the dump truncated.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace cosim::wave {

struct WaveSettings {
  std::string file;  // FST path; empty = no waveform
  uint64_t from = 0;
  uint64_t to = std::numeric_limits<uint64_t>::max();
  int depth = 0;  // levels below the DUT's top scope; 0 = all
  uint64_t max_bytes = 256ull << 20;
};

class WaveWindow {
 public:
  enum class State { kWaiting, kOpen, kClosed };

  explicit WaveWindow(WaveSettings s);

  bool enabled() const { return !s_.file.empty(); }
  const WaveSettings& settings() const { return s_; }
  State state() const { return state_; }

  // At cycle c (called once per dumped sample, in cycle order).
  bool should_open(uint64_t c) const { return state_ == State::kWaiting && c >= s_.from && c <= s_.to; }
  bool should_close(uint64_t c) const { return state_ == State::kOpen && c > s_.to; }
  void opened(uint64_t c);
  void dumped(uint64_t c) { last_ = c; }
  void closed() { state_ = State::kClosed; }

  // Size guard.
  bool size_check_due(uint64_t c) const { return state_ == State::kOpen && c >= next_check_; }
  // `bytes` = the file's size with everything up to cycle c flushed. True
  // when the limit is reached (the caller closes the dump); otherwise
  // schedules the next check.
  bool check_size(uint64_t c, uint64_t bytes);

  bool ever_opened() const { return opened_; }
  uint64_t first_cycle() const { return first_; }
  uint64_t last_cycle() const { return last_; }
  bool truncated() const { return truncated_; }
  uint64_t next_check() const { return next_check_; }

 private:
  WaveSettings s_;
  State state_ = State::kWaiting;
  bool opened_ = false;
  bool truncated_ = false;
  uint64_t first_ = 0, last_ = 0;
  uint64_t next_check_ = 0;
};

}  // namespace cosim::wave
