// The `tf2` backend (tf2_backend.cpp) over chosen Verilated variants: for
// binaries that run it over others than the product's (tests/wave: the
// variant with an injected bug; bench/wave: the non-tracing one).
#pragma once

#include <memory>

#include "cosim/backend.hpp"
#include "tf2/tf2_wrapper.hpp"

namespace cosim::backends {
// Over tf2_rtl (checked) and tf2_rtl_fast (fast): the product's.
std::unique_ptr<tb::TargetBackend> make_tf2();
// Over `builds` (Tf2CoreOver<V<variant>>::build(), linked from cosim_tf2_core_<variant>).
std::unique_ptr<tb::TargetBackend> make_tf2(const tb::tf2::Tf2Builds& builds);
}  // namespace cosim::backends
