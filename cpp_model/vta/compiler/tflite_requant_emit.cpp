// TfliteRequantProgram -> ALU instructions (see the header).
#include "vta/compiler/tflite_requant_emit.hpp"

#include <stdexcept>

namespace cosim::vta {

uint64_t emit_tflite_requant(ProgramBuilder& b, const TfliteRequantProgram& p, const RqPlacement& at) {
  if (static_cast<int>(at.temps.size()) < p.temps) throw std::logic_error("emit_tflite_requant: temporaries not placed");
  const auto entry = [&](int loc) { return loc == kRqAcc ? at.acc : at.temps[static_cast<std::size_t>(loc)]; };
  std::vector<Uop> uops;
  for (const RqStep& s : p.steps) {
    uint32_t src = 0;
    if (s.src.kind == RqOperand::Kind::kVector) src = at.vectors + static_cast<uint32_t>(s.src.value);
    if (s.src.kind == RqOperand::Kind::kTemp) src = entry(s.src.value);
    if (s.src.kind == RqOperand::Kind::kAcc) src = at.acc;
    uops.push_back(Uop{static_cast<uint16_t>(entry(s.dst)), static_cast<uint16_t>(src), 0});
  }
  const UopRange k = b.load_uops(uops);
  // A per-pixel source moves with the destination; a vector moves by block.
  const Loop outer_pix{at.outer.extent, at.outer.dst_factor, at.outer.dst_factor, 0};
  const Loop inner_pix{at.inner.extent, at.inner.dst_factor, at.inner.dst_factor, 0};
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const RqStep& s = p.steps[i];
    const UopRange one{k.bgn + static_cast<uint32_t>(i), k.bgn + static_cast<uint32_t>(i) + 1};
    const AluOp op = static_cast<AluOp>(s.op);
    if (s.src.kind == RqOperand::Kind::kImm) b.alu_imm(op, s.src.value, one, at.outer, at.inner);
    else if (s.src.kind == RqOperand::Kind::kVector) b.alu_reg(op, one, at.outer, at.inner);
    else b.alu_reg(op, one, outer_pix, inner_pix);
  }
  return static_cast<uint64_t>(p.steps.size()) * at.outer.extent * at.inner.extent;
}

}  // namespace cosim::vta
