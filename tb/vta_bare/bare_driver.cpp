#include "vta_bare/bare_driver.hpp"

#include <sstream>

#include "axi/axi4_slave.hpp"
#include "common/error.hpp"

// Verilator's headers are not -Wextra clean; they are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vvta_top.h"
#include "verilated.h"
#pragma GCC diagnostic pop

namespace cosim::vta {

namespace {

// vta_pkg register map.
constexpr uint8_t kRegCtrl = 0x00;
constexpr uint8_t kRegCycles = 0x04;
constexpr uint8_t kRegInsnCount = 0x08;
constexpr uint8_t kRegInsnAddr = 0x0c;
constexpr uint8_t kRegErrInfo = 0x10;
constexpr uint8_t kRegPerfBase = 0x20;
constexpr int kNumPerf = 12;

// The default build's AXI data width (vta_pkg::AxiDataWidth = 128 bits).
constexpr uint32_t kDataBytes = 16;
constexpr uint32_t kDataWords = kDataBytes / 4;

const char* kErrNames[] = {"none",
                           "undefined opcode",
                           "undefined memory type",
                           "instruction address not 16-byte aligned",
                           "LOAD/STORE SRAM range beyond the buffer",
                           "uop_end beyond the UOP buffer",
                           "ACC index out of range",
                           "INP index out of range",
                           "WGT index out of range",
                           "AXI error response (DRAM access out of range)"};
const char* kEngineNames[] = {"FETCH", "LOAD", "COMPUTE", "STORE"};
const char* kOpNames[] = {"LOAD", "STORE", "GEMM", "FINISH", "ALU", "op5", "op6", "op7"};

// Fields of vta_pkg::status_t.
struct Status {
  uint32_t w[4];
  uint32_t bits(unsigned lo, unsigned n) const {
    uint32_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= ((w[(lo + i) / 32] >> ((lo + i) % 32)) & 1u) << i;
    return v;
  }
};

}  // namespace

const char* to_string(RtlRunResult::Status s) {
  switch (s) {
    case RtlRunResult::Status::kDone: return "done";
    case RtlRunResult::Status::kError: return "error";
    case RtlRunResult::Status::kTimeout: return "timeout";
  }
  return "?";
}

struct BareDriver::Impl {
  std::vector<uint8_t>& dram;
  tb::VectorMemory mem;
  tb::Axi4SlaveModel axi;
  tb::Axi4Pins pins;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vvta_top> top;
  uint64_t cycles = 0;
  // Host register port state for this cycle.
  bool req_fire = false, rsp_fire = false;

  Impl(std::vector<uint8_t>& d, const BareOptions& o)
      : dram(d),
        mem(d),
        axi(mem, make_cfg(o)),
        ctx(std::make_unique<VerilatedContext>()),
        top(std::make_unique<Vvta_top>(ctx.get(), "vta")) {}

  static tb::Axi4SlaveConfig make_cfg(const BareOptions& o) {
    tb::Axi4SlaveConfig c;
    c.data_bytes = kDataBytes;
    c.read_latency = o.read_latency;
    c.write_latency = o.read_latency;
    c.bytes_per_cycle = o.bytes_per_cycle;
    c.stall_probability = o.stall_probability;
    c.seed = o.seed;
    return c;
  }

  void cycle() {
    Vvta_top& t = *top;
    axi.drive(pins);
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
    rsp_fire = t.reg_rsp_valid_o && t.reg_rsp_ready_i;
    axi.tick(pins);

    t.clk_i = 1;
    t.eval();
    ++cycles;
  }

  uint32_t reg_access(bool write, uint8_t addr, uint32_t data) {
    Vvta_top& t = *top;
    t.reg_req_valid_i = 1;
    t.reg_req_write_i = write;
    t.reg_req_addr_i = addr;
    t.reg_req_wdata_i = data;
    t.reg_rsp_ready_i = 1;
    for (int n = 0; n < 100; ++n) {
      cycle();
      if (req_fire) break;
    }
    t.reg_req_valid_i = 0;
    for (int n = 0; n < 100; ++n) {
      if (t.reg_rsp_valid_o) {
        const uint32_t v = t.reg_rsp_rdata_o;
        cycle();  // the response is taken at this edge
        return v;
      }
      cycle();
    }
    throw cosim::TimeoutError("VTA register port did not answer (address " + std::to_string(addr) + ")");
  }

  Status status() const {
    Status s{};
    for (int i = 0; i < 4; ++i) s.w[i] = top->status_o[i];
    return s;
  }

  std::string describe(const Status& s) const {
    std::ostringstream d;
    static const char* kToken[4] = {"load->compute", "compute->load", "compute->store", "store->compute"};
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
};

BareDriver::BareDriver(std::vector<uint8_t>& dram, BareOptions opts) : impl_(std::make_unique<Impl>(dram, opts)) {
  Vvta_top& t = *impl_->top;
  t.reg_req_valid_i = 0;
  t.reg_rsp_ready_i = 1;
  t.rst_ni = 0;
  t.clk_i = 0;
  t.eval();
  for (int i = 0; i < 4; ++i) impl_->cycle();
  t.rst_ni = 1;
  impl_->cycle();
}

BareDriver::~BareDriver() = default;

RtlRunResult BareDriver::run(uint64_t insn_byte_addr, uint32_t insn_count, uint64_t max_cycles) {
  if (insn_byte_addr > 0xffffffffULL) {
    throw cosim::InputError("VTA instruction address 0x" + std::to_string(insn_byte_addr) +
                            " does not fit the 32-bit INSN_ADDR register");
  }
  Impl& m = *impl_;
  m.reg_access(true, kRegInsnCount, insn_count);
  m.reg_access(true, kRegInsnAddr, static_cast<uint32_t>(insn_byte_addr));
  m.reg_access(true, kRegCtrl, 0x3);  // start, clear done

  RtlRunResult r;
  const uint64_t begin = m.cycles;
  while (true) {
    if (m.top->done_o) {
      r.status = RtlRunResult::Status::kDone;
      break;
    }
    if (m.top->error_o) {
      r.status = RtlRunResult::Status::kError;
      break;
    }
    if (m.cycles - begin >= max_cycles) {
      r.status = RtlRunResult::Status::kTimeout;
      break;
    }
    m.cycle();
  }
  const Status st = m.status();

  r.cycles = m.reg_access(false, kRegCycles, 0);
  uint32_t perf[kNumPerf];
  for (int i = 0; i < kNumPerf; ++i) perf[i] = m.reg_access(false, static_cast<uint8_t>(kRegPerfBase + 4 * i), 0);
  r.perf.gemm_busy = perf[0];
  r.perf.alu_busy = perf[1];
  r.perf.load_bytes = perf[2];
  r.perf.load_busy = perf[3];
  r.perf.store_bytes = perf[4];
  r.perf.store_busy = perf[5];
  r.perf.stall_load_to_compute = perf[6];
  r.perf.stall_compute_to_load = perf[7];
  r.perf.stall_compute_to_store = perf[8];
  r.perf.stall_store_to_compute = perf[9];
  r.perf.compute_load_bytes = perf[10];
  r.perf.compute_load_busy = perf[11];

  if (r.status == RtlRunResult::Status::kTimeout) {
    r.diagnosis = "VTA did not finish within " + std::to_string(max_cycles) + " cycles: " + m.describe(st);
  } else if (r.status == RtlRunResult::Status::kError) {
    const uint32_t info = m.reg_access(false, kRegErrInfo, 0);
    const uint32_t code = info & 0xf;
    const uint32_t engine = (info >> 4) & 0x3;
    std::ostringstream d;
    d << "VTA error flag set by " << kEngineNames[engine] << ": "
      << (code < sizeof(kErrNames) / sizeof(kErrNames[0]) ? kErrNames[code] : "unknown error") << " (code " << code
      << ")";
    for (const std::string& e : m.axi.access_errors()) d << "; " << e;
    d << "; state: " << m.describe(st);
    r.diagnosis = d.str();
  }
  return r;
}

uint64_t BareDriver::total_eval_cycles() const { return impl_->cycles; }

std::vector<std::string> BareDriver::axi_protocol_errors() const { return impl_->axi.protocol_errors(); }
std::vector<std::string> BareDriver::axi_access_errors() const { return impl_->axi.access_errors(); }

}  // namespace cosim::vta
