// One AXI-Stream of a DUT as a replayed trace reaches it, under the
// manifest's interface name, and its two kinds:
//   - BasicStreamFeed, an input: the packets the trace's stream_send steps
//     give, cut into beats of W bytes as the DUT takes them (one beat made
//     ahead, so a long stream holds its bytes once, not a beat struct per
//     beat), with seeded TVALID stalls. The last beat of a packet carries
//     TLAST and, when it is short, a TKEEP / TSTRB marking its bytes; a DUT
//     without TKEEP cannot see such a beat, so it gets whole beats only.
//   - BasicStreamCapture, an output: TREADY with seeded stalls, the bytes of
//     every beat the DUT gives (those TKEEP marks; all of them without
//     TKEEP) kept for the trace's stream_check steps, and the protocol
//     checker (axis_checker.hpp) watching that a stalled beat is held.
// StreamSet (stream_set.hpp) finds them by name, so a wrapper over any
// number of streams only forwards to it; harness/axis_streams.hpp binds
// them to a model's ports.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "axis/axis_checker.hpp"
#include "axis/axis_source.hpp"
#include "axis/axis_types.hpp"
#include "axis/captured_bytes.hpp"
#include "axis/stall_coin.hpp"
#include "common/error.hpp"

namespace cosim::tb::axis {

class StreamEnd {
 public:
  virtual ~StreamEnd() = default;

  const std::string& name() const { return name_; }
  virtual bool is_input() const = 0;
  // Input: one packet, TLAST on its last beat. Throws cosim::InputError when
  // the stream cannot carry it (empty, or not whole beats without TKEEP).
  virtual void send(std::vector<uint8_t> bytes) = 0;
  // Output: up to n of the bytes taken so far, oldest first; with `cycles`,
  // the cycle each of them was handed over (the debug loop's cycle of a
  // mismatching stream element, as a write log gives memory's).
  // With `ends`, the counts of those bytes after which a beat with TLAST ended.
  virtual std::vector<uint8_t> take(std::size_t n, std::vector<uint64_t>* cycles = nullptr,
                                    std::vector<std::size_t>* ends = nullptr) = 0;
  // Input: bytes sent that the DUT has not taken yet. Output: bytes the DUT
  // gave that no check has taken yet.
  virtual uint64_t pending_bytes() const = 0;
  // Where the stream is, for a hang's diagnosis: "p0: 48 bytes to send, TVALID=1 TREADY=0".
  virtual std::string describe() const = 0;
  // The stream's first AXI-Stream protocol violation, empty while none.
  virtual const std::string& protocol_error() const = 0;

 protected:
  explicit StreamEnd(std::string name) : name_(std::move(name)) {}

 private:
  std::string name_;
};

template <std::size_t W, std::size_t U = 8>
class BasicStreamFeed final : public StreamEnd {
 public:
  using Pins = BasicPins<W, U>;
  using Beat = BasicBeat<W, U>;

  // has_tkeep: whether the DUT's port has TKEEP. stall: the chance per
  // cycle that a ready beat is held back.
  BasicStreamFeed(std::string name, bool has_tkeep, uint64_t seed, double stall)
      : StreamEnd(std::move(name)), has_tkeep_(has_tkeep), source_(seed, stall) {}

  bool is_input() const override { return true; }
  void send(std::vector<uint8_t> bytes) override {
    if (bytes.empty()) throw InputError("stream " + name() + ": stream_send of 0 bytes");
    if (!has_tkeep_ && bytes.size() % W != 0) {
      throw InputError("stream " + name() + " carries " + std::to_string(W) + "-byte beats and has no TKEEP: " +
                       "stream_send of " + std::to_string(bytes.size()) + " bytes is not a whole number of beats");
    }
    pending_ += bytes.size();
    packets_.push_back(std::move(bytes));
  }
  std::vector<uint8_t> take(std::size_t, std::vector<uint64_t>*, std::vector<std::size_t>*) override {
    throw InputError("stream " + name() + " is a DUT input");
  }
  uint64_t pending_bytes() const override { return pending_; }
  std::string describe() const override {
    return name() + ": " + std::to_string(pending_) + " bytes to send, TVALID=" + std::to_string(int(pins_.tvalid)) +
           " TREADY=" + std::to_string(int(pins_.tready));
  }
  const std::string& protocol_error() const override { return none_; }  // the testbench drives it

  // The testbench waits to present data it has (a stall): the DUT is not the one waiting.
  bool owed() const { return pending_ > 0 && !pins_.tvalid; }

  void drive(Pins& p) {
    if (source_.idle() && !packets_.empty()) source_.push(next_beat());
    source_.drive(p);
  }
  void observe(const Pins& p) { pins_ = p; }
  void update(const Pins& p) {
    if (p.fire()) {
      for (std::size_t i = 0; i < W; ++i) pending_ -= get_bit(p.tkeep, i) ? 1 : 0;
    }
    source_.update(p);
  }

 private:
  Beat next_beat() {
    const std::vector<uint8_t>& pkt = packets_.front();
    const std::size_t n = std::min(W, pkt.size() - offset_);
    Beat b{from_bytes<W>(pkt.data() + offset_, n), offset_ + n == pkt.size()};
    if (n < W) b.keep = b.strb = low_bits<mask_bytes(W)>(n);
    offset_ += n;
    if (offset_ == pkt.size()) {
      packets_.pop_front();
      offset_ = 0;
    }
    return b;
  }

  bool has_tkeep_;
  BasicSource<W, U> source_;
  std::deque<std::vector<uint8_t>> packets_;
  std::size_t offset_ = 0;  // into packets_.front()
  uint64_t pending_ = 0;
  Pins pins_;  // as the last rising edge took them
  std::string none_;
};

template <std::size_t W, std::size_t U = 8>
class BasicStreamCapture final : public StreamEnd {
 public:
  using Pins = BasicPins<W, U>;

  // stall: the chance per cycle that TREADY is low.
  BasicStreamCapture(std::string name, uint64_t seed, double stall)
      : StreamEnd(name), stall_(seed, stall), check_(std::move(name)) {}

  bool is_input() const override { return false; }
  void send(std::vector<uint8_t>) override { throw InputError("stream " + name() + " is a DUT output"); }
  std::vector<uint8_t> take(std::size_t n, std::vector<uint64_t>* cycles = nullptr,
                            std::vector<std::size_t>* ends = nullptr) override {
    return captured_.take(n, cycles, ends);
  }
  uint64_t pending_bytes() const override { return captured_.size(); }
  std::string describe() const override {
    return name() + ": " + std::to_string(beats_) + " beats taken, TVALID=" + std::to_string(int(pins_.tvalid)) +
           " TREADY=" + std::to_string(int(pins_.tready));
  }
  const std::string& protocol_error() const override { return error_; }

  // The DUT offers a beat the testbench holds back (a stall).
  bool owed() const { return pins_.tvalid && !pins_.tready; }

  void drive(Pins& p) { p.tready = !stall_(); }
  void observe(uint64_t time, const Pins& p) {
    pins_ = p;
    if (!error_.empty()) return;  // the first violation is the stream's one report
    try {
      check_.observe(time, p);
    } catch (const ProtocolError& e) {
      error_ = e.what();
    }
  }
  // After the rising edge of cycle `time`.
  void update(uint64_t time, const Pins& p) {
    if (!p.fire()) return;
    ++beats_;
    for (std::size_t i = 0; i < W; ++i)
      if (get_bit(p.tkeep, i)) captured_.push(get_byte(p.tdata, i));
    captured_.end_beat(time, p.tlast);
  }

 private:
  StallCoin stall_;
  BasicChecker<W, U> check_;
  CapturedBytes captured_;
  uint64_t beats_ = 0;
  Pins pins_;
  std::string error_;
};

}  // namespace cosim::tb::axis
