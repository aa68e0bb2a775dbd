// Verilator's headers go first: seen after <systemc> they switch to their
// SystemC mode, which the Verilated library was not built for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"  // inside Verilator's headers
#include <verilated.h>
#include <verilated_fst_c.h>

#include "Vtf2_top.h"
#pragma GCC diagnostic pop
#include "wave/wave_tracer.hpp"
// (blank line keeps include sorters from moving the above)

#include <sstream>

#include "tf2/tf2_wrapper.hpp"
#include "tf2_bare/tf2_bare.hpp"
#include "tf2_bare/tf2_pins.hpp"

namespace cosim::tf2 {

namespace reg = tb::tf2_reg;

const char* controller_state_name(unsigned s) {
  static const char* const k[] = {"StIdle", "StFetch", "StFetchWait", "StCheck", "StRun", "StDrain", "StDone"};
  return s < 7 ? k[s] : "StUnknown";
}
const char* filter_loader_state_name(unsigned s) {
  static const char* const k[] = {"StIdle", "StPrmCmd", "StPrm", "StWgtCmd", "StWgt"};
  return s < 5 ? k[s] : "StUnknown";
}
const char* writer_state_name(unsigned s) {
  static const char* const k[] = {"StIdle", "StResCmd", "StRes", "StAw", "StW"};
  return s < 5 ? k[s] : "StUnknown";
}
const char* error_code_name(unsigned c) {
  static const char* const k[] = {"none", "invalid weight code 1111", "descriptor malformed or too large",
                                  "AXI read error response", "AXI write error response"};
  return c < 5 ? k[c] : "unknown";
}

Tf2Wrapper::Tf2Wrapper(sc_core::sc_module_name name, const tb::TbConfig& cfg)
    : tb::DutWrapper(name, cfg), ctx_(std::make_unique<VerilatedContext>()) {
  wave_ = std::make_unique<wave::WaveTracer<Vtf2_top>>(*ctx_, cfg, "tf2");
  m_ = std::make_unique<Vtf2_top>(ctx_.get(), "tf2");
  wave_->attach(*m_);
  axi_ = std::make_unique<tb::TimedAxiSlave>(memory(), static_cast<uint32_t>(tb::tf2_pins::kBeatBytes));
  // Reset: two cycles with rst_ni low, then the build's parameters from the
  // registers (neither counted as DUT cycles; the AXI slave is not involved).
  m_->rst_ni = 0;
  m_->reg_valid_i = 0;
  for (int i = 0; i < 2; ++i) {
    m_->clk_i = 0;
    m_->eval();
    m_->clk_i = 1;
    m_->eval();
  }
  m_->rst_ni = 1;
  m_->clk_i = 0;
  m_->eval();
  const uint32_t c = reset_read(reg::kConfig);
  hw_.n_pe = c & 0xFF;
  hw_.ocol3d = (c >> 8) & 0xFF;
  hw_.ktap = (c >> 16) & 0xFF;
  hw_.ocol2d = c >> 24;
  hw_.feat_depth = reset_read(reg::kFeatDepth);
  hw_.filt_depth = reset_read(reg::kFiltDepth);
}

Tf2Wrapper::~Tf2Wrapper() {
  wave_->close();
  m_->final();
}

uint32_t Tf2Wrapper::reset_read(uint32_t offset) {
  m_->reg_valid_i = 1;
  m_->reg_write_i = 0;
  m_->reg_addr_i = static_cast<uint8_t>(offset);
  m_->clk_i = 1;
  m_->eval();
  m_->reg_valid_i = 0;
  m_->clk_i = 0;
  m_->eval();
  return m_->reg_rsp_rdata_o;
}

void Tf2Wrapper::cycle() {
  tb::Axi4Pins p;
  axi_->drive(p);
  Vtf2_top& m = *m_;
  tb::tf2_pins::to_dut(m, p);
  m.clk_i = 0;
  m.eval();
  const uint64_t now = cycles();
  wave_->sample(now, 0);
  tb::tf2_pins::from_dut(m, p);
  axi_->tick(p);
  // The cycle's events, as the DUT's own counters see them at this edge.
  if (m.busy_o) ++busy_cycles_;
  if (m.ev_pe_busy_o) ++pe_busy_;
  if (m.ev_filt_wait_o) ++filt_wait_;
  if (m.ev_out_wait_o) ++out_wait_;
  m.clk_i = 1;
  m.eval();
  wave_->sample(now, 1);
  tick();
}

bool Tf2Wrapper::run(uint64_t max_cycles) {
  const uint64_t end = cycles() + max_cycles;
  while (!m_->done_o) {
    if (cycles() >= end) {
      sync();
      return false;
    }
    cycle();
  }
  if (started_) {
    started_ = false;
    ++runs_;
    if (m_->error_o) {
      const uint32_t info = m_->err_info_o;
      std::ostringstream os;
      os << "tf2 engine error code " << (info & 0xF) << " (" << error_code_name(info & 0xF) << ") at descriptor "
         << (info >> 16) << " of run " << runs_;
      dut_errors_.push_back(os.str());
    }
  }
  sync();
  return true;
}

uint32_t Tf2Wrapper::reg_read(uint32_t offset) {
  m_->reg_valid_i = 1;
  m_->reg_write_i = 0;
  m_->reg_addr_i = static_cast<uint8_t>(offset);
  cycle();  // the response is registered at this edge
  m_->reg_valid_i = 0;
  return m_->reg_rsp_rdata_o;
}

void Tf2Wrapper::reg_write(uint32_t offset, uint32_t value) {
  if (offset == reg::kDescAddr) desc_addr_ = value;
  if (offset == reg::kDescCount) desc_count_ = value;
  if (offset == reg::kCtrl && (value & reg::kCtrlStart) && !m_->busy_o) started_ = true;
  m_->reg_valid_i = 1;
  m_->reg_write_i = 1;
  m_->reg_addr_i = static_cast<uint8_t>(offset);
  m_->reg_wdata_i = value;
  cycle();
  m_->reg_valid_i = 0;
  m_->reg_write_i = 0;
}

std::string Tf2Wrapper::diagnosis() const {
  const Vtf2_top& m = *m_;
  std::ostringstream os;
  const unsigned cs = m.dbg_ctrl_state_o;
  os << "tf2 controller in " << controller_state_name(cs) << " at descriptor " << m.dbg_desc_idx_o << " of "
     << desc_count_ << " (DESC_ADDR 0x" << std::hex << desc_addr_ << std::dec << ")";
  if (cs == 0 && !m.done_o) {
    os << ": idle and not done, the start bit was never written";
  } else {
    os << ", input map " << (m.dbg_feat_loaded_o ? "loaded" : "loading") << ", next output group "
       << m.dbg_group_o << ", filter loader " << filter_loader_state_name(m.dbg_filt_state_o) << ", scheduler "
       << (m.dbg_sched_idle_o ? "idle" : "busy") << ", writer " << writer_state_name(m.dbg_wr_state_o)
       << ", read arbiter ";
    static const char* const kClients[] = {"descriptor fetch", "feature loader", "filter loader", "writer residual"};
    if (m.dbg_rd_busy_o) os << "burst in flight for the " << kClients[m.dbg_rd_owner_o & 3];
    else os << "free";
  }
  os << "; " << axi_->state();
  return os.str();
}

std::map<std::string, uint64_t> Tf2Wrapper::perf_counters() const {
  std::map<std::string, uint64_t> p = wave_->stats();  // wave_*: moved to report.json "wave"
  p.insert({{"busy_cycles", busy_cycles_},
          {"pe_busy_cycles", pe_busy_},
          {"filter_wait_cycles", filt_wait_},
          {"output_wait_cycles", out_wait_},
          {"runs", runs_},
          {"read_beats", axi_->model().read_beats()},
          {"write_beats", axi_->model().write_beats()},
          {"memory_wait_cycles", axi_->wait_cycles()},
          {"cfg_n_pe", hw_.n_pe},
          {"cfg_ocol3d", hw_.ocol3d},
          {"cfg_ktap", hw_.ktap},
          {"cfg_ocol2d", hw_.ocol2d}});
  return p;
}

std::vector<std::string> Tf2Wrapper::errors() const {
  std::vector<std::string> e;
  for (const auto& s : axi_->model().protocol_errors()) e.push_back("AXI protocol: " + s);
  for (const auto& s : axi_->model().access_errors()) e.push_back("memory access: " + s);
  for (const auto& s : dut_errors_) e.push_back(s);
  return e;
}

}  // namespace cosim::tf2
