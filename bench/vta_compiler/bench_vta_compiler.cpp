// VTA compiler figures on typical layers: compile time, functional-model run
// time, and the static work split of the COMPUTE engine (GEMM uops vs reset
// and ALU uops), whose GEMM share bounds the GEMM utilisation of a core that
// runs one uop per cycle on either unit.
#include <benchmark/benchmark.h>

#include <random>

#include "vta/golden/vta_conv2d.hpp"
#include "vta/functional_model.hpp"
#include "vta/compiler/conv2d_compiler.hpp"

namespace {

using namespace cosim;

struct Layer {
  int64_t h, w, c, o, k, stride;
};

struct Built {
  Tensor in, f, b;
  ops::ConvParams p;
  std::vector<quant::VtaRequantPlan> plans;
};

Built build(const Layer& l) {
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<int> d(-128, 127);
  Built x;
  x.in = Tensor(DType::kInt8, {1, l.h, l.w, l.c});
  x.f = Tensor(DType::kInt8, {l.o, l.k, l.k, l.c});
  x.b = Tensor(DType::kInt32, {l.o});
  for (int64_t i = 0; i < x.in.numel(); ++i) x.in.data<int8_t>()[i] = static_cast<int8_t>(d(rng));
  for (int64_t i = 0; i < x.f.numel(); ++i) x.f.data<int8_t>()[i] = static_cast<int8_t>(d(rng));
  for (int64_t i = 0; i < l.o; ++i) x.b.data<int32_t>()[i] = d(rng) * 50;
  x.p.stride_h = x.p.stride_w = static_cast<int>(l.stride);
  x.p.input_zero_point = -5;
  x.plans = ops::vta_plan_conv2d(x.f, x.b, 0.05f, -5, {0.01f}, 0.2f, 3, quant::Activation::kNone);
  return x;
}

const Layer kLayers[] = {
    {28, 28, 64, 64, 3, 1}, {56, 56, 32, 32, 3, 1}, {14, 14, 128, 128, 3, 1},
    {28, 28, 64, 128, 1, 1}, {56, 56, 16, 32, 3, 2}, {14, 14, 256, 256, 3, 1},
};

void set_counters(benchmark::State& st, const vta::CompiledProgram& cp) {
  st.counters["insns"] = cp.insn_count;
  st.counters["gemm_uops"] = static_cast<double>(cp.gemm_uops);
  st.counters["alu+reset_uops"] = static_cast<double>(cp.alu_uops + cp.reset_uops);
  st.counters["gemm_share_%"] =
      100.0 * static_cast<double>(cp.gemm_uops) / static_cast<double>(cp.gemm_uops + cp.alu_uops + cp.reset_uops);
  st.counters["tiles"] = static_cast<double>(cp.tiles);
}

void BM_Compile(benchmark::State& st) {
  const Layer& l = kLayers[st.range(0)];
  const Built x = build(l);
  vta::CompiledProgram cp;
  for (auto _ : st) {
    cp = vta::compile_conv2d(x.in, x.f, x.b, x.p, x.plans);
    benchmark::DoNotOptimize(cp.insn_count);
  }
  set_counters(st, cp);
  st.SetLabel(std::to_string(l.h) + "x" + std::to_string(l.w) + "x" + std::to_string(l.c) + "->" +
              std::to_string(l.o) + " k" + std::to_string(l.k) + " s" + std::to_string(l.stride));
}

void BM_FunctionalModel(benchmark::State& st) {
  const Layer& l = kLayers[st.range(0)];
  const Built x = build(l);
  const vta::CompiledProgram cp = vta::compile_conv2d(x.in, x.f, x.b, x.p, x.plans);
  for (auto _ : st) {
    std::vector<uint8_t> dram = cp.dram;
    const vta::ModelStats s = vta::run_model(dram, cp.insn_addr, cp.insn_count);
    benchmark::DoNotOptimize(s.gemm_uops);
  }
  set_counters(st, cp);
  st.counters["MAC/s"] = benchmark::Counter(static_cast<double>(cp.gemm_uops) * 256, benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_Compile)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FunctionalModel)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
