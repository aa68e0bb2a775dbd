#include "tf2/tf2_wrapper.hpp"

#include <sstream>

namespace cosim::tb::tf2 {

Tf2Wrapper::Tf2Wrapper(sc_core::sc_module_name name, const TbConfig& cfg, const Tf2Builds& builds)
    : AxiDutWrapper(name, cfg, kAxiDataBytes), core_(builds.pick(cfg.fast, !cfg.wave_file.empty()), axi_port(), &cfg),
      build_(builds.name(cfg.fast)) {
  // After reset, the build's parameters from the registers (not DUT time).
  hw_ = core_.read_config();
  core_.start_timeline([this] { tick(); });
}

Tf2Wrapper::~Tf2Wrapper() = default;

bool Tf2Wrapper::run(uint64_t max_cycles) {
  if (!core_.run(max_cycles)) {
    sync();
    return false;
  }
  if (started_) {
    started_ = false;
    ++runs_;
    if (core_.error()) {
      const uint32_t info = core_.err_info();
      std::ostringstream os;
      os << "tf2 engine error " << describe_err_info(info) << " of run " << runs_;
      dut_errors_.push_back(os.str());
    }
  }
  sync();
  return true;
}

uint32_t Tf2Wrapper::reg_read(uint32_t offset) { return core_.reg_read(offset); }

void Tf2Wrapper::reg_write(uint32_t offset, uint32_t value) {
  if (offset == regs::kDescAddr) desc_addr_ = value;
  if (offset == regs::kDescCount) desc_count_ = value;
  if (offset == regs::kCtrl && (value & regs::ctrl::kStartMask) && !core_.busy()) {
    started_ = true;
    // Descriptor lists are numbered in the order first started (a network's
    // segments; every input restarts the same lists): desc<N> is one layer.
    const auto [list, fresh] = desc_lists_.try_emplace(desc_addr_, next_desc_);
    if (fresh) next_desc_ += desc_count_;
    core_.number_descriptors_from(list->second);
  }
  core_.reg_write(offset, value);
}

std::string Tf2Wrapper::dut_diagnosis() const { return core_.diagnosis(desc_count_, desc_addr_); }

std::map<std::string, uint64_t> Tf2Wrapper::dut_counters() const {
  std::map<std::string, uint64_t> p = core_.wave_stats();  // wave_*: moved to report.json "wave"
  const EventCounts& e = core_.events();
  p.insert({{"busy_cycles", e.busy},
            {"pe_busy_cycles", e.pe_busy},
            {"filter_wait_cycles", e.filt_wait},
            {"output_wait_cycles", e.out_wait},
            {"runs", runs_},
            {"cfg_n_pe", hw_.n_pe},
            {"cfg_ocol3d", hw_.ocol3d},
            {"cfg_ktap", hw_.ktap},
            {"cfg_ocol2d", hw_.ocol2d}});
  for (std::size_t d = 0; d < e.desc_busy.size(); ++d) {
    p["desc" + std::to_string(d) + "_busy_cycles"] = e.desc_busy[d];
    p["desc" + std::to_string(d) + "_pe_busy_cycles"] = e.desc_pe_busy[d];
  }
  return p;
}

}  // namespace cosim::tb::tf2
