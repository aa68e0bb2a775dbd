// A DMA on top of the stream models: MM2S reads memory beat by beat (8 bytes,
// the last one zero-padded) into a Source, TLAST on the last beat; S2MM
// writes each beat a Sink takes to memory until TLAST. Both reach memory
// through cosim::tb::MemoryPort, so they run against a byte vector or the
// TLM DRAM target alike.
//
// Memory timing (optional, set_delay_source): after each memory access the
// DMA asks the source how many cycles it cost (e.g. the TLM bridge's
// take_delay_cycles) and, as TimedAxiSlave does, spends cost - 1 extra
// cycles on it: MM2S presents the beat that much later, S2MM holds TREADY
// low that long. Without a source every access costs one cycle.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "axi/memory_port.hpp"
#include "axis/axis_sink.hpp"
#include "axis/axis_source.hpp"

namespace cosim::tb::axis {

using DelaySource = std::function<uint64_t()>;

class Mm2sDma {
 public:
  Mm2sDma(MemoryPort& mem, uint64_t seed, double stall_prob) : mem_(mem), source_(seed, stall_prob) {}

  // One transfer of bytes (> 0) from addr. Throws cosim::InputError if busy.
  void start(uint64_t addr, uint64_t bytes);
  // One transfer of bytes held by the DMA itself (no memory access, no memory
  // time): a stream the host pushes directly. Throws cosim::InputError if busy
  // or empty.
  void start_inline(std::vector<uint8_t> bytes);
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
  void push(const Beat& b);

  MemoryPort& mem_;
  Source source_;
  DelaySource delay_;
  std::function<void(const Beat&)> hook_;
  uint64_t addr_ = 0;
  uint64_t remaining_ = 0;
  std::vector<uint8_t> inline_;  // non-empty: the current transfer's bytes
  bool holding_ = false;         // a fetched beat waits for its memory time
  Beat held_;
  uint64_t wait_ = 0;
};

class S2mmDma {
 public:
  S2mmDma(MemoryPort& mem, uint64_t seed, double stall_prob) : mem_(mem), sink_(seed, stall_prob) {}

  // Receive one packet into [addr, addr + max_bytes). A packet longer than
  // that throws ProtocolError; starting while busy throws cosim::InputError.
  void start(uint64_t addr, uint64_t max_bytes);
  bool busy() const { return active_; }
  uint64_t bytes_written() const { return written_; }

  void set_delay_source(DelaySource d) { delay_ = std::move(d); }

  void drive(Pins& p);
  void update(const Pins& p);

 private:
  MemoryPort& mem_;
  Sink sink_;
  DelaySource delay_;
  bool active_ = false;
  uint64_t addr_ = 0;
  uint64_t max_ = 0;
  uint64_t written_ = 0;
  uint64_t wait_ = 0;
};

}  // namespace cosim::tb::axis
