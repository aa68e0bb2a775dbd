// The backends of cosim_inject_bug: tf2, tinydnn and (COSIM_BUG_VTA) vta over
// the Verilated variants with an injected bug, *_rtl_bug (a wrong output
// element or beat each: the mutants tf2_wave_single_bit,
// tinydnn_wave_single_bit and vta_wave_single_bit of rtl/<dut>/mutants.yaml).
#include "cosim/backend.hpp"
#include "tf2/tf2_backend.hpp"
#include "tinydnn/tinydnn_backend.hpp"
#ifdef COSIM_BUG_VTA
#include "vta/vta_backend.hpp"
#endif

class Vtf2_rtl_bug;
class Vtinydnn_rtl_bug;
class Vvta_rtl_bug;

void cosim::tb::register_builtin_backends(BackendRegistry& registry) {
  registry.add(backends::make_tf2(tf2::Tf2Builds{&tf2::Tf2CoreOver<Vtf2_rtl_bug>::build(), nullptr}));
  registry.add(
      backends::make_tinydnn(tinydnn::TinyDnnBuilds{&tinydnn::TinyDnnCoreOver<Vtinydnn_rtl_bug>::build(), nullptr}));
#ifdef COSIM_BUG_VTA
  registry.add(backends::make_vta(vta::VtaBuilds{&vta::VtaCoreOver<Vvta_rtl_bug>::build(), nullptr}));
#endif
}
