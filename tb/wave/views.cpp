// The prepared GTKWave views, one per DUT: what a reader debugging that
// accelerator looks at first, grouped by unit, as its manifest describes them
// (rtl/<dut>/<dut>.yaml, key `wave`; state names from its enums). Patterns are resolved against
// the FST when the .gtkw is written, so a signal the dump lacks (a shallow
// --trace-depth, a renamed register) is left out instead of breaking the view.
#include <map>

#include "wave/gtkw.hpp"

namespace cosim::wave {

namespace {

using F = Format;

ViewGroup group(std::string name, std::vector<ViewSignal> s, bool collapsed = false) {
  return ViewGroup{std::move(name), std::move(s), collapsed};
}

// AXI4 master ports named <prefix>_<channel><field><suffix> (m_axi_arvalid_o ...).
std::vector<ViewGroup> axi_groups(const std::string& p) {
  return {group("AXI read address",
                {{p + "arvalid_o"}, {p + "arready_i"}, {p + "araddr_o"}, {p + "arlen_o", F::kDec}, {p + "arid_o"}}),
          group("AXI read data", {{p + "rvalid_i"}, {p + "rready_o"}, {p + "rlast_i"}, {p + "rid_i"}, {p + "rresp_i"},
                                  {p + "rdata_i"}}),
          group("AXI write address",
                {{p + "awvalid_o"}, {p + "awready_i"}, {p + "awaddr_o"}, {p + "awlen_o", F::kDec}, {p + "awid_o"}}),
          group("AXI write data", {{p + "wvalid_o"}, {p + "wready_i"}, {p + "wlast_o"}, {p + "wstrb_o"}, {p + "wdata_o"}}),
          group("AXI write response", {{p + "bvalid_i"}, {p + "bready_o"}, {p + "bresp_i"}, {p + "bid_i"}})};
}

// generated_views(): one View per DUT manifest (rtl/<dut>/<dut>.yaml, key
// `wave`), written by scripts/dutgen.py at build time. It uses group(),
// axi_groups() and the types above.
#include "views_gen.inc"

}  // namespace

const View* find_view(const std::string& dut) {
  static const std::map<std::string, View> views = [] {
    std::map<std::string, View> m;
    for (View& v : generated_views()) m.emplace(v.dut, std::move(v));
    return m;
  }();
  const auto it = views.find(dut);
  return it == views.end() ? nullptr : &it->second;
}

}  // namespace cosim::wave
