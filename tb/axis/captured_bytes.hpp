// The bytes a stream capture took from the DUT, oldest first, with the cycle
// each beat was handed over and whether it carried TLAST, kept until a
// stream check takes them: the cycle of a mismatching stream element, for
// the waveform window, and where the DUT ended its packets. One entry per
// beat (a cycle per byte would take eight times the output's size); take()
// gives them byte by byte.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace cosim::tb::axis {

class CapturedBytes {
 public:
  // A byte of the beat being taken; end_beat() closes the beat.
  void push(uint8_t b) {
    bytes_.push_back(b);
    ++open_;
  }
  // The bytes pushed since the last call were handed over at cycle `cycle`, in a beat with TLAST
  // or not.
  void end_beat(uint64_t cycle, bool last = false) {
    if (open_ > 0) handovers_.push_back(Handover{cycle, open_, last});
    open_ = 0;
  }
  // Up to n bytes, oldest first; with `cycles`, each one's beat's cycle; with `ends`, the counts of
  // those bytes after which a beat with TLAST ended (a packet's end).
  std::vector<uint8_t> take(std::size_t n, std::vector<uint64_t>* cycles = nullptr,
                            std::vector<std::size_t>* ends = nullptr) {
    n = std::min(n, bytes_.size());
    const auto end = static_cast<std::ptrdiff_t>(n);
    std::vector<uint8_t> out(bytes_.begin(), bytes_.begin() + end);
    bytes_.erase(bytes_.begin(), bytes_.begin() + end);
    if (cycles != nullptr) cycles->clear();
    if (ends != nullptr) ends->clear();
    for (std::size_t left = n; left > 0;) {
      Handover& h = handovers_.front();
      const std::size_t k = std::min<std::size_t>(left, h.bytes);
      if (cycles != nullptr) cycles->insert(cycles->end(), k, h.cycle);
      left -= k;
      h.bytes -= static_cast<uint32_t>(k);
      if (h.bytes == 0) {
        if (h.last && ends != nullptr) ends->push_back(n - left);
        handovers_.pop_front();
      }
    }
    return out;
  }
  std::size_t size() const { return bytes_.size(); }

 private:
  struct Handover {
    uint64_t cycle;
    uint32_t bytes;
    bool last;
  };
  std::deque<uint8_t> bytes_;
  std::deque<Handover> handovers_;
  uint32_t open_ = 0;  // bytes pushed since the last end_beat
};

}  // namespace cosim::tb::axis
