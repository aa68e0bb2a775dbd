// Shared helpers of the VTA compiler tests: random tensors, running a
// compiled program on the functional model (first-in-stream order and
// seeded random engine orders), and static token accounting.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tensor/tensor.hpp"
#include "vta/functional_model.hpp"
#include "vta/compiler/compiled_program.hpp"

namespace cosim::vta::testutil {

inline Tensor random_int8(std::mt19937_64& rng, const std::vector<int64_t>& shape, int lo = -128, int hi = 127) {
  Tensor t(DType::kInt8, shape, Layout::kNHWC);
  std::uniform_int_distribution<int> d(lo, hi);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<int8_t>()[i] = static_cast<int8_t>(d(rng));
  return t;
}

inline Tensor random_int32(std::mt19937_64& rng, int64_t n, int32_t lo, int32_t hi) {
  Tensor t(DType::kInt32, {n});
  std::uniform_int_distribution<int32_t> d(lo, hi);
  for (int64_t i = 0; i < n; ++i) t.data<int32_t>()[i] = d(rng);
  return t;
}

// Counts of pushes and pops per token queue, from the dependency flags and
// the engine each instruction runs on.
struct TokenBalance {
  std::array<int64_t, 4> pushes{}, pops{};
};

// The queue each dependency flag of an engine's instruction names, in the
// order pop_prev, pop_next, push_prev, push_next; none for a flag the engine
// ignores (spec: LOAD uses only its next flags, STORE only its prev flags).
inline std::array<std::optional<Queue>, 4> flag_queues(Engine e) {
  switch (e) {
    case Engine::kLoad:
      return {std::nullopt, Queue::kComputeToLoad, std::nullopt, Queue::kLoadToCompute};
    case Engine::kCompute:
      return {Queue::kLoadToCompute, Queue::kStoreToCompute, Queue::kComputeToLoad, Queue::kComputeToStore};
    case Engine::kStore:
      return {Queue::kComputeToStore, std::nullopt, Queue::kStoreToCompute, std::nullopt};
  }
  return {};
}

inline TokenBalance token_balance(const std::vector<Insn>& insns) {
  TokenBalance b;
  for (const Insn& insn : insns) {
    const DepFlags& d = dep_of(insn);
    const bool set[4] = {d.pop_prev, d.pop_next, d.push_prev, d.push_next};
    const auto queues = flag_queues(engine_of(insn));
    for (std::size_t f = 0; f < 4; ++f) {
      std::array<int64_t, 4>& count = f < 2 ? b.pops : b.pushes;  // the pop flags come first
      if (set[f] && queues[f]) ++count[static_cast<int>(*queues[f])];
    }
  }
  return b;
}

struct RunResult {
  Tensor output;
  ModelStats stats;
  std::vector<uint8_t> dram;
};

// Runs the program from its DRAM image (fetching the stream like the core).
inline RunResult run_compiled(const CompiledProgram& cp, uint64_t schedule_seed = 0) {
  RunResult r;
  r.dram = cp.raw().dram;  // from address 0
  ModelOptions opt;
  opt.schedule_seed = schedule_seed;
  r.stats = run_model(r.dram, cp.insn_addr, cp.insn_count, opt);
  r.output = cp.extract_output(r.dram);
  return r;
}

// First differing element of two int8 tensors of the same shape, as text.
inline std::string first_difference(const Tensor& got, const Tensor& want) {
  if (got.shape() != want.shape()) return "shape differs";
  const int8_t* a = got.data<int8_t>();
  const int8_t* b = want.data<int8_t>();
  int64_t count = 0, first = -1;
  for (int64_t i = 0; i < got.numel(); ++i)
    if (a[i] != b[i]) {
      if (first < 0) first = i;
      ++count;
    }
  if (first < 0) return "equal";
  std::ostringstream os;
  os << count << " of " << got.numel() << " elements differ; first at flat index " << first << ": got "
     << int(a[first]) << " want " << int(b[first]);
  return os.str();
}

}  // namespace cosim::vta::testutil
