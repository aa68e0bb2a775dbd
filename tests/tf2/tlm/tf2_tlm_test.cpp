// The TF2 RTL through the whole TLM path (trace player -> register target ->
// Tf2Wrapper -> TimedAxiSlave -> TLM memory bridge -> DRAM target) against
// the golden model. SystemC elaborates once per process, so every
// simulation runs in a forked child; each child plays several layers in one
// trace (load image, program, start, wait_done, check; repeated), under its
// own random DRAM latency, bandwidth, stalls and quantum.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <sstream>

#include "common/error.hpp"
#include "dut/tf2_regs.hpp"
#include "scoreboard/scoreboard.hpp"
#include "support/child.hpp"  // in_child(): fork, run, JSON back
#include "support/scratch_dir.hpp"
#include "tf2/tf2_wrapper.hpp"
#include "tf2/tf2_rtl_util.hpp"
#include "tlm/simulation.hpp"

namespace cosim::tf2 {
namespace {

using nlohmann::json;
using test::in_child;
namespace reg = tf2::regs;  // generated from rtl/tf2/tf2.yaml

// Where a run's mem_dump steps would write, taken before the fork so that
// the children share their parent's folder.
std::string dump_dir() { return test::scratch_dir("tf2_tlm_test"); }

// The wrapper over tf2_rtl (cosim_tf2_core_tf2_rtl), the product's checked build.
tb::tf2::Tf2Builds test_builds() { return {&tb::tf2::Tf2CoreOver<Vtf2_rtl>::build(), nullptr}; }

struct Job {
  std::vector<ConvLayer> layers;
  std::vector<int8_t> input;
  std::string what;
};

// One run of a job: image, registers, start, wait, one check per layer output.
void append_job(trace::Trace& t, const Job& j, std::size_t index, uint64_t budget, bool start = true) {
  const Program p = compile(j.layers, j.input);
  const std::vector<std::vector<uint8_t>> expect = expected_outputs(j.layers, j.input);
  t.mem_load(0, p.dram, "image" + std::to_string(index));
  t.reg_write(reg::kDescAddr, p.desc_addr);
  t.reg_write(reg::kDescCount, p.desc_count);
  if (start) t.reg_write(reg::kCtrl, reg::ctrl::kStartMask);
  t.wait_done(budget);
  for (std::size_t l = 0; l < j.layers.size(); ++l) {
    Tensor e(DType::kInt8, {static_cast<int64_t>(expect[l].size())});
    e.bytes() = expect[l];
    t.mem_check(p.layers[l].out_addr, e, "job" + std::to_string(index) + "_layer" + std::to_string(l));
  }
}

json simulate_jobs(const std::vector<Job>& jobs, const tb::TbConfig& cfg, uint64_t budget = 2'000'000) {
  const std::string out_dir = dump_dir();
  return in_child([&] {
    trace::Trace t;
    t.target = "tf2";
    for (std::size_t i = 0; i < jobs.size(); ++i) append_job(t, jobs[i], i, budget);
    tb::WriteLog log;
    const tb::SimOutcome out = tb::simulate(
        t, cfg, [](const char* n, const tb::TbConfig& c) { return std::make_unique<tb::tf2::Tf2Wrapper>(n, c, test_builds()); },
        out_dir, &log);
    json r;
    r["cycles"] = out.cycles;
    r["perf"] = out.perf;
    r["errors"] = out.dut_errors;
    r["checks"] = out.play.checks.size();
    json bad = json::array();
    for (const auto& c : out.play.checks) {
      tb::CompareOptions o;
      o.name = c.desc.name;
      o.base_addr = c.base_addr;
      o.log = &log;
      const tb::Comparison cmp = tb::compare(c.expected, c.actual, o);
      if (cmp.mismatches > 0) {
        std::ostringstream s;
        s << cmp.name << ": " << cmp.mismatches << " mismatches, first at byte " << cmp.first[0].index[0]
          << " expected " << cmp.first[0].expected << " got " << cmp.first[0].actual;
        bad.push_back(s.str());
      }
    }
    r["mismatches"] = bad;
    return r;
  });
}

tb::TbConfig random_cfg(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  tb::TbConfig c;
  c.seed = seed;
  c.dram_latency = static_cast<uint32_t>(uni(0, 60));
  const uint32_t bw[] = {4, 8, 16, 32};
  c.bytes_per_cycle = bw[uni(0, 3)];
  c.stall_probability = uni(0, 3) * 0.1;
  c.max_stall_cycles = static_cast<uint32_t>(uni(1, 24));
  c.quantum_cycles = static_cast<uint64_t>(uni(1, 5000));
  c.dmi = uni(0, 1) == 1;
  return c;
}

std::string cfg_text(const tb::TbConfig& c) {
  std::ostringstream s;
  s << "latency " << c.dram_latency << " bytes/cycle " << c.bytes_per_cycle << " stall " << c.stall_probability
    << " quantum " << c.quantum_cycles << " dmi " << c.dmi;
  return s.str();
}

void expect_clean(const json& r, const std::string& ctx) {
  ASSERT_FALSE(r.contains("child_error")) << ctx << ": " << r.dump();
  ASSERT_FALSE(r.contains("exception")) << ctx << ": " << r.dump();
  EXPECT_TRUE(r["mismatches"].empty()) << ctx << ": " << r["mismatches"].dump();
  EXPECT_TRUE(r["errors"].empty()) << ctx << ": " << r["errors"].dump();
}

// 10 simulations x 10 random layers: kernels 1/3/5, stride 1/2, channel
// counts that are mostly not multiples of 16, batch-norm on/off, ReLU on/off.
TEST(Tf2Tlm, HundredRandomLayersBitExact) {
  constexpr int kSims = 10, kPerSim = 10;
  int k_seen[6] = {}, s_seen[3] = {}, bn_seen[2] = {}, odd_c = 0;
  for (int s = 0; s < kSims; ++s) {
    std::vector<Job> jobs;
    std::string list;
    for (int j = 0; j < kPerSim; ++j) {
      const int i = s * kPerSim + j;
      const SweepCase c = sweep_case(i, 2024, 40, 10);
      const ConvLayer L = random_layer(c.shape, c.seed);
      ++k_seen[L.k];
      ++s_seen[L.stride];
      ++bn_seen[L.batch_norm];
      if (L.c_in % 16 != 0 || L.c_out % 16 != 0) ++odd_c;
      jobs.push_back({{L}, random_input(L.c_in, L.h_in, L.w_in, c.seed), describe(c)});
      list += "\n  job" + std::to_string(j) + ": " + describe(c);
    }
    const tb::TbConfig cfg = random_cfg(900 + static_cast<uint64_t>(s));
    const json r = simulate_jobs(jobs, cfg);
    expect_clean(r, "simulation " + std::to_string(s) + " (" + cfg_text(cfg) + ")" + list);
    EXPECT_EQ(r["checks"].get<int>(), kPerSim);
    EXPECT_EQ(r["perf"]["runs"].get<int>(), kPerSim);
  }
  EXPECT_GT(k_seen[1], 0);
  EXPECT_GT(k_seen[3], 0);
  EXPECT_GT(k_seen[5], 0);
  EXPECT_GT(s_seen[1], 0);
  EXPECT_GT(s_seen[2], 0);
  EXPECT_GT(bn_seen[0], 0);
  EXPECT_GT(bn_seen[1], 0);
  EXPECT_GT(odd_c, 50);
}

// Residual layers, ResNet blocks and multi-layer chains through TLM.
TEST(Tf2Tlm, ResidualBlocksAndChainsBitExact) {
  std::vector<Job> jobs;
  for (int i = 0; i < 6; ++i) {
    const SweepCase c = residual_case(i, 77, 36, 9);
    const ConvLayer L = residual_layer(c);
    jobs.push_back({{L}, random_input(L.c_in, L.h_in, L.w_in, c.seed), "residual " + describe(c)});
  }
  for (int i = 0; i < 3; ++i) {  // conv+ReLU, conv, + input, ReLU
    const SweepCase c = residual_case(i + 1, 78, 36, 9);
    RandomLayerShape s1 = c.shape;
    s1.relu = true;
    ConvLayer l1 = random_layer(s1, c.seed);
    ConvLayer l2 = random_layer(c.shape, c.seed + 1);
    set_input_q(l2, l1.output_q());
    set_output_q(l2, l1.input_q());
    l2.relu = true;
    l2.residual_from = kResidualFromInput;
    jobs.push_back({{l1, l2}, random_input(l1.c_in, l1.h_in, l1.w_in, c.seed), "block " + describe(c)});
  }
  jobs.push_back({random_chain({{3, 20, 9, 9, 3, 1, 1, true, true}, {20, 17, 9, 9, 5, 2, 2, false, true},
                                {17, 9, 5, 5, 1, 1, 0, true, false}}, 21),
                  random_input(3, 9, 9, 21),
                  "chain"});
  for (uint64_t seed : {31u, 32u}) {
    const tb::TbConfig cfg = random_cfg(seed);
    const json r = simulate_jobs(jobs, cfg);
    expect_clean(r, cfg_text(cfg));
    EXPECT_EQ(r["checks"].get<int>(), 6 + 3 * 2 + 3);
  }
}

// Same seed = same cycles; DMI and the quantum change nothing; the PE busy
// count (a property of the layer, not of the memory) equals the bare
// harness's PE_BUSY register; busy cycles bound it.
TEST(Tf2Tlm, CyclesDeterministicAndCountersConsistent) {
  const ConvLayer L = random_layer({24, 20, 8, 8, 3, 1, 1, true, true}, 5);
  const std::vector<int8_t> in = random_input(24, 8, 8, 5);
  const std::vector<Job> jobs = {{{L}, in, "layer"}};
  tb::TbConfig a;
  a.dram_latency = 25;
  a.stall_probability = 0.2;
  a.seed = 11;
  tb::TbConfig b = a;
  b.dmi = false;
  b.quantum_cycles = 7;
  const json ra = simulate_jobs(jobs, a), ra2 = simulate_jobs(jobs, a), rb = simulate_jobs(jobs, b);
  expect_clean(ra, "a");
  expect_clean(rb, "b");
  EXPECT_EQ(ra["cycles"], ra2["cycles"]);
  EXPECT_EQ(ra["cycles"], rb["cycles"]);
  EXPECT_EQ(ra["perf"], rb["perf"]);
  tb::TbConfig slow = a;
  slow.dram_latency = 80;
  const json rs = simulate_jobs(jobs, slow);
  EXPECT_GT(rs["cycles"].get<uint64_t>(), ra["cycles"].get<uint64_t>());

  Program p = compile({L}, in);
  tb::tf2::Tf2Bare bare(p.dram);
  const tb::tf2::Tf2RunResult br = bare.run(p);
  const json& perf = ra["perf"];
  EXPECT_EQ(perf["pe_busy_cycles"].get<uint64_t>(), br.pe_busy);
  EXPECT_GT(perf["pe_busy_cycles"].get<uint64_t>(), 0u);
  EXPECT_LE(perf["pe_busy_cycles"].get<uint64_t>(), perf["busy_cycles"].get<uint64_t>());
  EXPECT_LT(perf["busy_cycles"].get<uint64_t>(), ra["cycles"].get<uint64_t>());
  // 24 input channels -> 2 channel groups, 9 taps in 3 tap slots, 8x8 output
  // pixels in 13 blocks of 5 (blocks run on across rows): 2 * 3 * 13 = 78
  // beats per output group; 20 output channels -> 2 groups of 16 PEs.
  EXPECT_EQ(perf["pe_busy_cycles"].get<uint64_t>(), 2u * 78u);
  EXPECT_EQ(perf["cfg_n_pe"].get<int>(), 16);
  EXPECT_EQ(perf["cfg_ocol3d"].get<int>(), 5);
  EXPECT_EQ(perf["cfg_ktap"].get<int>(), 3);
  EXPECT_EQ(perf["cfg_ocol2d"].get<int>(), 7);
}

json timeout_run(bool start, uint64_t budget) {
  const std::string out_dir = dump_dir();
  return in_child([&] {
    const ConvLayer L = random_layer({16, 16, 8, 8, 3, 1, 1, true, false}, 6);
    trace::Trace t;
    t.target = "tf2";
    append_job(t, {{L}, random_input(16, 8, 8, 6), "x"}, 0, budget, start);
    tb::TbConfig cfg;
    try {
      tb::simulate(t, cfg, [](const char* n, const tb::TbConfig& c) { return std::make_unique<tb::tf2::Tf2Wrapper>(n, c, test_builds()); },
                   out_dir);
    } catch (const TimeoutError& e) {
      return json{{"timeout", e.what()}};
    }
    return json{{"finished", true}};
  });
}

TEST(Tf2Tlm, TimeoutDiagnosisNamesTheStates) {
  const json never = timeout_run(false, 3000);
  ASSERT_TRUE(never.contains("timeout")) << never.dump();
  const std::string a = never["timeout"];
  EXPECT_NE(a.find("StIdle"), std::string::npos) << a;
  EXPECT_NE(a.find("start bit was never written"), std::string::npos) << a;
  const json cut = timeout_run(true, 200);
  ASSERT_TRUE(cut.contains("timeout")) << cut.dump();
  const std::string b = cut["timeout"];
  EXPECT_NE(b.find("controller in St"), std::string::npos) << b;
  EXPECT_EQ(b.find("never written"), std::string::npos) << b;
  EXPECT_NE(b.find("filter loader"), std::string::npos) << b;
  EXPECT_NE(b.find("writer"), std::string::npos) << b;
}

// An engine error (a 1111 weight code) is a DUT error of the run, not a hang.
TEST(Tf2Tlm, EngineErrorIsReported) {
  const std::string out_dir = dump_dir();
  const json r = in_child([&] {
    const ConvLayer L = random_layer({4, 4, 5, 5, 3, 1, 1, true, false}, 8);
    Program p = compile({L}, random_input(4, 5, 5, 8));
    p.dram[p.layers[0].weight_addr + 16] |= 0x0F;  // first code (after the record's parameters) becomes 1111
    trace::Trace t;
    t.target = "tf2";
    t.mem_load(0, p.dram, "image");
    t.reg_write(reg::kDescAddr, p.desc_addr);
    t.reg_write(reg::kDescCount, 1);
    t.reg_write(reg::kCtrl, reg::ctrl::kStartMask);
    t.wait_done(100000);
    const tb::SimOutcome out =
        tb::simulate(t, tb::TbConfig{}, [](const char* n, const tb::TbConfig& c) { return std::make_unique<tb::tf2::Tf2Wrapper>(n, c, test_builds()); },
                     out_dir);
    return json{{"errors", out.dut_errors}};
  });
  ASSERT_TRUE(r.contains("errors")) << r.dump();
  ASSERT_EQ(r["errors"].size(), 1u) << r.dump();
  EXPECT_NE(r["errors"][0].get<std::string>().find("weight code 1111"), std::string::npos) << r.dump();
}

}  // namespace
}  // namespace cosim::tf2
