// Verilator's headers go first: seen after <systemc> they switch to their
// SystemC mode, which the Verilated library was not built for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"  // inside Verilator's headers
#include <verilated.h>
#include <verilated_fst_c.h>

#include "Vtestdut.h"
#pragma GCC diagnostic pop
#include "wave/wave_tracer.hpp"
// (blank line keeps include sorters from moving the above)

#include <cstring>
#include <sstream>

#include "testdut/testdut_wrapper.hpp"

namespace cosim::testdut {

const char* state_name(unsigned state) {
  switch (state) {
    case 0: return "StIdle";
    case 1: return "StReadAddr";
    case 2: return "StReadData";
    case 3: return "StWriteAddr";
    case 4: return "StWriteData";
    case 5: return "StWriteResp";
  }
  return "StUnknown";
}

TestDutWrapper::TestDutWrapper(sc_core::sc_module_name name, const tb::TbConfig& cfg)
    : tb::DutWrapper(name, cfg), ctx_(std::make_unique<VerilatedContext>()) {
  wave_ = std::make_unique<wave::WaveTracer<Vtestdut>>(*ctx_, cfg, "testdut");
  m_ = std::make_unique<Vtestdut>(ctx_.get(), "testdut");
  wave_->attach(*m_);
  axi_ = std::make_unique<tb::TimedAxiSlave>(memory(), 8);
  // Reset: two cycles with rst_ni low (not counted as DUT cycles).
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
}

TestDutWrapper::~TestDutWrapper() {
  wave_->close();
  m_->final();
}

void TestDutWrapper::cycle() {
  tb::Axi4Pins p;
  axi_->drive(p);
  Vtestdut& m = *m_;
  m.m_axi_arready_i = p.arready;
  m.m_axi_rvalid_i = p.rvalid;
  uint64_t rdata = 0;
  std::memcpy(&rdata, p.rdata.data(), 8);
  m.m_axi_rdata_i = rdata;
  m.m_axi_rresp_i = p.rresp;
  m.m_axi_rlast_i = p.rlast;
  m.m_axi_awready_i = p.awready;
  m.m_axi_wready_i = p.wready;
  m.m_axi_bvalid_i = p.bvalid;
  m.m_axi_bresp_i = p.bresp;
  m.clk_i = 0;
  m.eval();
  const uint64_t now = cycles();
  wave_->sample(now, 0);
  p.arvalid = m.m_axi_arvalid_o;
  p.araddr = m.m_axi_araddr_o;
  p.arlen = m.m_axi_arlen_o;
  p.arsize = m.m_axi_arsize_o;
  p.arburst = m.m_axi_arburst_o;
  p.rready = m.m_axi_rready_o;
  p.awvalid = m.m_axi_awvalid_o;
  p.awaddr = m.m_axi_awaddr_o;
  p.awlen = m.m_axi_awlen_o;
  p.awsize = m.m_axi_awsize_o;
  p.awburst = m.m_axi_awburst_o;
  p.wvalid = m.m_axi_wvalid_o;
  const uint64_t wdata = m.m_axi_wdata_o;
  std::memcpy(p.wdata.data(), &wdata, 8);
  p.wstrb = m.m_axi_wstrb_o;
  p.wlast = m.m_axi_wlast_o;
  p.bready = m.m_axi_bready_o;
  axi_->tick(p);
  if (m.state_o != 0) ++busy_cycles_;
  m.clk_i = 1;
  m.eval();
  wave_->sample(now, 1);
  tick();
}

bool TestDutWrapper::run(uint64_t max_cycles) {
  const uint64_t end = cycles() + max_cycles;
  while (!m_->done_o) {
    if (cycles() >= end) {
      sync();
      return false;
    }
    cycle();
  }
  sync();
  return true;
}

uint32_t TestDutWrapper::reg_read(uint32_t offset) {
  m_->reg_valid_i = 1;
  m_->reg_write_i = 0;
  m_->reg_addr_i = static_cast<uint8_t>(offset);
  m_->eval();
  const uint32_t v = m_->reg_rdata_o;
  cycle();
  m_->reg_valid_i = 0;
  return v;
}

void TestDutWrapper::reg_write(uint32_t offset, uint32_t value) {
  m_->reg_valid_i = 1;
  m_->reg_write_i = 1;
  m_->reg_addr_i = static_cast<uint8_t>(offset);
  m_->reg_wdata_i = value;
  cycle();
  m_->reg_valid_i = 0;
  m_->reg_write_i = 0;
}

std::string TestDutWrapper::diagnosis() const {
  std::ostringstream os;
  os << "testdut stuck in state " << state_name(m_->state_o) << " with " << m_->beats_left_o
     << " beats left (done=" << static_cast<int>(m_->done_o) << ")";
  if (m_->state_o == 0 && !m_->done_o) os << ": idle and not done, the start bit was never written";
  os << "; " << axi_->state();
  return os.str();
}

std::map<std::string, uint64_t> TestDutWrapper::perf_counters() const {
  std::map<std::string, uint64_t> p = wave_->stats();  // wave_*: moved to report.json "wave"
  p.insert({{"busy_cycles", busy_cycles_},
            {"read_beats", axi_->model().read_beats()},
            {"write_beats", axi_->model().write_beats()},
            {"memory_wait_cycles", axi_->wait_cycles()}});
  return p;
}

std::vector<std::string> TestDutWrapper::errors() const {
  std::vector<std::string> e;
  for (const auto& s : axi_->model().protocol_errors()) e.push_back("AXI protocol: " + s);
  for (const auto& s : axi_->model().access_errors()) e.push_back("memory access: " + s);
  return e;
}

}  // namespace cosim::testdut
