// Every AXI-Stream a manifest lists (the generated pins::Top::AxisIns and
// AxisOuts), each bound on its own: an input to a StreamFeed, an output to a
// StreamCapture (tb/axis), at the width of its own TDATA. A wrapper written
// over the lists serves a kernel with one stream or five, with or without
// TLAST / TKEEP, and reaches them by interface name through ends()
// (axis::StreamSet). Their stalls are seeded per stream from the run's seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "axis/stream_ends.hpp"
#include "harness/axis_binder.hpp"
#include "harness/bus.hpp"
#include "harness/port.hpp"
#include "harness/stall_seed.hpp"

namespace cosim::tb::harness {

// What an input's and an output's binder share: the testbench end `EndOf`
// (a feed or a capture, at the stream's widths) over the pins of stream
// `Bus` of `Model`, stepped on the bus's clock.
template <class Model, class Bus, template <std::size_t, std::size_t> class EndOf>
class AxisEndBinder : public Port<Model> {
 public:
  using Pins = AxisPinsOf<Model, Bus>;

  bool has_update() const override { return true; }
  bool owed() const override { return end_.owed(); }
  int clock() const override { return bus_clock<Bus>; }

  axis::StreamEnd& end() { return end_; }

 protected:
  // `args`: the end's constructor's.
  template <class... Args>
  explicit AxisEndBinder(Args&&... args) : end_(std::forward<Args>(args)...) {}

  EndOf<Pins::kDataBytes, Pins::kUserBytes> end_;
  Pins pins_;
};

// Input stream `Bus` of `Model`, fed by the trace's stream_send steps.
template <class Model, class Bus>
class AxisFeedBinder final : public AxisEndBinder<Model, Bus, axis::BasicStreamFeed> {
 public:
  AxisFeedBinder(uint64_t seed, double stall)
      : AxisFeedBinder::AxisEndBinder(Bus::kName, COSIM_HAS(Bus, tkeep, Model), seed, stall) {}

  void drive(Model& m) override {
    this->end_.drive(this->pins_);
    drive_axis_in<Bus>(m, this->pins_);
  }
  void sample(const Model& m, uint64_t) override {
    this->pins_.tready = Bus::tready(m);
    this->end_.observe(this->pins_);
  }
  void update(const Model&, uint64_t) override { this->end_.update(this->pins_); }
};

// Output stream `Bus` of `Model`, its bytes kept for the trace's stream_check steps.
template <class Model, class Bus>
class AxisCaptureBinder final : public AxisEndBinder<Model, Bus, axis::BasicStreamCapture> {
 public:
  AxisCaptureBinder(uint64_t seed, double stall) : AxisCaptureBinder::AxisEndBinder(Bus::kName, seed, stall) {}

  void drive(Model& m) override {
    this->end_.drive(this->pins_);
    set_pin(Bus::tready(m), this->pins_.tready);
  }
  void sample(const Model& m, uint64_t time) override {
    sample_axis_out<Bus>(m, this->pins_);
    this->end_.observe(time, this->pins_);
  }
  void update(const Model&, uint64_t time) override { this->end_.update(time, this->pins_); }
};

// The seed of stream `index` (inputs and outputs counted apart) of a run
// seeded `seed`: the first input and output draw as a DUT's one pair of
// streams does (stall_seed.hpp), the others from seeds of their own.
inline uint64_t stream_stall_seed(uint64_t seed, StallStream kind, std::size_t index) {
  return stall_seed(seed, kind) + (uint64_t{index} << 32);
}

template <class Model, class Ins, class Outs>
class AxisStreamBinders;

template <class Model, class... In, class... Out>
class AxisStreamBinders<Model, BusList<In...>, BusList<Out...>> {
 public:
  // stall: the chance per cycle that a stream's testbench end holds back
  // (TVALID of an input, TREADY of an output).
  AxisStreamBinders(uint64_t seed, double stall)
      : AxisStreamBinders(seed, stall, std::index_sequence_for<In...>{}, std::index_sequence_for<Out...>{}) {}

  // The binders join the core's ports, inputs then outputs, in the manifest's order.
  template <class Core>
  void add_to(Core& core) {
    std::apply([&core](auto&... b) { (core.add_port(b), ...); }, feeds_);
    std::apply([&core](auto&... b) { (core.add_port(b), ...); }, captures_);
  }
  // Every stream's end, inputs then outputs.
  std::vector<axis::StreamEnd*> ends() {
    std::vector<axis::StreamEnd*> e;
    std::apply([&e](auto&... b) { (e.push_back(&b.end()), ...); }, feeds_);
    std::apply([&e](auto&... b) { (e.push_back(&b.end()), ...); }, captures_);
    return e;
  }

 private:
  template <std::size_t... I, std::size_t... O>
  AxisStreamBinders(uint64_t seed, double stall, std::index_sequence<I...>, std::index_sequence<O...>)
      : feeds_(AxisFeedBinder<Model, In>(stream_stall_seed(seed, StallStream::kStreamIn, I), stall)...),
        captures_(AxisCaptureBinder<Model, Out>(stream_stall_seed(seed, StallStream::kStreamOut, O), stall)...) {}

  std::tuple<AxisFeedBinder<Model, In>...> feeds_;
  std::tuple<AxisCaptureBinder<Model, Out>...> captures_;
};

}  // namespace cosim::tb::harness
