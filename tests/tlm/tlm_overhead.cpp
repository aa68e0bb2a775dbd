// Measures the TLM layer's cost (DESIGN.md): the same DMA copy on the
// Verilated test DUT, (a) in a bare C++ clock loop with the AXI slave on a
// plain byte vector, (b) through simulate(): host player, register target,
// TimedAxiSlave, TlmMemoryPort (DMI), DRAM target, quantum keeper.
// Usage: tlm_overhead [MiB] [nodmi]   (not a test; prints simulated MHz of both)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <verilated.h>

#include "Vtestdut.h"
#pragma GCC diagnostic pop

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "axi/axi4_slave.hpp"
#include "axi/memory_port.hpp"
#include "testdut/testdut_wrapper.hpp"
#include "tlm/simulation.hpp"

namespace {

using Clock = std::chrono::steady_clock;

void step(Vtestdut& m, cosim::tb::Axi4SlaveModel& axi) {
  cosim::tb::Axi4Pins p;
  axi.drive(p);
  m.m_axi_arready_i = p.arready;
  m.m_axi_rvalid_i = p.rvalid;
  uint64_t rdata;
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
  axi.tick(p);
  m.clk_i = 1;
  m.eval();
}

}  // namespace

int main(int argc, char** argv) {
  const uint32_t bytes = (argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 8u) << 20;
  const uint32_t src = 0x100000, dst = src + bytes;

  // (a) bare loop
  uint64_t bare_cycles = 0;
  double bare_s = 0;
  {
    std::vector<uint8_t> image(dst + bytes, 1);
    cosim::tb::VectorMemory mem(image);
    cosim::tb::Axi4SlaveConfig cfg;
    cfg.data_bytes = 8;
    cosim::tb::Axi4SlaveModel axi(mem, cfg);
    VerilatedContext ctx;
    Vtestdut m(&ctx);
    m.rst_ni = 0;
    m.clk_i = 0;
    m.eval();
    m.clk_i = 1;
    m.eval();
    m.rst_ni = 1;
    auto reg = [&](uint8_t a, uint32_t v) {
      m.reg_valid_i = 1;
      m.reg_write_i = 1;
      m.reg_addr_i = a;
      m.reg_wdata_i = v;
      step(m, axi);
      m.reg_valid_i = 0;
    };
    reg(0x08, bytes);
    reg(0x0c, src);
    reg(0x10, dst);
    reg(0x00, 1);
    const auto t0 = Clock::now();
    while (!m.done_o) {
      step(m, axi);
      ++bare_cycles;
    }
    bare_s = std::chrono::duration<double>(Clock::now() - t0).count();
  }

  // (b) through the TLM testbench
  cosim::tb::TbConfig cfg;
  cfg.dram_latency = 0;
  cfg.dmi = !(argc > 2 && std::string(argv[2]) == "nodmi");
  cfg.dram_size = dst + bytes;
  cosim::trace::Trace t;
  t.target = "testdut";
  t.mem_load(src, std::vector<uint8_t>(bytes, 1));
  t.reg_write(0x08, bytes);
  t.reg_write(0x0c, src);
  t.reg_write(0x10, dst);
  t.reg_write(0x00, 1);
  t.wait_done(1ull << 40);
  const auto out = cosim::tb::simulate(
      t, cfg,
      [](const char* name, const cosim::tb::TbConfig& c) {
        return std::make_unique<cosim::testdut::TestDutWrapper>(name, c);
      },
      std::filesystem::temp_directory_path().string());
  std::printf("copy of %u MiB on the test DMA (8-byte beats), DMI %s\n", bytes >> 20, cfg.dmi ? "on" : "off");
  std::printf("  bare C++ loop   : %llu cycles in %.3f s = %.2f MHz\n", static_cast<unsigned long long>(bare_cycles),
              bare_s, bare_cycles / bare_s / 1e6);
  std::printf("  TLM testbench   : %llu cycles in %.3f s = %.2f MHz (whole simulate(), incl. elaboration and load)\n",
              static_cast<unsigned long long>(out.cycles), out.wall_seconds, out.cycles / out.wall_seconds / 1e6);
  std::printf("  cost of the TLM layer: %.2fx\n", (bare_cycles / bare_s) / (out.cycles / out.wall_seconds));
  return 0;
}
