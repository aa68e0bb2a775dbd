#include "vta/compiler/add_compiler.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "ops/add.hpp"
#include "vta/compiler/add_operands.hpp"
#include "vta/compiler/layout_transform.hpp"
#include "vta/compiler/program_tail.hpp"

namespace cosim::vta {

namespace {

[[noreturn]] void bad(const std::string& what) { throw InputError("VTA add compiler: " + what); }

// The host dequantization of every int8 code of one input: a pure function
// of the code, so the parameters alone say which values can occur.
using DequantTable = std::array<int32_t, 256>;
DequantTable dequant_table(int32_t offset, quant::VtaMultiplier m) {
  DequantTable t{};
  for (int x = -128; x < 128; ++x) t[static_cast<std::size_t>(x + 128)] = quant::vta_add_dequantize(static_cast<int8_t>(x), offset, m);
  return t;
}

// Chunk sizes (ACC entries) of the GEMM path (add_operands.hpp), at most
// `most` each. Per entry COMPUTE runs 6 or 7 uops (reset, GEMM, 4 or 5 ALU)
// and memory moves 64 operand bytes in and 16 out: COMPUTE bounds the layer
// at 16 bytes per cycle, memory at 8. Either way what is not overlapped is
// the first chunk's load (COMPUTE waits) and the last chunk's COMPUTE and
// store, so both ends are small (kFirst) and chunks grow by a quarter per
// step towards the middle, where fewer, larger chunks spend less on the
// instructions' own start and drain. Faster growth outruns the loads (the
// LOAD engine needs 4 to 8 cycles per entry against COMPUTE's 6 or 7);
// measured on ResNet-8's ADDs and add.yaml, a first chunk of 16 to 64 and
// growth of 5/4 to 3/2 are within 2 % of each other, doubling 5 % slower.
// Sizes are multiples of kSlots (chunks start on WGT entry boundaries) but
// the last.
std::vector<int64_t> gemm_chunks(int64_t blocks, int64_t most) {
  constexpr int64_t s = add_operands::kSlots, kFirst = 32;
  if (most < s) return std::vector<int64_t>(static_cast<std::size_t>(ceil_div(blocks, most)), most);  // tiny test buffers
  const int64_t cap = most / s * s;
  std::vector<int64_t> front, back;
  int64_t left = blocks / s * s;
  for (int64_t c = std::min(kFirst, cap); left > 0; c = std::min(cap, (c + c / 4) / s * s)) {
    for (std::vector<int64_t>* end : {&front, &back}) {
      const int64_t take = std::min(c, left);
      if (take > 0) end->push_back(take);
      left -= take;
    }
  }
  front.insert(front.end(), back.rbegin(), back.rend());
  const int64_t rest = blocks % s;  // the tail off a WGT entry boundary
  if (rest > 0 && !front.empty() && front.back() + rest <= most) front.back() += rest;
  else if (rest > 0) front.push_back(rest);
  return front;
}

// The output program on ACC entries holding A' + B': MUL, SHR, ADD zp, then
// MIN 127 / MAX -128 where some output can cross that bound. The program is
// monotonic in the sum while nothing wraps, so the sums of the inputs'
// extreme dequantized values (over all 256 int8 codes: the parameters alone
// decide, not the data) bound every output; a clamp no output reaches is the
// identity and is left out. The sum 0 is included: the zero padding after
// the last element runs the program too.
struct OutputProgram {
  const quant::VtaAddParams& p;
  int32_t shr;
  bool min = true, max = true;
  uint64_t uops() const { return 3u + min + max; }  // ALU uops per ACC entry
  void emit(ProgramBuilder& bld, UopRange u, const Loop& over) const {
    bld.alu_imm(AluOp::kMul, p.out_multiplier.multiplier, u, over);
    bld.alu_imm(AluOp::kShr, shr, u, over);
    bld.alu_imm(AluOp::kAdd, p.out_zero_point, u, over);
    if (min) bld.alu_imm(AluOp::kMin, 127, u, over);
    if (max) bld.alu_imm(AluOp::kMax, -128, u, over);
  }
};

OutputProgram output_program(const quant::VtaAddParams& p, int32_t shr, const DequantTable& ta,
                             const DequantTable& tb) {
  if (shr < -31) return {p, shr};  // not a shift a generated program may use: no analysis
  const auto [lo_a, hi_a] = std::minmax_element(ta.begin(), ta.end());
  const auto [lo_b, hi_b] = std::minmax_element(tb.begin(), tb.end());
  bool exact = true;  // no step wraps at either end
  const auto out = [&](int64_t sum) {
    const int64_t prod = sum * p.out_multiplier.multiplier;
    const int64_t shifted = shr >= 0 ? prod >> shr : prod * (int64_t{1} << -shr);
    for (int64_t v : {sum, prod, shifted, shifted + p.out_zero_point}) exact = exact && v == static_cast<int32_t>(v);
    return shifted + p.out_zero_point;
  };
  const int64_t y0 = out(std::min<int64_t>(int64_t{*lo_a} + *lo_b, 0));
  const int64_t y1 = out(std::max<int64_t>(int64_t{*hi_a} + *hi_b, 0));
  OutputProgram o{p, shr};
  o.min = !exact || std::max(y0, y1) > 127;
  o.max = !exact || std::min(y0, y1) < -128;
  return o;
}

// The micro-op kernels of one thread's chunks on the GEMM path: the ALU (and
// GEMM reset) kernel on its ACC share, and the GEMM kernel of one WGT entry
// (slots 0..3 into four ACC entries), looped over a chunk's WGT entries.
std::vector<Uop> thread_kernels(uint32_t abase, uint32_t wbase) {
  std::vector<Uop> k{Uop{static_cast<uint16_t>(abase), static_cast<uint16_t>(abase), 0}};
  for (uint32_t j = 0; j < add_operands::kSlots; ++j)
    k.push_back(Uop{static_cast<uint16_t>(abase + j), static_cast<uint16_t>(j), static_cast<uint16_t>(wbase)});
  return k;
}
constexpr uint32_t kThreadKernelUops = 1 + add_operands::kSlots;

// GEMM micro-ops adding entries [e0, e0 + len) of the WGT operand image
// (WGT entry e0 / kSlots loaded at wbase) into ACC from abase: the whole WGT
// entries from e0 with the thread's kernel `whole` and an outer loop, a
// partial one (the layer's last entries; chunks off entry boundaries in tiny
// test buffers) with a kernel of its own.
void gemm_operands(ProgramBuilder& bld, int64_t e0, int64_t len, uint32_t abase, uint32_t wbase, UopRange whole) {
  constexpr int64_t s = add_operands::kSlots;
  for (int64_t e = e0; e < e0 + len;) {
    const int64_t slot = e % s, left = e0 + len - e;
    if (e == e0 && slot == 0 && left >= s) {
      bld.gemm(whole, Loop{static_cast<uint32_t>(left / s), static_cast<uint32_t>(s), 0, 1});
      e += left / s * s;
      continue;
    }
    std::vector<Uop> k;
    for (int64_t q = 0; q < std::min(s - slot, left); ++q)
      k.push_back(Uop{static_cast<uint16_t>(abase + (e - e0) + q), static_cast<uint16_t>(slot + q),
                      static_cast<uint16_t>(wbase + e / s - e0 / s)});
    bld.gemm(bld.load_uops(k));
    e += static_cast<int64_t>(k.size());
  }
}

}  // namespace

CompiledProgram compile_add(const Tensor& a, const Tensor& b, const quant::VtaAddParams& p,
                            const CompileOptions& opt) {
  const AddExtent extent = check_add_inputs(a, b, opt);
  if (opt.inp_depth > kInpDepth || opt.wgt_depth > kWgtDepth)
    bad("INP / WGT depth options " + std::to_string(opt.inp_depth) + " / " + std::to_string(opt.wgt_depth) +
        " exceed the core's " + std::to_string(kInpDepth) + " / " + std::to_string(kWgtDepth));
  const std::vector<int64_t>& shape = extent.shape;
  const int64_t numel = extent.numel, blocks = extent.blocks;
  const int32_t shr = std::min(15 - p.out_multiplier.shift, 31);
  if (shr < -32768 || p.out_zero_point < -32768 || p.out_zero_point > 32767)
    bad("output shift or zero point does not fit an ALU immediate");

  const DequantTable ta = dequant_table(p.a_offset, p.a_multiplier), tb = dequant_table(p.b_offset, p.b_multiplier);
  const int64_t threads = opt.threads;
  // Operands as GEMM data (add_operands.hpp) when every value an input code
  // gives splits into two bytes and the buffers hold the selectors and a WGT
  // entry per thread; otherwise both are loaded into ACC as int32 (COMPUTE
  // moves them, 128 bytes per entry, and adds them with an ALU ADD).
  const auto splits = [](const DequantTable& t) {
    return std::all_of(t.begin(), t.end(), [](int32_t v) { return add_operands::split(v).has_value(); });
  };
  const bool gemm = splits(ta) && splits(tb) && opt.inp_depth >= add_operands::kSlots &&
                    opt.wgt_depth >= static_cast<uint32_t>(threads);
  const uint64_t wgt_entries = static_cast<uint64_t>(ceil_div(blocks, add_operands::kSlots));
  const uint64_t data_bytes = gemm ? add_operands::kSlots * kInpElemBytes + wgt_entries * kWgtElemBytes +
                                         static_cast<uint64_t>(blocks) * kOutElemBytes
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
    rwgt = layout.alloc("operands", MemType::kWgt, wgt_entries);
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
  const int64_t gemm_most = std::min(acc_per_thread, wgt_per_thread >= 2 ? add_operands::kSlots * wgt_per_thread : 1);
  const std::vector<int64_t> sizes =
      gemm ? gemm_chunks(blocks, gemm_most)
           : std::vector<int64_t>(static_cast<std::size_t>(ceil_div(blocks, acc_per_thread / 2)), acc_per_thread / 2);
  const int64_t chunk = *std::max_element(sizes.begin(), sizes.end());  // a thread's share of ACC (per input)
  const int64_t chunks = static_cast<int64_t>(sizes.size());
  const OutputProgram requant = output_program(p, shr, ta, tb);
  ProgramBuilder bld;
  UopRange kernels;  // GEMM path: every thread's kernels, in one LOAD UOP (each LOAD pays the DRAM latency)
  if (gemm) {
    bld.load_1d(MemType::kInp, 0, rsel.elem(), add_operands::kSlots);  // once, on the LOAD engine
    std::vector<Uop> all;
    for (int64_t t = 0; t < std::min(threads, chunks); ++t) {
      const std::vector<Uop> tk = thread_kernels(static_cast<uint32_t>(t * chunk), static_cast<uint32_t>(t * wgt_per_thread));
      all.insert(all.end(), tk.begin(), tk.end());
    }
    kernels = bld.load_uops(all);
  }
  int64_t k = 0, s2c_popped = 0;
  for (int64_t e0 = 0; k < chunks; e0 += sizes[static_cast<std::size_t>(k)], ++k) {
    const int64_t len = std::min(sizes[static_cast<std::size_t>(k)], blocks - e0);
    const int64_t t = k % threads;
    std::string desc;
    WorkUnit wu = flat_chunk_unit(k, e0, len, numel, desc);
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
      const uint32_t kb = kernels.bgn + static_cast<uint32_t>(t) * kThreadKernelUops;
      const UopRange u{kb, kb + 1}, whole{kb + 1, kb + kThreadKernelUops};
      bld.gemm_reset(u, Loop{static_cast<uint32_t>(len), 1, 0, 0});  // before the pop: overlaps the operand load
      bld.pop(Engine::kLoad, Engine::kCompute);
      gemm_operands(bld, e0, len, abase, wbase, whole);
      if (k + threads < chunks) bld.push(Engine::kCompute, Engine::kLoad);
      requant.emit(bld, u, over);
      cp.reset_uops += static_cast<uint64_t>(len);
      cp.gemm_uops += static_cast<uint64_t>(len);
      cp.alu_uops += requant.uops() * static_cast<uint64_t>(len);
      wu.text = desc + ": operand load, GEMM and ALU";
    } else {
      abase = static_cast<uint32_t>(t * 2 * chunk);
      const uint32_t bbase = static_cast<uint32_t>(abase + chunk);
      if (k >= threads) {
        bld.pop(Engine::kStore, Engine::kCompute);  // ACC share t stored
        ++s2c_popped;
      }
      const UopRange u = add_in_acc(bld, abase, bbase, ra.elem(static_cast<uint64_t>(e0)),
                                    rb.elem(static_cast<uint64_t>(e0)), static_cast<uint32_t>(len));
      requant.emit(bld, u, over);
      cp.alu_uops += (1 + requant.uops()) * static_cast<uint64_t>(len);
      wu.text = desc + ": load and ALU";
    }
    store_flat_chunk(bld, cp, wu, desc, abase, ro.elem(static_cast<uint64_t>(e0)), static_cast<uint32_t>(len));
  }
  const BuiltProgram bp = close_program(bld, cp, layout, k - s2c_popped, opt.dram_limit, "VTA add compiler");
  const std::vector<int32_t> va = broadcast_through_lut(a, shape, blocks * kBlock, ta.data());
  const std::vector<int32_t> vb = broadcast_through_lut(b, shape, blocks * kBlock, tb.data());
  if (gemm) {
    const std::vector<int8_t> sel = add_operands::selector_entries();
    const std::vector<int8_t> wgt = add_operands::pack(va, vb).value();  // every code splits
    write_region(cp.dram, rsel, sel.data(), sel.size());
    write_region(cp.dram, rwgt, wgt.data(), wgt.size());
  } else {
    write_int32_region(cp.dram, ra, va);
    write_int32_region(cp.dram, rb, vb);
  }
  adopt_program(cp, bp, opt.dram_base);

  set_flat_output(cp, ro, shape, k, chunk * kBlock, threads);
  cp.tiling += std::string(", operands ") + (gemm ? "by GEMM from WGT" : "loaded into ACC");
  return cp;
}

}  // namespace cosim::vta
