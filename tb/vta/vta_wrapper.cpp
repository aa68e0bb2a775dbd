#include "vta/vta_wrapper.hpp"

#include "common/error.hpp"

namespace cosim::tb::vta {

using namespace cosim::vta;  // the ISA, golden model and compiler by their own names

VtaWrapper::VtaWrapper(sc_core::sc_module_name name, const TbConfig& cfg, const VtaBuilds& builds)
    : AxiDutWrapper(name, cfg, kAxiDataBytes), core_(builds.pick(cfg.fast, !cfg.wave_file.empty()), axi_port(), [this] { tick(); }, &cfg),
      build_(builds.name(cfg.fast)) {
  // --wave: the core over vta_rtl_trace dumps the FST (tb/wave); over a
  // non-tracing variant the core refuses with an InputError.
}

VtaWrapper::~VtaWrapper() = default;

bool VtaWrapper::run(uint64_t max_cycles) {
  if (!core_.run(max_cycles)) {
    sync();
    return false;
  }
  // The host's view after the run: counters and, on error, ERR_INFO.
  perf_ = core_.read_perf(&vta_cycles_);
  if (core_.error()) error_ = "VTA " + describe_error(core_.reg_read(regs::kErrInfo));
  sync();
  return true;
}

std::string VtaWrapper::dut_diagnosis() const {
  const std::string note = core_.deadlock_note();
  return "VTA " + std::string(core_.error() ? "halted on its error flag" : note.empty() ? "did not finish" : note) +
         ": " + describe_status(core_.status());
}

std::map<std::string, uint64_t> VtaWrapper::dut_counters() const {
  std::map<std::string, uint64_t> m;
  if (perf_) {
    m = perf_map(*perf_);
    m["vta_cycles"] = vta_cycles_;
  }
  for (const auto& [k, v] : core_.wave_stats()) m[k] = v;  // wave_*: moved to report.json "wave"
  return m;
}

std::vector<std::string> VtaWrapper::dut_errors() const {
  if (error_.empty()) return {};
  return {error_ + "; state: " + describe_status(core_.status())};
}

namespace {
uint8_t reg_offset(uint32_t offset) {
  if (offset > 0xff) {  // vta_pkg::RegAddrWidth = 8
    throw InputError("vta: register offset " + std::to_string(offset) + " beyond the core's 8-bit register port");
  }
  return static_cast<uint8_t>(offset);
}
}  // namespace

uint32_t VtaWrapper::reg_read(uint32_t offset) { return core_.reg_read(reg_offset(offset)); }

void VtaWrapper::reg_write(uint32_t offset, uint32_t value) { core_.reg_write(reg_offset(offset), value); }

}  // namespace cosim::tb::vta
