#include "vta_bare/vta_core.hpp"

#include <sstream>

// Verilator's headers are not -Wextra clean; they are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vvta_top.h"
#include "verilated.h"
#pragma GCC diagnostic pop
#include "harness/core.hpp"

namespace cosim::vta {

namespace {

const char* const kErrNames[] = {"none",
                                 "undefined opcode",
                                 "undefined memory type",
                                 "instruction address not 16-byte aligned",
                                 "LOAD/STORE SRAM range beyond the buffer",
                                 "uop_end beyond the UOP buffer",
                                 "ACC index out of range",
                                 "INP index out of range",
                                 "WGT index out of range",
                                 "AXI error response (DRAM access out of range)"};
const char* const kEngineNames[] = {"FETCH", "LOAD", "COMPUTE", "STORE"};
const char* const kOpNames[] = {"LOAD", "STORE", "GEMM", "FINISH", "ALU", "op5", "op6", "op7"};

}  // namespace

PerfCounters perf_from_registers(const uint32_t (&regs)[kNumPerf]) {
  PerfCounters p;
  p.gemm_busy = regs[0];
  p.alu_busy = regs[1];
  p.load_bytes = regs[2];
  p.load_busy = regs[3];
  p.store_bytes = regs[4];
  p.store_busy = regs[5];
  p.stall_load_to_compute = regs[6];
  p.stall_compute_to_load = regs[7];
  p.stall_compute_to_store = regs[8];
  p.stall_store_to_compute = regs[9];
  p.compute_load_bytes = regs[10];
  p.compute_load_busy = regs[11];
  return p;
}

std::map<std::string, uint64_t> perf_map(const PerfCounters& p) {
  return {{"gemm_busy", p.gemm_busy},
          {"alu_busy", p.alu_busy},
          {"load_bytes", p.load_bytes},
          {"load_busy", p.load_busy},
          {"store_bytes", p.store_bytes},
          {"store_busy", p.store_busy},
          {"stall_load_to_compute", p.stall_load_to_compute},
          {"stall_compute_to_load", p.stall_compute_to_load},
          {"stall_compute_to_store", p.stall_compute_to_store},
          {"stall_store_to_compute", p.stall_store_to_compute},
          {"compute_load_bytes", p.compute_load_bytes},
          {"compute_load_busy", p.compute_load_busy}};
}

uint32_t StatusVector::bits(unsigned lo, unsigned n) const {
  uint32_t v = 0;
  for (unsigned i = 0; i < n; ++i) v |= ((w[(lo + i) / 32] >> ((lo + i) % 32)) & 1u) << i;
  return v;
}

std::string describe_status(const StatusVector& s) {
  std::ostringstream d;
  static const char* const kToken[4] = {"load->compute", "compute->load", "compute->store", "store->compute"};
  const uint32_t tok[4] = {s.bits(56, 8), s.bits(64, 8), s.bits(72, 8), s.bits(80, 8)};
  struct Eng {
    const char* name;
    uint32_t state, op, pops, queue;
    int prev_tok, next_tok;  // token queue index popped by pop_prev / pop_next, -1 = ignored
  };
  const Eng engines[3] = {
      {"LOAD", s.bits(0, 2), s.bits(47, 3), s.bits(41, 2), s.bits(88, 8), -1, 1},
      {"COMPUTE", s.bits(2, 2), s.bits(50, 3), s.bits(43, 2), s.bits(96, 8), 0, 3},
      {"STORE", s.bits(4, 2), s.bits(53, 3), s.bits(45, 2), s.bits(104, 8), 2, -1},
  };
  bool any_stuck = false;
  for (const Eng& e : engines) {
    if (e.state == 1) {  // EngWait
      any_stuck = true;
      d << e.name << " holds " << kOpNames[e.op & 7] << " waiting on token queue";
      bool first = true;
      if ((e.pops & 1) && e.prev_tok >= 0 && tok[e.prev_tok] == 0) {
        d << " " << kToken[e.prev_tok] << " (pop_prev_dep, 0 tokens)";
        first = false;
      }
      if ((e.pops & 2) && e.next_tok >= 0 && tok[e.next_tok] == 0) {
        d << (first ? " " : " and ") << kToken[e.next_tok] << " (pop_next_dep, 0 tokens)";
      }
      d << "; ";
    } else if (e.state == 2) {
      any_stuck = true;
      d << e.name << " busy executing " << kOpNames[e.op & 7] << "; ";
    } else {
      d << e.name << " idle; ";
    }
  }
  if (!any_stuck) d << "no engine holds an instruction; ";
  d << "instruction queues: load " << engines[0].queue << ", compute " << engines[1].queue << ", store "
    << engines[2].queue << "; tokens:";
  for (int i = 0; i < 4; ++i) d << " " << kToken[i] << "=" << tok[i];
  d << "; fetch: " << s.bits(112, 16) << " instruction(s) not yet routed, " << s.bits(24, 8) << " buffered";
  return d.str();
}

std::string describe_error(uint32_t err_info) {
  const uint32_t code = err_info & 0xf;
  const uint32_t engine = (err_info >> 4) & 0x3;
  std::ostringstream d;
  d << "error flag set by " << kEngineNames[engine] << ": "
    << (code < sizeof(kErrNames) / sizeof(kErrNames[0]) ? kErrNames[code] : "unknown error") << " (code " << code
    << ")";
  return d.str();
}

}  // namespace cosim::vta

namespace cosim::tb::vta {

namespace {
StatusVector status_of(const Vvta_top& t) {
  StatusVector s;
  for (int i = 0; i < 4; ++i) s.w[i] = t.status_o[i];
  return s;
}

// FINISH, the error flag, the debug status vector.
struct VtaStatus {
  static bool done(const Vvta_top& t) { return t.done_o != 0; }
  static bool error(const Vvta_top& t) { return t.error_o != 0; }
  static std::string diagnosis(const Vvta_top& t) { return describe_status(status_of(t)); }
};
}  // namespace

struct VtaCore::Impl {
  harness::AxiMasterBinder<Vvta_top> axi;
  harness::Core<Vvta_top, VtaStatus> core;
  static_assert(harness::AxiMasterBinder<Vvta_top>::kDataBytes == kAxiDataBytes);

  Impl(harness::AxiSlavePort& s, const TbConfig* wave) : axi(s), core("vta", wave) { core.add_port(axi); }
};

VtaCore::VtaCore(harness::AxiSlavePort& slave, std::function<void()> after_cycle, const TbConfig* wave)
    : impl_(std::make_unique<Impl>(slave, wave)) {
  impl_->core.start_timeline(std::move(after_cycle));
}

VtaCore::~VtaCore() = default;

void VtaCore::cycle() { impl_->core.cycle(); }

std::map<std::string, uint64_t> VtaCore::wave_stats() const { return impl_->core.wave_stats(); }

uint32_t VtaCore::reg_read(uint8_t addr) { return impl_->core.reg_read(addr); }
void VtaCore::reg_write(uint8_t addr, uint32_t data) { impl_->core.reg_write(addr, data); }

void VtaCore::start(uint32_t insn_addr, uint32_t insn_count) {
  reg_write(kRegInsnCount, insn_count);
  reg_write(kRegInsnAddr, insn_addr);
  reg_write(kRegCtrl, 0x3);  // start, clear done
}

PerfCounters VtaCore::read_perf(uint64_t* cycles_reg) {
  if (cycles_reg != nullptr) *cycles_reg = reg_read(kRegCycles);
  uint32_t regs[kNumPerf];
  for (int i = 0; i < kNumPerf; ++i) regs[i] = reg_read(static_cast<uint8_t>(kRegPerfBase + 4 * i));
  return perf_from_registers(regs);
}

bool VtaCore::done() const { return impl_->core.done(); }
bool VtaCore::error() const { return impl_->core.error(); }

StatusVector VtaCore::status() const { return status_of(impl_->core.model()); }

bool VtaCore::run(uint64_t max_cycles) { return impl_->core.run(max_cycles); }

uint64_t VtaCore::cycles() const { return impl_->core.cycles(); }

}  // namespace cosim::tb::vta
