// The harness core: one Verilated DUT model in a plain C++ clock loop over
// pin binders, generic over the model class and its pin binding (`Pins`: the
// Top struct of include/dut/<dut>_pins.hpp, from the manifest's `ports`; for
// a module with no manifest, harness/module_binding.hpp). Every bare
// harness, TLM wrapper and RTL unit test clocks its model through it:
//   - reset: the binding's reset port held active for its cycles, then
//     released; not counted, not dumped; only the reset binders (a control
//     port's idle bus, given to the constructor) drive their pins. Zero reset
//     cycles: asserted and released with the clock low, no edge (an
//     asynchronous reset); a binding with no reset port (ModuleBinding)
//     leaves reset to the test;
//   - the clock loop: per cycle, every binder's drive(); falling-edge eval;
//     every binder's sample(); rising-edge eval; RTL assertion check;
//     every binder's update(); the after-cycle hook (the TLM wrapper's time);
//     the manifest's further clocks (ports.clocks, harness/clock_set.hpp)
//     make their edges in between, each evaluated at its time, those between
//     the falling and the rising edge before the binders sample; a binder of
//     an interface on a further clock (Port::clock()) runs its phases on
//     that clock's rising edges instead (harness/port.hpp);
//   - the DUT's status decoding (Status: done, error, diagnosis from its
//     pins; static functions, so the per-cycle check is inlined), and
//     run(): clock until done or error within a cycle budget;
//   - the interrupt pins (irq interfaces): irq(), run_until_irq();
//   - the FST waveform (tb/wave WaveTracer) and the coverage dump.
// Every port of the DUT is a binder: the control port (harness/control.hpp:
// register access goes through that binder, `ctrl.read(core, addr)`; for
// the Vitis protocols run_to_done() polls CTRL through it), AxiMasterBinder,
// AxisBinder, counters of its event pins. The DUT writes no clock loop.
//
// Include after nothing SystemC: Verilator's headers must come first.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"  // inside Verilator's headers
#include <verilated.h>
#pragma GCC diagnostic pop

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "coverage/rtl_coverage.hpp"
#include "harness/bus.hpp"
#include "harness/clock_set.hpp"
#include "harness/port.hpp"
#include "rtl_assert/rtl_assert.hpp"
#include "tlm/tb_config.hpp"
#include "wave/wave_tracer.hpp"

namespace cosim::tb::harness {

// Status: how a DUT's pins say where it is. A DUT provides
//   static bool done(const Model&);          // the run is over
//   static bool error(const Model&);         // halted on an error (NoErrorPin: never)
//   static std::string diagnosis(const Model&);  // where it is, for hangs
// and, when its manifest has a `deadlock` rule (scripts/dutgen.py),
//   using Watch = regs::deadlock::Watch;           // counts quiet cycles
//   static const uint32_t* watch_words(const Model&);  // the rule's vector
//   static constexpr const char* kWatchRule = regs::deadlock::kRule;
//   static constexpr uint64_t kWatchCycles = regs::deadlock::kCycles;
// run() then stops as soon as the rule has held for Watch's kCycles cycles.
struct NoErrorPin {
  template <class Model>
  static bool error(const Model&) {
    return false;
  }
};

// Op<T> when that names a type, else Default (std::experimental's
// detected_or_t): what a Status or binding may provide.
template <class Default, class Void, template <class> class Op, class T>
struct DetectedOr {
  using type = Default;
};
template <class Default, template <class> class Op, class T>
struct DetectedOr<Default, std::void_t<Op<T>>, Op, T> {
  using type = Op<T>;
};
template <class Default, template <class> class Op, class T>
using DetectedOrT = typename DetectedOr<Default, void, Op, T>::type;

struct NoWatch {};
template <class Status>
using WatchMember = typename Status::Watch;
template <class Status>
using WatchOf = DetectedOrT<NoWatch, WatchMember, Status>;
template <class Status>
using HasWatch = std::negation<std::is_same<WatchOf<Status>, NoWatch>>;

// Whether a binding ties inputs to constants (the generated pins::Top::tie).
template <class Pins, class Model, class = void>
struct HasTie : std::false_type {};
template <class Pins, class Model>
struct HasTie<Pins, Model, std::void_t<decltype(Pins::tie(std::declval<Model&>()))>> : std::true_type {};

// Whether binding `Pins` names a reset port (a ModuleBinding need not).
template <class Pins, class Model, class = void>
struct HasResetPin : std::false_type {};
template <class Pins, class Model>
struct HasResetPin<Pins, Model, std::void_t<decltype(Pins::reset(std::declval<Model&>()))>> : std::true_type {};

// The further clocks of a binding (the generated pins::Top::Clocks, from the
// manifest's ports.clocks): a ClockSet over them, or nothing.
struct NoClockSet {};
template <class Pins>
using ClockSetMember = ClockSet<typename Pins::Clocks>;
template <class Pins>
using ClockSetOf = DetectedOrT<NoClockSet, ClockSetMember, Pins>;

template <class Model, class Status, class Pins>
class Core {
 public:
  using Binding = Pins;
  // Whether the binding has further clocks (the manifest's ports.clocks).
  static constexpr bool kHasClocks = !std::is_same_v<ClockSetOf<Pins>, NoClockSet>;
  // Primary cycles of reset: with further clocks, enough for each of them to
  // see the reset for ports.reset.cycles edges of its own.
  static constexpr int reset_cycles() {
    if constexpr (kHasClocks) return Pins::Clocks::kResetCycles;
    return Pins::kResetCycles;
  }
  static constexpr int kResetCycles = reset_cycles();

  // `dut` names the model instance (the waveform view's root) and the DUT in
  // messages; `wave` holds the waveform settings (TbConfig::wave_*), null for
  // none. `reset_binders` drive their pins through reset too (a control
  // port's idle bus) and come first in every cycle, in the order given.
  // Resets the model.
  explicit Core(std::string dut, const TbConfig* wave = nullptr,
                std::initializer_list<Port<Model>*> reset_binders = {})
      : dut_(std::move(dut)),
        ctx_(std::make_unique<VerilatedContext>()),
        wave_(std::make_unique<wave::WaveTracer<Model>>(*ctx_, wave ? *wave : TbConfig{}, dut_)),
        m_(std::make_unique<Model>(ctx_.get(), dut_.c_str())) {
    wave_->attach(*m_);
    catch_rtl_assertions(*ctx_);  // an assertion failure throws, naming the cycle
    for (Port<Model>* p : reset_binders) add_port(*p);
    reset();
  }
  ~Core() {
    before_model_destruction(*ctx_);
    wave_->close();
    m_->final();
    write_rtl_coverage(*ctx_, coverage_name_.c_str());
  }
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  Model& model() { return *m_; }
  const Model& model() const { return *m_; }
  const std::string& dut() const { return dut_; }
  // The model's context, for a test's run-time switches (assertOn,
  // fatalOnError): an RTL unit test of behaviour outside a module's contract.
  VerilatedContext& context() { return *ctx_; }
  // The name the coverage dump goes under (<name>-<pid>-<n>.dat, merged per
  // name by scripts/coverage.sh); `dut` unless set: a module tested alone
  // names the accelerator it belongs to, so its counters count there.
  void set_coverage_name(std::string name) { coverage_name_ = std::move(name); }

  // Binders are clocked in the order added, after the reset binders; one of
  // an interface on a further clock on that clock's edges, its pins driven
  // from now on (as after its clock's last edge).
  void add_port(Port<Model>& p) {
    all_ports_.push_back(&p);
    if (p.clock() >= 0) {
      add_further_port(p);
      return;
    }
    ports_.push_back(&p);
    if (p.has_drive()) drivers_.push_back(&p);
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
    for (Port<Model>* p : drivers_) p->drive(m);
    const uint64_t t = time();
    settle();  // the falling edge
    if (timeline_) wave_->sample(t, 0);
    const uint32_t rises = further_clocks_before(1, t);  // the binders sample what the rising edge sees
    for (Port<Model>* p : ports_) p->sample(m, t);
    further_sample(rises, t);
    Pins::clock(m) = 1;
    ctx_->time(cycles_ + 1);  // Verilator's assertion messages print this cycle number
    m.eval();
    ++cycles_;
    if (timeline_) wave_->sample(t, 1);
    check_rtl_assertions(*ctx_, dut_.c_str(), cycles_);
    for (Port<Model>* p : updaters_) p->update(m, t);
    further_update(rises, t);
    if (after_cycle_) after_cycle_();
  }

  // The clock low and the model evaluated, no edge: the combinational
  // outputs for inputs a test changed between cycles (a module's own reset,
  // an idle check that reads outputs following the next cycle's inputs).
  void settle() {
    Verilated::threadContextp(ctx_.get());  // a failing assertion's $stop counts on the thread's context: this one
    const uint64_t t = time();
    const uint32_t rises = further_clocks_before(0, t);
    further_sample(rises, t);
    Pins::clock(*m_) = 0;
    m_->eval();
    further_update(rises, t);
  }

  bool done() const { return Status::done(*m_); }
  bool error() const { return Status::error(*m_); }
  std::string diagnosis() const { return Status::diagnosis(*m_); }

  // Clocks until the DUT finished: done() or error() from its status pins;
  // false when `max_cycles` more cycles passed first. (The Vitis protocols
  // learn it from CTRL instead: harness::run_to_done.)
  bool run(uint64_t max_cycles) {
    const uint64_t end = cycles_ + max_cycles;
    if constexpr (HasWatch<Status>::value) watch_ = {};
    while (!done() && !error()) {
      if (cycles_ >= end) return false;
      cycle();
      if constexpr (HasWatch<Status>::value) {
        // Nothing can move any more: stop now rather than at the budget.
        // Looked at every kWatchEvery cycles: a busy engine or a moving
        // queue stays visible far longer, and the clock loop keeps its speed.
        if (cycles_ % kWatchEvery != 0) continue;
        bool owed = false;
        for (const Port<Model>* p : all_ports_) owed = owed || p->owed();
        if (watch_.stuck(Status::watch_words(*m_), owed, kWatchEvery)) {
          deadlock_at_ = cycles_;
          return false;
        }
      }
    }
    return true;
  }

  // Whether an interrupt pin (the manifest's irq interfaces) is high.
  bool irq() const {
    bool any = false;
    Pins::Irqs::for_each([&](auto bus) { any = any || decltype(bus)::irq(*m_) != 0; });
    return any;
  }
  static constexpr bool kHasIrq = Pins::Irqs::size > 0;
  // Clocks until irq(); false when `max_cycles` more cycles passed first.
  bool run_until_irq(uint64_t max_cycles) {
    const uint64_t end = cycles_ + max_cycles;
    while (!irq()) {
      if (cycles_ >= end) return false;
      cycle();
    }
    return true;
  }
  // Why run() stopped early: "" when it did not, else the manifest's
  // deadlock rule and how long it held.
  std::string deadlock_note() const {
    if constexpr (HasWatch<Status>::value) {
      if (deadlock_at_ != 0) {
        return std::string("deadlocked (") + Status::kWatchRule + " for " +
               std::to_string(Status::kWatchCycles) + " cycles, up to cycle " +
               std::to_string(deadlock_at_ - origin_) + ")";
      }
    }
    return "";
  }
  uint64_t cycles() const { return cycles_; }  // every clock since reset
  uint64_t time() const { return cycles_ - origin_; }
  // wave_first_cycle / wave_last_cycle / wave_truncated once a dump opened.
  std::map<std::string, uint64_t> wave_stats() const { return wave_->stats(); }

 private:
  void reset() {
    static_assert(HasResetPin<Pins, Model>::value || Pins::kResetCycles == 0,
                  "a binding with reset cycles names its reset port");
    Model& m = *m_;
    if constexpr (HasTie<Pins, Model>::value) Pins::tie(m);  // the manifest's tied inputs, from the start
    for (Port<Model>* p : all_ports_) {  // the reset binders only: added before
      if (p->has_drive()) p->drive(m);
    }
    if constexpr (!HasResetPin<Pins, Model>::value) {
      Pins::clock(m) = 0;  // a binding without reset (ModuleBinding): the test resets the module
    } else {
      Pins::reset(m) = Pins::kResetActiveLow ? 0 : 1;
      if constexpr (kHasClocks) {
        Pins::Clocks::reset(m, true);
        clocks_.start(m);
      }
      Pins::clock(m) = 0;
      m.eval();
      for (int i = 0; i < kResetCycles; ++i) {
        further_clocks_before(1, 0);
        Pins::clock(m) = 1;
        m.eval();
        further_clocks_before(0, 0);
        Pins::clock(m) = 0;
        m.eval();
      }
      Pins::reset(m) = Pins::kResetActiveLow ? 1 : 0;
      if constexpr (kHasClocks) Pins::Clocks::reset(m, false);
      m.eval();
    }
    clocking_ = true;  // from now on the binders of further clocks run on their edges
  }

  // The manifest's further clocks (ports.clocks) up to the primary clock's
  // edge to `level`, when it makes one: their edges before it are evaluated
  // (and dumped in cycle t's `level` half once the timeline runs), with the
  // phases of the binders on the clocks that rise there; those at it wait
  // for its eval. Returns the clocks rising at it (bit i: ports.clocks'
  // i-th), whose binders the caller runs around that eval. Nothing without
  // further clocks.
  uint32_t further_clocks_before(uint8_t level, uint64_t t) {
    if constexpr (kHasClocks) {
      Model& m = *m_;
      if (Pins::clock(m) == level) return 0;
      return clocks_.to_next_edge(
          m, [&](uint32_t rises) { further_sample(rises, t); },
          [&](uint64_t units_before, uint32_t rises) {
            m.eval();
            if (timeline_) wave_->sample_before(t, level, units_before, 2 * Pins::Clocks::kHalfCycle);
            further_update(rises, t);
          });
    } else {
      (void)level, (void)t;
      return 0;
    }
  }

  void add_further_port(Port<Model>& p) {
    if constexpr (kHasClocks) {
      if (p.clock() >= static_cast<int>(Pins::Clocks::kCount)) {
        throw std::logic_error(dut_ + ": a binder on further clock " + std::to_string(p.clock()) + " of " +
                               std::to_string(Pins::Clocks::kCount));
      }
      further_[p.clock()].push_back(&p);
      if (p.has_drive()) p.drive(*m_);
    } else {
      throw std::logic_error(dut_ + ": a binder on a further clock, but the binding has none (ports.clocks)");
    }
  }

  // The binders of the further clocks in `rises`, before their rising edge
  // (sample) and after its eval (update, then drive: their inputs change
  // just after their own edge).
  void further_sample(uint32_t rises, uint64_t t) {
    if constexpr (kHasClocks) {
      if (!clocking_) return;
      for (unsigned i = 0; rises != 0; ++i, rises >>= 1) {
        if (rises & 1) {
          for (Port<Model>* p : further_[i]) p->sample(*m_, t);
        }
      }
    } else {
      (void)rises, (void)t;
    }
  }
  void further_update(uint32_t rises, uint64_t t) {
    if constexpr (kHasClocks) {
      if (!clocking_) return;
      for (unsigned i = 0; rises != 0; ++i, rises >>= 1) {
        if ((rises & 1) == 0) continue;
        for (Port<Model>* p : further_[i]) {
          if (p->has_update()) p->update(*m_, t);
        }
        for (Port<Model>* p : further_[i]) {
          if (p->has_drive()) p->drive(*m_);
        }
      }
    } else {
      (void)rises, (void)t;
    }
  }

  std::string dut_;
  std::string coverage_name_ = dut_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<wave::WaveTracer<Model>> wave_;  // before the model: it switches tracing on
  std::unique_ptr<Model> m_;
  std::vector<Port<Model>*> all_ports_;  // every binder, on any clock
  std::vector<Port<Model>*> ports_;      // the binders on the primary clock
  std::vector<Port<Model>*> drivers_;   // the binders with a drive phase
  std::vector<Port<Model>*> updaters_;  // the binders with an update phase
  std::function<void()> after_cycle_;
  ClockSetOf<Pins> clocks_;
  // Per further clock, its binders in the order added (empty without further clocks).
  std::vector<std::vector<Port<Model>*>> further_ = std::vector<std::vector<Port<Model>*>>(further_count());
  static constexpr unsigned further_count() {
    if constexpr (kHasClocks) return Pins::Clocks::kCount;
    return 0;
  }
  bool clocking_ = false;  // reset is over
  uint64_t cycles_ = 0;
  uint64_t origin_ = 0;
  static constexpr uint64_t kWatchEvery = 16;
  WatchOf<Status> watch_{};
  uint64_t deadlock_at_ = 0;  // the cycle run() found the deadlock rule held (0: never)
  bool timeline_ = false;
};

}  // namespace cosim::tb::harness
