// The `vta` backend (vta_backend.cpp) over chosen Verilated variants: for
// binaries that run it over others than the product's (tests/wave: the
// variant with an injected bug; bench/wave: the non-tracing one).
#pragma once

#include <memory>

#include "cosim/backend.hpp"
#include "vta/vta_wrapper.hpp"

namespace cosim::backends {
// Over vta_rtl_trace (checked) and vta_rtl_fast (fast): the product's.
std::unique_ptr<tb::TargetBackend> make_vta();
// Over `builds` (VtaCoreOver<V<variant>>::build(), linked from cosim_vta_core_<variant>).
std::unique_ptr<tb::TargetBackend> make_vta(const tb::vta::VtaBuilds& builds);
}  // namespace cosim::backends
