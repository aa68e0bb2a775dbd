// What the engine timeline (tb/timeline) shows of the TF2 engine: the
// controller's phase, the feature and filter loaders, the PE array (busy,
// waiting for filters or for the output slot: the events its own counters
// count) and the writer, and who holds the AXI read port; all read from the
// debug vector dbg_o (tf2.yaml `debug`: dbg_t) the hang diagnosis reads too.
#pragma once

#include <cstdint>
#include <vector>

#include "dut/tf2_regs.hpp"
#include "timeline/timeline.hpp"

namespace cosim::tb::tf2 {

std::vector<timeline::Lane> timeline_lanes();

// The debug vector dbg_o as 32-bit words (word 0 = bits 31:0), the form the
// generated decoder (dut/tf2_regs.hpp: regs::dbg_t, decode_dbg) reads.
struct DbgWords {
  template <class Model>  // a Verilated variant of tf2_top
  explicit DbgWords(const Model& m) : w{static_cast<uint32_t>(m.dbg_o), static_cast<uint32_t>(m.dbg_o >> 32)} {
    static_assert(cosim::tf2::regs::dbg_t::kWords == 2, "dbg_o fits a 64-bit Verilator port");
  }
  uint32_t w[2];
};

struct TimelineProbe {
  template <class Model>
  bool operator()(const Model& m, uint32_t* values) const {
    return (*this)(DbgWords(m), values);
  }
  bool operator()(const DbgWords& d, uint32_t* values) const;  // always true
};

}  // namespace cosim::tb::tf2
