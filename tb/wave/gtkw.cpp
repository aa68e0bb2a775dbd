#include "wave/gtkw.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "common/error.hpp"
#include "common/file_io.hpp"

namespace fs = std::filesystem;

namespace cosim::wave {

namespace {

// GTKWave trace flags (bit positions of its TraceEntFlagBits).
// GTKWave's enum display (TR_ENUM, bit 32 of the trace flags): names from the
// FST's enum table, matched against the value in binary.
constexpr uint64_t kEnum = uint64_t{1} << 32;
constexpr unsigned kHex = 1u << 1, kDec = 1u << 2, kBin = 1u << 3, kRjustify = 1u << 5, kBlank = 1u << 9,
                   kSigned = 1u << 10, kCollapsed = 1u << 12, kFileTranslated = 1u << 13, kClosed = 1u << 22,
                   kGroupBegin = 1u << 23, kGroupEnd = 1u << 24;
constexpr int kNamedMarkers = 26;  // A..Z
// Value widths the signals pane reserves (characters after the '='): an
// FST enum name (the tracer does not read the names), and at most.
constexpr std::size_t kEnumValueChars = 12, kMaxValueChars = 34;
// GTKWave shows values only at the primary marker: a view without one
// reserves room for short values only (a 32-bit word, a state name), so
// the waves get the width; the marker widens the pane to the widest value.
constexpr std::size_t kUnmarkedValueChars = 12;
// A comment carries the pane width at a marker to set_gtkw_marker:
// "[*] signals pane at a marker: N px".
// GTKWave's own padding around the name column (its signal window asks for
// the longest name + 30 px) and around the value column (2 x 3 + 2 x 3 px).
constexpr int kNamePadPx = 30, kValuePadPx = 12;

std::string flags(uint64_t f) {
  char b[24];
  std::snprintf(b, sizeof b, "@%llx", static_cast<unsigned long long>(f));
  return b;
}

unsigned format_flags(Format f) {
  switch (f) {
    case Format::kBin: return kBin | kRjustify;
    case Format::kDec: return kDec | kRjustify;
    case Format::kSigned: return kDec | kSigned | kRjustify;
    case Format::kHex: break;
  }
  return kHex | kRjustify;
}

std::string marker_line(double zoom, int64_t primary, int64_t named_a) {
  std::ostringstream os;
  char z[32];
  std::snprintf(z, sizeof z, "%.6f", zoom);
  os << "*" << z << " " << primary << " " << named_a;
  for (int i = 1; i < kNamedMarkers; ++i) os << " -1";
  return os.str();
}

// GTKWave names a one-bit vector "x [0:0]" of the FST as "x[0]".
std::string gtkwave_name(const std::string& name) {
  const auto open = name.rfind('[');
  const auto colon = name.rfind(':');
  if (open == std::string::npos || colon == std::string::npos || colon < open || name.back() != ']') return name;
  const std::string msb = name.substr(open + 1, colon - open - 1);
  const std::string lsb = name.substr(colon + 1, name.size() - colon - 2);
  return msb == lsb ? name.substr(0, open) + "[" + msb + "]" : name;
}

// The last component of a displayed name, as GTKWave's signals pane shows it.
std::string shown_name(const std::string& name) {
  const std::string g = gtkwave_name(name);
  const auto open = g.find('[');
  const auto dot = g.rfind('.', open == std::string::npos ? std::string::npos : open);
  return dot == std::string::npos ? g : g.substr(dot + 1);
}

// Characters GTKWave prints for a value of this signal (without the '=').
std::size_t value_chars(const ResolvedSignal& s, const View& view, bool fst_enum) {
  if (s.width <= 1) return 1;
  std::size_t n = 0;
  if (fst_enum) {
    n = kEnumValueChars;
  } else if (!s.filter.empty() && view.filters.count(s.filter)) {
    for (const auto& [value, text] : view.filters.at(s.filter)) n = std::max(n, text.size());
    n = std::max<std::size_t>(n, (s.width + 3) / 4);  // unnamed values print in hex
  } else {
    const int w = s.width;
    switch (s.format) {
      case Format::kBin: n = static_cast<std::size_t>(w); break;
      case Format::kHex: n = static_cast<std::size_t>((w + 3) / 4); break;
      case Format::kDec: n = static_cast<std::size_t>(std::ceil(w * std::log10(2.0))); break;
      case Format::kSigned: n = static_cast<std::size_t>(std::ceil((w - 1) * std::log10(2.0))) + 1; break;
    }
  }
  return std::min(n, kMaxValueChars);
}

bool is_fst_enum(const GtkwFile& f, const ResolvedSignal& s) {
  return s.width > 1 && std::find(f.enum_signals.begin(), f.enum_signals.end(), s.name) != f.enum_signals.end();
}

std::string filter_path(const std::string& gtkw_path, const std::string& filter) {
  fs::path p(gtkw_path);
  return (p.parent_path() / (p.stem().string() + "." + filter + ".txt")).string();
}

std::string absolute(const std::string& p) {
  std::error_code ec;
  const fs::path a = fs::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

}  // namespace

double zoom_for_span(uint64_t span, int wave_px) {
  return -std::log2(200.0 * kPsPerFstTick * std::max<double>(1.0, static_cast<double>(span)) /
                    static_cast<double>(std::max(1, wave_px)));
}

double visible_ps(double zoom, int wave_px) { return wave_px * std::exp2(-zoom) / 200.0; }

std::string group_label(const std::string& name) {
  if (name.size() <= kMaxGroupLabel) return name;
  const auto p = name.find(" (");
  return p == std::string::npos || p == 0 ? name : name.substr(0, p);
}

namespace {

int signals_width_capped(const View& view, const std::vector<ResolvedGroup>& groups, const GtkwFile& f,
                         std::size_t value_cap) {
  std::size_t name = 0, value = 0;
  if (!f.cycle_signal.empty()) {
    name = shown_name(f.cycle_signal).size();
    value = 10;  // 2^32 - 1
  }
  for (const ResolvedGroup& g : groups) {
    name = std::max(name, group_label(g.name).size() + 2);  // "name {" and "} name"
    for (const ResolvedSignal& s : g.signals) {
      name = std::max(name, shown_name(s.name).size());
      value = std::max(value, value_chars(s, view, is_fst_enum(f, s)));
    }
  }
  value = std::min(value, value_cap);
  return static_cast<int>(name) * kCharPx + kNamePadPx + static_cast<int>(value + 1) * kCharPx + kValuePadPx;
}

}  // namespace

int signals_width_for(const View& view, const std::vector<ResolvedGroup>& groups, const GtkwFile& f) {
  return signals_width_capped(view, groups, f, kMaxValueChars);
}

std::string strip_range(const std::string& name) {
  if (name.empty() || name.back() != ']') return name;
  const auto open = name.rfind('[');
  if (open == std::string::npos) return name;
  // A bit range has a colon; an array index ("bias_q[0]") is part of the name.
  if (name.find(':', open) == std::string::npos) return name;
  return name.substr(0, open);
}

bool glob_match(const std::string& pattern, const std::string& text) {
  // Iterative '*' matcher with backtracking to the last star.
  std::size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      const unsigned long long va = std::stoull(a.substr(i, ie - i));
      const unsigned long long vb = std::stoull(b.substr(j, je - j));
      if (va != vb) return va < vb;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return (a.size() - i) < (b.size() - j);
}

std::vector<ResolvedGroup> resolve_view(const View& view, const std::vector<std::pair<std::string, int>>& fst_signals,
                                        std::vector<std::string>* missing) {
  std::vector<ResolvedGroup> out;
  for (const ViewGroup& g : view.groups) {
    ResolvedGroup rg{g.name, {}, g.collapsed};
    for (const ViewSignal& s : g.signals) {
      const std::string full = view.root + "." + s.pattern;
      std::vector<std::pair<std::string, int>> hits;
      for (const auto& [name, width] : fst_signals) {
        if (glob_match(full, strip_range(name))) hits.emplace_back(name, width);
      }
      if (hits.empty() && missing != nullptr) missing->push_back(full);
      std::stable_sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return natural_less(a.first, b.first); });
      for (const auto& [name, width] : hits) {
        // A 1-bit signal reads best as a line, whatever the view says.
        const Format f = width == 1 ? Format::kBin : s.format;
        rg.signals.push_back({name, width, f, s.filter});
      }
    }
    if (!rg.signals.empty()) out.push_back(std::move(rg));
  }
  return out;
}

void write_gtkw(const GtkwFile& f, const View& view, const std::vector<ResolvedGroup>& groups) {
  ViewLayout layout;
  layout.signals_width = signals_width_capped(view, groups, f, kUnmarkedValueChars);
  std::ostringstream os;
  os << "[*] cosim prepared view of the " << view.dut << " DUT (generated by tb/wave; reopen with gtkwave -a)\n";
  os << "[*] the ruler counts DUT cycles: 1 ns = 1 cycle (FST unit 100 ps; the clock's low half at 10 x cycle);"
        " the first trace, cycle, is the cycle number\n";
  os << "[*] window: cycles " << f.start_time / kFstTicksPerCycle << " .. " << f.end_time / kFstTicksPerCycle << "\n";
  os << "[*] dump: FST times " << f.start_time << " .. " << f.end_time << "\n";
  for (const ResolvedGroup& g : groups) {
    if (group_label(g.name) != g.name) os << "[*] group " << group_label(g.name) << ": " << g.name << "\n";
  }
  for (const std::string& m : f.missing) os << "[*] not in the dump: " << m << "\n";
  os << "[*] signals pane at a marker: " << signals_width_for(view, groups, f) << " px\n";
  os << "[dumpfile] \"" << absolute(f.fst_path) << "\"\n";
  os << "[savefile] \"" << absolute(f.gtkw_path) << "\"\n";
  os << "[timestart] " << f.start_time * kPsPerFstTick << "\n";
  os << "[size] " << layout.window_width << " " << layout.window_height << "\n[pos] -1 -1\n";
  // The dumped window fills the wave pane: it ends at the last sample.
  os << marker_line(zoom_for_span(f.end_time - f.start_time, layout.wave_width()), -1, -1) << "\n";
  os << "[treeopen] " << view.root << ".\n";
  os << "[sst_width] " << layout.sst_width << "\n[signals_width] " << layout.signals_width
     << "\n[sst_expanded] 1\n[sst_vpaned_height] 300\n";
  if (!f.cycle_signal.empty()) os << flags(kDec | kRjustify) << "\n" << gtkwave_name(f.cycle_signal) << "\n";
  std::map<std::string, int> filter_ids;
  for (const ResolvedGroup& g : groups) {
    const std::string label = group_label(g.name);
    os << flags(kBlank | kGroupBegin | (g.collapsed ? kCollapsed | kClosed : 0u)) << "\n-" << label << "\n";
    for (const ResolvedSignal& s : g.signals) {
      uint64_t fl = format_flags(s.format);
      if (is_fst_enum(f, s)) {
        fl = kEnum | kBin | kRjustify;
      } else if (!s.filter.empty() && view.filters.count(s.filter)) {
        auto [it, fresh] = filter_ids.emplace(s.filter, static_cast<int>(filter_ids.size()) + 1);
        const std::string path = filter_path(f.gtkw_path, s.filter);
        if (fresh) {
          // Values as GTKWave prints them in hex: zero-padded to the width, upper case.
          std::ostringstream ff;
          const int digits = std::max(1, (s.width + 3) / 4);
          for (const auto& [value, text] : view.filters.at(s.filter)) {
            char b[40];
            std::snprintf(b, sizeof b, "%0*llX", digits, static_cast<unsigned long long>(value));
            ff << b << " " << text << "\n";
          }
          write_file_atomic(path, ff.str());
        }
        os << "^" << it->second << " " << absolute(path) << "\n";
        fl = kHex | kRjustify | kFileTranslated;
      }
      os << flags(fl) << "\n" << gtkwave_name(s.name) << "\n";
    }
    os << flags(kBlank | kGroupEnd) << "\n-" << label << "\n";
  }
  write_file_atomic(f.gtkw_path, os.str());
}

namespace {

// The trace flags of a "@hex" line (0 for any other line).
uint64_t line_flags(const std::string& l) {
  return l.size() > 1 && l[0] == '@' ? std::strtoull(l.c_str() + 1, nullptr, 16) : 0;
}

// The words of `text` written in capitals (an engine or opcode a unit of
// work names: "instruction 54: STORE OUT ..." -> store, out), lower-cased.
std::set<std::string> capital_words(const std::string& text) {
  std::set<std::string> words;
  std::string w;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ' ';
    if (std::isupper(static_cast<unsigned char>(c)) || (!w.empty() && std::isalnum(static_cast<unsigned char>(c)))) {
      w += c;
      continue;
    }
    if (w.size() >= 3 && std::all_of(w.begin(), w.end(), [](char ch) { return !std::islower(static_cast<unsigned char>(ch)); })) {
      std::string lower;
      for (char ch : w) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      words.insert(lower);
    }
    w.clear();
  }
  return words;
}

// The top-level groups whose name starts with a word the label writes in
// capitals (VTA's "store engine" for a STORE instruction) move to the top:
// the engine behind the divergence is the first thing the view shows.
std::vector<std::string> divergence_group_first(const std::vector<std::string>& lines, const std::string& label) {
  const std::set<std::string> words = capital_words(label);
  std::vector<std::string> head, tail;
  std::vector<std::vector<std::string>> groups;
  std::size_t i = 0;
  for (; i < lines.size() && !(line_flags(lines[i]) & kGroupBegin); ++i) head.push_back(lines[i]);
  while (i < lines.size() && (line_flags(lines[i]) & kGroupBegin)) {
    std::vector<std::string> g;
    int depth = 0;
    for (; i < lines.size(); ++i) {
      g.push_back(lines[i]);
      const uint64_t f = line_flags(lines[i]);
      depth += (f & kGroupBegin) ? 1 : (f & kGroupEnd) ? -1 : 0;
      if ((f & kGroupEnd) && depth == 0) {
        if (i + 1 < lines.size()) g.push_back(lines[++i]);  // the end's "-name" line
        ++i;
        break;
      }
    }
    groups.push_back(std::move(g));
  }
  for (; i < lines.size(); ++i) tail.push_back(lines[i]);
  const auto first_word = [](const std::vector<std::string>& g) {
    std::string name = g.size() > 1 && !g[1].empty() && g[1][0] == '-' ? g[1].substr(1) : "";
    std::string w;
    for (char c : name) {
      if (!std::isalnum(static_cast<unsigned char>(c))) break;
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return w;
  };
  std::stable_partition(groups.begin(), groups.end(),
                        [&](const std::vector<std::string>& g) { return words.count(first_word(g)) > 0; });
  std::vector<std::string> out = head;
  for (const auto& g : groups) out.insert(out.end(), g.begin(), g.end());
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

}  // namespace

void set_gtkw_marker(const std::string& gtkw_path, uint64_t time, const std::string& label) {
  std::ifstream in(gtkw_path);
  if (!in) throw InputError(gtkw_path + ": cannot read the GTKWave save file");
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("[markername]", 0) == 0) continue;  // replaced below
    lines.push_back(l);
  }
  in.close();
  lines = divergence_group_first(lines, label);
  // The layout and the dump's extent the writer recorded.
  ViewLayout layout;
  unsigned long long first = 0, last = UINT64_MAX;
  for (const std::string& l : lines) {
    std::sscanf(l.c_str(), "[*] dump: FST times %llu .. %llu", &first, &last);
    std::sscanf(l.c_str(), "[size] %d %d", &layout.window_width, &layout.window_height);
    std::sscanf(l.c_str(), "[sst_width] %d", &layout.sst_width);
    std::sscanf(l.c_str(), "[signals_width] %d", &layout.signals_width);
  }
  // With the marker GTKWave shows each value: the pane widens to the widest.
  for (const std::string& l : lines) {
    std::sscanf(l.c_str(), "[*] signals pane at a marker: %d px", &layout.signals_width);
  }
  // Show about 60 cycles on each side of the marker, within the dump, across the whole wave pane.
  constexpr uint64_t kSide = 60 * kFstTicksPerCycle;
  const uint64_t lo = std::max<uint64_t>(first, time > kSide ? time - kSide : 0);
  const uint64_t hi = std::max<uint64_t>(lo + 1, std::min<uint64_t>(last, time + kSide));
  std::ostringstream os;
  for (const std::string& l : lines) {
    if (l.rfind("[timestart]", 0) == 0) {
      os << "[timestart] " << lo * kPsPerFstTick << "\n";
    } else if (l.rfind("[signals_width]", 0) == 0) {
      os << "[signals_width] " << layout.signals_width << "\n";
    } else if (!l.empty() && l[0] == '*' && l.rfind("[*]", 0) != 0) {
      const auto marker_ps = static_cast<int64_t>(time * kPsPerFstTick);
      os << marker_line(zoom_for_span(hi - lo, layout.wave_width()), marker_ps, marker_ps) << "\n";
      std::string clean = label;
      std::replace(clean.begin(), clean.end(), '\n', ' ');
      os << "[markername] A" << clean << "\n";
    } else {
      os << l << "\n";
    }
  }
  write_file_atomic(gtkw_path, os.str());
}

std::string gtkw_path_for(const std::string& fst_path) {
  fs::path p(fst_path);
  if (p.extension() == ".fst") return p.replace_extension(".gtkw").string();
  return fst_path + ".gtkw";
}

}  // namespace cosim::wave
