// The harness binder that feeds a Timeline: each cycle, after the
// falling-edge eval (the values the rising edge counts, like the DUT's own
// performance counters), a DUT's probe turns its pins into one value per
// lane. The probe is the DUT's: `bool operator()(const Model&, uint32_t*
// values)`, false when it knows nothing changed since the last cycle (its
// pins read the same: values untouched, the cycle costs a compare or two);
// this file names no DUT.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "timeline/timeline.hpp"
#include "harness/port.hpp"

namespace cosim::tb::timeline {

template <class Model, class Probe>
class TimelinePort final : public harness::Port<Model> {
 public:
  TimelinePort(Timeline& timeline, Probe probe)
      : timeline_(timeline), probe_(std::move(probe)), values_(timeline.lanes().size(), 0) {}
  void drive(Model& m) override { (void)m; }
  bool has_drive() const override { return false; }  // it only watches
  void sample(const Model& m, uint64_t time) override {
    if (probe_(m, values_.data())) {
      timeline_.record(time, values_.data());
    } else {
      timeline_.advance(time);
    }
  }

 private:
  Timeline& timeline_;
  Probe probe_;
  std::vector<uint32_t> values_;
};

// Bits [Lsb, Lsb + Width) of a vector stored as 32-bit words (word 0 = bits
// 31:0), Width <= 32: the probes' per-cycle field reads, a shift or two.
template <unsigned Lsb, unsigned Width>
inline uint32_t bits(const uint32_t* words) {
  static_assert(Width >= 1 && Width <= 32, "a field of 1..32 bits");
  const uint64_t lo = words[Lsb / 32];
  const uint64_t v = (Lsb % 32 + Width > 32) ? (lo | (uint64_t{words[Lsb / 32 + 1]} << 32)) : lo;
  return static_cast<uint32_t>((v >> (Lsb % 32)) & ((uint64_t{1} << Width) - 1));
}

}  // namespace cosim::tb::timeline
