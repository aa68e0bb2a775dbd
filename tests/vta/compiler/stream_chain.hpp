// Three compiled CONV_2D programs linked into one stream, for the stream
// tests on the functional model (program_stream_test.cpp) and on the core
// (tests/vta/rtl_vs_model/vta_stream_test.cpp): A from the host, B reading A's
// output in DRAM, C (another host input) after B. The expected outputs are
// the VTA golden convolutions, one after the other.
#pragma once

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "compiler_test_util.hpp"
#include "vta/golden/vta_conv2d.hpp"
#include "vta/golden/vta_quant.hpp"
#include "vta/compiler/conv2d_compiler.hpp"
#include "vta/compiler/program_stream.hpp"

namespace cosim::vta::testutil {

struct Conv {
  Tensor input, filter, bias;
  ops::ConvParams params;
  std::vector<quant::VtaRequantPlan> plans;
  Tensor golden() const { return ops::vta_conv2d(input, filter, bias, params, plans); }
};

inline Conv make_conv(std::mt19937_64& rng, Tensor input, int64_t o, int64_t k, int stride, int32_t zp_in) {
  Conv c;
  c.input = std::move(input);
  c.filter = random_int8(rng, {o, k, k, c.input.dim(3)});
  c.bias = random_int32(rng, o, -20000, 20000);
  c.params.stride_h = c.params.stride_w = stride;
  c.params.input_zero_point = zp_in;
  c.plans = ops::vta_plan_conv2d(c.filter, c.bias, 0.05f, zp_in, std::vector<float>(static_cast<std::size_t>(o), 0.004f),
                                 0.3f, 3, quant::Activation::kNone);
  return c;
}

inline uint64_t page_after(const CompiledProgram& p) { return (p.image_base + p.dram.size() + 4095) / 4096 * 4096; }

// The images of programs compiled one after the other (each at the page
// after the one before), as one DRAM image from address 0.
inline std::vector<uint8_t> image_of(const std::vector<const CompiledProgram*>& programs) {
  std::vector<uint8_t> dram = programs.front()->raw().dram;
  for (std::size_t k = 1; k < programs.size(); ++k) {
    dram.resize(programs[k]->image_base, 0);
    dram.insert(dram.end(), programs[k]->dram.begin(), programs[k]->dram.end());
  }
  return dram;
}

// Three programs in one image: A from the host, B reading A's output in
// DRAM, C (another host input) after B; the stream after all of them.
struct Chain {
  Conv a, b, c;
  CompiledProgram pa, pb, pc;
  std::vector<Insn> stream;
  std::vector<uint8_t> dram;
  std::vector<const CompiledProgram*> programs() const { return {&pa, &pb, &pc}; }
  std::vector<const Conv*> convs() const { return {&a, &b, &c}; }
};

inline Chain make_chain(CompileOptions::LoadStart b_start, CompileOptions::LoadStart c_start) {
  std::mt19937_64 rng(2026);
  Chain ch;
  ch.a = make_conv(rng, random_int8(rng, {1, 9, 7, 20}), 24, 3, 1, -3);
  ch.b = make_conv(rng, ch.a.golden(), 19, 3, 2, ch.a.plans[0].zero_point);
  ch.c = make_conv(rng, random_int8(rng, {1, 8, 8, 32}), 32, 1, 2, 5);
  ch.pa = compile_conv2d(ch.a.input, ch.a.filter, ch.a.bias, ch.a.params, ch.a.plans);
  CompileOptions ob;
  ob.dram_base = page_after(ch.pa);
  ob.input_addr = ch.pa.output.byte_addr;
  ob.load_start = b_start;
  // B never reads its own input bytes: give the compiler a decoy of the same shape.
  ch.pb = compile_conv2d(random_int8(rng, ch.b.input.shape()), ch.b.filter, ch.b.bias, ch.b.params, ch.b.plans, ob);
  CompileOptions oc;
  oc.dram_base = page_after(ch.pb);
  oc.load_start = c_start;
  ch.pc = compile_conv2d(ch.c.input, ch.c.filter, ch.c.bias, ch.c.params, ch.c.plans, oc);
  ch.stream = link_stream({&ch.pa, &ch.pb, &ch.pc});
  ch.dram = image_of({&ch.pa, &ch.pb, &ch.pc});
  return ch;
}

// A seeded stream of 2..4 CONV_2D programs with random shapes, kernels,
// strides, thread counts and (sometimes) shrunken buffers: the first from
// the host, each later one either on the previous layer's output in DRAM
// (LoadStart::kWeightsFirst) or on a host input of its own (kAtOnce).
struct RandomStream {
  std::vector<Conv> convs;  // each layer's input: the golden chain's
  std::vector<CompiledProgram> programs;
  std::vector<Insn> stream;
  std::vector<uint8_t> dram;
  std::string text;
  std::vector<const CompiledProgram*> program_ptrs() const {
    std::vector<const CompiledProgram*> r;
    for (const CompiledProgram& p : programs) r.push_back(&p);
    return r;
  }
  std::vector<const Conv*> conv_ptrs() const {
    std::vector<const Conv*> r;
    for (const Conv& c : convs) r.push_back(&c);
    return r;
  }
};

inline RandomStream random_stream(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto any = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  RandomStream r;
  const int n = any(2, 4);
  r.programs.reserve(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    const bool chained = k > 0 && any(0, 2) > 0;
    const int64_t kernel = any(0, 1) == 0 ? 1 : 3, stride = any(1, 2), o = any(1, 40);
    CompileOptions opt;
    opt.threads = any(1, 2);
    if (any(0, 3) == 0) {  // shrunken buffers: several tiles and weight groups
      opt.inp_depth = static_cast<uint32_t>(any(100, 400));
      opt.acc_depth = static_cast<uint32_t>(any(200, 600));
      opt.wgt_depth = static_cast<uint32_t>(any(30, 200));
    }
    Tensor input;
    int32_t zp = 0;
    if (chained) {
      input = r.convs.back().golden();
      zp = r.convs.back().plans[0].zero_point;
      opt.input_addr = r.programs.back().output.byte_addr;
      opt.load_start = CompileOptions::LoadStart::kWeightsFirst;
    } else {
      input = random_int8(rng, {1, any(3, 12), any(3, 12), any(1, 40)});
      zp = any(-128, 127);
      if (k > 0) opt.load_start = CompileOptions::LoadStart::kAtOnce;
    }
    if (k > 0) opt.dram_base = page_after(r.programs.back());
    r.convs.push_back(make_conv(rng, input, o, kernel, static_cast<int>(stride), zp));
    const Conv& c = r.convs.back();
    r.programs.push_back(compile_conv2d(c.input, c.filter, c.bias, c.params, c.plans, opt));
    r.text += (r.text.empty() ? "" : " | ") + std::string(chained ? "dram " : "host ") +
              std::to_string(input.dim(1)) + "x" + std::to_string(input.dim(2)) + "x" + std::to_string(input.dim(3)) +
              " -> " + std::to_string(o) + " k" + std::to_string(kernel) + " s" + std::to_string(stride) + " t" +
              std::to_string(opt.threads) + (opt.inp_depth < kInpDepth ? " small" : "");
  }
  r.stream = link_stream(r.program_ptrs());
  r.dram = image_of(r.program_ptrs());
  return r;
}

// Every program's output in `dram` against its layer's golden output.
inline ::testing::AssertionResult outputs_match(const std::vector<const CompiledProgram*>& programs,
                                                const std::vector<const Conv*>& convs,
                                                const std::vector<uint8_t>& dram) {
  for (std::size_t k = 0; k < programs.size(); ++k) {
    const Tensor got = programs[k]->extract_output(dram), want = convs[k]->golden();
    if (!(got == want)) return ::testing::AssertionFailure() << "layer " << k << ": " << first_difference(got, want);
  }
  return ::testing::AssertionSuccess();
}

// Puts the encoded `stream` on the page after the image; returns its address.
inline uint64_t append_stream(std::vector<uint8_t>& dram, const std::vector<Insn>& stream) {
  const std::vector<uint8_t> bytes = to_bytes(stream);
  const uint64_t addr = (dram.size() + 4095) / 4096 * 4096;
  dram.resize(addr, 0);
  dram.insert(dram.end(), bytes.begin(), bytes.end());
  return addr;
}

}  // namespace cosim::vta::testutil
