// GTKWave save files (.gtkw) written next to an FST: a DUT's prepared view
// (named groups of signals, display formats, translate filters for opcodes
// and FSM states) resolved against the signals the FST really holds, and
// the first-mismatch marker the runner adds after the scoreboard.
//
// FST time: the ruler counts DUT cycles. The FST's unit is 1 ps and a
// cycle takes 1000 of them, so GTKWave's "ns" reads as the cycle number:
// 1000 x cycle is the clock low half (inputs applied), 1000 x cycle + 500
// the high half (after the rising edge). The fine tick is for further
// clocks (a manifest's ports.clocks): each edge of a clock up to 500 times
// as fast as the primary one is shown at its own time. GTKWave has no cycle unit, so the
// tracer also dumps the cycle number itself (kCycleSignal, a 32-bit counter
// in the DUT's top scope) and every view shows it first, in decimal.
//
// Layout: the view fixes GTKWave's window size and pane widths (ViewLayout),
// sizes the signals pane to the longest name and value it shows, and zooms
// so the window it opens on fills the wave pane exactly (no black area past
// the dump's end).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cosim::wave {

enum class Format { kBin, kHex, kDec, kSigned };

struct ViewSignal {
  ViewSignal(std::string p, Format f = Format::kHex, std::string flt = {})  // NOLINT: {"name"} in view tables
      : pattern(std::move(p)), format(f), filter(std::move(flt)) {}
  // Relative to the DUT's top scope, '.'-separated; '*' matches any run of
  // characters (other characters, '[' included, match themselves).
  std::string pattern;
  Format format = Format::kHex;
  std::string filter;  // name of one of View::filters ("" = none)
};

struct ViewGroup {
  std::string name;
  std::vector<ViewSignal> signals;
  bool collapsed = false;
};

struct View {
  std::string dut;   // "tf2", "tinydnn", "vta", "testdut"
  std::string root;  // the DUT's top scope in the FST (the Verilated model's name)
  std::vector<ViewGroup> groups;
  // Translate filters: value -> name (e.g. opcode 2 -> GEMM).
  std::map<std::string, std::map<uint64_t, std::string>> filters;
};

// The view of a DUT wrapper (nullptr when there is none: the .gtkw then
// lists the top-level ports).
const View* find_view(const std::string& dut);
// A view for a DUT built elsewhere (a plugin registers its own).
void add_view(View view);

// FST time of a DUT cycle (clock low half), of the high half, and the unit.
constexpr uint64_t kFstTicksPerCycle = 1000;
constexpr uint64_t fst_time(uint64_t cycle) { return cycle * kFstTicksPerCycle; }
constexpr uint64_t fst_time(uint64_t cycle, unsigned half) { return fst_time(cycle) + half * kFstTicksPerCycle / 2; }
constexpr const char* kFstTimeUnit = "1ps";
// A .gtkw save file gives times ([timestart], markers) in GTKWave's own
// unit, picoseconds, whatever the dump's unit: FST times are scaled by this.
constexpr uint64_t kPsPerFstTick = 1;
// The cycle counter the tracer adds to every FST, in the DUT's top scope
// (<root>.cycle[31:0]; its value at fst_time(c) and fst_time(c, 1) is c).
constexpr const char* kCycleSignal = "cycle";
constexpr int kCycleBits = 32;

// GTKWave's window as a view lays it out, in pixels: the window size, the
// SST (hierarchy) pane and the signals pane; the rest is the wave pane.
struct ViewLayout {
  int window_width = 1600, window_height = 1000;
  int sst_width = 260;
  int signals_width = 360;
  // Window width outside the three panes (pane handles, borders, the wave
  // pane's scrollbar): measured with GTKWave 3.3.118 under Xvfb (40 px),
  // taken 2 px larger so the window shown never falls short of the pane's
  // right edge (make wave-selftest checks the visible range it implies).
  static constexpr int kChrome = 42;
  int wave_width() const { return std::max(100, window_width - sst_width - signals_width - kChrome); }
};
// GTKWave's zoom (the `*` line) that shows `span` FST ticks across
// `wave_px` pixels: zoom z shows 2^-z / 200 ps per pixel, whatever the
// dump's unit (measured with GTKWave 3.3.118).
double zoom_for_span(uint64_t span, int wave_px);
// Picoseconds GTKWave shows across `wave_px` pixels at zoom z.
double visible_ps(double zoom, int wave_px);
// Pixel width GTKWave's signal pane font (the default proportional font)
// takes for `chars` characters, rounded up (digits and capitals are the
// widest): the signals pane is sized with it.
constexpr int kCharPx = 9;
// A group's label in the view: its name, without the parenthesised
// description when the name is longer than kMaxGroupLabel characters (the
// description goes to a [*] comment), so the name column stays narrow.
constexpr std::size_t kMaxGroupLabel = 32;
std::string group_label(const std::string& name);

// "a.b.c[3:0]" -> "a.b.c" (the bit range GTKWave and the FST append).
std::string strip_range(const std::string& name);
// Glob with '*' only.
bool glob_match(const std::string& pattern, const std::string& text);
// Orders names with numbers compared by value (g_pe[2] before g_pe[10]).
bool natural_less(const std::string& a, const std::string& b);

struct ResolvedSignal {
  std::string name;  // full FST name with range, e.g. "tf2.tf2_top.u_ctrl.state_q[2:0]"
  int width = 1;
  Format format = Format::kHex;
  std::string filter;
  // The FST names its values (an SV enum's table): GTKWave shows them with
  // its enum display, which overrides translate filters.
  bool fst_enum = false;
};
struct ResolvedGroup {
  std::string name;
  std::vector<ResolvedSignal> signals;
  bool collapsed = false;
};

// Signals of the FST (full names with ranges, widths) matched against the
// view, group by group, in view order; patterns that match nothing are
// returned in `missing`.
std::vector<ResolvedGroup> resolve_view(const View& view, const std::vector<std::pair<std::string, int>>& fst_signals,
                                        std::vector<std::string>* missing = nullptr);

struct GtkwFile {
  std::string gtkw_path;
  std::string fst_path;
  std::vector<std::string> enum_signals;  // FST names carrying an enum table (fst_vars)
  std::vector<std::string> missing;       // view patterns the dump lacks (listed as comments)
  uint64_t start_time = 0, end_time = 0;  // FST times of the first / last sample
  // Full FST name of the tracer's cycle counter ("" = the dump has none):
  // shown first, in decimal.
  std::string cycle_signal;
};

// The signals pane width for these groups (and the cycle counter): the
// longest displayed name (signal name with range, or group label with its
// brace) plus the widest value GTKWave shows beside it at the marker. A view
// without a marker (GTKWave then shows no values) reserves room for short
// values only; set_gtkw_marker widens the pane to this width.
int signals_width_for(const View& view, const std::vector<ResolvedGroup>& groups, const GtkwFile& f);

// Writes the .gtkw (and one <stem>.<filter>.txt per translate filter used).
void write_gtkw(const GtkwFile& f, const View& view, const std::vector<ResolvedGroup>& groups);

// Puts the primary marker and named marker A (`label`) at `time`, and
// opens the view on 60 cycles either side of it, clipped to the dump and
// zoomed to fill the wave pane. InputError when the file cannot be read /
// written.
void set_gtkw_marker(const std::string& gtkw_path, uint64_t time, const std::string& label);

// <x>.fst -> <x>.gtkw
std::string gtkw_path_for(const std::string& fst_path);

}  // namespace cosim::wave
