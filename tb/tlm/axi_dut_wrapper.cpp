#include "tlm/axi_dut_wrapper.hpp"

namespace cosim::tb {

AxiDutWrapper::AxiDutWrapper(sc_core::sc_module_name name, const TbConfig& cfg, uint32_t data_bytes)
    : AxiDutWrapper(name, cfg, std::vector<harness::AxiMasterSpec>{{"axi", data_bytes, 0}}) {}

AxiDutWrapper::AxiDutWrapper(sc_core::sc_module_name name, const TbConfig& cfg,
                             const std::vector<harness::AxiMasterSpec>& masters)
    : DutWrapper(name, cfg) {
  for (std::size_t i = 0; i < masters.size(); ++i) {
    const harness::AxiMasterSpec& m = masters[i];
    masters_.push_back(std::make_unique<Master>(m.name, memory(i, i == 0 ? 0 : m.stall_seed), m.data_bytes));
  }
}

std::string AxiDutWrapper::diagnosis() const {
  std::string d = dut_diagnosis();
  for (const auto& m : masters_) d += "; " + (masters_.size() > 1 ? m->name + ": " : std::string()) + m->axi.state();
  return d;
}

std::map<std::string, uint64_t> AxiDutWrapper::perf_counters() const {
  std::map<std::string, uint64_t> c = dut_counters();
  uint64_t rd = 0, wr = 0, wait = 0;
  for (const auto& m : masters_) {
    rd += m->axi.model().read_beats();
    wr += m->axi.model().write_beats();
    wait += m->axi.wait_cycles();
    if (masters_.size() > 1) {
      c[m->name + ".read_beats"] = m->axi.model().read_beats();
      c[m->name + ".write_beats"] = m->axi.model().write_beats();
      c[m->name + ".memory_wait_cycles"] = m->axi.wait_cycles();
    }
  }
  c["read_beats"] = rd;
  c["write_beats"] = wr;
  c["memory_wait_cycles"] = wait;
  return c;
}

std::vector<std::string> AxiDutWrapper::errors() const {
  std::vector<std::string> e = dut_errors();
  const auto prefix = [&](const Master& m) { return masters_.size() > 1 ? " (" + m.name + ")" : std::string(); };
  for (const auto& m : masters_) {
    for (const auto& s : m->axi.model().protocol_errors()) e.push_back("AXI protocol" + prefix(*m) + ": " + s);
    for (const auto& s : m->axi.model().access_errors()) e.push_back("memory access" + prefix(*m) + ": " + s);
  }
  return e;
}

}  // namespace cosim::tb
