// The backends of `cosim_notrace` (bench/wave): the product's TF2, tiny-dnn
// and VTA backends compiled against models Verilated WITHOUT tracing, to
// measure what the trace-capable product models cost when no FST is asked for.
#include "cosim/backend.hpp"

namespace cosim::backends {
std::unique_ptr<tb::TargetBackend> make_tf2();
std::unique_ptr<tb::TargetBackend> make_tinydnn();
std::unique_ptr<tb::TargetBackend> make_vta();
}  // namespace cosim::backends

void cosim::tb::register_builtin_backends(BackendRegistry& registry) {
  registry.add(cosim::backends::make_tf2());
  registry.add(cosim::backends::make_tinydnn());
  registry.add(cosim::backends::make_vta());
}
