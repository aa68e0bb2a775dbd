// The `tinydnn` backend (tinydnn_backend.cpp) over chosen Verilated
// variants: for binaries that run it over others than the product's
// (tests/wave: the variant with an injected bug; bench/wave: the
// non-tracing one).
#pragma once

#include <memory>

#include "cosim/backend.hpp"
#include "tinydnn/tinydnn_wrapper.hpp"

namespace cosim::backends {
// Over tinydnn_rtl (checked) and tinydnn_rtl_fast (fast): the product's.
std::unique_ptr<tb::TargetBackend> make_tinydnn();
// Over `builds` (TinyDnnCoreOver<V<variant>>::build(), linked from cosim_tinydnn_core_<variant>).
std::unique_ptr<tb::TargetBackend> make_tinydnn(const tb::tinydnn::TinyDnnBuilds& builds);
}  // namespace cosim::backends
