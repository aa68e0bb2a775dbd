#include "timeline/timeline.hpp"

#include <algorithm>
#include <stdexcept>

namespace cosim::tb::timeline {

Timeline::Timeline(std::vector<Lane> lanes)
    : lanes_(std::move(lanes)), n_(lanes_.size()), current_(n_, 0), since_(n_, 0) {
  for (std::size_t i = 0; i < n_; ++i) {
    if (lanes_[i].kind == LaneKind::kState && lanes_[i].states.size() < 2) {
      throw std::logic_error("timeline lane " + lanes_[i].name + ": needs idle and at least one drawn state");
    }
    if (lanes_[i].states.size() > 64) throw std::logic_error("timeline lane " + lanes_[i].name + ": over 64 states");
    cells_.emplace_back(kMaxBuckets * width(i), 0);
    totals_.emplace_back(width(i), 0);
  }
}

std::size_t Timeline::width(std::size_t lane) const {
  return lanes_[lane].kind == LaneKind::kState ? lanes_[lane].states.size() : 2;
}

void Timeline::change(std::size_t lane, uint64_t cycle, uint32_t value) {
  if (lanes_[lane].kind == LaneKind::kState) {
    value = std::min<uint32_t>(value, static_cast<uint32_t>(lanes_[lane].states.size() - 1));
    if (value == current_[lane]) return;  // a clamped value that did not change
  }
  if (keep_changes_) changes_.push_back({cycle, static_cast<uint32_t>(lane), value});
  add(lane, since_[lane], cycle, current_[lane]);
  current_[lane] = value;
  since_[lane] = cycle;
}

void Timeline::add(std::size_t lane, uint64_t from, uint64_t to, uint32_t value) {
  if (to <= from) return;
  while (((to - 1) >> shift_) >= kMaxBuckets) widen();
  const std::size_t w = width(lane);
  std::vector<uint64_t>& cells = cells_[lane];
  const bool state = lanes_[lane].kind == LaneKind::kState;
  for (uint64_t b = from >> shift_; b <= (to - 1) >> shift_; ++b) {
    const uint64_t lo = std::max(from, b << shift_), hi = std::min(to, (b + 1) << shift_);
    if (state) {
      cells[b * w + value] += hi - lo;
    } else {
      cells[b * w] = std::max<uint64_t>(cells[b * w], value);
      cells[b * w + 1] += value * (hi - lo);
    }
  }
  if (state) {
    totals_[lane][value] += to - from;
  } else {
    totals_[lane][0] = std::max<uint64_t>(totals_[lane][0], value);
    totals_[lane][1] += value * (to - from);
  }
}

void Timeline::widen() {
  for (std::size_t i = 0; i < n_; ++i) {
    const std::size_t w = width(i);
    std::vector<uint64_t>& c = cells_[i];
    const bool state = lanes_[i].kind == LaneKind::kState;
    // In place: bucket b's cells are written after buckets 2b and 2b + 1
    // were read (b * w + k < 2 * b * w + k for b > 0; b = 0 reads first).
    for (std::size_t b = 0; b < kMaxBuckets / 2; ++b) {
      const std::size_t a = 2 * b * w, z = a + w, to = b * w;
      const uint64_t level_max = std::max(c[a], c[z]);
      for (std::size_t k = 0; k < w; ++k) c[to + k] = c[a + k] + c[z + k];
      if (!state) c[to] = level_max;
    }
    std::fill(c.begin() + static_cast<std::ptrdiff_t>(kMaxBuckets / 2 * w), c.end(), 0);
  }
  ++shift_;
}

Timeline Timeline::closed() const {
  Timeline t = *this;
  for (std::size_t i = 0; i < n_; ++i) {
    t.add(i, t.since_[i], t.end_, t.current_[i]);
    t.since_[i] = t.end_;
  }
  return t;
}

uint64_t Timeline::state_cycles(std::size_t lane, uint32_t state) const {
  uint64_t c = totals_.at(lane).at(state);
  if (current_[lane] == state && end_ > since_[lane]) c += end_ - since_[lane];
  return c;
}

nlohmann::json Timeline::to_json() const {
  const Timeline t = closed();
  const uint64_t used = (t.end_ + t.bucket_cycles() - 1) >> t.shift_;
  nlohmann::json lanes = nlohmann::json::array();
  for (std::size_t i = 0; i < n_; ++i) {
    const Lane& l = lanes_[i];
    const std::size_t w = width(i);
    const std::vector<uint64_t>& c = t.cells_[i];
    nlohmann::json buckets = nlohmann::json::array();
    for (uint64_t b = 0; b < used;) {
      uint64_t e = b + 1;
      while (e < used && std::equal(&c[e * w], &c[e * w] + w, &c[b * w])) ++e;
      nlohmann::json run = nlohmann::json::array({e - b});
      for (std::size_t k = 0; k < w; ++k) run.push_back(c[b * w + k]);
      buckets.push_back(run);
      b = e;
    }
    nlohmann::json j = {{"name", l.name}};
    if (l.kind == LaneKind::kState) {
      j["kind"] = "state";
      j["states"] = l.states;
      j["cycles"] = t.totals_[i];
    } else {
      j["kind"] = "level";
      j["max"] = t.totals_[i][0];
      j["mean"] = t.end_ == 0 ? 0.0 : static_cast<double>(t.totals_[i][1]) / static_cast<double>(t.end_);
    }
    j["buckets"] = buckets;
    lanes.push_back(j);
  }
  return {{"cycles", t.end_}, {"bucket_cycles", t.bucket_cycles()}, {"lanes", lanes}};
}

}  // namespace cosim::tb::timeline
