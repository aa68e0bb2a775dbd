// The DRAM model: a TLM-2.0 target holding a flat byte image (address 0 =
// byte 0). b_transport annotates the DramTiming delay of each initiator
// (socket index) on the transaction; DMI hands out a pointer to the whole
// image; transport_dbg is the zero-time backdoor the host uses for checks.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "tlm/dram_timing.hpp"
#include "tlm/tb_config.hpp"

namespace cosim::tb {

class DramTarget : public sc_core::sc_module {
 public:
  struct Stats {
    uint64_t reads = 0, writes = 0, read_bytes = 0, write_bytes = 0, errors = 0, dmi_grants = 0;
  };

  tlm_utils::multi_passthrough_target_socket<DramTarget> socket;

  DramTarget(sc_core::sc_module_name name, const TbConfig& cfg);

  uint8_t* data() { return mem_.get(); }
  uint64_t size() const { return size_; }
  const Stats& stats() const { return stats_; }
  // Stall count of one initiator's timing stream.
  uint64_t stalls(int initiator) const;

 private:
  void b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& p);
  bool in_range(uint64_t addr, uint64_t len) const { return addr <= size_ && len <= size_ - addr; }
  DramTiming& timing(int id);

  TbConfig cfg_;
  uint64_t size_;
  std::unique_ptr<uint8_t, void (*)(void*)> mem_;
  std::vector<std::unique_ptr<DramTiming>> timing_;
  Stats stats_;
};

}  // namespace cosim::tb
