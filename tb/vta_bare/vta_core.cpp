#include "vta_bare/vta_core.hpp"

#include <sstream>

#include "common/error.hpp"
#include "coverage/rtl_coverage.hpp"
#include "rtl_assert/rtl_assert.hpp"

// Verilator's headers are not -Wextra clean; they are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vvta_top.h"
#include "verilated.h"
#pragma GCC diagnostic pop
#include "tlm/tb_config.hpp"
#include "wave/wave_tracer.hpp"

namespace cosim::vta {

namespace {

constexpr uint32_t kDataWords = kAxiDataBytes / 4;

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

struct VtaCore::Impl {
  AxiSlavePort& slave;
  std::function<void()> after_cycle;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<wave::WaveTracer<Vvta_top>> wave;  // FST window + view (tb/wave), before the model
  std::unique_ptr<Vvta_top> top;
  tb::Axi4Pins pins;
  uint64_t cycles = 0;
  uint64_t dut_cycle = 0;  // cycles after reset (the wrapper's count)
  bool req_fire = false;  // the register request handshake of the last cycle

  Impl(AxiSlavePort& s, std::function<void()> cb, const tb::TbConfig& wave_cfg)
      : slave(s),
        after_cycle(std::move(cb)),
        ctx(std::make_unique<VerilatedContext>()),
        wave(std::make_unique<wave::WaveTracer<Vvta_top>>(*ctx, wave_cfg, "vta")),
        top(std::make_unique<Vvta_top>(ctx.get(), "vta")) {
    wave->attach(*top);
    tb::catch_rtl_assertions(*ctx);  // an assertion failure throws, naming the cycle
  }

  void cycle() {
    Vvta_top& t = *top;
    slave.drive(pins);
    t.m_axi_arready_i = pins.arready;
    t.m_axi_rvalid_i = pins.rvalid;
    if (pins.rvalid) {
      for (uint32_t i = 0; i < kDataWords; ++i) {
        const uint8_t* b = &pins.rdata[4 * i];
        t.m_axi_rdata_i[i] = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24);
      }
      t.m_axi_rresp_i = pins.rresp;
      t.m_axi_rlast_i = pins.rlast;
      t.m_axi_rid_i = pins.rid;
    }
    t.m_axi_awready_i = pins.awready;
    t.m_axi_wready_i = pins.wready;
    t.m_axi_bvalid_i = pins.bvalid;
    t.m_axi_bresp_i = pins.bresp;
    t.m_axi_bid_i = pins.bid;

    t.clk_i = 0;
    t.eval();
    if (after_cycle) wave->sample(dut_cycle, 0);  // reset cycles are not dumped

    pins.arvalid = t.m_axi_arvalid_o;
    pins.araddr = t.m_axi_araddr_o;
    pins.arlen = t.m_axi_arlen_o;
    pins.arsize = t.m_axi_arsize_o;
    pins.arburst = t.m_axi_arburst_o;
    pins.arid = t.m_axi_arid_o;
    pins.rready = t.m_axi_rready_o;
    pins.awvalid = t.m_axi_awvalid_o;
    pins.awaddr = t.m_axi_awaddr_o;
    pins.awlen = t.m_axi_awlen_o;
    pins.awsize = t.m_axi_awsize_o;
    pins.awburst = t.m_axi_awburst_o;
    pins.awid = t.m_axi_awid_o;
    pins.wvalid = t.m_axi_wvalid_o;
    if (pins.wvalid) {
      for (uint32_t i = 0; i < kDataWords; ++i) {
        const uint32_t w = t.m_axi_wdata_o[i];
        for (int k = 0; k < 4; ++k) pins.wdata[4 * i + k] = static_cast<uint8_t>(w >> (8 * k));
      }
      pins.wstrb = t.m_axi_wstrb_o;
      pins.wlast = t.m_axi_wlast_o;
    }
    pins.bready = t.m_axi_bready_o;
    req_fire = t.reg_req_valid_i && t.reg_req_ready_o;
    slave.tick(pins);

    t.clk_i = 1;
    ctx->time(cycles + 1);  // Verilator's assertion messages print this cycle number
    t.eval();
    ++cycles;
    if (after_cycle) wave->sample(dut_cycle++, 1);
    tb::check_rtl_assertions(*ctx, "vta", cycles);
    if (after_cycle) after_cycle();
  }
};

VtaCore::VtaCore(AxiSlavePort& slave, std::function<void()> after_cycle, const tb::TbConfig* wave)
    : impl_(std::make_unique<Impl>(slave, std::function<void()>{}, wave ? *wave : tb::TbConfig{})) {
  Vvta_top& t = *impl_->top;
  t.reg_req_valid_i = 0;
  t.reg_rsp_ready_i = 1;
  t.rst_ni = 0;
  t.clk_i = 0;
  t.eval();
  for (int i = 0; i < 4; ++i) impl_->cycle();
  t.rst_ni = 1;
  impl_->cycle();
  impl_->after_cycle = std::move(after_cycle);  // reset is not DUT time
}

VtaCore::~VtaCore() {
  if (impl_) {
    tb::before_model_destruction(*impl_->ctx);
    impl_->wave->close();
    impl_->top->final();
    tb::write_rtl_coverage(*impl_->ctx, "vta");
  }
}

void VtaCore::cycle() { impl_->cycle(); }

std::map<std::string, uint64_t> VtaCore::wave_stats() const { return impl_->wave->stats(); }

uint32_t VtaCore::reg_access(bool write, uint8_t addr, uint32_t data) {
  Impl& m = *impl_;
  Vvta_top& t = *m.top;
  t.reg_req_valid_i = 1;
  t.reg_req_write_i = write;
  t.reg_req_addr_i = addr;
  t.reg_req_wdata_i = data;
  t.reg_rsp_ready_i = 1;
  for (int n = 0; n < 100; ++n) {
    m.cycle();
    if (m.req_fire) break;
  }
  t.reg_req_valid_i = 0;
  for (int n = 0; n < 100; ++n) {
    if (t.reg_rsp_valid_o) {
      const uint32_t v = t.reg_rsp_rdata_o;
      m.cycle();  // the response is taken at this edge
      return v;
    }
    m.cycle();
  }
  throw cosim::TimeoutError("VTA register port did not answer (address " + std::to_string(addr) + ")");
}

void VtaCore::start(uint32_t insn_addr, uint32_t insn_count) {
  reg_access(true, kRegInsnCount, insn_count);
  reg_access(true, kRegInsnAddr, insn_addr);
  reg_access(true, kRegCtrl, 0x3);  // start, clear done
}

PerfCounters VtaCore::read_perf(uint64_t* cycles_reg) {
  if (cycles_reg != nullptr) *cycles_reg = reg_access(false, kRegCycles, 0);
  uint32_t regs[kNumPerf];
  for (int i = 0; i < kNumPerf; ++i) regs[i] = reg_access(false, static_cast<uint8_t>(kRegPerfBase + 4 * i), 0);
  return perf_from_registers(regs);
}

bool VtaCore::done() const { return impl_->top->done_o; }
bool VtaCore::error() const { return impl_->top->error_o; }

StatusVector VtaCore::status() const {
  StatusVector s;
  for (int i = 0; i < 4; ++i) s.w[i] = impl_->top->status_o[i];
  return s;
}

uint64_t VtaCore::cycles() const { return impl_->cycles; }

}  // namespace cosim::vta
