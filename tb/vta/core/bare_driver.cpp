#include "vta/core/bare_driver.hpp"

#include <optional>

#include "axi/axi4_slave.hpp"
#include "common/error.hpp"

namespace cosim::tb::vta {

using namespace cosim::vta;  // the ISA, golden model and compiler by their own names

namespace {

// The byte image with every access timed by BareOptions::access_cycles.
class TimedVectorMemory : public MemoryPort {
 public:
  TimedVectorMemory(std::vector<uint8_t>& bytes, const BareOptions& o) : mem_(bytes), cost_(o.access_cycles) {}
  void read(uint64_t addr, uint8_t* dst, std::size_t len) override {
    mem_.read(addr, dst, len);
    account(addr, len, false);
  }
  void write(uint64_t addr, const uint8_t* src, std::size_t len, const uint8_t* strobe) override {
    mem_.write(addr, src, len, strobe);
    account(addr, len, true);
  }
  uint64_t accesses() const { return accesses_; }
  uint64_t take_delay_cycles() {
    const uint64_t c = pending_;
    pending_ = 0;
    return c;
  }

 private:
  void account(uint64_t addr, std::size_t len, bool write) {
    if (cost_) pending_ += cost_(addr, len, write);
    ++accesses_;
  }
  VectorMemory mem_;
  std::function<uint64_t(uint64_t, std::size_t, bool)> cost_;
  uint64_t accesses_ = 0;
  uint64_t pending_ = 0;
};

Axi4SlaveConfig slave_config(const BareOptions& o) {
  Axi4SlaveConfig c;
  c.data_bytes = kAxiDataBytes;
  if (o.access_cycles) return c;  // untimed: the wait-state slave below times it
  c.read_latency = o.read_latency;
  c.write_latency = o.read_latency;
  c.bytes_per_cycle = o.bytes_per_cycle;
  c.stall_probability = o.stall_probability;
  c.seed = o.seed;
  return c;
}

// The AXI slave model, plus (with access_cycles) the wait-state rule of
// tb::TimedAxiSlave: an access costing c cycles freezes the slave for c - 1
// cycles, during which it shows no valid / ready. tests/vta/tlm checks that
// a program takes the same cycles here and under the TLM testbench.
class BareSlave final : public harness::AxiSlavePort {
 public:
  BareSlave(std::vector<uint8_t>& dram, const BareOptions& o)
      : mem_(dram, o), model_(mem_, slave_config(o)), timed_(static_cast<bool>(o.access_cycles)) {}

  void drive(Axi4Pins& pins) override {
    if (!timed_) return model_.drive(pins);
    frozen_ = freeze_ > 0;
    if (!frozen_) {
      model_.drive(pins);
      absorb();
      frozen_ = freeze_ > 0;
    }
    if (frozen_) {
      pins.arready = pins.rvalid = pins.awready = pins.wready = pins.bvalid = false;
    }
  }
  void tick(const Axi4Pins& pins) override {
    if (timed_ && frozen_) {
      --freeze_;
      return;
    }
    model_.tick(pins);
    if (timed_) absorb();
  }
  const Axi4SlaveModel& model() const { return model_; }

 private:
  void absorb() {
    const uint64_t n = mem_.accesses() - seen_;
    if (n == 0) return;
    seen_ = mem_.accesses();
    const uint64_t delay = mem_.take_delay_cycles();
    if (delay > n) freeze_ += delay - n;
  }

  TimedVectorMemory mem_;
  Axi4SlaveModel model_;
  bool timed_;
  bool frozen_ = false;
  uint64_t freeze_ = 0;
  uint64_t seen_ = 0;
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
  BareSlave slave;
  VtaCore core;
  Impl(std::vector<uint8_t>& d, const BareOptions& o) : slave(d, o), core(*o.build, slave) {}
};

BareDriver::BareDriver(std::vector<uint8_t>& dram, BareOptions opts) : impl_(std::make_unique<Impl>(dram, opts)) {}

BareDriver::~BareDriver() = default;

RtlRunResult BareDriver::run(uint64_t insn_byte_addr, uint32_t insn_count, uint64_t max_cycles) {
  if (insn_byte_addr > 0xffffffffULL) {
    throw cosim::InputError("VTA instruction address 0x" + std::to_string(insn_byte_addr) +
                            " does not fit the 32-bit INSN_ADDR register");
  }
  VtaCore& core = impl_->core;
  core.start(static_cast<uint32_t>(insn_byte_addr), insn_count);

  RtlRunResult r;
  if (!core.run(max_cycles)) r.status = RtlRunResult::Status::kTimeout;
  else r.status = core.done() ? RtlRunResult::Status::kDone : RtlRunResult::Status::kError;
  const StatusVector st = core.status();
  r.perf = core.read_perf(&r.cycles);

  if (r.status == RtlRunResult::Status::kTimeout) {
    r.diagnosis = "VTA did not finish within " + std::to_string(max_cycles) + " cycles: " + describe_status(st);
  } else if (r.status == RtlRunResult::Status::kError) {
    std::string d = "VTA " + describe_error(core.reg_read(regs::kErrInfo));
    for (const std::string& e : impl_->slave.model().access_errors()) d += "; " + e;
    d += "; state: " + describe_status(st);
    r.diagnosis = d;
  }
  return r;
}

uint64_t BareDriver::total_eval_cycles() const { return impl_->core.cycles(); }

std::vector<std::string> BareDriver::axi_protocol_errors() const { return impl_->slave.model().protocol_errors(); }
std::vector<std::string> BareDriver::axi_access_errors() const { return impl_->slave.model().access_errors(); }

}  // namespace cosim::tb::vta
