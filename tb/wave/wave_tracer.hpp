// FST waveform of one Verilated DUT, for its wrapper's clock loop: opens the
// VerilatedFstC at --wave-from, closes it after --wave-to, limits the
// hierarchy depth (--wave-depth) and the file size (--wave-max-mb), and on
// close writes the DUT's prepared GTKWave view (<x>.gtkw) resolved against
// the signals the file holds. See wave_window.hpp for the rules.
//
// Include after <verilated.h> / <verilated_fst_c.h> and before any SystemC
// header (the wrapper's usual order). Usage in a wrapper:
//   WaveTracer<Vtop> wave_{*ctx_, cfg, "tf2"};   // before the model exists
//   wave_.attach(*m_);
//   m.eval(); wave_.sample(cycle, 0); ... m.eval(); wave_.sample(cycle, 1);
//   ~Wrapper(): wave_.close(); m_->final();
// Costs one predictable branch per sample when no waveform was asked for.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <verilated_fst_c.h>

#include "gtkwave/fstapi.h"
#pragma GCC diagnostic pop

#include <spdlog/spdlog.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/parse_number.hpp"
#include "wave/disk_full.hpp"
#include "tlm/tb_config.hpp"
#include "wave/gtkw.hpp"
#include "wave/wave_window.hpp"

namespace cosim::wave {

// TbConfig's wave_* fields, in WaveSettings' order.
inline WaveSettings wave_settings(const tb::TbConfig& cfg) {
  return WaveSettings{cfg.wave_file, cfg.wave_from, cfg.wave_to, cfg.wave_depth, cfg.wave_max_bytes};
}

// One variable of an FST: full dotted name with its bit range, its width,
// and whether it carries an enum table (an SV enum's value names).
struct FstVar {
  std::string name;
  int width = 1;
  bool is_enum = false;
};

inline std::vector<FstVar> fst_vars(const std::string& path) {
  std::vector<FstVar> out;
  void* ctx = fstReaderOpen(path.c_str());
  if (ctx == nullptr) return out;
  std::vector<std::string> scope;
  bool enum_next = false;  // an enum-table reference precedes its variable
  while (const fstHier* h = fstReaderIterateHier(ctx)) {
    if (h->htyp == FST_HT_SCOPE) {
      scope.emplace_back(h->u.scope.name);
    } else if (h->htyp == FST_HT_UPSCOPE) {
      if (!scope.empty()) scope.pop_back();
    } else if (h->htyp == FST_HT_ATTRBEGIN) {
      enum_next = h->u.attr.typ == FST_AT_MISC && h->u.attr.subtype == FST_MT_ENUMTABLE &&
                  (h->u.attr.name == nullptr || h->u.attr.name[0] == '\0');
    } else if (h->htyp == FST_HT_VAR) {
      FstVar v;
      for (const std::string& sc : scope) v.name += sc + ".";
      // Verilator declares "name [7:0]"; GTKWave names it "name[7:0]".
      for (const char* c = h->u.var.name; *c; ++c) {
        if (*c != ' ') v.name += *c;
      }
      v.width = static_cast<int>(h->u.var.length);
      v.is_enum = enum_next;
      enum_next = false;
      out.push_back(std::move(v));
    }
  }
  fstReaderClose(ctx);
  return out;
}

// Whether a Verilated model was built with --trace-fst (has trace()).
template <class M, class = void>
struct CanTrace : std::false_type {};
template <class M>
struct CanTrace<M, std::void_t<decltype(std::declval<M&>().trace(static_cast<VerilatedFstC*>(nullptr), 0))>>
    : std::true_type {};

template <class Model>
class WaveTracer {
 public:
  static constexpr bool kCanTrace = CanTrace<Model>::value;

  // Before the model is constructed: tracing is switched on in its context.
  // A model built without tracing cannot dump: InputError when a waveform
  // is asked for (the FST code is then not even linked).
  WaveTracer(VerilatedContext& ctx, const tb::TbConfig& cfg, std::string dut)
      : win_(wave_settings(cfg)), dut_(std::move(dut)) {
    if (!win_.enabled()) return;
    if constexpr (!kCanTrace) {
      throw InputError(dut_ + ": this build of the " + dut_ +
                       " model has no FST tracing (Verilated without --trace-fst); run without --wave");
    } else {
      ctx.traceEverOn(true);
    }
  }
  WaveTracer(const WaveTracer&) = delete;
  WaveTracer& operator=(const WaveTracer&) = delete;
  ~WaveTracer() {
    try {
      close();
    } catch (const std::exception& e) {
      spdlog::warn("waveform {}: {}", win_.settings().file, e.what());
    }
  }

  void attach(Model& m) { model_ = &m; }
  bool enabled() const { return win_.enabled(); }

  // After an eval() of cycle `cycle`; half 0 = clock low, 1 = clock high.
  void sample(uint64_t cycle, unsigned half) {
    if constexpr (kCanTrace) {
      if (!win_.enabled()) return;
      step(cycle, half);
    } else {
      (void)cycle, (void)half;
    }
  }

  // After the eval of a further clock's edge (a manifest's ports.clocks)
  // `units_before` ahead of cycle `cycle`'s `half` sample, in units of which
  // a cycle has `units_per_cycle`: dumped at the FST tick it falls in, or the
  // next free one before that sample (else its values show at the sample).
  // Only inside the window.
  void sample_before(uint64_t cycle, unsigned half, uint64_t units_before, uint64_t units_per_cycle) {
    if constexpr (kCanTrace) {
      // Not past the window's last sample: the next one closes it.
      if (!win_.enabled() || win_.state() != WaveWindow::State::kOpen || win_.should_close(cycle)) return;
      const uint64_t ticks = (units_before * kFstTicksPerCycle + units_per_cycle - 1) / units_per_cycle;
      const uint64_t at = fst_time(cycle, half);
      if (ticks == 0 || ticks > at) return;
      // Two edges in one tick: the later one at the next tick, if one is free.
      const uint64_t when = std::max(at - ticks, last_dump_ + 1);
      if (when >= at) return;
      cycle_now_ = static_cast<uint32_t>(std::min<uint64_t>(when / kFstTicksPerCycle, UINT32_MAX));
      last_dump_ = when;
      fst_->dump(when);
    } else {
      (void)cycle, (void)half, (void)units_before, (void)units_per_cycle;
    }
  }

  // Closes the dump (if open) and writes the .gtkw. Idempotent.
  void close() {
    if constexpr (kCanTrace) {
      if (win_.state() != WaveWindow::State::kOpen) return;
      fst_->close();
      win_.closed();
      // Verilator's FST writer ignores failed writes: a disk that is (nearly)
      // full now most likely cut the file short, and reading it back for the
      // view crashes fstapi's reader. The file is named as incomplete
      // (wave_disk_full(): the CLI ends with exit 5) and not read.
      const auto [free, where] = free_space(win_.settings().file);
      if (free < kFullBytes) {
        spdlog::info("waveform {}: {} has {} KB free after the waveform was closed; the FST file is probably "
                      "incomplete",
                      win_.settings().file, where, free >> 10);
        wave_disk_full() = win_.settings().file;
        return;
      }
      write_view();
    }
  }

  // Below this much free space after closing, the waveform is taken as cut short.
  static constexpr uint64_t kFullBytes = uint64_t{1} << 20;
  // The waveform last found cut short by a full disk in this process ("" if
  // none): the CLI turns it into exit 5 (tb/cosim/main.cpp).
  static std::string& wave_disk_full() { return wave_disk_full_flag(); }

  // For the report: first / last cycle dumped, truncation by the size guard
  // (or by the free-space guard).
  std::map<std::string, uint64_t> stats() const {
    if (!win_.ever_opened()) return {};
    return {{"wave_first_cycle", win_.first_cycle()},
            {"wave_last_cycle", win_.last_cycle()},
            {"wave_truncated", win_.truncated() || disk_stopped_ ? 1u : 0u}};
  }

  // Verilator's FST writer ignores failed writes and later reads its own
  // temporary files back through mmap: on a full disk (the waveform's folder
  // or /tmp, where its tmpfile()s live) it dies of SIGBUS. So free space is
  // checked before the dump opens (kMinFreeBytes, else IoError: exit 5) and
  // at every size check (below kReserveBytes the dump stops, as at
  // --wave-max-mb, leaving room for the writer to close the file).
  static constexpr uint64_t kMinFreeBytes = uint64_t{64} << 20;
  static constexpr uint64_t kReserveBytes = uint64_t{32} << 20;
  // The two bounds; COSIM_WAVE_MIN_FREE_BYTES / COSIM_WAVE_RESERVE_BYTES
  // override them (the fault tests drive the FST writer into a full disk).
  static uint64_t bound(const char* env, uint64_t fallback) {
    const char* v = std::getenv(env);
    if (v == nullptr || *v == '\0') return fallback;
    return parse_unsigned(v).value_or(fallback);
  }
  static uint64_t min_free() { return bound("COSIM_WAVE_MIN_FREE_BYTES", kMinFreeBytes); }
  static uint64_t reserve() { return bound("COSIM_WAVE_RESERVE_BYTES", kReserveBytes); }
  // The smaller free space of the waveform's folder and /tmp, with the name
  // of the folder that has it; UINT64_MAX when statvfs fails.
  static std::pair<uint64_t, std::string> free_space(const std::string& file) {
    std::string dir = std::filesystem::path(file).parent_path().string();
    if (dir.empty()) dir = ".";
    std::pair<uint64_t, std::string> best{UINT64_MAX, dir};
    for (const std::string& d : {dir, std::string("/tmp")}) {
      struct statvfs v {};
      if (::statvfs(d.c_str(), &v) != 0) continue;
      const uint64_t bytes = static_cast<uint64_t>(v.f_bavail) * v.f_frsize;
      if (bytes < best.first) best = {bytes, d};
    }
    return best;
  }

 private:
  using FstDeleter = void (*)(VerilatedFstC*);

  bool disk_stopped_ = false;

  void step(uint64_t cycle, unsigned half) {
    if (win_.should_open(cycle)) open(cycle);
    if (win_.state() != WaveWindow::State::kOpen) return;
    if (win_.should_close(cycle)) {
      close();
      return;
    }
    cycle_now_ = static_cast<uint32_t>(std::min<uint64_t>(cycle, UINT32_MAX));
    last_dump_ = fst_time(cycle, half);
    fst_->dump(last_dump_);
    win_.dumped(cycle);
    // Size guard: the writer emits a flushed block at its next sample, so
    // flush at a checkpoint and read the size one sample later.
    if (stop_pending_ && half == 1) {  // the cycle is complete in the file
      spdlog::warn("waveform {}: {} MB reached at cycle {}, dumping stopped (--wave-max-mb; narrow the window "
                   "with --wave-from / --wave-to or --wave-depth)",
                   win_.settings().file, win_.settings().max_bytes >> 20, cycle);
      close();
      return;
    }
    if (measure_next_) {
      const auto [free, where] = free_space(win_.settings().file);
      if (free < reserve()) {
        spdlog::warn("waveform {}: {} has {} MB free at cycle {}, dumping stopped (the FST writer needs room to "
                     "close the file)",
                     win_.settings().file, where, free >> 20, cycle);
        disk_stopped_ = true;
        close();
        return;
      }
      measure_next_ = false;
      std::error_code ec;
      uint64_t bytes = std::filesystem::file_size(win_.settings().file, ec);
      if (ec) bytes = 0;
      spdlog::debug("waveform {}: {} bytes at cycle {}", win_.settings().file, bytes, cycle);
      if (win_.check_size(cycle, bytes)) stop_pending_ = true;
    } else if (half == 1 && win_.size_check_due(cycle)) {
      fst_->flush();
      measure_next_ = true;
    }
  }

  void open(uint64_t cycle) {
    const WaveSettings& s = win_.settings();
    fst_ = std::unique_ptr<VerilatedFstC, FstDeleter>(new VerilatedFstC, [](VerilatedFstC* f) { delete f; });
    model_->trace(fst_.get(), 99);  // Verilator 5 ignores the level here; dumpvars selects
    // The cycle counter (kCycleSignal), declared and dumped beside the model's signals.
    fst_->spTrace()->addInitCb(&WaveTracer::cycle_init, this);
    fst_->spTrace()->addFullCb(&WaveTracer::cycle_full, this);
    fst_->spTrace()->addChgCb(&WaveTracer::cycle_chg, this);
    if (s.depth > 0) fst_->dumpvars(s.depth, model_->name());
    std::error_code ec;
    const auto dir = std::filesystem::path(s.file).parent_path();
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
    const auto [free, where] = free_space(s.file);
    if (free < min_free()) {
      throw IoError(s.file + ": " + where + " has " + std::to_string(free >> 20) + " MB free; an FST waveform needs " +
                    std::to_string(min_free() >> 20) +
                    " MB free there (Verilator's FST writer cannot survive a full disk): free space or run without "
                    "--trace");
    }
    fst_->set_time_unit(kFstTimeUnit);  // the ruler counts cycles (gtkw.hpp)
    fst_->set_time_resolution(kFstTimeUnit);
    fst_->open(s.file.c_str());
    if (!fst_->isOpen()) throw InputError(s.file + ": cannot create the FST waveform");
    win_.opened(cycle);
    spdlog::info("waveform {}: opened at cycle {}", s.file, cycle);
  }

  // Verilator's trace callbacks for the cycle counter: <model>.cycle[31:0]
  // in the DUT's top scope (one level deep, so any --wave-depth keeps it),
  // holding the cycle of each sample.
  static void cycle_init(void* self, VerilatedFst* t, uint32_t code) {
    auto* w = static_cast<WaveTracer*>(self);
    w->cycle_code_ = code;
    t->pushNamePrefix(std::string(w->model_->name()) + ' ');
    t->declBus(code, kCycleSignal, -1, FST_VD_IMPLICIT, FST_VT_SV_LOGIC, false, -1, kCycleBits - 1, 0);
    t->popNamePrefix();
  }
  static void cycle_full(void* self, VerilatedFst::Buffer* b) {
    auto* w = static_cast<WaveTracer*>(self);
    b->fullIData(b->oldp(w->cycle_code_), w->cycle_now_, kCycleBits);
  }
  static void cycle_chg(void* self, VerilatedFst::Buffer* b) {
    auto* w = static_cast<WaveTracer*>(self);
    b->chgIData(b->oldp(w->cycle_code_), w->cycle_now_, kCycleBits);
  }

  void write_view() {
    const WaveSettings& s = win_.settings();
    const std::vector<FstVar> vars = fst_vars(s.file);
    std::vector<std::pair<std::string, int>> signals;
    std::vector<std::string> enums;
    for (const FstVar& v : vars) {
      signals.emplace_back(v.name, v.width);
      if (v.is_enum) enums.push_back(v.name);
    }
    const std::string cycle = std::string(model_->name()) + "." + kCycleSignal + "[" + std::to_string(kCycleBits - 1) + ":0]";
    const bool has_cycle = std::any_of(vars.begin(), vars.end(), [&](const FstVar& v) { return v.name == cycle; });
    View fallback;
    const View* view = find_view(dut_);
    if (view == nullptr) {
      fallback.dut = dut_;
      fallback.root = model_->name();
      // No prepared view: the top-level ports.
      ViewGroup ports{"top-level ports", {}, false};
      const std::string prefix = fallback.root + ".";
      for (const auto& sig : signals) {
        const std::string rest = strip_range(sig.first).substr(std::min(prefix.size(), sig.first.size()));
        if (sig.first.rfind(prefix, 0) == 0 && rest.find('.') == std::string::npos && sig.first != cycle) {
          ports.signals.push_back({rest});
        }
      }
      fallback.groups.push_back(std::move(ports));
      view = &fallback;
    }
    std::vector<std::string> missing;
    const auto groups = resolve_view(*view, signals, &missing);
    for (const auto& m : missing) spdlog::debug("waveform view: {} not in the dump", m);
    GtkwFile f;
    f.missing = missing;
    f.fst_path = s.file;
    f.gtkw_path = gtkw_path_for(s.file);
    f.start_time = fst_time(win_.first_cycle());
    f.end_time = fst_time(win_.last_cycle(), 1);
    f.enum_signals = enums;
    if (has_cycle) f.cycle_signal = cycle;
    write_gtkw(f, *view, groups);
  }

  WaveWindow win_;
  std::string dut_;
  Model* model_ = nullptr;
  std::unique_ptr<VerilatedFstC, FstDeleter> fst_{nullptr, [](VerilatedFstC*) {}};
  bool measure_next_ = false;
  bool stop_pending_ = false;
  uint32_t cycle_code_ = 0;  // the cycle counter's trace code
  uint64_t last_dump_ = 0;    // the FST time of the last dump
  uint32_t cycle_now_ = 0;   // its value at the sample being dumped
};

}  // namespace cosim::wave
