#include "tf2/core/tf2_bare.hpp"

#include "common/error.hpp"

namespace cosim::tb::tf2 {

namespace {
const Axi4SlaveConfig& checked(const Axi4SlaveConfig& c) {
  if (c.data_bytes != kAxiDataBytes) {
    throw InputError("tf2 bare harness: AXI data_bytes must be 16 (the RTL bus is 128 bits), got " +
                     std::to_string(c.data_bytes));
  }
  return c;
}
}  // namespace

Tf2Bare::Tf2Bare(std::vector<uint8_t>& dram, Tf2BareConfig cfg)
    : cfg_(std::move(cfg)), mem_(dram), slave_(mem_, checked(cfg_.axi)), port_(slave_) {
  core_ = std::make_unique<Tf2Core>(*cfg_.build, port_);
  core_->start_timeline();
}

Tf2Bare::~Tf2Bare() = default;

void Tf2Bare::write_reg(uint32_t addr, uint32_t value) { core_->reg_write(addr, value); }
uint32_t Tf2Bare::read_reg(uint32_t addr) { return core_->reg_read(addr); }

Tf2RunResult Tf2Bare::run(uint32_t desc_addr, uint32_t desc_count) {
  namespace r = regs;
  write_reg(r::kDescAddr, desc_addr);
  write_reg(r::kDescCount, desc_count);
  write_reg(r::kCtrl, r::ctrl::kStartMask);
  const uint64_t start = cycle();
  if (!core_->run(cfg_.max_cycles)) {
    throw TimeoutError("tf2 DUT not done after " + std::to_string(cfg_.max_cycles) +
                       " cycles: " + core_->diagnosis(desc_count, desc_addr));
  }
  Tf2RunResult res;
  res.cycles = cycle() - start;
  const uint32_t ctrl = read_reg(r::kCtrl);
  res.done = ctrl & r::ctrl::kDoneMask;
  res.error = ctrl & r::ctrl::kErrorMask;
  res.err_info = read_reg(r::kErrInfo);
  res.dut_cycles = read_reg(r::kCycles);
  res.pe_busy = read_reg(r::kPeBusy);
  res.filt_wait = read_reg(r::kFiltWait);
  res.out_wait = read_reg(r::kOutWait);
  return res;
}

cosim::tf2::DeviceConfig Tf2Bare::device_config() {
  const HwConfig hw = core_->read_config();
  cosim::tf2::DeviceConfig d;
  d.n_pe = static_cast<int>(hw.n_pe);
  d.feat_cache_words = static_cast<int>(hw.feat_depth);
  d.filter_nibbles = static_cast<int>(hw.filt_depth);
  return d;
}

}  // namespace cosim::tb::tf2
