// Every AXI4 master a manifest lists (the generated pins::Top::AxiMasters),
// each bound to its own slave: a wrapper written over the list serves as many
// masters as the manifest names, so a kernel with one, two or four masters
// needs no wrapper code of its own for them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "harness/axi_master_binder.hpp"
#include "harness/bus.hpp"

namespace cosim::tb::harness {

// One AXI4 master of a DUT as the testbench serves it (the manifest's axi4
// interface).
struct AxiMasterSpec {
  std::string name;         // interface name, prefixes its counters when there are several
  uint32_t data_bytes = 0;  // width of its data bus
  uint64_t stall_seed = 0;  // DRAM timing stream of its stall draws (master 0: 0)
};

template <class Model, class List>
class AxiMasterBinders;

template <class Model, class... Bus>
class AxiMasterBinders<Model, BusList<Bus...>> {
 public:
  static constexpr std::size_t kCount = sizeof...(Bus);

  // Each master's name, data width (the model's) and stall stream, in the manifest's order.
  static std::vector<AxiMasterSpec> specs() {
    return {AxiMasterSpec{Bus::kName, static_cast<uint32_t>(AxiMasterBinder<Model, Bus>::kDataBytes),
                          Bus::kStallSeed}...};
  }

  // slaves[i] serves the i-th master of the list.
  explicit AxiMasterBinders(const std::vector<AxiSlavePort*>& slaves)
      : AxiMasterBinders(one_per_interface(slaves, kCount, "AxiMasterBinders", "slaves for", "AXI4 masters"),
                         std::index_sequence_for<Bus...>{}) {}

  // The binders join the core's ports in the manifest's order.
  template <class Core>
  void add_to(Core& core) {
    std::apply([&core](auto&... b) { (core.add_port(b), ...); }, binders_);
  }

 private:
  template <std::size_t... I>
  AxiMasterBinders(const std::vector<AxiSlavePort*>& slaves, std::index_sequence<I...>) : binders_(*slaves[I]...) {}

  std::tuple<AxiMasterBinder<Model, Bus>...> binders_;
};

}  // namespace cosim::tb::harness
