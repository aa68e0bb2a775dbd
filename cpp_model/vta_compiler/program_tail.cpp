#include "vta_compiler/program_tail.hpp"

#include "common/error.hpp"

namespace cosim::vta {

void drain_and_finish(ProgramBuilder& b, int64_t store_tokens_left) {
  for (int64_t i = 0; i < store_tokens_left; ++i) {
    b.pop(Engine::kStore, Engine::kCompute);
    b.noop(Engine::kCompute);
  }
  b.finish();
}

BuiltProgram build_within(const ProgramBuilder& b, DramLayout& layout, uint64_t dram_limit, const std::string& who) {
  BuiltProgram bp = b.build(layout);
  if (layout.size() > dram_limit)
    throw InputError(who + ": the program and data need " + std::to_string(layout.size()) +
                     " bytes of DRAM, more than the DRAM limit " + std::to_string(dram_limit));
  return bp;
}

}  // namespace cosim::vta
