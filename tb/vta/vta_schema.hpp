// The scenario keys of the vta target's conv2d and add ops and of its
// `compile` knobs, apart from the backend so that code without SystemC or the
// Verilated core (the scenario fuzzer, tests/fuzz) checks scenarios against
// the same schema the backend uses.
#pragma once

#include "scenario/schema.hpp"

namespace cosim::tb::vta {

// `compile`: threads, tile_rows, tile_cols, oc_blocks, wgt_double_buffer.
scenario::Schema compile_schema();
// The keys of op "add" and of op "conv2d".
scenario::Schema add_schema();
scenario::Schema conv2d_schema();

}  // namespace cosim::tb::vta
