#include "vta/compiler/program_tail.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "ops/add.hpp"
#include "vta/compiler/layout_transform.hpp"

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
  cp.image_base = layout.base();
  return bp;
}

void adopt_program(CompiledProgram& cp, const BuiltProgram& bp, uint64_t dram_base) {
  if (cp.image_base != dram_base) throw std::logic_error("adopt_program: the image starts elsewhere than dram_base");
  place(bp, cp.dram, cp.image_base);
  cp.insns = bp.insns;
  cp.insn_bytes = bp.insn_bytes();
  cp.insn_addr = bp.insn_region.byte_addr;
  cp.insn_count = static_cast<uint32_t>(bp.insns.size());
}

WorkUnit flat_chunk_unit(int64_t k, int64_t e0, int64_t len, int64_t numel, std::string& desc) {
  WorkUnit wu;
  wu.tile = k;
  wu.e0 = e0 * kBlock;
  wu.e1 = std::min(numel, (e0 + len) * kBlock);
  desc = "chunk " + std::to_string(k) + " (elements " + std::to_string(wu.e0) + ".." + std::to_string(wu.e1 - 1) + ")";
  return wu;
}

UopRange add_in_acc(ProgramBuilder& b, uint32_t abase, uint32_t bbase, uint32_t a_elem, uint32_t b_elem,
                    uint32_t len) {
  b.load_1d(MemType::kAcc, abase, a_elem, len);
  b.load_1d(MemType::kAcc, bbase, b_elem, len);
  const UopRange u = b.load_uops({Uop{static_cast<uint16_t>(abase), static_cast<uint16_t>(bbase), 0}});
  b.alu_reg(AluOp::kAdd, u, Loop{len, 1, 1, 0});
  return u;
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

AddExtent check_add_inputs(const Tensor& a, const Tensor& b, const CompileOptions& opt) {
  auto bad = [](const std::string& what) { throw InputError("VTA add compiler: " + what); };
  if (a.dtype() != DType::kInt8 || b.dtype() != DType::kInt8)
    bad(std::string("inputs must be int8, got ") + dtype_name(a.dtype()) + " and " + dtype_name(b.dtype()));
  if (opt.threads != 1 && opt.threads != 2) bad("threads must be 1 or 2, got " + std::to_string(opt.threads));
  if (opt.acc_depth < 2 * static_cast<uint32_t>(opt.threads) || opt.acc_depth > kAccDepth)
    bad("ACC depth option " + std::to_string(opt.acc_depth) + " must be in " + std::to_string(2 * opt.threads) +
        ".." + std::to_string(kAccDepth));
  AddExtent e;
  e.shape = ops::broadcast_shape(a.shape(), b.shape());
  e.numel = 1;
  for (int64_t s : e.shape) e.numel *= s;
  if (e.numel < 1) bad("empty output");
  e.blocks = ceil_div(e.numel, kBlock);
  return e;
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
