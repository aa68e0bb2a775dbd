// Three compiled CONV_2D programs linked into one stream, for the stream
// tests on the functional model (program_stream_test.cpp) and on the core
// (tests/vta_cosim/vta_stream_test.cpp): A from the host, B reading A's
// output in DRAM, C (another host input) after B. The expected outputs are
// the VTA golden convolutions, one after the other.
#pragma once

#include <random>
#include <utility>
#include <vector>

#include "compiler_test_util.hpp"
#include "ops/vta_conv2d.hpp"
#include "quant/vta_quant.hpp"
#include "vta_compiler/conv2d_compiler.hpp"
#include "vta_compiler/program_stream.hpp"

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

// Three programs in one image: A from the host, B reading A's output in
// DRAM, C (another host input) after B; the stream after all of them.
struct Chain {
  Conv a, b, c;
  CompiledProgram pa, pb, pc;
  std::vector<Insn> stream;
  std::vector<uint8_t> dram;
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
  ch.dram = ch.pa.raw().dram;
  for (const CompiledProgram* p : {&ch.pb, &ch.pc}) {
    ch.dram.resize(p->image_base, 0);
    ch.dram.insert(ch.dram.end(), p->dram.begin(), p->dram.end());
  }
  return ch;
}

}  // namespace cosim::vta::testutil
