// Verilator's headers go first (in @NAME@_wrapper_model.hpp): seen after <systemc>
// they switch to their SystemC mode, which the Verilated library was not
// built for. No model class here: the wrapper works over any variant.
#include "@NAME@/@NAME@_wrapper_model.hpp"
// (blank line keeps include sorters from moving the above)

#include "@NAME@/@NAME@_wrapper.hpp"

namespace cosim::tb::@NAME@ {

Wrapper::Wrapper(sc_core::sc_module_name name, const TbConfig& cfg, const Build& build)
    : CoreDutWrapper(name, cfg, build.masters), streams_("@NAME@", {}) {
  attach(build.make(axi_ports(), sram_ports(build.srams.size()), cfg));
  streams_ = axis::StreamSet("@NAME@", seam<Impl>().stream_ends());
}

Wrapper::~Wrapper() = default;

bool Wrapper::run_until_irq(uint64_t max_cycles) {
  if (!seam<Impl>().has_irq()) return CoreDutWrapper::run_until_irq(max_cycles);
  const bool seen = seam<Impl>().run_until_irq(max_cycles);
  sync();
  return seen;
}

void Wrapper::stream_send(const std::string& stream, const std::vector<uint8_t>& bytes) {
  streams_.send(stream, bytes);
}

std::vector<uint8_t> Wrapper::stream_receive(const std::string& stream, std::size_t nbytes) {
  std::vector<std::size_t> ends;
  std::vector<uint8_t> got = streams_.receive(stream, nbytes, &received_cycles_, &ends);
  received_ends_ = std::move(ends);
  return got;
}

bool Wrapper::stream_wait(const std::string& stream, std::size_t nbytes, uint64_t max_cycles) {
  const uint64_t end = cycles() + max_cycles;
  bool enough = true;
  const axis::StreamEnd& out = streams_.output(stream);
  while (out.pending_bytes() < nbytes) {
    if (cycles() >= end) {
      enough = false;
      break;
    }
    seam<Impl>().cycle();
  }
  sync();
  return enough;
}

std::string Wrapper::dut_diagnosis() const {
  const std::string streams = streams_.describe();
  return seam<Impl>().diagnosis() + (streams.empty() ? "" : "; " + streams);
}

std::map<std::string, uint64_t> Wrapper::dut_counters() const { return seam<Impl>().counters(); }

std::vector<std::string> Wrapper::dut_errors() const {
  std::vector<std::string> e = seam<Impl>().errors();
  for (std::string& s : streams_.errors()) e.push_back(std::move(s));
  return e;
}

}  // namespace cosim::tb::@NAME@
