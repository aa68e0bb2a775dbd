// The backends of cosim_notrace: tf2, tinydnn and vta over their Verilated
// variants without tracing (tf2_rtl_notrace, tinydnn_rtl_notrace, vta_rtl),
// the baseline bench_wave measures FST tracing against.
#include "cosim/backend.hpp"
#include "tf2/tf2_backend.hpp"
#include "tinydnn/tinydnn_backend.hpp"
#include "vta/vta_backend.hpp"

class Vtf2_rtl_notrace;
class Vtinydnn_rtl_notrace;
class Vvta_rtl;

void cosim::tb::register_builtin_backends(BackendRegistry& registry) {
  registry.add(backends::make_tf2(tf2::Tf2Builds{&tf2::Tf2CoreOver<Vtf2_rtl_notrace>::build(), nullptr}));
  registry.add(backends::make_tinydnn(
      tinydnn::TinyDnnBuilds{&tinydnn::TinyDnnCoreOver<Vtinydnn_rtl_notrace>::build(), nullptr}));
  registry.add(backends::make_vta(vta::VtaBuilds{&vta::VtaCoreOver<Vvta_rtl>::build(), nullptr}));
}
