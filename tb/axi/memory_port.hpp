// The memory a DUT's bus master reaches. The cycle-level AXI models in this
// folder call it once per burst beat; a plain byte vector (bare C++ harnesses)
// and the TLM-2.0 bridge to the DRAM target (tb/tlm) both implement it, so a
// DUT wrapper is written once and runs with or without SystemC.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cosim::tb {

class MemoryPort {
 public:
  virtual ~MemoryPort() = default;
  virtual void read(uint64_t addr, uint8_t* dst, std::size_t len) = 0;
  // strobe: one byte per data byte, non-zero = write it; nullptr = all bytes.
  virtual void write(uint64_t addr, const uint8_t* src, std::size_t len, const uint8_t* strobe) = 0;
  // Called once per DUT cycle in which a bus model holds an access waiting
  // for this memory's time (the run's "memory wait" figure); untimed memories
  // ignore it.
  virtual void note_waiting() {}
};

// A flat byte image whose byte 0 is address 0; out-of-range accesses throw
// cosim::InputError naming the address.
class VectorMemory : public MemoryPort {
 public:
  explicit VectorMemory(std::vector<uint8_t>& bytes) : bytes_(bytes) {}
  void read(uint64_t addr, uint8_t* dst, std::size_t len) override;
  void write(uint64_t addr, const uint8_t* src, std::size_t len, const uint8_t* strobe) override;
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t>& bytes_;
};

}  // namespace cosim::tb
