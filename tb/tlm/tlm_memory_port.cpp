#include "tlm/tlm_memory_port.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "common/error.hpp"
#include "common/text.hpp"

namespace cosim::tb {

TlmMemoryPort::TlmMemoryPort(tlm::tlm_initiator_socket<>& socket, const TbConfig& cfg, uint64_t timing_stream,
                             std::function<uint64_t()> now)
    : socket_(socket), cfg_(cfg), timing_(cfg, timing_stream), now_(std::move(now)) {}

void TlmMemoryPort::read(uint64_t addr, uint8_t* dst, std::size_t len) {
  access(tlm::TLM_READ_COMMAND, addr, dst, len, nullptr);
  ++stats_.reads;
  stats_.read_bytes += len;
}

void TlmMemoryPort::write(uint64_t addr, const uint8_t* src, std::size_t len, const uint8_t* strobe) {
  access(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(src), len, strobe);
  ++stats_.writes;
  stats_.write_bytes += len;
  if (log_ != nullptr) log_->record(addr, len, now_ ? now_() : 0, strobe);
}

uint64_t TlmMemoryPort::take_delay_cycles() {
  const uint64_t c = pending_cycles_;
  pending_cycles_ = 0;
  return c;
}

bool TlmMemoryPort::try_dmi(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, std::size_t len,
                            const uint8_t* strobe) {
  if (!cfg_.dmi || dmi_refused_) return false;
  if (!dmi_valid_) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(addr);
    dmi_ = tlm::tlm_dmi();
    dmi_valid_ = socket_->get_direct_mem_ptr(p, dmi_);
    if (!dmi_valid_) {
      dmi_refused_ = true;
      return false;
    }
  }
  if (addr < dmi_.get_start_address() || len == 0 || addr + len - 1 > dmi_.get_end_address()) return false;
  if (cmd == tlm::TLM_READ_COMMAND ? !dmi_.is_read_allowed() : !dmi_.is_write_allowed()) return false;
  uint8_t* mem = dmi_.get_dmi_ptr() + (addr - dmi_.get_start_address());
  if (cmd == tlm::TLM_READ_COMMAND) {
    std::memcpy(data, mem, len);
  } else {
    for (std::size_t i = 0; i < len; ++i) {
      if (strobe == nullptr || strobe[i] != 0) mem[i] = data[i];
    }
  }
  const uint64_t cycles = timing_.access_cycles(addr, len, cmd == tlm::TLM_WRITE_COMMAND);
  pending_cycles_ += cycles;
  total_cycles_ += cycles;
  ++stats_.dmi_accesses;
  return true;
}

void TlmMemoryPort::access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, std::size_t len,
                           const uint8_t* strobe) {
  if (try_dmi(cmd, addr, data, len, strobe)) return;
  tlm::tlm_generic_payload p;
  p.set_command(cmd);
  p.set_address(addr);
  p.set_data_ptr(data);
  p.set_data_length(static_cast<unsigned>(len));
  p.set_streaming_width(static_cast<unsigned>(len));
  if (strobe != nullptr) {
    byte_enable_.resize(len);
    for (std::size_t i = 0; i < len; ++i) byte_enable_[i] = strobe[i] != 0 ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
    p.set_byte_enable_ptr(byte_enable_.data());
    p.set_byte_enable_length(static_cast<unsigned>(len));
  }
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket_->b_transport(p, delay);
  if (p.is_response_error()) {
    throw InputError(std::string("DUT memory ") + (cmd == tlm::TLM_READ_COMMAND ? "read" : "write") + " of " +
                     std::to_string(len) + " bytes at " + hex(addr) + " failed: " + p.get_response_string() +
                     " (DRAM is [0x0, " + hex(cfg_.dram_size) + "))");
  }
  const uint64_t cycles =
      static_cast<uint64_t>(std::llround(delay.to_seconds() * 1e9 / cfg_.clock_ns));
  pending_cycles_ += cycles;
  total_cycles_ += cycles;
  ++stats_.tlm_accesses;
}

}  // namespace cosim::tb
