// The whole TLM path on testdut (the build's instance of the accelerator
// template: an int8 saturating vector add, DRAM to DRAM): trace player ->
// register target -> DUT -> AXI slave -> memory bridge -> DRAM target ->
// checks. Cycle counts are exact: independent of DMI and of the quantum, and
// DRAM latency adds exactly its cycles to each non-sequential access.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.hpp"
#include "dut/testdut_regs.hpp"
#include "scoreboard/scoreboard.hpp"
#include "support/child.hpp"
#include "testdut/testdut_wrapper.hpp"
#include "tlm/simulation.hpp"

using cosim::test::in_child;
using cosim::tb::TbConfig;
using nlohmann::json;
namespace trace = cosim::trace;

namespace {

// One vector add: DST = sat8(A + B), LENGTH bytes each.
struct VAdd {
  uint64_t src = 0x1f80;    // A: 128 bytes below a 4 KiB boundary, the DUT must split bursts
  uint64_t src_b = 0x23f00;  // B: 256 bytes below one
  uint64_t dst = 0x40040;
  uint32_t bytes = 4800;
  bool start = true;
  uint64_t budget = 100000;
};

trace::Trace vadd_trace(const VAdd& c) {
  namespace regs = cosim::testdut::regs;
  std::vector<uint8_t> a(c.bytes), b(c.bytes), sum(c.bytes);
  for (uint32_t i = 0; i < c.bytes; ++i) {
    a[i] = static_cast<uint8_t>(i * 7 + (i >> 8));
    b[i] = static_cast<uint8_t>(i * 13 + 5);
    // The expected sum, saturated to int8, written here from the definition.
    const int s = static_cast<int8_t>(a[i]) + static_cast<int8_t>(b[i]);
    sum[i] = static_cast<uint8_t>(static_cast<int8_t>(s > 127 ? 127 : (s < -128 ? -128 : s)));
  }
  trace::Trace t;
  t.target = "testdut";
  t.mem_load(c.src, a);
  t.mem_load(c.src_b, b);
  t.reg_write(regs::kLength, c.bytes);
  t.reg_write(regs::kSrcA, static_cast<uint32_t>(c.src));
  t.reg_write(regs::kSrcB, static_cast<uint32_t>(c.src_b));
  t.reg_write(regs::kDst, static_cast<uint32_t>(c.dst));
  if (c.start) t.reg_write(regs::kControl, regs::control::kStartMask);
  t.wait_done(c.budget);
  cosim::Tensor expected(cosim::DType::kInt8, {static_cast<int64_t>(c.bytes)});
  expected.bytes() = sum;
  t.mem_check(c.dst, expected, "output");
  return t;
}

json run(const trace::Trace& t, const TbConfig& cfg) {
  return in_child([&] {
    cosim::tb::WriteLog log;
    const auto out = cosim::tb::simulate(
        t, cfg,
        [](const char* name, const TbConfig& c) { return std::make_unique<cosim::tb::testdut::Wrapper>(name, c); },
        std::filesystem::temp_directory_path().string(), &log);
    json j;
    j["cycles"] = out.cycles;
    j["checks"] = out.play.checks.size();
    int64_t mism = 0;
    for (const auto& c : out.play.checks) {
      cosim::tb::CompareOptions o;
      o.name = c.desc.name;
      mism += cosim::tb::compare(c.expected, c.actual, o).mismatches;
    }
    j["mismatches"] = mism;
    j["dmi"] = out.memory.dmi_accesses;
    j["tlm"] = out.memory.tlm_accesses;
    j["read_beats"] = out.perf.at("read_beats");
    j["write_beats"] = out.perf.at("write_beats");
    j["errors"] = out.dut_errors;
    const uint64_t dst = out.play.checks.empty() ? 0 : *out.play.checks[0].base_addr;
    j["first_write"] = log.last_write(dst) ? json(*log.last_write(dst)) : json(nullptr);
    j["last_write"] = log.last_write(dst + 4799) ? json(*log.last_write(dst + 4799)) : json(nullptr);
    j["before_dst"] = log.last_write(dst - 1) ? json(*log.last_write(dst - 1)) : json(nullptr);
    return j;
  });
}

TbConfig cfg(uint32_t latency = 20, double stall = 0.0) {
  TbConfig c;
  c.dram_latency = latency;
  c.stall_probability = stall;
  c.seed = 5;
  return c;
}

}  // namespace

TEST(TestDutTlm, AddsThroughTheWholePath) {
  const json r = run(vadd_trace(VAdd{}), cfg());
  ASSERT_FALSE(r.contains("exception")) << r.dump();
  EXPECT_EQ(r["checks"], 1);
  EXPECT_EQ(r["mismatches"], 0);
  EXPECT_EQ(r["read_beats"], 1200);  // 2 x 4800 bytes / 8
  EXPECT_EQ(r["write_beats"], 600);
  EXPECT_TRUE(r["errors"].empty()) << r["errors"].dump();  // no AXI protocol errors (4 KiB rule kept)
  // The write log knows when each output byte was written, in order.
  ASSERT_FALSE(r["first_write"].is_null());
  ASSERT_FALSE(r["last_write"].is_null());
  EXPECT_LT(r["first_write"].get<uint64_t>(), r["last_write"].get<uint64_t>());
  EXPECT_LE(r["last_write"].get<uint64_t>(), r["cycles"].get<uint64_t>());
  EXPECT_TRUE(r["before_dst"].is_null());
}

TEST(TestDutTlm, CyclesDoNotDependOnDmiOrQuantum) {
  TbConfig a = cfg(20, 0.1);
  TbConfig b = a;
  b.dmi = false;
  b.quantum_cycles = 1;
  TbConfig c = a;
  c.quantum_cycles = 37;
  const json ra = run(vadd_trace(VAdd{}), a);
  const json rb = run(vadd_trace(VAdd{}), b);
  const json rc = run(vadd_trace(VAdd{}), c);
  EXPECT_EQ(ra["mismatches"], 0);
  EXPECT_EQ(rb["mismatches"], 0);
  EXPECT_GT(ra["dmi"].get<uint64_t>(), 0u);
  EXPECT_EQ(rb["dmi"], 0);
  EXPECT_EQ(ra["cycles"], rb["cycles"]);
  EXPECT_EQ(ra["cycles"], rc["cycles"]);
}

TEST(TestDutTlm, SameSeedSameCyclesOtherSeedOtherCycles) {
  TbConfig a = cfg(20, 0.2);
  TbConfig b = a;
  b.seed = 6;
  const json r1 = run(vadd_trace(VAdd{}), a);
  const json r2 = run(vadd_trace(VAdd{}), a);
  const json r3 = run(vadd_trace(VAdd{}), b);
  EXPECT_EQ(r1["cycles"], r2["cycles"]);
  EXPECT_NE(r1["cycles"], r3["cycles"]);
  EXPECT_EQ(r3["mismatches"], 0);
}

TEST(TestDutTlm, DramLatencyAddsExactlyOncePerNonSequentialAccess) {
  // 4 KiB-aligned vectors of 4096 bytes: 32 bursts of 16 beats. Each round
  // reads a burst of A, then one of B (both jumps: latency), then writes a
  // burst to DST (sequential after the first); the DUT waits out each one.
  VAdd c;
  c.src = 0x1000;
  c.src_b = 0x20000;
  c.dst = 0x40000;
  c.bytes = 4096;
  const json fast = run(vadd_trace(c), cfg(0));
  const json slow = run(vadd_trace(c), cfg(50));
  ASSERT_EQ(fast["mismatches"], 0) << fast.dump();
  EXPECT_EQ(slow["cycles"].get<uint64_t>() - fast["cycles"].get<uint64_t>(), 50u * (2 * 32 + 1));
}

TEST(TestDutTlm, NeverStartedDutTimesOutNamingItsState) {
  VAdd c;
  c.start = false;
  c.budget = 300;
  const json r = run(vadd_trace(c), cfg());
  ASSERT_TRUE(r.contains("exception")) << r.dump();
  const std::string what = r["what"];
  EXPECT_NE(r["exception"].get<std::string>().find("TimeoutError"), std::string::npos);
  EXPECT_NE(what.find("did not finish within 300 cycles"), std::string::npos) << what;
  EXPECT_NE(what.find("StIdle"), std::string::npos) << what;
  EXPECT_NE(what.find("start bit was never written"), std::string::npos) << what;
}

TEST(TestDutTlm, SlowDutTimesOutInTheMiddle) {
  VAdd c;
  c.budget = 50;
  const json r = run(vadd_trace(c), cfg(20));
  ASSERT_TRUE(r.contains("exception")) << r.dump();
  const std::string what = r["what"];
  EXPECT_NE(what.find("did not finish within 50 cycles"), std::string::npos) << what;
  EXPECT_NE(what.find("stuck in state St"), std::string::npos) << what;
  EXPECT_EQ(what.find("StIdle"), std::string::npos) << what;
}

TEST(TestDutTlm, AccessOutsideDramIsReported) {
  VAdd c;
  c.dst = (64ull << 20) - 64;  // the result runs off the end of DRAM
  trace::Trace t = vadd_trace(c);
  t.steps.pop_back();  // no check: the region does not exist
  const json r = run(t, cfg());
  ASSERT_FALSE(r.contains("exception")) << r.dump();
  ASSERT_FALSE(r["errors"].empty());
  EXPECT_NE(r["errors"][0].get<std::string>().find("memory access"), std::string::npos) << r["errors"].dump();
}

TEST(TestDutTlm, BadTraceLoadIsAnInputError) {
  VAdd c;
  c.src = (64ull << 20) - 8;  // load runs off the end of DRAM
  const json r = run(vadd_trace(c), cfg());
  ASSERT_TRUE(r.contains("exception"));
  EXPECT_NE(r["exception"].get<std::string>().find("InputError"), std::string::npos);
  EXPECT_NE(r["what"].get<std::string>().find("cannot load 4800 bytes at 0x3fffff8"), std::string::npos) << r["what"];
}

TEST(TestDutTlm, RandomConfigurationsAddExactlyWithOrWithoutDmi) {
  // Sizes, addresses (4 KiB crossings), latency, bandwidth and stalls drawn
  // from a fixed generator; every run must add exactly, keep the AXI rules,
  // and take the same cycles through DMI and through b_transport.
  uint64_t state = 12345;
  auto next = [&state](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  for (int k = 0; k < 12; ++k) {
    VAdd c;
    c.bytes = static_cast<uint32_t>(8 * (1 + next(1024)));
    c.src = 8 * next(1 << 16);
    c.src_b = 0x80000 + 8 * next(1 << 16);
    c.dst = 0x100000 + 8 * next(1 << 16);
    TbConfig a;
    a.dram_latency = static_cast<uint32_t>(next(100));
    a.bytes_per_cycle = static_cast<uint32_t>(1 + next(16));
    a.stall_probability = static_cast<double>(next(50)) / 100.0;
    a.seed = next(1000);
    TbConfig b = a;
    b.dmi = false;
    b.quantum_cycles = 1 + next(100);
    const json ra = run(vadd_trace(c), a);
    const json rb = run(vadd_trace(c), b);
    SCOPED_TRACE("case " + std::to_string(k) + ": " + std::to_string(c.bytes) + " bytes " + std::to_string(c.src) +
                 " + " + std::to_string(c.src_b) + " -> " + std::to_string(c.dst));
    ASSERT_FALSE(ra.contains("exception")) << ra.dump();
    ASSERT_FALSE(rb.contains("exception")) << rb.dump();
    EXPECT_EQ(ra["mismatches"], 0);
    EXPECT_EQ(rb["mismatches"], 0);
    EXPECT_TRUE(ra["errors"].empty()) << ra["errors"].dump();
    EXPECT_EQ(ra["read_beats"], 2 * c.bytes / 8);
    EXPECT_EQ(ra["cycles"], rb["cycles"]);
  }
}
