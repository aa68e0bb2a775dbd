// Verilator's headers go first (in @NAME@_wrapper_model.hpp): seen after <systemc>
// they switch to their SystemC mode, which the Verilated library was not
// built for. No model class here: the wrapper works over any variant.
#include "@NAME@/@NAME@_wrapper_model.hpp"
// (blank line keeps include sorters from moving the above)

#include "@NAME@/@NAME@_wrapper.hpp"

namespace cosim::tb::@NAME@ {

Wrapper::Wrapper(sc_core::sc_module_name name, const TbConfig& cfg, const Build& build)
    : AxiDutWrapper(name, cfg, build.masters), impl_(build.make(axi_port(0), axi_port(1), cfg)) {
  impl_->start_timeline([this] { tick(); });
}

Wrapper::~Wrapper() = default;

bool Wrapper::run(uint64_t max_cycles) {
  const bool done = impl_->run_to_done(max_cycles);
  sync();
  return done;
}

bool Wrapper::run_until_irq(uint64_t max_cycles) {
  const bool seen = impl_->run_until_irq(max_cycles);
  sync();
  return seen;
}

uint32_t Wrapper::reg_read(uint32_t offset) { return impl_->reg_read(offset); }
void Wrapper::reg_write(uint32_t offset, uint32_t value) { impl_->reg_write(offset, value); }

std::string Wrapper::dut_diagnosis() const { return impl_->diagnosis(); }

std::map<std::string, uint64_t> Wrapper::dut_counters() const { return impl_->counters(); }

std::vector<std::string> Wrapper::dut_errors() const { return impl_->errors(); }

}  // namespace cosim::tb::@NAME@
