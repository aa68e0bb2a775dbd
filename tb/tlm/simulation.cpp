#include "tlm/simulation.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>

namespace cosim::tb {

SimOutcome simulate(const trace::Trace& trace, const TbConfig& cfg, const DutFactory& make_dut,
                    const std::string& out_dir, WriteLog* log, std::optional<timeline::Timeline>* timeline_on_error) {
  if (sc_core::sc_get_status() != sc_core::SC_ELABORATION || sc_core::sc_time_stamp() != sc_core::SC_ZERO_TIME) {
    throw std::logic_error("cosim::tb::simulate: one SystemC simulation per process");
  }
  // Info messages (deprecation notes, sc_stop) are noise in a tool's output.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  const auto t0 = std::chrono::steady_clock::now();
  DramTarget dram("dram", cfg);
  std::unique_ptr<DutWrapper> dut = make_dut("dut", cfg);
  dut->set_target_name(trace.target);
  HostPlayer host("host", trace, *dut, out_dir);
  dut->mem_socket.bind(dram.socket);  // first: timing stream 0 (see DutWrapper::memory)
  host.mem_socket.bind(dram.socket);
  host.reg_socket.bind(dut->reg_socket);
  if (log != nullptr) dut->set_write_log(log);
  if (cfg.timeline_changes && dut->timeline() != nullptr) {
    // The wrapper owns its timeline and hands it out read-only; keeping its
    // changes (for a split run's merge) does not change what it records.
    const_cast<timeline::Timeline*>(dut->timeline())->keep_changes();
  }
  sc_core::sc_start();
  SimOutcome out;
  out.trace_config = trace.config;
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (host.error()) {
    if (timeline_on_error != nullptr && dut->timeline() != nullptr) *timeline_on_error = *dut->timeline();
    std::rethrow_exception(host.error());
  }
  if (!host.finished()) throw std::logic_error("simulation ended before the trace finished");
  out.play = host.result();
  if (log != nullptr) {
    for (CheckCapture& c : out.play.checks)
      if (c.base_addr) c.last_write_cycle = log->last_write(*c.base_addr, c.desc.memory_bytes());
  }
  out.cycles = dut->cycles();
  out.perf = dut->perf_counters();
  out.build = dut->build();
  if (const timeline::Timeline* t = dut->timeline()) out.timeline = *t;
  out.dut_errors = dut->errors();
  // Packets the DUT framed otherwise than a check of packets expects: the DUT's doing too.
  out.dut_errors.insert(out.dut_errors.end(), out.play.framing_errors.begin(), out.play.framing_errors.end());
  out.dram = dram.stats();
  out.memory = dut->memory_stats();
  out.memory_wait_cycles = dut->memory_wait_cycles();
  out.sim_time_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  return out;
}

}  // namespace cosim::tb
