// The harness core: one Verilated DUT model in a plain C++ clock loop,
// generic over the model class. Every bare harness and every TLM wrapper of
// a DUT clocks its model through it:
//   - reset: kResetCycles clocks with rst_ni low, then rst_ni high; not
//     counted, not dumped, the pin binders not clocked;
//   - the clock loop: per cycle, every binder's drive(); falling-edge eval;
//     every binder's sample(); rising-edge eval; RTL assertion check;
//     every binder's update(); the after-cycle hook (the TLM wrapper's time);
//   - register access through the reg_* pins (RegBinder, one cycle per
//     access on the common register bus);
//   - the DUT's status decoding (Status: done, error, diagnosis from its
//     pins; static functions, so the per-cycle check is inlined), and
//     run(): clock until done or error within a cycle budget;
//   - the FST waveform (tb/wave WaveTracer) and the coverage dump.
// The DUT declares its other ports by adding binders (AxiMasterBinder,
// AxisBinder, counters of its event pins); it writes no clock loop.
//
// Include after nothing SystemC: Verilator's headers must come first.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"  // inside Verilator's headers
#include <verilated.h>
#pragma GCC diagnostic pop

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "coverage/rtl_coverage.hpp"
#include "harness/port.hpp"
#include "harness/reg_binder.hpp"
#include "rtl_assert/rtl_assert.hpp"
#include "tlm/tb_config.hpp"
#include "wave/wave_tracer.hpp"

namespace cosim::tb::harness {

// Clocks with rst_ni low, for every DUT.
constexpr int kResetCycles = 2;
// Cycles a register access may wait for the request or the response.
constexpr int kRegPortCycles = 100;

// Status: how a DUT's pins say where it is. A DUT provides
//   static bool done(const Model&);          // the run is over
//   static bool error(const Model&);         // halted on an error (NoErrorPin: never)
//   static std::string diagnosis(const Model&);  // where it is, for hangs
struct NoErrorPin {
  template <class Model>
  static bool error(const Model&) {
    return false;
  }
};

template <class Model, class Status>
class Core {
 public:
  // `dut` names the model instance (the waveform view's root) and the DUT in
  // messages; `wave` holds the waveform settings (TbConfig::wave_*), null for
  // none. Resets the model.
  explicit Core(std::string dut, const TbConfig* wave = nullptr)
      : dut_(std::move(dut)),
        ctx_(std::make_unique<VerilatedContext>()),
        wave_(std::make_unique<wave::WaveTracer<Model>>(*ctx_, wave ? *wave : TbConfig{}, dut_)),
        m_(std::make_unique<Model>(ctx_.get(), dut_.c_str())) {
    wave_->attach(*m_);
    catch_rtl_assertions(*ctx_);  // an assertion failure throws, naming the cycle
    reset();
  }
  ~Core() {
    before_model_destruction(*ctx_);
    wave_->close();
    m_->final();
    write_rtl_coverage(*ctx_, dut_.c_str());
  }
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  Model& model() { return *m_; }
  const Model& model() const { return *m_; }
  const std::string& dut() const { return dut_; }

  // Binders are clocked in the order added, after the register binder.
  void add_port(Port<Model>& p) {
    ports_.push_back(&p);
    if (p.has_update()) updaters_.push_back(&p);
  }

  // From now on cycles are DUT time: numbered from 0 (time()), dumped to the
  // waveform, and followed by `after_cycle`. Cycles before (register reads
  // of the build's parameters, say) are neither.
  void start_timeline(std::function<void()> after_cycle = {}) {
    timeline_ = true;
    origin_ = cycles_;
    after_cycle_ = std::move(after_cycle);
  }

  void cycle() {
    Model& m = *m_;
    reg_.drive(m);
    for (Port<Model>* p : ports_) p->drive(m);
    const uint64_t t = time();
    Verilated::threadContextp(ctx_.get());  // a failing assertion's $stop counts on the thread's context: this one
    m.clk_i = 0;
    m.eval();
    if (timeline_) wave_->sample(t, 0);
    reg_.sample(m);
    for (Port<Model>* p : ports_) p->sample(m, t);
    m.clk_i = 1;
    ctx_->time(cycles_ + 1);  // Verilator's assertion messages print this cycle number
    m.eval();
    ++cycles_;
    if (timeline_) wave_->sample(t, 1);
    check_rtl_assertions(*ctx_, dut_.c_str(), cycles_);
    for (Port<Model>* p : updaters_) p->update(m, t);
    if (after_cycle_) after_cycle_();
  }

  uint32_t reg_read(uint32_t addr) { return reg_access(false, addr, 0); }
  void reg_write(uint32_t addr, uint32_t value) { reg_access(true, addr, value); }

  bool done() const { return Status::done(*m_); }
  bool error() const { return Status::error(*m_); }
  std::string diagnosis() const { return Status::diagnosis(*m_); }

  // Clocks until done() or error(); false when `max_cycles` more cycles
  // passed first.
  bool run(uint64_t max_cycles) {
    const uint64_t end = cycles_ + max_cycles;
    while (!done() && !error()) {
      if (cycles_ >= end) return false;
      cycle();
    }
    return true;
  }
  uint64_t cycles() const { return cycles_; }  // every clock since reset
  uint64_t time() const { return cycles_ - origin_; }
  // wave_first_cycle / wave_last_cycle / wave_truncated once a dump opened.
  std::map<std::string, uint64_t> wave_stats() const { return wave_->stats(); }

 private:
  void reset() {
    Model& m = *m_;
    reg_.drive(m);
    m.rst_ni = 0;
    m.clk_i = 0;
    m.eval();
    for (int i = 0; i < kResetCycles; ++i) {
      m.clk_i = 1;
      m.eval();
      m.clk_i = 0;
      m.eval();
    }
    m.rst_ni = 1;
    m.eval();
  }

  uint32_t reg_access(bool write, uint32_t addr, uint32_t wdata) {
    reg_.request(write, addr, wdata);
    int n = 0;
    do {
      if (n++ == kRegPortCycles) {
        reg_.idle();
        throw TimeoutError(dut_ + ": register port did not take the request at 0x" + hex(addr));
      }
      cycle();
    } while (!reg_.fired());
    reg_.idle();
    for (n = 0; !m_->reg_rsp_valid_o; ++n) {
      if (n == kRegPortCycles) throw TimeoutError(dut_ + ": register port did not answer at 0x" + hex(addr));
      cycle();
    }
    return m_->reg_rdata_o;  // taken at the next clock edge (reg_rsp_ready_i = 1)
  }

  static std::string hex(uint32_t v) {
    std::ostringstream s;
    s << std::hex << v;
    return s.str();
  }

  std::string dut_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<wave::WaveTracer<Model>> wave_;  // before the model: it switches tracing on
  std::unique_ptr<Model> m_;
  RegBinder<Model> reg_;
  std::vector<Port<Model>*> ports_;
  std::vector<Port<Model>*> updaters_;  // the binders with an update phase
  std::function<void()> after_cycle_;
  uint64_t cycles_ = 0;
  uint64_t origin_ = 0;
  bool timeline_ = false;
};

}  // namespace cosim::tb::harness
