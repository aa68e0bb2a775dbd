#include "tf2_bare/tf2_bare.hpp"

#include <cstring>

#include "Vtf2_top.h"
#include "common/error.hpp"
#include "tf2_bare/tf2_pins.hpp"
#include "coverage/rtl_coverage.hpp"
#include "verilated.h"

namespace cosim::tb {

struct Tf2Bare::Impl {
  Impl(std::vector<uint8_t>& dram, const Axi4SlaveConfig& axi_cfg)
      : mem(dram), slave(mem, axi_cfg), ctx(std::make_unique<VerilatedContext>()) {
    top = std::make_unique<Vtf2_top>(ctx.get(), "tf2");
  }
  VectorMemory mem;
  Axi4SlaveModel slave;
  Axi4Pins pins;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vtf2_top> top;
};

namespace {
constexpr std::size_t kBeat = tf2_pins::kBeatBytes;
}

Tf2Bare::Tf2Bare(std::vector<uint8_t>& dram, Tf2BareConfig cfg) : cfg_(std::move(cfg)) {
  if (cfg_.axi.data_bytes != kBeat) {
    throw InputError("tf2 bare harness: AXI data_bytes must be 16 (the RTL bus is 128 bits), got " +
                     std::to_string(cfg_.axi.data_bytes));
  }
  impl_ = std::make_unique<Impl>(dram, cfg_.axi);
  reset();
}

Tf2Bare::~Tf2Bare() {
  if (impl_) {
    impl_->top->final();
    write_rtl_coverage(*impl_->ctx, "tf2");
  }
}

const Axi4SlaveModel& Tf2Bare::axi() const { return impl_->slave; }

void Tf2Bare::reset() {
  Vtf2_top& t = *impl_->top;
  t.reg_valid_i = 0;
  t.clk_i = 0;
  t.rst_ni = 0;
  t.eval();
  t.clk_i = 1;
  t.eval();
  t.clk_i = 0;
  t.eval();
  t.rst_ni = 1;
  t.eval();
}

void Tf2Bare::step() {
  Vtf2_top& t = *impl_->top;
  Axi4Pins& p = impl_->pins;
  impl_->slave.drive(p);
  tf2_pins::to_dut(t, p);
  t.clk_i = 0;
  t.eval();
  tf2_pins::from_dut(t, p);
  impl_->slave.tick(p);
  t.clk_i = 1;
  t.eval();
  ++cycle_;
}

void Tf2Bare::write_reg(uint32_t addr, uint32_t value) {
  Vtf2_top& t = *impl_->top;
  t.reg_valid_i = 1;
  t.reg_write_i = 1;
  t.reg_addr_i = addr & 0xFF;
  t.reg_wdata_i = value;
  step();  // reg_ready_o is constant 1: accepted at this edge
  t.reg_valid_i = 0;
  t.reg_write_i = 0;
}

uint32_t Tf2Bare::read_reg(uint32_t addr) {
  Vtf2_top& t = *impl_->top;
  t.reg_valid_i = 1;
  t.reg_write_i = 0;
  t.reg_addr_i = addr & 0xFF;
  step();
  t.reg_valid_i = 0;
  if (!t.reg_rsp_valid_o) throw std::logic_error("tf2 bare harness: no register response");
  return t.reg_rsp_rdata_o;
}

Tf2RunResult Tf2Bare::run(uint32_t desc_addr, uint32_t desc_count) {
  namespace r = tf2_reg;
  write_reg(r::kDescAddr, desc_addr);
  write_reg(r::kDescCount, desc_count);
  write_reg(r::kCtrl, r::kCtrlStart);
  const uint64_t start = cycle_;
  Vtf2_top& t = *impl_->top;
  while (t.busy_o) {
    if (cycle_ - start > cfg_.max_cycles) {
      throw TimeoutError("tf2 DUT still busy after " + std::to_string(cfg_.max_cycles) + " cycles (descriptor " +
                         std::to_string(read_reg(r::kErrInfo) >> 16) + ")");
    }
    step();
  }
  Tf2RunResult res;
  res.cycles = cycle_ - start;
  const uint32_t ctrl = read_reg(r::kCtrl);
  res.done = ctrl & r::kCtrlDone;
  res.error = ctrl & r::kCtrlError;
  res.err_info = read_reg(r::kErrInfo);
  res.dut_cycles = read_reg(r::kCycles);
  res.pe_busy = read_reg(r::kPeBusy);
  res.filt_wait = read_reg(r::kFiltWait);
  res.out_wait = read_reg(r::kOutWait);
  return res;
}

tf2::DeviceConfig Tf2Bare::device_config() {
  tf2::DeviceConfig d;
  d.n_pe = static_cast<int>(read_reg(tf2_reg::kConfig) & 0xFF);
  d.feat_cache_words = static_cast<int>(read_reg(tf2_reg::kFeatDepth));
  d.filter_nibbles = static_cast<int>(read_reg(tf2_reg::kFiltDepth));
  return d;
}

}  // namespace cosim::tb
