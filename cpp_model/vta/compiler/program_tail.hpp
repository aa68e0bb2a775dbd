// The end every compiled VTA program shares.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vta/program_builder.hpp"
#include "tensor/tensor.hpp"
#include "vta/compiler/compiled_program.hpp"

namespace cosim::vta {

// Ends the stream and builds it: pops the store->compute tokens not consumed
// yet (a COMPUTE no-op carries each), appends FINISH, notes a "drain and
// finish" work unit for what that emitted, builds into `layout` and puts the
// layout's image (from its base address) in `cp.dram` for the data. cosim::InputError "<who>: the
// program and data need N bytes of DRAM, more than the DRAM limit L" when the
// layout outgrows `dram_limit`.
BuiltProgram close_program(ProgramBuilder& b, CompiledProgram& cp, DramLayout& layout, int64_t store_tokens_left,
                           uint64_t dram_limit, const std::string& who);

// Places the instructions and uops into `cp.dram` (the data already
// written; the image starts at `dram_base`, as close_program made it) and
// records the stream in `cp`.
void adopt_program(CompiledProgram& cp, const BuiltProgram& bp, uint64_t dram_base);

// The work unit of flat chunk k (blocks e0 .. e0+len-1 of an output of
// `numel` elements), its text "chunk k (elements a..b)" in `desc`.
WorkUnit flat_chunk_unit(int64_t k, int64_t e0, int64_t len, int64_t numel, std::string& desc);

// COMPUTE loads `len` int32 entries of each operand into ACC at `abase` and
// `bbase` (from DRAM elements `a_elem`, `b_elem`) and adds B into A with one
// ALU instruction; returns its one-uop kernel for the steps that follow.
UopRange add_in_acc(ProgramBuilder& b, uint32_t abase, uint32_t bbase, uint32_t a_elem, uint32_t b_elem, uint32_t len);

// A flat chunk's end (the ADD compilers): COMPUTE hands the chunk to STORE,
// which writes `len` entries from ACC `sram` to DRAM element `dram` and hands
// the ACC half back. `wu` (its text already set) is noted for what COMPUTE
// emitted since the last note; the store and the hand-back get their own.
void store_flat_chunk(ProgramBuilder& b, CompiledProgram& cp, WorkUnit wu, const std::string& desc, uint32_t sram,
                      uint32_t dram, uint32_t len);

// The checks both ADD compilers make on their inputs and options (int8
// inputs, 1 or 2 threads, an ACC depth within the core, a non-empty
// broadcast output; cosim::InputError "VTA add compiler: ..."), and the
// output's shape, element count and 16-element blocks.
struct AddExtent {
  std::vector<int64_t> shape;
  int64_t numel = 0, blocks = 0;
};
AddExtent check_add_inputs(const Tensor& a, const Tensor& b, const CompileOptions& opt);

// An ADD program's flat output region and the chunking it reports
// ("<k> chunk(s) of up to <n> elements, <t> thread(s)").
void set_flat_output(CompiledProgram& cp, const DramRegion& out, const std::vector<int64_t>& shape, int64_t chunks,
                     int64_t chunk_elements, int64_t threads);

}  // namespace cosim::vta
