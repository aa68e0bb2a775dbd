// The prepared GTKWave views, one per DUT: what a reader debugging that
// accelerator looks at first, grouped by unit, as its manifest describes them
// (rtl/<dut>/<dut>.yaml, key `wave`; state names from its enums). Patterns are resolved against
// the FST when the .gtkw is written, so a signal the dump lacks (a shallow
// --wave-depth, a renamed register) is left out instead of breaking the view.
#include <map>

#include "wave/gtkw.hpp"

namespace cosim::wave {

namespace {

// generated_views(): one View per DUT manifest (rtl/<dut>/<dut>.yaml, key
// `wave`, and an AXI group set per axi4 interface of `ports`), written by
// scripts/dutgen.py at build time (types from wave/gtkw.hpp).
#include "views_gen.inc"

}  // namespace

namespace {
std::map<std::string, View>& all_views() {
  static std::map<std::string, View> views = [] {
    std::map<std::string, View> m;
    for (View& v : generated_views()) m.emplace(v.dut, std::move(v));
    return m;
  }();
  return views;
}
}  // namespace

const View* find_view(const std::string& dut) {
  const auto it = all_views().find(dut);
  return it == all_views().end() ? nullptr : &it->second;
}

void add_view(View view) {
  const std::string dut = view.dut;
  all_views()[dut] = std::move(view);
}

}  // namespace cosim::wave
