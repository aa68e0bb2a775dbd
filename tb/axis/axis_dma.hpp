// A DMA on top of the stream models: MM2S reads memory beat by beat (W
// bytes; the last beat zero-padded, TKEEP and TSTRB marking its bytes) into a
// Source, TLAST on the last beat; S2MM writes each beat a Sink takes to
// memory until TLAST: the bytes TKEEP marks, one after the other (a null
// byte, TKEEP low, takes no room), each written only if TSTRB marks it (a
// position byte, TKEEP high and TSTRB low, takes its room unwritten). Both
// reach memory through cosim::tb::MemoryPort, so they run against a byte
// vector or the TLM DRAM target alike. BasicMm2sDma<W, U> / BasicS2mmDma<W, U>
// move W-byte beats (axis_types.hpp); Mm2sDma / S2mmDma the 64-bit ones.
//
// Memory timing (optional, set_delay_source): after each memory access the
// DMA asks the source how many cycles it cost (e.g. the TLM bridge's
// take_delay_cycles) and, as TimedAxiSlave does, spends cost - 1 extra
// cycles on it: MM2S presents the beat that much later, S2MM holds TREADY
// low that long. Without a source every access costs one cycle.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "axi/memory_port.hpp"
#include "axis/axis_sink.hpp"
#include "axis/axis_source.hpp"
#include "common/error.hpp"

namespace cosim::tb::axis {

using DelaySource = std::function<uint64_t()>;

template <std::size_t W, std::size_t U = 8>
class BasicMm2sDma {
 public:
  using Pins = BasicPins<W, U>;
  using Beat = BasicBeat<W, U>;

  BasicMm2sDma(MemoryPort& mem, uint64_t seed, double stall_prob) : mem_(mem), source_(seed, stall_prob) {}

  // One transfer of bytes (> 0) from addr. Throws cosim::InputError if busy.
  void start(uint64_t addr, uint64_t bytes) {
    if (busy()) throw InputError("axis mm2s: start while a transfer is running");
    if (bytes == 0) throw InputError("axis mm2s: zero-length transfer at " + std::to_string(addr));
    inline_.clear();
    addr_ = addr;
    remaining_ = bytes;
  }
  // One transfer of bytes held by the DMA itself (no memory access, no memory
  // time): a stream the host pushes directly. Throws cosim::InputError if busy
  // or empty.
  void start_inline(std::vector<uint8_t> bytes) {
    if (busy()) throw InputError("axis mm2s: start while a transfer is running");
    if (bytes.empty()) throw InputError("axis mm2s: zero-length inline transfer");
    remaining_ = bytes.size();
    inline_ = std::move(bytes);
    addr_ = 0;
  }
  bool busy() const { return remaining_ > 0 || holding_ || !source_.idle(); }

  void set_delay_source(DelaySource d) { delay_ = std::move(d); }
  // Called with every beat as it enters the stream source (e.g. to tell a
  // protocol checker what must come out).
  void set_beat_hook(std::function<void(const Beat&)> h) { hook_ = std::move(h); }
  // Bytes still to fetch from memory / the inline buffer.
  uint64_t remaining() const { return remaining_; }
  // Beats fetched but not yet taken by the stream's receiver.
  uint64_t pending_beats() const { return source_.pending() + (holding_ ? 1 : 0); }
  uint64_t beats_sent() const { return source_.sent(); }

  void drive(Pins& p);
  void update(const Pins& p) { source_.update(p); }

 private:
  void push(const Beat& b) {
    if (hook_) hook_(b);
    source_.push(b);
  }

  MemoryPort& mem_;
  BasicSource<W, U> source_;
  DelaySource delay_;
  std::function<void(const Beat&)> hook_;
  uint64_t addr_ = 0;
  uint64_t remaining_ = 0;
  std::vector<uint8_t> inline_;  // non-empty: the current transfer's bytes
  bool holding_ = false;         // a fetched beat waits for its memory time
  Beat held_;
  uint64_t wait_ = 0;
};

template <std::size_t W, std::size_t U = 8>
class BasicS2mmDma {
 public:
  using Pins = BasicPins<W, U>;
  using Beat = BasicBeat<W, U>;

  BasicS2mmDma(MemoryPort& mem, uint64_t seed, double stall_prob) : mem_(mem), sink_(seed, stall_prob) {}

  // Receive one packet into [addr, addr + max_bytes). A packet longer than
  // that throws ProtocolError; starting while busy throws cosim::InputError.
  void start(uint64_t addr, uint64_t max_bytes) {
    if (active_) throw InputError("axis s2mm: start while a transfer is running");
    active_ = true;
    addr_ = addr;
    max_ = max_bytes;
    written_ = 0;
  }
  bool busy() const { return active_; }
  uint64_t bytes_written() const { return written_; }

  void set_delay_source(DelaySource d) { delay_ = std::move(d); }

  void drive(Pins& p) {
    if (active_ && wait_ == 0) {
      sink_.drive(p);
    } else {
      if (wait_ > 0) {
        --wait_;
        mem_.note_waiting();
      }
      p.tready = false;
    }
  }
  void update(const Pins& p);

 private:
  MemoryPort& mem_;
  BasicSink<W, U> sink_;
  DelaySource delay_;
  bool active_ = false;
  uint64_t addr_ = 0;
  uint64_t max_ = 0;
  uint64_t written_ = 0;
  uint64_t wait_ = 0;
};

template <std::size_t W, std::size_t U>
void BasicMm2sDma<W, U>::drive(Pins& p) {
  if (wait_ > 0) {
    --wait_;
    mem_.note_waiting();
  } else if (!holding_ && remaining_ > 0 && source_.idle()) {
    // Fetch one beat ahead, as a DMA's read side would.
    uint8_t buf[W] = {0};
    const uint64_t n = std::min<uint64_t>(W, remaining_);
    uint64_t cost = 1;
    if (!inline_.empty()) {
      std::copy_n(inline_.end() - static_cast<std::ptrdiff_t>(remaining_), n, buf);
    } else {
      mem_.read(addr_, buf, n);
      if (delay_) cost = std::max<uint64_t>(1, delay_());
    }
    addr_ += n;
    remaining_ -= n;
    held_ = Beat{from_bytes<W>(buf, W), remaining_ == 0};
    if (n < W) held_.keep = held_.strb = low_bits<mask_bytes(W)>(n);
    holding_ = true;
    wait_ = cost - 1;
    if (remaining_ == 0) inline_.clear();
  }
  if (holding_ && wait_ == 0) {
    push(held_);
    holding_ = false;
  }
  source_.drive(p);
}

template <std::size_t W, std::size_t U>
void BasicS2mmDma<W, U>::update(const Pins& p) {
  if (!active_ || !p.fire()) return;
  uint8_t buf[W];
  uint8_t strobe[W];
  std::size_t n = 0;
  bool all_strobed = true;
  if (p.tkeep == Beat::full_mask()) {
    n = W;
    for (std::size_t i = 0; i < W; ++i) buf[i] = get_byte(p.tdata, i);
    if (p.tstrb != Beat::full_mask()) {
      all_strobed = false;
      for (std::size_t i = 0; i < W; ++i) strobe[i] = get_bit(p.tstrb, i);
    }
  } else {
    for (std::size_t i = 0; i < W; ++i) {
      if (!get_bit(p.tkeep, i)) continue;
      buf[n] = get_byte(p.tdata, i);
      strobe[n] = get_bit(p.tstrb, i);
      all_strobed = all_strobed && strobe[n];
      ++n;
    }
  }
  if (written_ + n > max_)
    throw ProtocolError("axis s2mm: packet longer than the " + std::to_string(max_) + "-byte buffer at " +
                        std::to_string(addr_));
  if (n > 0) mem_.write(addr_ + written_, buf, n, all_strobed ? nullptr : strobe);
  written_ += n;
  if (delay_) wait_ = std::max<uint64_t>(1, delay_()) - 1;
  if (p.tlast) active_ = false;
}

extern template class BasicMm2sDma<8>;
extern template class BasicS2mmDma<8>;
using Mm2sDma = BasicMm2sDma<8>;
using S2mmDma = BasicS2mmDma<8>;

}  // namespace cosim::tb::axis
