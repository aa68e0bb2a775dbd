#include "tlm/axi_dut_wrapper.hpp"

namespace cosim::tb {

AxiDutWrapper::AxiDutWrapper(sc_core::sc_module_name name, const TbConfig& cfg, uint32_t data_bytes)
    : DutWrapper(name, cfg), axi_(memory(), data_bytes), port_(axi_) {}

std::string AxiDutWrapper::diagnosis() const { return dut_diagnosis() + "; " + axi_.state(); }

std::map<std::string, uint64_t> AxiDutWrapper::perf_counters() const {
  std::map<std::string, uint64_t> m = dut_counters();
  m["read_beats"] = axi_.model().read_beats();
  m["write_beats"] = axi_.model().write_beats();
  m["memory_wait_cycles"] = axi_.wait_cycles();
  return m;
}

std::vector<std::string> AxiDutWrapper::errors() const {
  std::vector<std::string> e = dut_errors();
  for (const auto& s : axi_.model().protocol_errors()) e.push_back("AXI protocol: " + s);
  for (const auto& s : axi_.model().access_errors()) e.push_back("memory access: " + s);
  return e;
}

}  // namespace cosim::tb
