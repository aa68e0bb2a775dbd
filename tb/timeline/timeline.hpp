// The engine timeline: per lane (a unit of the DUT: an engine, a loader, a
// stream), what it did on every cycle, recorded cheaply and kept small.
//   - A state lane holds a small enum per cycle: 0 = idle (not drawn),
//     1.. named states ("busy", "wait load->compute", ...).
//   - A level lane holds a number per cycle (a queue's occupancy).
// record() is called once per DUT cycle with every lane's value; it only
// compares them with the previous cycle's, so a cycle costs a few compares.
// A change adds the finished run to fixed-width buckets (exact cycle counts
// per state; max and sum per level). Buckets are capped at kMaxBuckets: when
// a run outgrows them, neighbours merge and the width doubles, so any run
// length gives a bounded record (about a screen's width of buckets).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cosim::tb::timeline {

enum class LaneKind { kState, kLevel };

struct Lane {
  std::string name;                 // "COMPUTE GEMM", "tokens load->compute"
  LaneKind kind = LaneKind::kState;
  std::vector<std::string> states;  // kState: [0] idle, then the drawn states
};

// A state lane of `states` (idle first).
inline Lane state_lane(std::string name, std::vector<std::string> states) {
  return Lane{std::move(name), LaneKind::kState, std::move(states)};
}
inline Lane level_lane(std::string name) { return Lane{std::move(name), LaneKind::kLevel, {}}; }

class Timeline {
 public:
  static constexpr std::size_t kMaxBuckets = 1024;

  explicit Timeline(std::vector<Lane> lanes);

  // Cycle `cycle` (0, 1, 2, ... in order): values[i] is lane i's state index
  // (clamped to its states) or level.
  void record(uint64_t cycle, const uint32_t* values) {
    for (std::size_t i = 0; i < n_; ++i) {
      if (values[i] != current_[i]) change(i, cycle, values[i]);
    }
    end_ = cycle + 1;
  }

  // Cycle `cycle` with every lane's value as on the cycle before.
  void advance(uint64_t cycle) { end_ = cycle + 1; }

  const std::vector<Lane>& lanes() const { return lanes_; }
  uint64_t cycles() const { return end_; }
  uint64_t bucket_cycles() const { return uint64_t{1} << shift_; }
  // Cycles lane `lane` spent in state `state`, up to the last cycle recorded.
  uint64_t state_cycles(std::size_t lane, uint32_t state) const;

  // {cycles, bucket_cycles, lanes[{name, kind, states, cycles[] | max, mean,
  // buckets[[repeat, cells...]]}]}: identical neighbouring buckets are one
  // entry; a state lane's cells are cycles per state, a level lane's the
  // bucket's max and its sum over the bucket's cycles.
  nlohmann::json to_json() const;

  // Every change as it is recorded (lane, cycle, value), kept from now on:
  // a run simulated in slices (`cosim run --jobs`) hands them to the process
  // that merges the slices, which replays them with set() at the slice's
  // cycle offset, giving the buckets one simulation would have.
  struct Change {
    uint64_t cycle = 0;
    uint32_t lane = 0;
    uint32_t value = 0;
  };
  void keep_changes() { keep_changes_ = true; }
  const std::vector<Change>& changes() const { return changes_; }
  // Lane `lane` takes `value` from cycle `cycle` on (cycles in order).
  void set(std::size_t lane, uint64_t cycle, uint32_t value) {
    if (value != current_.at(lane)) change(lane, cycle, value);
    end_ = std::max(end_, cycle + 1);
  }

 private:
  void change(std::size_t lane, uint64_t cycle, uint32_t value);
  void add(std::size_t lane, uint64_t from, uint64_t to, uint32_t value);
  void widen();  // merge bucket pairs, double the width
  std::size_t width(std::size_t lane) const;  // cells per bucket
  Timeline closed() const;  // open runs added up to end_

  std::vector<Lane> lanes_;
  std::size_t n_ = 0;
  std::vector<uint32_t> current_;   // each lane's value since since_
  std::vector<uint64_t> since_;
  std::vector<std::vector<uint64_t>> cells_;   // kMaxBuckets * width per lane
  std::vector<std::vector<uint64_t>> totals_;  // state: cycles per state; level: {max, sum}
  unsigned shift_ = 0;  // bucket width = 1 << shift_ cycles
  uint64_t end_ = 0;
  bool keep_changes_ = false;
  std::vector<Change> changes_;
};

}  // namespace cosim::tb::timeline
