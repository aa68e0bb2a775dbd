// The base of every DUT wrapper. A wrapper owns one Verilated model and keeps
// its own clock loop over it (no sc_clock, no sc_signal per pin: that costs
// ~4x, see DESIGN.md); it crosses into SystemC only at transactions:
//   - reg_socket: a TLM target; 32-bit reads / writes (TLM_READ_COMMAND /
//     TLM_WRITE_COMMAND) become register-port cycles on the model (reg_read /
//     reg_write, implemented per DUT);
//   - mem_socket: a TLM initiator to the DRAM target, used through memory()
//     (a MemoryPort the cycle-level AXI slave model calls per beat).
// Time: each DUT cycle adds one clock period of local time; the wrapper
// synchronises with SystemC through a tlm_quantumkeeper at quantum
// boundaries, so cycle counts are exact and independent of the quantum.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "timeline/timeline.hpp"
#include "scoreboard/write_log.hpp"
#include "tlm/tb_config.hpp"
#include "tlm/tlm_memory_port.hpp"

namespace cosim::tb {

class DutWrapper : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<DutWrapper> reg_socket;
  tlm_utils::simple_initiator_socket<DutWrapper> mem_socket;

  DutWrapper(sc_core::sc_module_name name, const TbConfig& cfg);
  ~DutWrapper() override;

  // Clocks the DUT until it reports done or `max_cycles` more cycles have
  // passed; true when done. Must be called from an SC_THREAD (it may wait()).
  virtual bool run(uint64_t max_cycles) = 0;
  // Clocks the DUT until its interrupt output is asserted or `max_cycles`
  // more cycles have passed; true when the interrupt was seen. The default:
  // this DUT has no interrupt pin (cosim::InputError naming it; a manifest
  // declares one under `ports:` as an `irq` interface). Same thread rule as run().
  virtual bool run_until_irq(uint64_t max_cycles);
  // One line saying where the DUT is (FSM states, counters), for timeouts.
  virtual std::string diagnosis() const = 0;
  // DUT performance counters by name (cycles busy, bytes moved, ...).
  virtual std::map<std::string, uint64_t> perf_counters() const { return {}; }
  // The engine timeline (tb/timeline): what each unit did, sampled while the
  // DUT ran (TbConfig::timeline); null when the DUT declares no lanes or
  // sampling is off.
  virtual const timeline::Timeline* timeline() const { return nullptr; }
  // The Verilated build the DUT runs: "checked" (its SystemVerilog
  // assertions in: the default) or "fast" (a variant without them, for
  // cosim run --fast; harness/variant.hpp build_name).
  virtual std::string build() const { return "checked"; }
  // Bus protocol violations and failed memory accesses seen so far; a run
  // with any is reported as failed even when the outputs match.
  virtual std::vector<std::string> errors() const { return {}; }
  // AXI-Stream DUTs override these; the default DUT has no streams.
  virtual void stream_send(const std::string& stream, const std::vector<uint8_t>& bytes);
  virtual std::vector<uint8_t> stream_receive(const std::string& stream, std::size_t nbytes);
  // The DUT cycle each byte the last stream_receive returned was handed
  // over, where the DUT's wrapper keeps it (empty otherwise): a mismatching
  // stream element's cycle, for the waveform window.
  virtual std::vector<uint64_t> last_receive_cycles() const { return {}; }
  // Where the last stream_receive's bytes ended a packet (the counts of them after which a beat with
  // TLAST ended), where the DUT's wrapper keeps it; none otherwise: a check of packets cannot be made.
  virtual std::optional<std::vector<std::size_t>> last_receive_packet_ends() const { return std::nullopt; }
  // Before a stream check: clocks the DUT until output `stream` holds
  // `nbytes` bytes not yet checked, or `max_cycles` more cycles passed
  // (false). A DUT whose output is complete once it reports done (the
  // default) does not wait: true. Same thread rule as run().
  virtual bool stream_wait(const std::string& stream, std::size_t nbytes, uint64_t max_cycles) {
    (void)stream;
    (void)nbytes;
    (void)max_cycles;
    return true;
  }

  // Cycles since reset (the DUT's own clock count).
  uint64_t cycles() const { return cycles_; }
  // Records the cycle of every DUT memory write (scoreboard hook), on every
  // memory master.
  void set_write_log(WriteLog* log);
  // The bridge of the DUT's memory master `i` (one per AXI4 master; all on
  // the one DRAM). `stream` picks its DRAM timing stream (its stall draws);
  // master 0 is stream 0. Created on first use.
  TlmMemoryPort& memory(std::size_t i = 0, uint64_t stream = 0);
  std::size_t memory_ports() const { return memory_.size(); }
  // Summed over the memory masters.
  TlmMemoryPort::Stats memory_stats() const;
  // Cycles in which some access of any memory master waited for the memory.
  uint64_t memory_wait_cycles() const { return memory_wait_.count(); }
  const TbConfig& config() const { return cfg_; }
  // The registered target this DUT plays (`target` of the trace; set by
  // simulate()), for messages; the module name when unset.
  void set_target_name(std::string target) { target_ = std::move(target); }
  std::string target_name() const { return target_.empty() ? std::string(name()) : target_; }

 protected:
  virtual uint32_t reg_read(uint32_t offset) = 0;
  virtual void reg_write(uint32_t offset, uint32_t value) = 0;

  // Call once per DUT clock cycle: counts it and synchronises with SystemC
  // when the quantum is used up.
  void tick() {
    ++cycles_;
    if (++local_cycles_ >= cfg_.quantum_cycles) sync();
  }
  // Hands the local time to the quantum keeper and waits if needed.
  void sync();

 private:
  void reg_b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);

  TbConfig cfg_;
  sc_core::sc_time period_;
  tlm_utils::tlm_quantumkeeper qk_;
  std::vector<std::unique_ptr<TlmMemoryPort>> memory_;
  WriteLog* write_log_ = nullptr;
  MemoryWaitCycles memory_wait_;
  uint64_t cycles_ = 0;
  uint64_t local_cycles_ = 0;
  std::string target_;
};

}  // namespace cosim::tb
