#include "vta_compiler/add_compiler.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "ops/add.hpp"
#include "vta_compiler/add_operands.hpp"
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

// ACC entries per chunk on the GEMM path (add_operands.hpp). Per entry COMPUTE
// runs 7 uops (reset, GEMM, 5 ALU), LOAD moves 4 beats of operands and STORE
// 1, so COMPUTE is the bottleneck once the chunks overlap. Not hidden: the
// first chunk's load and the last chunk's store (about 5 cycles per entry of
// a chunk) and the instructions' own start and drain (about 40 cycles per
// chunk). N entries in chunks of c cost about 5c + 40 N / c: c = sqrt(8 N).
// Multiples of kSlots keep chunks on WGT entry boundaries.
int64_t gemm_chunk(int64_t blocks, int64_t acc_per_thread, int64_t wgt_per_thread) {
  constexpr int64_t s = add_operands::kSlots;
  const int64_t most = std::min(acc_per_thread, s * wgt_per_thread);
  if (most < s) return wgt_per_thread >= 2 ? most : 1;  // tiny test buffers: a chunk may straddle two WGT entries
  const int64_t best = static_cast<int64_t>(std::sqrt(8.0 * static_cast<double>(blocks)));
  return std::clamp(best / s * s, s, most / s * s);
}

// The output program on ACC entries holding A' + B': MUL, SHR, ADD zp, clamp.
void requantize(ProgramBuilder& bld, const quant::VtaAddParams& p, int32_t shr, UopRange u, const Loop& over) {
  bld.alu_imm(AluOp::kMul, p.out_multiplier.multiplier, u, over);
  bld.alu_imm(AluOp::kShr, shr, u, over);
  bld.alu_imm(AluOp::kAdd, p.out_zero_point, u, over);
  bld.alu_imm(AluOp::kMin, 127, u, over);
  bld.alu_imm(AluOp::kMax, -128, u, over);
}
constexpr uint64_t kRequantUops = 5;

// GEMM micro-ops adding entries [e0, e0 + len) of the WGT operand image
// (WGT entry g0 = e0 / kSlots loaded at wbase) into ACC from abase: whole WGT
// entries with one 4-uop kernel and an outer loop, partial ones (chunk ends
// off an entry boundary) with a kernel of their own.
void gemm_operands(ProgramBuilder& bld, int64_t e0, int64_t len, uint32_t abase, uint32_t wbase) {
  constexpr int64_t s = add_operands::kSlots;
  for (int64_t e = e0; e < e0 + len;) {
    const int64_t slot = e % s, left = e0 + len - e;
    const int64_t groups = slot == 0 && left >= s ? left / s : 1;
    const int64_t uops = slot == 0 && left >= s ? s : std::min(s - slot, left);
    std::vector<Uop> k;
    for (int64_t q = 0; q < uops; ++q)
      k.push_back(Uop{static_cast<uint16_t>(abase + (e - e0) + q), static_cast<uint16_t>(slot + q),
                      static_cast<uint16_t>(wbase + e / s - e0 / s)});
    bld.gemm(bld.load_uops(k), Loop{static_cast<uint32_t>(groups), static_cast<uint32_t>(s), 0, 1});
    e += groups * uops;
  }
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
  const int32_t shr = std::min(15 - p.out_multiplier.shift, 31);
  if (shr < -32768 || p.out_zero_point < -32768 || p.out_zero_point > 32767)
    bad("output shift or zero point does not fit an ALU immediate");

  const std::vector<int32_t> va = dequantize_broadcast(a, shape, blocks * kBlock, p.a_offset, p.a_multiplier);
  const std::vector<int32_t> vb = dequantize_broadcast(b, shape, blocks * kBlock, p.b_offset, p.b_multiplier);
  const int64_t threads = opt.threads;
  // Operands as GEMM data (add_operands.hpp) when every value splits into two
  // bytes and the buffers hold the selectors and a WGT entry per thread;
  // otherwise both are loaded into ACC as int32 (COMPUTE moves them, 128
  // bytes per entry, and adds them with an ALU ADD).
  std::optional<std::vector<int8_t>> wgt;
  if (opt.inp_depth >= add_operands::kSlots && opt.wgt_depth >= static_cast<uint32_t>(threads))
    wgt = add_operands::pack(va, vb);
  const bool gemm = wgt.has_value();
  const uint64_t data_bytes = gemm ? add_operands::kSlots * kInpElemBytes + wgt->size() + blocks * kOutElemBytes
                                   : static_cast<uint64_t>(blocks) * (2 * kAccElemBytes + kOutElemBytes);
  if (data_bytes > opt.dram_limit)
    bad(std::to_string(numel) + " elements need " + std::to_string(data_bytes) +
        " bytes of DRAM data, more than the DRAM limit " + std::to_string(opt.dram_limit));

  CompiledProgram cp;
  cp.op = "add";
  cp.layout = DramLayout(opt.dram_base);
  DramLayout& layout = cp.layout;
  DramRegion ra, rb, rsel, rwgt;
  if (gemm) {
    rsel = layout.alloc("selectors", MemType::kInp, add_operands::kSlots);
    rwgt = layout.alloc("operands", MemType::kWgt, wgt->size() / kWgtElemBytes);
  } else {
    ra = layout.alloc("input_a", MemType::kAcc, static_cast<uint64_t>(blocks));
    rb = layout.alloc("input_b", MemType::kAcc, static_cast<uint64_t>(blocks));
  }
  const DramRegion ro = layout.alloc("output", MemType::kOut, static_cast<uint64_t>(blocks));

  // ACC entries per chunk (per input on the ACC path); each thread owns one
  // share of ACC (and of WGT), so the STORE of one chunk and, on the GEMM
  // path, the operand LOAD of the next overlap the COMPUTE of this one.
  const int64_t acc_per_thread = opt.acc_depth / threads;
  const int64_t wgt_per_thread = opt.wgt_depth / threads;
  const int64_t chunk = gemm ? gemm_chunk(blocks, acc_per_thread, wgt_per_thread) : acc_per_thread / 2;
  const int64_t chunks = ceil_div(blocks, chunk);
  ProgramBuilder bld;
  auto note = [&](const WorkUnit& u) {
    while (cp.work.size() < bld.size()) cp.work.push_back(u);
  };
  if (gemm) bld.load_1d(MemType::kInp, 0, rsel.elem(), add_operands::kSlots);  // once, on the LOAD engine
  int64_t k = 0, s2c_popped = 0;
  for (int64_t e0 = 0; e0 < blocks; e0 += chunk, ++k) {
    const int64_t len = std::min(chunk, blocks - e0);
    const int64_t t = k % threads;
    WorkUnit wu;
    wu.tile = k;
    wu.e0 = e0 * kBlock;
    wu.e1 = std::min(numel, (e0 + len) * kBlock);
    const std::string desc = "chunk " + std::to_string(k) + " (elements " + std::to_string(wu.e0) + ".." +
                             std::to_string(wu.e1 - 1) + ")";
    const Loop over{static_cast<uint32_t>(len), 1, 1, 0};
    uint32_t abase = 0;
    if (gemm) {
      abase = static_cast<uint32_t>(t * chunk);
      const uint32_t wbase = static_cast<uint32_t>(t * wgt_per_thread);
      const int64_t g0 = e0 / add_operands::kSlots, g1 = ceil_div(e0 + len, add_operands::kSlots);
      if (k >= threads) bld.pop(Engine::kCompute, Engine::kLoad);  // WGT share t read by chunk k - threads
      bld.load_1d(MemType::kWgt, wbase, rwgt.elem(static_cast<uint64_t>(g0)), static_cast<uint32_t>(g1 - g0));
      bld.push(Engine::kLoad, Engine::kCompute);
      if (k >= threads) {
        bld.pop(Engine::kStore, Engine::kCompute);  // ACC share t stored
        ++s2c_popped;
      }
      const UopRange u = bld.load_uops({Uop{static_cast<uint16_t>(abase), static_cast<uint16_t>(abase), 0}});
      bld.gemm_reset(u, Loop{static_cast<uint32_t>(len), 1, 0, 0});  // before the pop: overlaps the operand load
      bld.pop(Engine::kLoad, Engine::kCompute);
      gemm_operands(bld, e0, len, abase, wbase);
      if (k + threads < chunks) bld.push(Engine::kCompute, Engine::kLoad);
      requantize(bld, p, shr, u, over);
      cp.reset_uops += static_cast<uint64_t>(len);
      cp.gemm_uops += static_cast<uint64_t>(len);
      cp.alu_uops += kRequantUops * static_cast<uint64_t>(len);
      wu.text = desc + ": operand load, GEMM and ALU";
    } else {
      abase = static_cast<uint32_t>(t * 2 * chunk);
      const uint32_t bbase = static_cast<uint32_t>(abase + chunk);
      if (k >= threads) {
        bld.pop(Engine::kStore, Engine::kCompute);  // ACC share t stored
        ++s2c_popped;
      }
      bld.load_1d(MemType::kAcc, abase, ra.elem(static_cast<uint64_t>(e0)), static_cast<uint32_t>(len));
      bld.load_1d(MemType::kAcc, bbase, rb.elem(static_cast<uint64_t>(e0)), static_cast<uint32_t>(len));
      const UopRange u = bld.load_uops({Uop{static_cast<uint16_t>(abase), static_cast<uint16_t>(bbase), 0}});
      bld.alu_reg(AluOp::kAdd, u, over);
      requantize(bld, p, shr, u, over);
      cp.alu_uops += (1 + kRequantUops) * static_cast<uint64_t>(len);
      wu.text = desc + ": load and ALU";
    }
    bld.push(Engine::kCompute, Engine::kStore);
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
  if (gemm) {
    const std::vector<int8_t> sel = add_operands::selector_entries();
    write_region(cp.dram, rsel, sel.data(), sel.size());
    write_region(cp.dram, rwgt, wgt->data(), wgt->size());
  } else {
    write_int32_region(cp.dram, ra, va);
    write_int32_region(cp.dram, rb, vb);
  }
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
              std::to_string(threads) + " thread(s), operands " + (gemm ? "by GEMM from WGT" : "loaded into ACC");
  return cp;
}

}  // namespace cosim::vta
