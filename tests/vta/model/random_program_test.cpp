// Constrained-random programs: they run to FINISH, are race-free (the same
// bytes under any legal engine order), deterministic per seed, and cover the
// instruction cross.
#include <gtest/gtest.h>

#include "vta/disasm.hpp"
#include "vta/functional_model.hpp"
#include "support/vta_random_program.hpp"

namespace cosim::vta {
namespace {

constexpr int kSeeds = 200;

TEST(RandomProgram, SameSeedSameProgram) {
  for (uint64_t seed : {1u, 7u, 99u}) {
    const RandomProgram a = generate_random_program(seed);
    const RandomProgram b = generate_random_program(seed);
    EXPECT_EQ(a.raw.dram, b.raw.dram);
    EXPECT_EQ(a.raw.insn_addr, b.raw.insn_addr);
    ASSERT_EQ(a.insns.size(), b.insns.size());
  }
  EXPECT_NE(generate_random_program(1).raw.dram, generate_random_program(2).raw.dram);
}

TEST(RandomProgram, RunsToFinishAndIsRaceFree) {
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const RandomProgram p = generate_random_program(seed);
    ASSERT_GE(p.insns.size(), 4u);
    // Stream bytes in the image are the encoded instructions.
    const std::vector<uint8_t> bytes = to_bytes(p.insns);
    ASSERT_TRUE(std::equal(bytes.begin(), bytes.end(), p.raw.dram.begin() + p.raw.insn_addr)) << "seed " << seed;
    ASSERT_EQ(p.raw.insn_count, p.insns.size());
    // FINISH is last.
    ASSERT_TRUE(std::holds_alternative<FinishInsn>(p.insns.back())) << "seed " << seed;

    std::vector<uint8_t> ref = p.raw.dram;
    ModelStats st;
    ASSERT_NO_THROW(st = run_model(ref, p.raw.insn_addr, p.raw.insn_count)) << "seed " << seed;
    EXPECT_TRUE(st.finished);
    EXPECT_EQ(st.unexecuted, 0u) << "seed " << seed << ": instructions left after FINISH";
    for (uint64_t sched = 1; sched <= 4; ++sched) {
      std::vector<uint8_t> other = p.raw.dram;
      ModelOptions opt;
      opt.schedule_seed = sched * 7919 + seed;
      ASSERT_NO_THROW(run_model(other, p.raw.insn_addr, p.raw.insn_count, opt)) << "seed " << seed;
      if (other != ref) {
        std::size_t i = 0;
        while (other[i] == ref[i]) ++i;
        FAIL() << "seed " << seed << " schedule " << opt.schedule_seed << ": DRAM differs at byte " << i
               << " (a race between engines); stores there: "
               << ::testing::PrintToString(stores_writing(p.insns, i));
      }
    }
  }
}

TEST(RandomProgram, WritesOnlyTheOutArea) {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const RandomProgram p = generate_random_program(seed);
    std::vector<uint8_t> after = p.raw.dram;
    run_model(after, p.raw.insn_addr, p.raw.insn_count);
    const DramRegion& out = p.regions.at(2);
    ASSERT_EQ(out.name, "out");
    for (std::size_t i = 0; i < after.size(); ++i) {
      if (i >= out.byte_addr && i < out.end()) continue;
      ASSERT_EQ(after[i], p.raw.dram[i]) << "seed " << seed << " byte " << i;
    }
  }
}

TEST(RandomProgram, CoversTheCross) {
  ProgramCoverage cov;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) cov.add(generate_random_program(seed).insns);
  const auto missing = cov.missing();
  EXPECT_TRUE(missing.empty()) << cov.report();
  if (missing.empty()) std::printf("%zu/%zu coverage bins hit over %d seeds\n", cov.covered(), cov.bins(), kSeeds);
}

}  // namespace
}  // namespace cosim::vta
