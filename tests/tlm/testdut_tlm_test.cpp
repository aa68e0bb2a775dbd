// The whole TLM path on testdut (the build's instance of the accelerator
// template: an int8 saturating vector add, DRAM to DRAM): trace player ->
// register target -> DUT -> AXI slave -> memory bridge -> DRAM target ->
// checks. Cycle counts are exact: independent of DMI and of the quantum, and
// DRAM latency adds exactly its cycles to each non-sequential access.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "common/error.hpp"
#include "dut/testdut_regs.hpp"
#include "scoreboard/scoreboard.hpp"
#include "support/child.hpp"
#include "support/expect_text.hpp"
#include "support/scratch_dir.hpp"
#include "support/same_cycle_configs.hpp"
#include "testdut/testdut_wrapper.hpp"
#include "tlm/simulation.hpp"

class Vtestdut_rtl;  // the template DUT's variant (library cosim_tb_testdut_testdut_rtl)

using cosim::test::expect_contains;
using cosim::test::in_child;
using cosim::tb::TbConfig;
using nlohmann::json;
namespace trace = cosim::trace;

namespace {

// Where a run's mem_dump steps would write, taken before the fork so that
// the children share their parent's folder.
std::string dump_dir() { return cosim::test::scratch_dir("testdut_tlm_test"); }

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
  const std::string out_dir = dump_dir();
  return in_child([&] {
    cosim::tb::WriteLog log;
    const auto out = cosim::tb::simulate(
        t, cfg,
        [](const char* name, const TbConfig& c) { return std::make_unique<cosim::tb::testdut::Wrapper>(name, c, cosim::tb::testdut::Over<Vtestdut_rtl>::build()); },
        out_dir, &log);
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

// Whether a run ended in an exception whose type names KIND ("TimeoutError",
// "InputError"); a failure shows the whole result.
testing::AssertionResult ended_in(const json& r, const std::string& kind) {
  if (!r.contains("exception")) return testing::AssertionFailure() << "no exception: " << r.dump();
  if (r["exception"].get<std::string>().find(kind) == std::string::npos) {
    return testing::AssertionFailure() << "not a " << kind << ": " << r.dump();
  }
  return testing::AssertionSuccess();
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
  const TbConfig a = cfg(20, 0.1);
  const auto [b, c] = cosim::test::same_cycle_configs(a);
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
  const VAdd c{0x1000, 0x20000, 0x40000, 4096};  // A, B, DST, bytes
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
  ASSERT_TRUE(ended_in(r, "TimeoutError"));
  const std::string what = r["what"];
  expect_contains(what, {"did not finish within 300 cycles", "StIdle", "start bit was never written"});
}

TEST(TestDutTlm, SlowDutTimesOutInTheMiddle) {
  VAdd c;
  c.budget = 50;
  const json r = run(vadd_trace(c), cfg(20));
  ASSERT_TRUE(r.contains("exception")) << r.dump();
  const std::string what = r["what"];
  expect_contains(what, {"did not finish within 50 cycles", "stuck in state St"});
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
  ASSERT_TRUE(ended_in(r, "InputError"));
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

// ---- host steps that read (cpp_model/trace/README.md: reg_check, reg_poll,
// wait_irq). Register map of testdut (templates/dut manifest): CONTROL 0x00
// (bit 0 start, reads 1 while busy; bit 1 done), LENGTH 0x08.

namespace {

// Plays `t` and returns what the player kept: its register checks (value,
// held, text), the data checks' mismatches, the cycle count, or the error.
json play(const trace::Trace& t, const TbConfig& c) {
  // Built before the simulation: no temporary of this frame is destroyed
  // while an error thrown in a SystemC thread unwinds (under ASan, whose
  // stack bookkeeping SystemC's thread switches confuse).
  const std::string out_dir = dump_dir();
  const cosim::tb::DutFactory make = [](const char* name, const TbConfig& k) {
    return std::make_unique<cosim::tb::testdut::Wrapper>(name, k, cosim::tb::testdut::Over<Vtestdut_rtl>::build());
  };
  return in_child([&] {
    const auto out = cosim::tb::simulate(t, c, make, out_dir);
    json j;
    j["cycles"] = out.cycles;
    j["done_cycles"] = out.play.done_cycles;
    int64_t mism = 0;
    for (const auto& ch : out.play.checks) {
      cosim::tb::CompareOptions o;
      o.name = ch.desc.name;
      mism += cosim::tb::compare(ch.expected, ch.actual, o).mismatches;
    }
    j["checks"] = out.play.checks.size();
    j["mismatches"] = mism;
    j["regs"] = json::array();
    for (const auto& r : out.play.reg_checks) {
      j["regs"].push_back({{"name", r.name}, {"offset", r.offset}, {"value", r.value}, {"expected", r.expected},
                           {"mask", r.mask}, {"held", r.held()}, {"text", r.text()}, {"cycle", r.cycle}});
    }
    return j;
  });
}

// The vector add of VAdd{} with wait_done replaced by `wait` (a poll).
trace::Trace vadd_polled(const VAdd& c, const std::function<void(trace::Trace&)>& wait) {
  trace::Trace t = vadd_trace(c);
  trace::Trace out;
  out.target = t.target;
  for (const trace::Step& s : t.steps) {
    if (s.op == trace::Op::kWaitDone) wait(out);
    else out.steps.push_back(s);
  }
  return out;
}

}  // namespace

TEST(TestDutTlmRegRead, RegCheckThatHoldsReadsBackTheRegister) {
  trace::Trace t;
  t.target = "testdut";
  t.reg_write(0x08, 0x12c0);                     // LENGTH = 4800
  t.reg_check(0x08, 0x12c0, 0xffffffff, "LENGTH");
  t.reg_check(0x08, 0xffff12c0, 0x0000ffff, "LENGTH.low");  // only the masked bits compare
  t.reg_check(0x00, 0x0, 0x3, "CONTROL");        // never started: not busy, not done
  const json r = play(t, cfg());
  ASSERT_FALSE(r.contains("exception")) << r.dump();
  ASSERT_EQ(r["regs"].size(), 3u) << r.dump();
  EXPECT_EQ(r["regs"][0]["value"], 0x12c0);
  EXPECT_TRUE(r["regs"][0]["held"]);
  EXPECT_EQ(r["regs"][0]["name"], "LENGTH");
  EXPECT_EQ(r["regs"][0]["offset"], 0x8);
  EXPECT_TRUE(r["regs"][1]["held"]);
  EXPECT_EQ(r["regs"][2]["value"], 0);
  EXPECT_TRUE(r["regs"][2]["held"]);
  // Each read costs register-port cycles, in order.
  EXPECT_GT(r["regs"][0]["cycle"].get<uint64_t>(), 0u);
  EXPECT_LT(r["regs"][0]["cycle"].get<uint64_t>(), r["regs"][1]["cycle"].get<uint64_t>());
  EXPECT_EQ(r["checks"], 0);  // register checks are their own kind, not tensors
}

TEST(TestDutTlmRegRead, RegCheckWithAWrongValueFailsNamingEverything) {
  trace::Trace t;
  t.target = "testdut";
  t.reg_write(0x08, 0x400);
  t.reg_check(0x08, 0x401, 0xffffffff, "LENGTH");
  t.reg_check(0x08, 0x400, 0xffffffff, "LENGTH");  // the run goes on after a failing check
  const json r = play(t, cfg());
  ASSERT_FALSE(r.contains("exception")) << r.dump();
  ASSERT_EQ(r["regs"].size(), 2u) << r.dump();
  EXPECT_FALSE(r["regs"][0]["held"]);
  EXPECT_EQ(r["regs"][0]["value"], 0x400);
  EXPECT_EQ(r["regs"][0]["text"], "register LENGTH (0x8): read 0x00000400, expected 0x00000401 under mask 0xffffffff");
  EXPECT_TRUE(r["regs"][1]["held"]);
}

TEST(TestDutTlmRegRead, PollOnDoneAfterStartFinishesTheAdd) {
  // Reference: the same add waited for with wait_done.
  VAdd c;
  const json ref = play(vadd_trace(c), cfg());
  ASSERT_FALSE(ref.contains("exception")) << ref.dump();
  ASSERT_EQ(ref["mismatches"], 0);
  const uint64_t done_at = ref["done_cycles"];
  const json r = play(vadd_polled(c, [](trace::Trace& t) {
                        t.reg_poll(0x00, 0x2, 0x2, 100000, "CONTROL");  // done
                        t.reg_check(0x00, 0x2, 0x3, "CONTROL");          // done and idle
                      }),
                      cfg());
  ASSERT_FALSE(r.contains("exception")) << r.dump();
  EXPECT_EQ(r["checks"], 1);
  EXPECT_EQ(r["mismatches"], 0);
  ASSERT_EQ(r["regs"].size(), 1u);
  EXPECT_TRUE(r["regs"][0]["held"]) << r["regs"][0]["text"];
  // The poll sees done no earlier than the DUT sets it and a read or two
  // after (back-to-back register accesses cost one cycle each,
  // tb/harness/reg_binder.hpp), then the check's own read: the DUT runs
  // during the reads and nothing idles between them.
  const uint64_t polled = r["regs"][0]["cycle"];
  EXPECT_GT(polled, done_at);
  EXPECT_LE(polled, done_at + 4) << "wait_done saw done at " << done_at;
}

TEST(TestDutTlmRegRead, PollThatNeverMatchesTimesOutWithinItsBound) {
  trace::Trace t;
  t.target = "testdut";
  t.reg_write(0x08, 0x400);
  t.reg_poll(0x00, 0x2, 0x2, 300, "CONTROL");  // done, but the add was never started
  const json r = play(t, cfg());
  ASSERT_TRUE(ended_in(r, "TimeoutError"));
  const std::string what = r["what"];
  // The register, the budget, what was read and expected, and the DUT's diagnosis.
  expect_contains(what, {"register CONTROL (0x0)", "within 300 cycles", "last read 0x00000000",
                         "expected 0x00000002 under mask 0x00000002", "start bit was never written"});
  // Cycles spent: past the budget, by one read (a cycle or two).
  const auto at = what.find(" cycles and ");
  ASSERT_NE(at, std::string::npos) << what;
  const auto begin = what.rfind(' ', at - 1) + 1;
  const uint64_t spent = std::stoull(what.substr(begin, at - begin));
  EXPECT_GT(spent, 300u) << what;
  EXPECT_LE(spent, 302u) << what;
}

TEST(TestDutTlmRegRead, PollWithABitThatIsNeverSetTimesOutAfterTheAdd) {
  // CONTROL bit 2 is never set: the add runs to its end during the poll,
  // and the poll still stops at its bound.
  VAdd c;
  const json r = play(vadd_polled(c, [](trace::Trace& t) { t.reg_poll(0x00, 0x4, 0x4, 20000, "CONTROL"); }), cfg());
  ASSERT_TRUE(ended_in(r, "TimeoutError"));
  const std::string what = r["what"];
  expect_contains(what, {"register CONTROL (0x0) did not match within 20000 cycles",
                         "last read 0x00000002",  // done, idle
                         "expected 0x00000004 under mask 0x00000004"});
}

TEST(TestDutTlmRegRead, WaitIrqOnATargetWithoutAnInterruptIsAnInputError) {
  VAdd c;
  const json r = play(vadd_polled(c, [](trace::Trace& t) { t.wait_irq(100000); }), cfg());
  ASSERT_TRUE(ended_in(r, "InputError"));
  const std::string what = r["what"];
  expect_contains(what, {"wait_irq", "target 'testdut' has no interrupt pin", "irq"});
}
