// A DMA on top of the stream models: MM2S reads memory beat by beat (8 bytes,
// the last one zero-padded) into a Source, TLAST on the last beat; S2MM
// writes each beat a Sink takes to memory until TLAST. Both reach memory
// through cosim::tb::MemoryPort, so they run against a byte vector or the
// TLM DRAM target alike.
#pragma once

#include <cstdint>

#include "axi/memory_port.hpp"
#include "axis/axis_sink.hpp"
#include "axis/axis_source.hpp"

namespace cosim::tb::axis {

class Mm2sDma {
 public:
  Mm2sDma(MemoryPort& mem, uint64_t seed, double stall_prob) : mem_(mem), source_(seed, stall_prob) {}

  // One transfer of bytes (> 0) from addr. Throws cosim::InputError if busy.
  void start(uint64_t addr, uint64_t bytes);
  bool busy() const { return remaining_ > 0 || !source_.idle(); }

  void drive(Pins& p);
  void update(const Pins& p) { source_.update(p); }

 private:
  MemoryPort& mem_;
  Source source_;
  uint64_t addr_ = 0;
  uint64_t remaining_ = 0;
};

class S2mmDma {
 public:
  S2mmDma(MemoryPort& mem, uint64_t seed, double stall_prob) : mem_(mem), sink_(seed, stall_prob) {}

  // Receive one packet into [addr, addr + max_bytes). A packet longer than
  // that throws ProtocolError; starting while busy throws cosim::InputError.
  void start(uint64_t addr, uint64_t max_bytes);
  bool busy() const { return active_; }
  uint64_t bytes_written() const { return written_; }

  void drive(Pins& p);
  void update(const Pins& p);

 private:
  MemoryPort& mem_;
  Sink sink_;
  bool active_ = false;
  uint64_t addr_ = 0;
  uint64_t max_ = 0;
  uint64_t written_ = 0;
};

}  // namespace cosim::tb::axis
