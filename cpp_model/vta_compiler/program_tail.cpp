#include "vta_compiler/program_tail.hpp"

#include "common/error.hpp"

namespace cosim::vta {

BuiltProgram close_program(ProgramBuilder& b, CompiledProgram& cp, DramLayout& layout, int64_t store_tokens_left,
                           uint64_t dram_limit, const std::string& who) {
  for (int64_t i = 0; i < store_tokens_left; ++i) {
    b.pop(Engine::kStore, Engine::kCompute);
    b.noop(Engine::kCompute);
  }
  b.finish();
  WorkUnit tail;
  tail.text = "drain and finish";
  while (cp.work.size() < b.size()) cp.work.push_back(tail);
  BuiltProgram bp = b.build(layout);
  if (layout.size() > dram_limit)
    throw InputError(who + ": the program and data need " + std::to_string(layout.size()) +
                     " bytes of DRAM, more than the DRAM limit " + std::to_string(dram_limit));
  cp.dram = layout.make_image();
  return bp;
}

void adopt_program(CompiledProgram& cp, const BuiltProgram& bp, uint64_t dram_base) {
  place(bp, cp.dram);
  cp.start_image_at(dram_base);
  cp.insns = bp.insns;
  cp.insn_bytes = bp.insn_bytes();
  cp.insn_addr = bp.insn_region.byte_addr;
  cp.insn_count = static_cast<uint32_t>(bp.insns.size());
}

void store_flat_chunk(ProgramBuilder& b, CompiledProgram& cp, WorkUnit wu, const std::string& desc, uint32_t sram,
                      uint32_t dram, uint32_t len) {
  auto note = [&](const WorkUnit& u) {
    while (cp.work.size() < b.size()) cp.work.push_back(u);
  };
  b.push(Engine::kCompute, Engine::kStore);
  note(wu);
  b.pop(Engine::kCompute, Engine::kStore);
  b.store_2d(sram, dram, 1, len, len);
  WorkUnit su = wu;
  su.stores_output = true;
  su.text = desc + ": store";
  note(su);
  b.push(Engine::kStore, Engine::kCompute);
  wu.text = desc + ": store sync";
  note(wu);
}

void set_flat_output(CompiledProgram& cp, const DramRegion& out, const std::vector<int64_t>& shape, int64_t chunks,
                     int64_t chunk_elements, int64_t threads) {
  cp.output.kind = OutputLayout::Kind::kFlat;
  cp.output.byte_addr = out.byte_addr;
  cp.output.bytes = out.bytes();
  cp.output.shape = shape;
  cp.tiles = static_cast<uint64_t>(chunks);
  cp.tiling = std::to_string(chunks) + " chunk(s) of up to " + std::to_string(chunk_elements) + " elements, " +
              std::to_string(threads) + " thread(s)";
}

}  // namespace cosim::vta
