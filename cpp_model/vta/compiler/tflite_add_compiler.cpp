// The TFLite ADD on VTA (requant: tflite_double / tflite_single): host
// rescale of each input into ACC as int32, then VTA's ADD and the exact
// output requantization (tflite_requant_emit). The VTA 16-bit ADD has its
// own compiler (add_compiler.cpp, operands through the GEMM path).
#include "vta/compiler/add_compiler.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "ops/add.hpp"
#include "vta/compiler/layout_transform.hpp"
#include "vta/compiler/program_tail.hpp"
#include "vta/compiler/tflite_requant_emit.hpp"

namespace cosim::vta {

namespace {

[[noreturn]] void bad(const std::string& what) { throw InputError("VTA add compiler: " + what); }

// TFLite's input rescale: requant((x - zp) << left_shift, m).
std::vector<int32_t> tflite_rescale_broadcast(const Tensor& t, const std::vector<int64_t>& shape, int64_t padded,
                                              int32_t zero_point, quant::QuantizedMultiplier m, int left_shift,
                                              quant::Rounding r) {
  int32_t lut[256];
  for (int x = -128; x < 128; ++x)
    lut[x + 128] = quant::multiply_by_quantized_multiplier((x - zero_point) * (1 << left_shift), m, r);
  return broadcast_through_lut(t, shape, padded, lut);
}

CompiledProgram compile_impl(const Tensor& a, const Tensor& b, const ops::AddParams* tp, const CompileOptions& opt);

}  // namespace

CompiledProgram compile_add(const Tensor& a, const Tensor& b, const ops::AddParams& p, const CompileOptions& opt) {
  return compile_impl(a, b, &p, opt);
}

namespace {

CompiledProgram compile_impl(const Tensor& a, const Tensor& b, const ops::AddParams* tp, const CompileOptions& opt) {
  const AddExtent extent = check_add_inputs(a, b, opt);
  const std::vector<int64_t>& shape = extent.shape;
  const int64_t numel = extent.numel, blocks = extent.blocks;
  const uint64_t data_bytes = static_cast<uint64_t>(blocks) * (2 * kAccElemBytes + kOutElemBytes);
  if (data_bytes > opt.dram_limit)
    bad(std::to_string(numel) + " elements need " + std::to_string(data_bytes) +
        " bytes of DRAM data, more than the DRAM limit " + std::to_string(opt.dram_limit));
  // TFLite: the output requantization program, its vectors in ACC 0.. .
  TfliteRequantProgram rq;
  int64_t nvec = 0;
  if (tp != nullptr) {
    if (tp->left_shift < 0 || tp->left_shift > 22) bad("left_shift must be in 0..22");
    for (int32_t zp : {tp->input1_zero_point, tp->input2_zero_point})
      if (zp < -128 || zp > 127) bad("input zero point " + std::to_string(zp) + " outside int8");
    rq = make_tflite_requant_program({tp->output_multiplier}, tp->rounding, tp->output_zero_point,
                                     {std::max(tp->act.min, -128), std::min(tp->act.max, 127)});
    nvec = static_cast<int64_t>(rq.vectors.size());
  }

  CompiledProgram cp;
  cp.op = "add";
  cp.layout = DramLayout(opt.dram_base);
  DramLayout& layout = cp.layout;
  const DramRegion ra = layout.alloc("input_a", MemType::kAcc, static_cast<uint64_t>(blocks));
  const DramRegion rb = layout.alloc("input_b", MemType::kAcc, static_cast<uint64_t>(blocks));
  const DramRegion ro = layout.alloc("output", MemType::kOut, static_cast<uint64_t>(blocks));
  const DramRegion rp = nvec > 0 ? layout.alloc("params", MemType::kAcc, static_cast<uint64_t>(nvec)) : DramRegion{};

  const int64_t threads = opt.threads;
  // ACC entries per input per thread (TFLite: a third region for temporary 1).
  const int64_t regions = tp != nullptr ? 3 : 2;
  const int64_t chunk = (opt.acc_depth - nvec) / (regions * threads);
  if (chunk < 1) bad("ACC depth option " + std::to_string(opt.acc_depth) + " leaves no room beside the parameters");
  ProgramBuilder bld;
  if (nvec > 0) bld.load_1d(MemType::kAcc, 0, rp.elem_base(), static_cast<uint32_t>(nvec));
  int64_t k = 0, s2c_popped = 0;
  for (int64_t e0 = 0; e0 < blocks; e0 += chunk, ++k) {
    const int64_t len = std::min(chunk, blocks - e0);
    const int64_t t = k % threads;
    const uint32_t abase = static_cast<uint32_t>(nvec + t * regions * chunk), bbase = static_cast<uint32_t>(abase + chunk);
    std::string desc;
    WorkUnit wu = flat_chunk_unit(k, e0, len, numel, desc);
    if (k >= threads) {
      bld.pop(Engine::kStore, Engine::kCompute);  // ACC half t stored
      ++s2c_popped;
    }
    add_in_acc(bld, abase, bbase, ra.elem(static_cast<uint64_t>(e0)), rb.elem(static_cast<uint64_t>(e0)),
               static_cast<uint32_t>(len));
    if (tp != nullptr) {
      // TFLite: the output requantization; B's entries are free now.
      RqPlacement at;
      at.acc = abase;
      at.temps = {bbase, static_cast<uint32_t>(bbase + chunk)};
      at.vectors = 0;
      at.outer = Loop{static_cast<uint32_t>(len), 1, 0, 0};
      cp.alu_uops += static_cast<uint64_t>(len) + emit_tflite_requant(bld, rq, at);
    }
    wu.text = desc + ": load and ALU";
    store_flat_chunk(bld, cp, wu, desc, abase, ro.elem(static_cast<uint64_t>(e0)), static_cast<uint32_t>(len));
  }
  const BuiltProgram bp = close_program(bld, cp, layout, k - s2c_popped, opt.dram_limit, "VTA add compiler");
  if (tp != nullptr) {
    cp.write_int32(ra, tflite_rescale_broadcast(a, shape, blocks * kBlock, tp->input1_zero_point,
                                                             tp->input1_multiplier, tp->left_shift, tp->rounding));
    cp.write_int32(rb, tflite_rescale_broadcast(b, shape, blocks * kBlock, tp->input2_zero_point,
                                                             tp->input2_multiplier, tp->left_shift, tp->rounding));
    std::vector<int32_t> par;
    for (std::size_t j = 0; j < rq.vectors.size(); ++j)
      for (int lane = 0; lane < kBlock; ++lane) par.push_back(rq.vector_value(j, 0));
    cp.write_int32(rp, par);
  }
  adopt_program(cp, bp, opt.dram_base);

  set_flat_output(cp, ro, shape, k, chunk * kBlock, threads);
  if (tp != nullptr)
    cp.tiling += std::string(", TFLite ") + (tp->rounding == quant::Rounding::kDouble ? "double" : "single") +
                 " rounding (" + std::to_string(rq.steps.size()) + " ALU steps after the ADD)";
  return cp;
}

}  // namespace

}  // namespace cosim::vta
