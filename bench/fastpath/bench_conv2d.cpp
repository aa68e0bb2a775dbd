// ResNet-like int8 CONV_2D layer on one thread: 56x56x64 -> 64, 3x3, SAME,
// stride 1. The reference loops (ops::conv2d) against the fast path on every
// instruction path this CPU supports. Reports GMAC/s and the path name.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>

#include "fastpath/fastpath.hpp"
#include "ops/conv2d.hpp"
#include "quant/tflite_quant.hpp"

namespace {

using cosim::DType;
using cosim::Tensor;
namespace fp = cosim::fastpath;

constexpr int kH = 56, kW = 56, kC = 64, kO = 64, kK = 3;
constexpr double kMacs = double{kH} * kW * kC * kO * kK * kK;

struct Layer {
  Tensor input{DType::kInt8, {1, kH, kW, kC}, cosim::Layout::kNHWC};
  Tensor filter{DType::kInt8, {kO, kK, kK, kC}};
  Tensor bias{DType::kInt32, {kO}};
  cosim::ops::ConvParams p;
  Layer() {
    std::mt19937 gen(42);
    for (int64_t i = 0; i < input.numel(); ++i) input.data<int8_t>()[i] = static_cast<int8_t>(gen());
    for (int64_t i = 0; i < filter.numel(); ++i) filter.data<int8_t>()[i] = static_cast<int8_t>(gen());
    for (int i = 0; i < kO; ++i) bias.data<int32_t>()[i] = static_cast<int32_t>(gen() % 20001) - 10000;
    p.padding = cosim::ops::Padding::kSame;
    p.input_zero_point = -5;
    p.output_zero_point = 3;
    for (int i = 0; i < kO; ++i)
      p.output_multiplier.push_back(cosim::quant::quantize_multiplier(0.0004 + 0.00001 * i));
  }
};

const Layer& layer() {
  static const Layer l;
  return l;
}

const Tensor& reference_output() {
  static const Tensor out = cosim::ops::conv2d(layer().input, layer().filter, layer().bias, layer().p);
  return out;
}

void report(benchmark::State& state, const char* label) {
  state.counters["GMAC/s"] =
      benchmark::Counter(kMacs * 1e-9 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(label);
}

void BM_Reference(benchmark::State& state) {
  const Layer& l = layer();
  for (auto _ : state) benchmark::DoNotOptimize(cosim::ops::conv2d(l.input, l.filter, l.bias, l.p));
  report(state, "reference");
}

// The filter is packed once, outside the timed loop, as a runtime would.
void BM_Fast(benchmark::State& state, fp::Path path) {
  if (!fp::supported(path)) {
    state.SkipWithError("instruction path not supported by this CPU");
    return;
  }
  const Layer& l = layer();
  const fp::PackedFilter packed(l.filter, l.bias);
  // A benchmark of a wrong answer is worthless: check once against the reference.
  if (fp::conv2d_fast(l.input, packed, l.p, path) != reference_output()) {
    state.SkipWithError("fast path differs from ops::conv2d");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(fp::conv2d_fast(l.input, packed, l.p, path));
  report(state, fp::name_of(fp::resolve(path)));
}

// Including the filter packing in every call.
void BM_FastWithPacking(benchmark::State& state) {
  const Layer& l = layer();
  for (auto _ : state) benchmark::DoNotOptimize(fp::conv2d_fast(l.input, l.filter, l.bias, l.p));
  report(state, fp::name_of(fp::resolve(fp::Path::kAuto)));
}

// int32 accumulators only (no requantization epilogue).
void BM_FastAccumulators(benchmark::State& state) {
  const Layer& l = layer();
  const fp::PackedFilter packed(l.filter, l.bias);
  for (auto _ : state) benchmark::DoNotOptimize(fp::conv2d_fast_accumulators(l.input, packed, l.p));
  report(state, fp::name_of(fp::resolve(fp::Path::kAuto)));
}

BENCHMARK(BM_Reference)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(BM_Fast, auto, fp::Path::kAuto)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK_CAPTURE(BM_Fast, avx512vnni, fp::Path::kAvx512Vnni)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK_CAPTURE(BM_Fast, avxvnni, fp::Path::kAvxVnni)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK_CAPTURE(BM_Fast, portable, fp::Path::kPortable)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_FastWithPacking)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_FastAccumulators)->Unit(benchmark::kMillisecond)->MinTime(0.5);

}  // namespace

BENCHMARK_MAIN();
