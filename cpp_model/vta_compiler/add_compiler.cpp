#include "vta_compiler/add_compiler.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "ops/add.hpp"
#include "vta_compiler/layout_transform.hpp"

namespace cosim::vta {

namespace {

[[noreturn]] void bad(const std::string& what) { throw InputError("VTA add compiler: " + what); }

// Each output element's value of one input after broadcasting, dequantized.
std::vector<int32_t> dequantize_broadcast(const Tensor& t, const std::vector<int64_t>& shape, int64_t padded,
                                          int32_t offset, quant::VtaMultiplier m) {
  std::vector<int32_t> v(static_cast<std::size_t>(padded), 0);
  // One lookup table per int8 value: the dequantization is a pure function.
  int32_t lut[256];
  for (int x = -128; x < 128; ++x) lut[x + 128] = quant::vta_add_dequantize(static_cast<int8_t>(x), offset, m);
  std::vector<int64_t> idx(shape.size(), 0);
  const std::size_t lead = shape.size() - t.rank();
  const int8_t* d = t.data<int8_t>();
  int64_t total = 1;
  for (int64_t s : shape) total *= s;
  for (int64_t i = 0; i < total; ++i) {
    int64_t off = 0;
    for (std::size_t k = 0; k < t.rank(); ++k) off = off * t.dim(k) + (t.dim(k) == 1 ? 0 : idx[lead + k]);
    v[static_cast<std::size_t>(i)] = lut[d[off] + 128];
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  return v;
}

}  // namespace

CompiledProgram compile_add(const Tensor& a, const Tensor& b, const quant::VtaAddParams& p,
                            const CompileOptions& opt) {
  if (a.dtype() != DType::kInt8 || b.dtype() != DType::kInt8)
    bad(std::string("inputs must be int8, got ") + dtype_name(a.dtype()) + " and " + dtype_name(b.dtype()));
  if (opt.threads != 1 && opt.threads != 2) bad("threads must be 1 or 2, got " + std::to_string(opt.threads));
  if (opt.acc_depth < 2 * static_cast<uint32_t>(opt.threads) || opt.acc_depth > kAccDepth)
    bad("ACC depth option " + std::to_string(opt.acc_depth) + " must be in " + std::to_string(2 * opt.threads) +
        ".." + std::to_string(kAccDepth));
  const std::vector<int64_t> shape = ops::broadcast_shape(a.shape(), b.shape());
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  if (numel < 1) bad("empty output");
  const int64_t blocks = ceil_div(numel, kBlock);
  const uint64_t data_bytes = static_cast<uint64_t>(blocks) * (2 * kAccElemBytes + kOutElemBytes);
  if (data_bytes > opt.dram_limit)
    bad(std::to_string(numel) + " elements need " + std::to_string(data_bytes) +
        " bytes of DRAM data, more than the DRAM limit " + std::to_string(opt.dram_limit));
  const int32_t shr = std::min(15 - p.out_multiplier.shift, 31);
  if (shr < -32768 || p.out_zero_point < -32768 || p.out_zero_point > 32767)
    bad("output shift or zero point does not fit an ALU immediate");

  CompiledProgram cp;
  cp.op = "add";
  cp.layout = DramLayout(opt.dram_base);
  DramLayout& layout = cp.layout;
  const DramRegion ra = layout.alloc("input_a", MemType::kAcc, static_cast<uint64_t>(blocks));
  const DramRegion rb = layout.alloc("input_b", MemType::kAcc, static_cast<uint64_t>(blocks));
  const DramRegion ro = layout.alloc("output", MemType::kOut, static_cast<uint64_t>(blocks));

  const int64_t threads = opt.threads;
  const int64_t chunk = opt.acc_depth / (2 * threads);  // ACC entries per input per thread
  ProgramBuilder bld;
  auto note = [&](const WorkUnit& u) {
    while (cp.work.size() < bld.size()) cp.work.push_back(u);
  };
  int64_t k = 0, s2c_popped = 0;
  for (int64_t e0 = 0; e0 < blocks; e0 += chunk, ++k) {
    const int64_t len = std::min(chunk, blocks - e0);
    const int64_t t = k % threads;
    const uint32_t abase = static_cast<uint32_t>(t * 2 * chunk), bbase = static_cast<uint32_t>(abase + chunk);
    WorkUnit wu;
    wu.tile = k;
    wu.e0 = e0 * kBlock;
    wu.e1 = std::min(numel, (e0 + len) * kBlock);
    const std::string desc = "chunk " + std::to_string(k) + " (elements " + std::to_string(wu.e0) + ".." +
                             std::to_string(wu.e1 - 1) + ")";
    if (k >= threads) {
      bld.pop(Engine::kStore, Engine::kCompute);  // ACC half t stored
      ++s2c_popped;
    }
    bld.load_1d(MemType::kAcc, abase, ra.elem(static_cast<uint64_t>(e0)), static_cast<uint32_t>(len));
    bld.load_1d(MemType::kAcc, bbase, rb.elem(static_cast<uint64_t>(e0)), static_cast<uint32_t>(len));
    const UopRange u = bld.load_uops({Uop{static_cast<uint16_t>(abase), static_cast<uint16_t>(bbase), 0}});
    const Loop over{static_cast<uint32_t>(len), 1, 1, 0};
    bld.alu_reg(AluOp::kAdd, u, over);
    bld.alu_imm(AluOp::kMul, p.out_multiplier.multiplier, u, over);
    bld.alu_imm(AluOp::kShr, shr, u, over);
    bld.alu_imm(AluOp::kAdd, p.out_zero_point, u, over);
    bld.alu_imm(AluOp::kMin, 127, u, over);
    bld.alu_imm(AluOp::kMax, -128, u, over);
    cp.alu_uops += static_cast<uint64_t>(6 * len);
    bld.push(Engine::kCompute, Engine::kStore);
    wu.text = desc + ": load and ALU";
    note(wu);
    bld.pop(Engine::kCompute, Engine::kStore);
    bld.store_2d(abase, ro.elem(static_cast<uint64_t>(e0)), 1, static_cast<uint32_t>(len), static_cast<uint32_t>(len));
    WorkUnit su = wu;
    su.stores_output = true;
    su.text = desc + ": store";
    note(su);
    bld.push(Engine::kStore, Engine::kCompute);
    wu.text = desc + ": store sync";
    note(wu);
  }
  WorkUnit tail;
  tail.text = "drain and finish";
  while (s2c_popped < k) {
    bld.pop(Engine::kStore, Engine::kCompute);
    bld.noop(Engine::kCompute);
    ++s2c_popped;
  }
  bld.finish();
  note(tail);
  const BuiltProgram bp = bld.build(layout);
  if (layout.size() > opt.dram_limit)
    bad("the program and data need " + std::to_string(layout.size()) + " bytes of DRAM, more than the DRAM limit " +
        std::to_string(opt.dram_limit));
  cp.dram = layout.make_image();
  write_int32_region(cp.dram, ra, dequantize_broadcast(a, shape, blocks * kBlock, p.a_offset, p.a_multiplier));
  write_int32_region(cp.dram, rb, dequantize_broadcast(b, shape, blocks * kBlock, p.b_offset, p.b_multiplier));
  place(bp, cp.dram);
  cp.start_image_at(opt.dram_base);

  cp.insns = bp.insns;
  cp.insn_bytes = bp.insn_bytes();
  cp.insn_addr = bp.insn_region.byte_addr;
  cp.insn_count = static_cast<uint32_t>(bp.insns.size());
  cp.output.kind = OutputLayout::Kind::kFlat;
  cp.output.byte_addr = ro.byte_addr;
  cp.output.bytes = ro.bytes();
  cp.output.shape = shape;
  cp.tiles = static_cast<uint64_t>(k);
  cp.tiling = std::to_string(k) + " chunk(s) of up to " + std::to_string(chunk * kBlock) + " elements, " +
              std::to_string(threads) + " thread(s)";
  return cp;
}

}  // namespace cosim::vta
