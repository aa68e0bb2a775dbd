// The bridge from a DUT's memory master to TLM-2.0: a cosim::tb::MemoryPort
// (called by the cycle-level AXI slave model once per beat) that issues
// b_transport to the DRAM target, or copies through the DMI pointer once the
// target grants one. The memory time of every access (DramTiming) is
// converted to DUT cycles and accumulated; the AXI slave model takes it with
// take_delay_cycles() and holds its response that long, so DRAM latency and
// stalls show up in the DUT's cycle count identically with or without DMI.
#pragma once

#include <systemc>
#include <tlm>

#include <cstdint>
#include <functional>
#include <vector>

#include "axi/memory_port.hpp"
#include "scoreboard/write_log.hpp"
#include "tlm/dram_timing.hpp"
#include "tlm/tb_config.hpp"

namespace cosim::tb {

// Cycles in which at least one access, on any of the ports that share this
// counter, was held waiting for memory. A cycle counts once however many
// accesses wait in it, so the total never exceeds the run's cycles (a sum of
// latencies would: accesses overlap).
class MemoryWaitCycles {
 public:
  void mark(uint64_t cycle) {
    if (counted_ && cycle == last_) return;
    counted_ = true;
    last_ = cycle;
    ++count_;
  }
  uint64_t count() const { return count_; }

 private:
  bool counted_ = false;
  uint64_t last_ = 0;
  uint64_t count_ = 0;
};

class TlmMemoryPort : public MemoryPort {
 public:
  struct Stats {
    uint64_t reads = 0, writes = 0, read_bytes = 0, write_bytes = 0, dmi_accesses = 0, tlm_accesses = 0;
  };

  // `timing_stream` is the initiator index of this socket at the DRAM target
  // (its binding order), so the DMI path draws the same stalls as b_transport.
  // `now` returns the DUT's current cycle (for the write log).
  TlmMemoryPort(tlm::tlm_initiator_socket<>& socket, const TbConfig& cfg, uint64_t timing_stream,
                std::function<uint64_t()> now);

  void read(uint64_t addr, uint8_t* dst, std::size_t len) override;
  void write(uint64_t addr, const uint8_t* src, std::size_t len, const uint8_t* strobe) override;

  // Memory cycles accumulated since the previous call.
  uint64_t take_delay_cycles();
  uint64_t total_delay_cycles() const { return total_cycles_; }
  void set_write_log(WriteLog* log) { log_ = log; }
  // Where note_waiting() counts, at the DUT's current cycle.
  void set_wait_counter(MemoryWaitCycles* counter) { wait_ = counter; }
  void note_waiting() override {
    if (wait_ != nullptr && now_) wait_->mark(now_());
  }
  void invalidate_dmi() { dmi_valid_ = false; }
  const Stats& stats() const { return stats_; }

 private:
  void access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, std::size_t len, const uint8_t* strobe);
  bool try_dmi(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, std::size_t len, const uint8_t* strobe);

  tlm::tlm_initiator_socket<>& socket_;
  TbConfig cfg_;
  DramTiming timing_;
  std::function<uint64_t()> now_;
  WriteLog* log_ = nullptr;
  MemoryWaitCycles* wait_ = nullptr;
  tlm::tlm_dmi dmi_;
  bool dmi_valid_ = false;
  bool dmi_refused_ = false;
  uint64_t pending_cycles_ = 0;
  uint64_t total_cycles_ = 0;
  std::vector<uint8_t> byte_enable_;
  Stats stats_;
};

}  // namespace cosim::tb
