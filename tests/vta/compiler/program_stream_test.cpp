// Compiled programs linked into one instruction stream
// (vta_compiler/program_stream.hpp) on the functional model, in stream order
// and in seeded random engine orders (stream_chain.hpp: a CONV_2D that reads
// the previous program's output in DRAM, one whose input came from the
// host), and the start options of the LOAD engine those use.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>

#include "stream_chain.hpp"
#include "vta/functional_model.hpp"
#include "vta/compiler/add_compiler.hpp"

namespace cosim::vta {
namespace {

using testutil::Chain;
using testutil::Conv;
using testutil::make_chain;
using testutil::make_conv;
using testutil::random_int8;
using LoadStart = CompileOptions::LoadStart;

TEST(ProgramStream, ChainedAndHostInputLayersRunAsOneStream) {
  const Chain ch = make_chain(LoadStart::kWeightsFirst, LoadStart::kAtOnce);
  const std::size_t na = ch.pa.insns.size(), nb = ch.pb.insns.size(), nc = ch.pc.insns.size();
  ASSERT_EQ(ch.stream.size(), na + nb + nc);
  // The FINISH of A and of B became COMPUTE no-ops with the same pops; C's stays.
  for (const auto& [at, p] : {std::pair{na - 1, &ch.pa}, std::pair{na + nb - 1, &ch.pb}}) {
    const auto* sync = std::get_if<MemInsn>(&ch.stream[at]);
    ASSERT_NE(sync, nullptr) << at;
    EXPECT_EQ(engine_of(ch.stream[at]), Engine::kCompute);
    EXPECT_EQ(sync->x_size, 0);
    EXPECT_TRUE(sync->dep == dep_of(p->insns.back()));
    EXPECT_TRUE(dep_of(p->insns.back()).pop_prev && dep_of(p->insns.back()).pop_next);
  }
  EXPECT_EQ(opcode_of(ch.stream.back()), Opcode::kFinish);
  const testutil::TokenBalance bal = testutil::token_balance(ch.stream);
  EXPECT_EQ(bal.pushes, bal.pops);
  for (uint64_t seed = 0; seed < 24; ++seed) {
    std::vector<uint8_t> dram = ch.dram;
    ModelOptions mo;
    mo.schedule_seed = seed;
    const ModelStats st = run_model(ch.stream, dram, mo);
    EXPECT_EQ(st.finishes, 1u);
    EXPECT_TRUE(testutil::outputs_match(ch.programs(), ch.convs(), dram)) << "seed " << seed;
  }
}

// Random streams (stream_chain.hpp) in four engine orders each, every
// layer's output against the golden chain. VTA_STREAM_SWEEP sets the count.
TEST(ProgramStream, RandomStreamsMatchTheGoldenChain) {
  const int streams = std::getenv("VTA_STREAM_SWEEP") ? std::atoi(std::getenv("VTA_STREAM_SWEEP")) : 24;
  int layers = 0;
  for (int i = 0; i < streams; ++i) {
    const testutil::RandomStream r = testutil::random_stream(7000 + static_cast<uint64_t>(i));
    SCOPED_TRACE(r.text);
    for (uint64_t order = 0; order < 4; ++order) {
      std::vector<uint8_t> dram = r.dram;
      ModelOptions mo;
      mo.schedule_seed = order;
      run_model(r.stream, dram, mo);
      EXPECT_TRUE(testutil::outputs_match(r.program_ptrs(), r.conv_ptrs(), dram)) << "order " << order;
    }
    layers += static_cast<int>(r.convs.size());
  }
  std::printf("%d random streams, %d layers, matched in 4 engine orders each\n", streams, layers);
}

// The start token is what keeps B's input load behind A's stores: loading
// it at once lets some engine order read A's output before it is written.
TEST(ProgramStream, ChainedInputLoadedAtOnceRacesAheadOfTheStores) {
  const Chain ch = make_chain(LoadStart::kAtOnce, LoadStart::kAtOnce);
  int wrong = 0;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    std::vector<uint8_t> dram = ch.dram;
    ModelOptions mo;
    mo.schedule_seed = seed;
    run_model(ch.stream, dram, mo);
    wrong += ch.pb.extract_output(dram) == ch.b.golden() ? 0 : 1;
  }
  EXPECT_GT(wrong, 0) << "no engine order exposed the race";
}

// Where the LOAD engine takes COMPUTE's start token.
TEST(ProgramStream, LoadStartPlacesTheStartToken) {
  std::mt19937_64 rng(5);
  const Conv c = make_conv(rng, random_int8(rng, {1, 12, 12, 32}), 32, 3, 1, 0);
  auto compile = [&](LoadStart s) {
    CompileOptions o;
    o.load_start = s;
    return compile_conv2d(c.input, c.filter, c.bias, c.params, c.plans, o);
  };
  // The LOAD engine's instructions up to its first INP load.
  auto first_loads = [](const CompiledProgram& p) {
    std::vector<const MemInsn*> r;
    for (const Insn& i : p.insns) {
      if (engine_of(i) != Engine::kLoad) continue;
      r.push_back(&std::get<MemInsn>(i));
      if (r.back()->mem_type == MemType::kInp && r.back()->x_size > 0) break;
    }
    return r;
  };
  const CompiledProgram first = compile(LoadStart::kAfterComputeStart), weights = compile(LoadStart::kWeightsFirst),
                        at_once = compile(LoadStart::kAtOnce);
  EXPECT_TRUE(first_loads(first).front()->dep.pop_next);  // before anything
  const auto w = first_loads(weights);
  ASSERT_GE(w.size(), 2u);
  EXPECT_EQ(w.front()->mem_type, MemType::kWgt);
  for (std::size_t i = 0; i + 1 < w.size(); ++i) EXPECT_FALSE(w[i]->dep.pop_next) << i;
  EXPECT_TRUE(w.back()->dep.pop_next);  // the first input load
  for (const MemInsn* m : first_loads(at_once)) EXPECT_FALSE(m->dep.pop_next);
  // One start token fewer at once, balanced in all three.
  const auto b_first = testutil::token_balance(first.insns), b_at_once = testutil::token_balance(at_once.insns);
  const auto q = static_cast<std::size_t>(Queue::kComputeToLoad);
  EXPECT_EQ(b_first.pushes[q], b_at_once.pushes[q] + 1);
  for (const CompiledProgram* p : {&first, &weights, &at_once}) {
    EXPECT_EQ(why_not_followable(*p), "");
    const auto b = testutil::token_balance(p->insns);
    EXPECT_EQ(b.pushes, b.pops);
    EXPECT_TRUE(testutil::run_compiled(*p).output == c.golden());
  }
}

TEST(ProgramStream, OnlyProgramsThatReleaseTheirBuffersAreFollowed) {
  std::mt19937_64 rng(9);
  const Tensor x = random_int8(rng, {1, 4, 4, 16}), y = random_int8(rng, {1, 4, 4, 16});
  const CompiledProgram add = compile_add(x, y, quant::vta_make_add_params(0.1f, 0, 0.1f, 0, 0.2f, 0));
  // The ADD's last operand LOAD does not wait for its GEMMs.
  EXPECT_EQ(why_not_followable(add), "no compute->load token follows its last GEMM");
  const Conv c = make_conv(rng, random_int8(rng, {1, 6, 6, 16}), 16, 3, 1, 0);
  const CompiledProgram conv = compile_conv2d(c.input, c.filter, c.bias, c.params, c.plans);
  EXPECT_THROW(link_stream({&add, &conv}), std::logic_error);
  EXPECT_EQ(link_stream({&conv, &add}).size(), conv.insns.size() + add.insns.size());  // the last is never followed
  CompiledProgram cut = conv;
  cut.insns.pop_back();
  EXPECT_EQ(why_not_followable(cut), "it does not end with FINISH");
  CompiledProgram extra = conv;
  for (Insn& i : extra.insns)  // a COMPUTE push to STORE nobody pops
    if (engine_of(i) == Engine::kCompute && !dep_of(i).push_next) {
      dep_of(i).push_next = true;
      break;
    }
  EXPECT_EQ(why_not_followable(extra), "it leaves 1 compute->store token(s) unbalanced");
}

}  // namespace
}  // namespace cosim::vta
