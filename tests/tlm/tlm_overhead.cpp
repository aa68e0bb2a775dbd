// Measures the TLM layer's cost (DESIGN.md): the same int8 vector add on the
// Verilated test DUT (the build's instance of templates/dut), (a) in a bare C++ clock loop with the AXI slave on a
// plain byte vector, (b) through simulate(): host player, register target,
// TimedAxiSlave, TlmMemoryPort (DMI), DRAM target, quantum keeper.
// Usage: tlm_overhead [MiB] [nodmi]   (not a test; prints simulated MHz of both)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <verilated.h>

#include "Vtestdut_rtl.h"
#pragma GCC diagnostic pop
#include "harness/axi_master_binder.hpp"
#include "harness/control.hpp"
#include "harness/core.hpp"
#include "dut/testdut_pins.hpp"
#include "dut/testdut_regs.hpp"
#include "testdut/testdut_status.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "axi/axi4_slave.hpp"
#include "axi/memory_port.hpp"
#include "testdut/testdut_wrapper.hpp"
#include "tlm/simulation.hpp"


namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

int main(int argc, char** argv) {
  const uint32_t bytes = (argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 8u) << 20;
  const uint32_t src = 0x100000, src_b = src + bytes, dst = src_b + bytes;
  namespace regs = cosim::testdut::regs;

  // (a) bare loop
  uint64_t bare_cycles = 0;
  double bare_s = 0;
  {
    std::vector<uint8_t> image(dst + bytes, 1);
    cosim::tb::VectorMemory mem(image);
    cosim::tb::Axi4SlaveConfig cfg;
    cfg.data_bytes = 8;
    cosim::tb::Axi4SlaveModel axi(mem, cfg);
    namespace h = cosim::tb::harness;
    h::AxiSlaveRef<cosim::tb::Axi4SlaveModel> slave(axi);
    h::AxiMasterBinder<Vtestdut_rtl, cosim::testdut::pins::Mem> pins(slave);
    h::ControlBinder<Vtestdut_rtl, cosim::testdut::pins::Top> ctrl;
    h::Core<Vtestdut_rtl, cosim::tb::testdut::Status, cosim::testdut::pins::Top> core("testdut", nullptr, {&ctrl});
    core.add_port(pins);
    core.start_timeline();
    ctrl.write(core, regs::kLength, bytes);
    ctrl.write(core, regs::kSrcA, src);
    ctrl.write(core, regs::kSrcB, src_b);
    ctrl.write(core, regs::kDst, dst);
    ctrl.write(core, regs::kControl, regs::control::kStartMask);
    const uint64_t start = core.time();
    const auto t0 = Clock::now();
    core.run(UINT64_MAX - core.cycles());
    bare_cycles = core.time() - start;
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
  t.mem_load(src_b, std::vector<uint8_t>(bytes, 2));
  t.reg_write(regs::kLength, bytes);
  t.reg_write(regs::kSrcA, src);
  t.reg_write(regs::kSrcB, src_b);
  t.reg_write(regs::kDst, dst);
  t.reg_write(regs::kControl, regs::control::kStartMask);
  t.wait_done(1ull << 40);
  const auto out = cosim::tb::simulate(
      t, cfg,
      [](const char* name, const cosim::tb::TbConfig& c) {
        return std::make_unique<cosim::tb::testdut::Wrapper>(name, c, cosim::tb::testdut::Over<Vtestdut_rtl>::build());
      },
      std::filesystem::temp_directory_path().string());
  std::printf("vector add of 2 x %u MiB on testdut (8-byte beats), DMI %s\n", bytes >> 20, cfg.dmi ? "on" : "off");
  std::printf("  bare C++ loop   : %llu cycles in %.3f s = %.2f MHz\n", static_cast<unsigned long long>(bare_cycles),
              bare_s, bare_cycles / bare_s / 1e6);
  std::printf("  TLM testbench   : %llu cycles in %.3f s = %.2f MHz (whole simulate(), incl. elaboration and load)\n",
              static_cast<unsigned long long>(out.cycles), out.wall_seconds, out.cycles / out.wall_seconds / 1e6);
  std::printf("  cost of the TLM layer: %.2fx\n", (bare_cycles / bare_s) / (out.cycles / out.wall_seconds));
  return 0;
}
