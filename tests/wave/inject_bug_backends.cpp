// The backends of `cosim_inject_bug`, a test-only cosim whose TF2, tiny-dnn
// and VTA models are Verilated with COSIM_INJECT_BUG (a wrong output element
// or beat each, see rtl/tf2/tf2_writer.sv, rtl/tinydnn/tinydnn_post.sv and
// rtl/vta/vta_store.sv).
// The backend sources are the product's, compiled against those models.
#include "cosim/backend.hpp"

namespace cosim::backends {
std::unique_ptr<tb::TargetBackend> make_tf2();
std::unique_ptr<tb::TargetBackend> make_tinydnn();
std::unique_ptr<tb::TargetBackend> make_vta();
}  // namespace cosim::backends

void cosim::tb::register_builtin_backends(BackendRegistry& registry) {
  registry.add(cosim::backends::make_tf2());
  registry.add(cosim::backends::make_tinydnn());
#ifdef COSIM_BUG_VTA
  registry.add(cosim::backends::make_vta());
#endif
}
