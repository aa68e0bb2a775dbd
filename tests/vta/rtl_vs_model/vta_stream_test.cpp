// Compiled programs linked into one instruction stream on the Verilated core
// (bare clock loop), under a few memory behaviours: a CONV_2D reading the
// previous program's output in DRAM (its input loads wait for COMPUTE's
// start) and one with a host input (loading at once), each output equal to
// the VTA golden convolution (tests/vta/compiler/stream_chain.hpp).
#include <gtest/gtest.h>

#include <cstdlib>

#include "vta/compiler/stream_chain.hpp"
#include "vta/core/bare_driver.hpp"

namespace cosim::vta {
namespace {

using tb::vta::BareDriver;
using tb::vta::BareOptions;
using tb::vta::RtlRunResult;

TEST(VtaStreamOnTheCore, LinkedProgramsMatchTheGolden) {
  using LoadStart = CompileOptions::LoadStart;
  const testutil::Chain ch = testutil::make_chain(LoadStart::kWeightsFirst, LoadStart::kAtOnce);
  for (int variant = 0; variant < 3; ++variant) {
    BareOptions o;
    o.seed = static_cast<uint64_t>(variant + 1);
    if (variant == 1) o.read_latency = 9;
    if (variant == 2) o.stall_probability = 0.2, o.bytes_per_cycle = 8;
    std::vector<uint8_t> dram = ch.dram;
    const uint64_t insn_addr = testutil::append_stream(dram, ch.stream);
    BareDriver drv(dram, o);
    const RtlRunResult r = drv.run(insn_addr, static_cast<uint32_t>(ch.stream.size()), 2'000'000);
    ASSERT_EQ(r.status, RtlRunResult::Status::kDone) << "variant " << variant << ": " << r.diagnosis;
    EXPECT_TRUE(drv.axi_protocol_errors().empty());
    EXPECT_TRUE(testutil::outputs_match(ch.programs(), ch.convs(), dram)) << "variant " << variant;
  }
}

// Random streams (stream_chain.hpp) on the core, under memories with and
// without latency and stalls; VTA_STREAM_RTL_SWEEP sets the count.
TEST(VtaStreamOnTheCore, RandomStreamsMatchTheGoldenChain) {
  const int streams = std::getenv("VTA_STREAM_RTL_SWEEP") ? std::atoi(std::getenv("VTA_STREAM_RTL_SWEEP")) : 8;
  for (int i = 0; i < streams; ++i) {
    const testutil::RandomStream r = testutil::random_stream(9000 + static_cast<uint64_t>(i));
    SCOPED_TRACE(r.text);
    BareOptions o;
    o.seed = static_cast<uint64_t>(i + 1);
    o.read_latency = static_cast<uint32_t>(i % 3 * 8);
    o.stall_probability = i % 2 == 0 ? 0.0 : 0.15;
    std::vector<uint8_t> dram = r.dram;
    const uint64_t insn_addr = testutil::append_stream(dram, r.stream);
    BareDriver drv(dram, o);
    const RtlRunResult res = drv.run(insn_addr, static_cast<uint32_t>(r.stream.size()), 5'000'000);
    ASSERT_EQ(res.status, RtlRunResult::Status::kDone) << res.diagnosis;
    EXPECT_TRUE(drv.axi_protocol_errors().empty());
    EXPECT_TRUE(testutil::outputs_match(r.program_ptrs(), r.conv_ptrs(), dram));
  }
}

}  // namespace
}  // namespace cosim::vta
