// The end every compiled VTA program shares.
#pragma once

#include <cstdint>
#include <string>

#include "vta/program_builder.hpp"

namespace cosim::vta {

// Pops the store->compute tokens the stream has not consumed yet (a COMPUTE
// no-op carries each), then appends FINISH.
void drain_and_finish(ProgramBuilder& b, int64_t store_tokens_left);

// Builds the stream into `layout`; cosim::InputError "<who>: the program and
// data need N bytes of DRAM, more than the DRAM limit L" when the layout
// outgrows `dram_limit`.
BuiltProgram build_within(const ProgramBuilder& b, DramLayout& layout, uint64_t dram_limit, const std::string& who);

}  // namespace cosim::vta
