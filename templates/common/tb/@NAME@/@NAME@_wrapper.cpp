// Verilator's headers go first (in @NAME@_wrapper_model.hpp): seen after <systemc>
// they switch to their SystemC mode, which the Verilated library was not
// built for. No model class here: the wrapper works over any variant.
#include "@NAME@/@NAME@_wrapper_model.hpp"
// (blank line keeps include sorters from moving the above)

#include "@NAME@/@NAME@_wrapper.hpp"

namespace cosim::tb::@NAME@ {

Wrapper::Wrapper(sc_core::sc_module_name name, const TbConfig& cfg, const Build& build)
    : CoreDutWrapper(name, cfg, build.masters) {
  attach(build.make(axi_ports(), cfg));
}

Wrapper::~Wrapper() = default;

bool Wrapper::run_until_irq(uint64_t max_cycles) {
  if (!seam<Impl>().has_irq()) return CoreDutWrapper::run_until_irq(max_cycles);
  const bool seen = seam<Impl>().run_until_irq(max_cycles);
  sync();
  return seen;
}

std::string Wrapper::dut_diagnosis() const { return seam<Impl>().diagnosis(); }

std::map<std::string, uint64_t> Wrapper::dut_counters() const { return seam<Impl>().counters(); }

std::vector<std::string> Wrapper::dut_errors() const { return seam<Impl>().errors(); }

}  // namespace cosim::tb::@NAME@
