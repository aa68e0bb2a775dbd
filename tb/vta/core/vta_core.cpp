#include "vta/core/vta_core.hpp"

#include <sstream>

#include "vta/core/vta_core_model.hpp"  // VtaCore::Impl (no model class)

namespace cosim::tb::vta {

namespace {
// Every counter once: its report name, its field and its register (the perf
// group of the manifest).
struct PerfField {
  const char* name;
  uint64_t PerfCounters::*field;
  uint32_t offset;
};
constexpr PerfField kPerfFields[] = {
    {"gemm_busy", &PerfCounters::gemm_busy, regs::kGemmBusy},
    {"alu_busy", &PerfCounters::alu_busy, regs::kAluBusy},
    {"load_bytes", &PerfCounters::load_bytes, regs::kLoadBytes},
    {"load_busy", &PerfCounters::load_busy, regs::kLoadBusy},
    {"store_bytes", &PerfCounters::store_bytes, regs::kStoreBytes},
    {"store_busy", &PerfCounters::store_busy, regs::kStoreBusy},
    {"stall_load_to_compute", &PerfCounters::stall_load_to_compute, regs::kStallL2c},
    {"stall_compute_to_load", &PerfCounters::stall_compute_to_load, regs::kStallC2l},
    {"stall_compute_to_store", &PerfCounters::stall_compute_to_store, regs::kStallC2s},
    {"stall_store_to_compute", &PerfCounters::stall_store_to_compute, regs::kStallS2c},
    {"compute_load_bytes", &PerfCounters::compute_load_bytes, regs::kCloadBytes},
    {"compute_load_busy", &PerfCounters::compute_load_busy, regs::kCloadBusy},
};
}  // namespace

PerfCounters perf_from_registers(const uint32_t (&values)[kNumPerf]) {
  PerfCounters p;
  for (const PerfField& f : kPerfFields) p.*f.field = values[(f.offset - regs::kPerfBase) / 4];
  return p;
}

std::map<std::string, uint64_t> perf_map(const PerfCounters& p) {
  std::map<std::string, uint64_t> m;
  for (const PerfField& f : kPerfFields) m[f.name] = p.*f.field;
  return m;
}

std::string describe_status(const StatusVector& sv) {
  const regs::Status s = regs::decode_status(sv.w);
  std::ostringstream d;
  static const char* const kToken[4] = {"load->compute", "compute->load", "compute->store", "store->compute"};
  const uint64_t tok[4] = {s.tok_l2c, s.tok_c2l, s.tok_c2s, s.tok_s2c};
  struct Eng {
    const char* name;
    uint64_t state, op, pops, queue;
    int prev_tok, next_tok;  // token queue index popped by pop_prev / pop_next, -1 = ignored
  };
  const Eng engines[3] = {
      {"LOAD", s.load_state, s.load_op, s.load_pops, s.load_q, -1, 1},
      {"COMPUTE", s.compute_state, s.compute_op, s.compute_pops, s.compute_q, 0, 3},
      {"STORE", s.store_state, s.store_op, s.store_pops, s.store_q, 2, -1},
  };
  bool any_stuck = false;
  for (const Eng& e : engines) {
    const std::string op = regs::opcode_e::show(e.op, true);
    if (e.state == regs::eng_state_e::kEngWait) {
      any_stuck = true;
      d << e.name << " holds " << op << " waiting on token queue";
      bool first = true;
      if ((e.pops & 1) && e.prev_tok >= 0 && tok[e.prev_tok] == 0) {
        d << " " << kToken[e.prev_tok] << " (pop_prev_dep, 0 tokens)";
        first = false;
      }
      if ((e.pops & 2) && e.next_tok >= 0 && tok[e.next_tok] == 0) {
        d << (first ? " " : " and ") << kToken[e.next_tok] << " (pop_next_dep, 0 tokens)";
      }
      d << "; ";
    } else if (e.state == regs::eng_state_e::kEngBusy) {
      any_stuck = true;
      d << e.name << " busy executing " << op << "; ";
    } else {
      d << e.name << " idle; ";
    }
  }
  if (!any_stuck) d << "no engine holds an instruction; ";
  d << "instruction queues: load " << s.load_q << ", compute " << s.compute_q << ", store " << s.store_q
    << "; tokens:";
  for (int i = 0; i < 4; ++i) d << " " << kToken[i] << "=" << tok[i];
  d << "; fetch: " << s.fetch_remaining << " instruction(s) not yet fetched, " << s.fetch_q
    << " fetched and not yet routed";
  return d.str();
}

std::string describe_error(uint32_t err_info) {
  namespace f = regs::err_info;
  const uint32_t code = (err_info & f::kCodeMask) >> f::kCodeLsb;
  const uint32_t engine = (err_info & f::kEngineMask) >> f::kEngineLsb;
  std::ostringstream d;
  d << "error flag set by " << regs::engine_e::show(engine, true) << ": "
    << regs::err_e::show(code, true) << " (code " << code << ")";
  return d.str();
}


VtaCore::VtaCore(const Build& build, harness::AxiSlavePort& slave, std::function<void()> after_cycle,
                 const TbConfig* wave)
    : CoreHandle(build.variant, build.make(slave, wave)) {
  start_timeline(std::move(after_cycle));
}

VtaCore::~VtaCore() = default;

void VtaCore::start(uint32_t insn_addr, uint32_t insn_count) {
  reg_write(regs::kInsnCount, insn_count);
  reg_write(regs::kInsnAddr, insn_addr);
  reg_write(regs::kCtrl, regs::ctrl::kStartMask | regs::ctrl::kDoneMask);  // start, clear done
}

PerfCounters VtaCore::read_perf(uint64_t* cycles_reg) {
  if (cycles_reg != nullptr) *cycles_reg = reg_read(regs::kCycles);
  uint32_t values[kNumPerf];
  for (int i = 0; i < kNumPerf; ++i) values[i] = reg_read(static_cast<uint8_t>(regs::kPerfBase + 4 * i));
  return perf_from_registers(values);
}

bool VtaCore::done() const { return seam<Impl>().done(); }
bool VtaCore::error() const { return seam<Impl>().error(); }

StatusVector VtaCore::status() const { return seam<Impl>().status(); }
std::string VtaCore::deadlock_note() const { return seam<Impl>().deadlock_note(); }

}  // namespace cosim::tb::vta
