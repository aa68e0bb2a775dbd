#include "tlm/dram_target.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace cosim::tb {

DramTarget::DramTarget(sc_core::sc_module_name name, const TbConfig& cfg)
    : sc_core::sc_module(name),
      socket("socket"),
      cfg_(cfg),
      size_(cfg.dram_size),
      // calloc: the image is zero and pages are only touched when used.
      mem_(static_cast<uint8_t*>(std::calloc(cfg.dram_size == 0 ? 1 : cfg.dram_size, 1)), std::free) {
  if (!mem_) throw std::bad_alloc();
  socket.register_b_transport(this, &DramTarget::b_transport);
  socket.register_get_direct_mem_ptr(this, &DramTarget::get_direct_mem_ptr);
  socket.register_transport_dbg(this, &DramTarget::transport_dbg);
}

DramTiming& DramTarget::timing(int id) {
  while (timing_.size() <= static_cast<std::size_t>(id)) {
    timing_.push_back(std::make_unique<DramTiming>(cfg_, timing_.size()));
  }
  return *timing_[id];
}

uint64_t DramTarget::stalls(int initiator) const {
  return static_cast<std::size_t>(initiator) < timing_.size() ? timing_[initiator]->stalls() : 0;
}

void DramTarget::b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const uint64_t addr = p.get_address();
  const unsigned len = p.get_data_length();
  if (p.get_byte_enable_ptr() != nullptr && p.get_command() == tlm::TLM_READ_COMMAND) {
    p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (p.get_streaming_width() < len) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (!in_range(addr, len)) {
    ++stats_.errors;
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  uint8_t* mem = mem_.get() + addr;
  if (p.is_read()) {
    std::memcpy(p.get_data_ptr(), mem, len);
    ++stats_.reads;
    stats_.read_bytes += len;
  } else if (p.is_write()) {
    const unsigned char* be = p.get_byte_enable_ptr();
    const unsigned be_len = p.get_byte_enable_length();
    for (unsigned i = 0; i < len; ++i) {
      if (be == nullptr || be[i % be_len] == TLM_BYTE_ENABLED) mem[i] = p.get_data_ptr()[i];
    }
    ++stats_.writes;
    stats_.write_bytes += len;
  }
  const uint64_t cycles = timing(id).access_cycles(addr, len, p.is_write());
  delay += sc_core::sc_time(cfg_.clock_ns * static_cast<double>(cycles), sc_core::SC_NS);
  p.set_dmi_allowed(cfg_.dmi);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool DramTarget::get_direct_mem_ptr(int id, tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
  (void)id;
  (void)p;
  if (!cfg_.dmi) return false;
  ++stats_.dmi_grants;
  dmi.set_dmi_ptr(mem_.get());
  dmi.set_start_address(0);
  dmi.set_end_address(size_ - 1);
  dmi.allow_read_write();
  // The per-access latency; transfer time and stalls follow DramTiming,
  // which the initiator applies with the same configuration.
  dmi.set_read_latency(sc_core::sc_time(cfg_.clock_ns * cfg_.dram_latency, sc_core::SC_NS));
  dmi.set_write_latency(sc_core::sc_time(cfg_.clock_ns * cfg_.dram_latency, sc_core::SC_NS));
  return true;
}

unsigned int DramTarget::transport_dbg(int id, tlm::tlm_generic_payload& p) {
  (void)id;
  const uint64_t addr = p.get_address();
  uint64_t len = p.get_data_length();
  if (addr >= size_) return 0;
  if (len > size_ - addr) len = size_ - addr;
  if (p.is_read()) std::memcpy(p.get_data_ptr(), mem_.get() + addr, len);
  else if (p.is_write()) std::memcpy(mem_.get() + addr, p.get_data_ptr(), len);
  return static_cast<unsigned int>(len);
}

}  // namespace cosim::tb
