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

// What compile_add decides before it writes anything: the output's extent,
// the output shift, the inputs' dequantization, and how the operands reach
// ACC. Throws cosim::InputError for what the core or the DRAM cannot take.
struct AddPlan {
  AddExtent extent;
  int32_t shr = 0;
  DequantTable ta{}, tb{};
  int64_t threads = 1;
  bool gemm = false;  // operands as GEMM data, else both loaded into ACC
  uint64_t wgt_entries = 0;
};

AddPlan plan_add(const Tensor& a, const Tensor& b, const quant::VtaAddParams& p, const CompileOptions& opt) {
  AddPlan plan;
  plan.extent = check_add_inputs(a, b, opt);
  if (opt.inp_depth > kInpDepth || opt.wgt_depth > kWgtDepth)
    bad("INP / WGT depth options " + std::to_string(opt.inp_depth) + " / " + std::to_string(opt.wgt_depth) +
        " exceed the core's " + std::to_string(kInpDepth) + " / " + std::to_string(kWgtDepth));
  const int64_t blocks = plan.extent.blocks;
  plan.shr = std::min(15 - p.out_multiplier.shift, 31);
  if (plan.shr < -32768 || p.out_zero_point < -32768 || p.out_zero_point > 32767)
    bad("output shift or zero point does not fit an ALU immediate");

  plan.ta = dequant_table(p.a_offset, p.a_multiplier);
  plan.tb = dequant_table(p.b_offset, p.b_multiplier);
  plan.threads = opt.threads;
  // Operands as GEMM data (add_operands.hpp) when every value an input code
  // gives splits into two bytes and the buffers hold the selectors and a WGT
  // entry per thread; otherwise both are loaded into ACC as int32 (COMPUTE
  // moves them, 128 bytes per entry, and adds them with an ALU ADD).
  const auto splits = [](const DequantTable& t) {
    return std::all_of(t.begin(), t.end(), [](int32_t v) { return add_operands::split(v).has_value(); });
  };
  plan.gemm = splits(plan.ta) && splits(plan.tb) && opt.inp_depth >= add_operands::kSlots &&
              opt.wgt_depth >= static_cast<uint32_t>(plan.threads);
  plan.wgt_entries = static_cast<uint64_t>(ceil_div(blocks, add_operands::kSlots));
  const uint64_t data_bytes = plan.gemm ? add_operands::kSlots * kInpElemBytes + plan.wgt_entries * kWgtElemBytes +
                                              static_cast<uint64_t>(blocks) * kOutElemBytes
                                        : static_cast<uint64_t>(blocks) * (2 * kAccElemBytes + kOutElemBytes);
  if (data_bytes > opt.dram_limit)
    bad(std::to_string(plan.extent.numel) + " elements need " + std::to_string(data_bytes) +
        " bytes of DRAM data, more than the DRAM limit " + std::to_string(opt.dram_limit));
  return plan;
}

// The DRAM regions: the selectors and the packed operands (GEMM path) or
// both dequantized inputs (ACC path), then the output.
struct AddRegions {
  DramRegion a, b, selectors, operands, output;
};

AddRegions allocate_regions(DramLayout& layout, const AddPlan& plan) {
  AddRegions r;
  const auto blocks = static_cast<uint64_t>(plan.extent.blocks);
  if (plan.gemm) {
    r.selectors = layout.alloc("selectors", MemType::kInp, add_operands::kSlots);
    r.operands = layout.alloc("operands", MemType::kWgt, plan.wgt_entries);
  } else {
    r.a = layout.alloc("input_a", MemType::kAcc, blocks);
    r.b = layout.alloc("input_b", MemType::kAcc, blocks);
  }
  r.output = layout.alloc("output", MemType::kOut, blocks);
  return r;
}

// ACC entries per chunk (per input on the ACC path); each thread owns one
// share of ACC (and of WGT), so the STORE of one chunk and, on the GEMM path,
// the operand LOAD of the next overlap the COMPUTE of this one.
struct AddChunks {
  int64_t wgt_per_thread = 0;
  std::vector<int64_t> sizes;
  int64_t chunk = 0;  // a thread's share of ACC (per input)
  int64_t count = 0;
};

AddChunks chunk_add(const AddPlan& plan, const CompileOptions& opt) {
  AddChunks c;
  const int64_t blocks = plan.extent.blocks;
  const int64_t acc_per_thread = opt.acc_depth / plan.threads;
  c.wgt_per_thread = opt.wgt_depth / plan.threads;
  const int64_t gemm_most =
      std::min(acc_per_thread, c.wgt_per_thread >= 2 ? add_operands::kSlots * c.wgt_per_thread : 1);
  c.sizes = plan.gemm ? gemm_chunks(blocks, gemm_most)
                      : std::vector<int64_t>(static_cast<std::size_t>(ceil_div(blocks, acc_per_thread / 2)),
                                             acc_per_thread / 2);
  c.chunk = *std::max_element(c.sizes.begin(), c.sizes.end());
  c.count = static_cast<int64_t>(c.sizes.size());
  return c;
}

// Writes the chunks' instructions, chunk k on thread k % threads: the
// operands into its ACC share, the output program, the store.
class AddChunkWriter {
 public:
  AddChunkWriter(const AddPlan& plan, const AddRegions& regions, const AddChunks& chunks, const OutputProgram& requant,
                 CompiledProgram& cp)
      : plan_(plan), regions_(regions), chunks_(chunks), requant_(requant), cp_(cp) {}

  // Every chunk, then the drain and FINISH (close_program).
  BuiltProgram write(uint64_t dram_limit) {
    if (plan_.gemm) load_thread_kernels();
    const int64_t blocks = plan_.extent.blocks;
    for (int64_t k = 0, e0 = 0; k < chunks_.count; e0 += chunks_.sizes[static_cast<std::size_t>(k)], ++k) {
      const int64_t len = std::min(chunks_.sizes[static_cast<std::size_t>(k)], blocks - e0);
      std::string desc;
      WorkUnit wu = flat_chunk_unit(k, e0, len, plan_.extent.numel, desc);
      const uint32_t abase = plan_.gemm ? gemm_chunk(k, e0, len) : acc_chunk(k, e0, len);
      wu.text = desc + (plan_.gemm ? ": operand load, GEMM and ALU" : ": load and ALU");
      store_flat_chunk(bld_, cp_, wu, desc, abase, regions_.output.elem(static_cast<uint64_t>(e0)),
                       static_cast<uint32_t>(len));
    }
    return close_program(bld_, cp_, cp_.layout, chunks_.count - s2c_popped_, dram_limit, "VTA add compiler");
  }

 private:
  // GEMM path: the selectors once, on the LOAD engine; every thread's
  // kernels in one LOAD UOP (each LOAD pays the DRAM latency).
  void load_thread_kernels() {
    bld_.load_1d(MemType::kInp, 0, regions_.selectors.elem(), add_operands::kSlots);
    std::vector<Uop> all;
    for (int64_t t = 0; t < std::min(plan_.threads, chunks_.count); ++t) {
      const std::vector<Uop> tk = thread_kernels(static_cast<uint32_t>(t * chunks_.chunk),
                                                 static_cast<uint32_t>(t * chunks_.wgt_per_thread));
      all.insert(all.end(), tk.begin(), tk.end());
    }
    kernels_ = bld_.load_uops(all);
  }

  // COMPUTE waits for the store of the chunk that last used its ACC share.
  void wait_for_acc_share(int64_t k) {
    if (k < plan_.threads) return;
    bld_.pop(Engine::kStore, Engine::kCompute);
    ++s2c_popped_;
  }

  // Chunk k on the GEMM path; returns its ACC base.
  uint32_t gemm_chunk(int64_t k, int64_t e0, int64_t len) {
    const int64_t t = k % plan_.threads;
    const auto abase = static_cast<uint32_t>(t * chunks_.chunk);
    const auto wbase = static_cast<uint32_t>(t * chunks_.wgt_per_thread);
    const int64_t g0 = e0 / add_operands::kSlots, g1 = ceil_div(e0 + len, add_operands::kSlots);
    if (k >= plan_.threads) bld_.pop(Engine::kCompute, Engine::kLoad);  // WGT share t read by chunk k - threads
    bld_.load_1d(MemType::kWgt, wbase, regions_.operands.elem(static_cast<uint64_t>(g0)),
                 static_cast<uint32_t>(g1 - g0));
    bld_.push(Engine::kLoad, Engine::kCompute);
    wait_for_acc_share(k);
    const uint32_t kb = kernels_.bgn + static_cast<uint32_t>(t) * kThreadKernelUops;
    const UopRange u{kb, kb + 1}, whole{kb + 1, kb + kThreadKernelUops};
    bld_.gemm_reset(u, Loop{static_cast<uint32_t>(len), 1, 0, 0});  // before the pop: overlaps the operand load
    bld_.pop(Engine::kLoad, Engine::kCompute);
    gemm_operands(bld_, e0, len, abase, wbase, whole);
    if (k + plan_.threads < chunks_.count) bld_.push(Engine::kCompute, Engine::kLoad);
    requant_.emit(bld_, u, Loop{static_cast<uint32_t>(len), 1, 1, 0});
    cp_.reset_uops += static_cast<uint64_t>(len);
    cp_.gemm_uops += static_cast<uint64_t>(len);
    cp_.alu_uops += requant_.uops() * static_cast<uint64_t>(len);
    return abase;
  }

  // Chunk k on the ACC path: A' and B' side by side in its share; returns
  // A's ACC base (the sum).
  uint32_t acc_chunk(int64_t k, int64_t e0, int64_t len) {
    const int64_t t = k % plan_.threads;
    const auto abase = static_cast<uint32_t>(t * 2 * chunks_.chunk);
    const auto bbase = static_cast<uint32_t>(abase + chunks_.chunk);
    wait_for_acc_share(k);
    const UopRange u = add_in_acc(bld_, abase, bbase, regions_.a.elem(static_cast<uint64_t>(e0)),
                                  regions_.b.elem(static_cast<uint64_t>(e0)), static_cast<uint32_t>(len));
    requant_.emit(bld_, u, Loop{static_cast<uint32_t>(len), 1, 1, 0});
    cp_.alu_uops += (1 + requant_.uops()) * static_cast<uint64_t>(len);
    return abase;
  }

  const AddPlan& plan_;
  const AddRegions& regions_;
  const AddChunks& chunks_;
  const OutputProgram& requant_;
  CompiledProgram& cp_;
  ProgramBuilder bld_;
  UopRange kernels_;  // GEMM path: every thread's kernels
  int64_t s2c_popped_ = 0;
};

// The operands into the image: selectors and packed bytes, or the int32
// values.
void write_operands(CompiledProgram& cp, const AddRegions& regions, const AddPlan& plan, const Tensor& a,
                    const Tensor& b) {
  const std::vector<int64_t>& shape = plan.extent.shape;
  const int64_t elements = plan.extent.blocks * kBlock;
  const std::vector<int32_t> va = broadcast_through_lut(a, shape, elements, plan.ta.data());
  const std::vector<int32_t> vb = broadcast_through_lut(b, shape, elements, plan.tb.data());
  if (plan.gemm) {
    const std::vector<int8_t> sel = add_operands::selector_entries();
    const std::vector<int8_t> wgt = add_operands::pack(va, vb).value();  // every code splits
    cp.write(regions.selectors, sel.data(), sel.size());
    cp.write(regions.operands, wgt.data(), wgt.size());
  } else {
    cp.write_int32(regions.a, va);
    cp.write_int32(regions.b, vb);
  }
}

}  // namespace

CompiledProgram compile_add(const Tensor& a, const Tensor& b, const quant::VtaAddParams& p,
                            const CompileOptions& opt) {
  const AddPlan plan = plan_add(a, b, p, opt);
  CompiledProgram cp;
  cp.op = "add";
  cp.layout = DramLayout(opt.dram_base);
  const AddRegions regions = allocate_regions(cp.layout, plan);
  const AddChunks chunks = chunk_add(plan, opt);
  const OutputProgram requant = output_program(p, plan.shr, plan.ta, plan.tb);
  const BuiltProgram bp = AddChunkWriter(plan, regions, chunks, requant, cp).write(opt.dram_limit);
  write_operands(cp, regions, plan, a, b);
  adopt_program(cp, bp, opt.dram_base);

  set_flat_output(cp, regions.output, plan.extent.shape, chunks.count, chunks.chunk * kBlock, plan.threads);
  cp.tiling += std::string(", operands ") + (plan.gemm ? "by GEMM from WGT" : "loaded into ACC");
  return cp;
}

}  // namespace cosim::vta
