#include "tlm/dut_wrapper.hpp"

#include <cstring>

#include "common/error.hpp"

namespace cosim::tb {

DutWrapper::DutWrapper(sc_core::sc_module_name name, const TbConfig& cfg)
    : sc_core::sc_module(name),
      reg_socket("reg_socket"),
      mem_socket("mem_socket"),
      cfg_(cfg),
      period_(cfg.clock_ns, sc_core::SC_NS) {
  reg_socket.register_b_transport(this, &DutWrapper::reg_b_transport);
  tlm_utils::tlm_quantumkeeper::set_global_quantum(period_ * static_cast<double>(cfg.quantum_cycles));
  qk_.reset();
}

DutWrapper::~DutWrapper() = default;

TlmMemoryPort& DutWrapper::memory(std::size_t i, uint64_t stream) {
  // The DUT's socket is bound to the DRAM target first: timing stream 0.
  while (memory_.size() <= i) {
    const uint64_t s = memory_.size() == i ? stream : memory_.size();
    memory_.push_back(std::make_unique<TlmMemoryPort>(mem_socket, cfg_, s, [this] { return cycles_; }));
    memory_.back()->set_write_log(write_log_);
    memory_.back()->set_wait_counter(&memory_wait_);
  }
  return *memory_[i];
}

void DutWrapper::set_write_log(WriteLog* log) {
  write_log_ = log;
  for (auto& m : memory_) m->set_write_log(log);
}

TlmMemoryPort::Stats DutWrapper::memory_stats() const {
  TlmMemoryPort::Stats sum;
  for (const auto& m : memory_) {
    const TlmMemoryPort::Stats& s = m->stats();
    sum.reads += s.reads;
    sum.writes += s.writes;
    sum.read_bytes += s.read_bytes;
    sum.write_bytes += s.write_bytes;
    sum.dmi_accesses += s.dmi_accesses;
    sum.tlm_accesses += s.tlm_accesses;
  }
  return sum;
}


void DutWrapper::sync() {
  if (local_cycles_ == 0) return;
  qk_.inc(period_ * static_cast<double>(local_cycles_));
  local_cycles_ = 0;
  if (qk_.need_sync()) qk_.sync();
}

bool DutWrapper::run_until_irq(uint64_t max_cycles) {
  (void)max_cycles;
  throw InputError("target '" + target_name() +
                   "' has no interrupt pin to wait for (its manifest declares no interface of kind irq under 'ports:')");
}

void DutWrapper::stream_send(const std::string& stream, const std::vector<uint8_t>& bytes) {
  (void)bytes;
  throw InputError("trace: stream_send to '" + stream + "', but DUT " + name() + " has no input streams");
}

std::vector<uint8_t> DutWrapper::stream_receive(const std::string& stream, std::size_t nbytes) {
  (void)nbytes;
  throw InputError("trace: stream_check of '" + stream + "', but DUT " + name() + " has no output streams");
}

void DutWrapper::reg_b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  if (p.get_data_length() != 4 || p.get_byte_enable_ptr() != nullptr || (p.get_address() & 3) != 0) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const auto offset = static_cast<uint32_t>(p.get_address());
  if (p.is_write()) {
    uint32_t v;
    std::memcpy(&v, p.get_data_ptr(), 4);
    reg_write(offset, v);
  } else {
    const uint32_t v = reg_read(offset);
    std::memcpy(p.get_data_ptr(), &v, 4);
  }
  // The register-port cycles are counted in the DUT's local time (tick()),
  // which reaches SystemC through the quantum keeper, not through `delay`.
  (void)delay;
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace cosim::tb
